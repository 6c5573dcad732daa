"""Run inside Pyodide by devtools/run_in_pyodide.mjs: pytest on the given folder.

Writes /out/summary.json with the ids that passed, failed and were skipped (with reasons),
so the native wrapper test can compare them with the native run.
"""

import json
import sys

import pytest


def reason(report):
    longrepr = report.longrepr
    return str(longrepr[-1] if isinstance(longrepr, tuple) else longrepr)


class Outcomes:
    """Records each test's outcome, by id."""

    def __init__(self):
        self.passed, self.failed, self.skipped = [], [], {}

    def pytest_runtest_logreport(self, report):
        if report.passed and report.when == "call":
            self.passed.append(report.nodeid)
        elif report.failed:
            self.failed.append(report.nodeid)
        elif report.skipped:
            self.skipped[report.nodeid] = reason(report)

    def pytest_collectreport(self, report):
        if report.failed:
            self.failed.append(report.nodeid or "<collection>")
        elif report.skipped:
            self.skipped[report.nodeid] = reason(report)


outcomes = Outcomes()
print("Python", sys.version.split()[0], "on", sys.platform)
code = pytest.main([*sys.argv[1:], "-p", "no:cacheprovider", "--rootdir", "/repo"], plugins=[outcomes])
with open("/out/summary.json", "w") as out:
    json.dump(
        {"exit": int(code), "passed": outcomes.passed, "failed": outcomes.failed, "skipped": outcomes.skipped}, out
    )
sys.exit(int(code))
