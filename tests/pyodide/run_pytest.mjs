// Runs pytest inside Pyodide under Node.js, offline.
//
//   node tests/pyodide/run_pytest.mjs --wheels DIR --tests DIR [--summary FILE] [-- pytest args...]
//
// Every wheel in --wheels (attention_py and the pure-Python test dependencies) is unpacked
// into Pyodide's site-packages; the test folder is copied into Pyodide's file system at the
// same path relative to the repository (so test ids match the native run) and pytest.main
// runs on it. pytest's own output goes to stdout; --summary receives a JSON summary
// ({"exit": n, "passed": [...], "failed": [...], "skipped": {...}}) that the native wrapper
// test reads. The exit code is pytest's.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve, dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(2);
const option = (name, required = true) => {
  const i = args.indexOf(name);
  if (i < 0 || i + 1 >= args.length) {
    if (required) throw new Error(`missing ${name} PATH`);
    return null;
  }
  return resolve(args[i + 1]);
};
const wheelDir = option("--wheels");
const testDir = option("--tests");
const summaryFile = option("--summary", false);
const dash = args.indexOf("--");
const pytestArgs = dash >= 0 ? args.slice(dash + 1) : [];

const pyodideDir = join(root, "node_modules", "pyodide");
const { loadPyodide } = await import(join(pyodideDir, "pyodide.mjs"));
// indexURL and packageBaseUrl both local: without them Pyodide silently falls back to its CDN.
const pyodide = await loadPyodide({
  indexURL: pyodideDir + "/",
  packageBaseUrl: pyodideDir + "/",
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

function copyTree(source, target) {
  pyodide.FS.mkdirTree(target);
  for (const name of readdirSync(source)) {
    if (name === "__pycache__" || name.startsWith(".")) continue;
    const from = join(source, name);
    const to = `${target}/${name}`;
    if (statSync(from).isDirectory()) copyTree(from, to);
    else pyodide.FS.writeFile(to, readFileSync(from));
  }
}

const wheels = readdirSync(wheelDir).filter((name) => name.endsWith(".whl"));
if (!wheels.some((name) => name.startsWith("attention_py-"))) {
  throw new Error(`no attention_py wheel in ${wheelDir}`);
}
pyodide.FS.mkdirTree("/wheels");
for (const name of wheels) pyodide.FS.writeFile(`/wheels/${name}`, readFileSync(join(wheelDir, name)));
const testPath = "/work/" + relative(root, testDir).split("\\").join("/");
copyTree(testDir, testPath);

const summary = await pyodide.runPythonAsync(`
import json, pathlib, site, sys, zipfile

target = site.getsitepackages()[0]
for wheel in sorted(pathlib.Path("/wheels").glob("*.whl")):
    zipfile.ZipFile(wheel).extractall(target)

import pytest

class Collect:
    """Records each test's outcome so the native side can compare test ids."""
    def __init__(self):
        self.passed, self.failed, self.skipped = [], [], {}
    def pytest_runtest_logreport(self, report):
        if report.passed and report.when == "call":
            self.passed.append(report.nodeid)
        elif report.failed:
            self.failed.append(report.nodeid)
        elif report.skipped:
            self.skipped[report.nodeid] = str(report.longrepr[-1] if isinstance(report.longrepr, tuple) else report.longrepr)
    def pytest_collectreport(self, report):
        if report.failed:
            self.failed.append(report.nodeid or "<collection>")
        elif report.skipped:
            self.skipped[report.nodeid] = str(report.longrepr[-1] if isinstance(report.longrepr, tuple) else report.longrepr)

collect = Collect()
print("Python", sys.version.split()[0], "on", sys.platform)
code = pytest.main([${JSON.stringify(testPath)}, "-p", "no:cacheprovider", "--rootdir", "/work", *${JSON.stringify(pytestArgs)}], plugins=[collect])
json.dumps({"exit": int(code), "passed": collect.passed, "failed": collect.failed, "skipped": collect.skipped})
`);
if (summaryFile) writeFileSync(summaryFile, summary);
process.exitCode = JSON.parse(summary).exit;
