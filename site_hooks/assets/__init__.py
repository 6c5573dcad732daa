"""The files the pages load, all made or copied from this repository at build time."""
