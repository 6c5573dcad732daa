"""What authors write in a page (fences, notebooks, the API reference), turned into HTML."""
