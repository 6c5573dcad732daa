"""Checks and fixes applied to every page the build writes."""
