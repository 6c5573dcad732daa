"""The languages of the site: translations checked, switcher, search and 404 per language."""
