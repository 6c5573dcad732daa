"""Helpers shared by the tests, the benchmarks and the site build (not part of the package)."""
