"""Benchmarks anyone can rerun: `./run bench <name>` (or `python -m bench <name>`)."""
