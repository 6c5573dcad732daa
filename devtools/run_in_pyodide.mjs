// Runs a Python script inside Pyodide under Node.js, offline.
//
//   node devtools/run_in_pyodide.mjs --wheels DIR --out DIR SCRIPT.py [ARGS...]
//
// Every wheel in --wheels is unpacked into Pyodide's site-packages (pure-Python wheels are
// plain zip files; no network, no micropip). The repository is mounted read-write at /repo
// and --out at /out (Node's file system through NODEFS), the working directory is /repo,
// and SCRIPT runs as __main__ with sys.argv = [SCRIPT, ARGS...]. The exit code is the
// script's (SystemExit), 1 on an uncaught exception.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
function take(name) {
  const i = argv.indexOf(name);
  if (i < 0 || i + 1 >= argv.length) throw new Error(`usage: run_in_pyodide.mjs --wheels DIR --out DIR SCRIPT.py [ARGS...] (missing ${name})`);
  const [, value] = argv.splice(i, 2);
  return resolve(value);
}
const wheelDir = take("--wheels");
const outDir = take("--out");
const [script, ...scriptArgs] = argv;
if (!script) throw new Error("missing SCRIPT.py");

const pyodideDir = join(root, "node_modules", "pyodide");
const { loadPyodide } = await import(join(pyodideDir, "pyodide.mjs"));
// indexURL and packageBaseUrl both local: without them Pyodide silently falls back to its CDN.
const pyodide = await loadPyodide({
  indexURL: pyodideDir + "/",
  packageBaseUrl: pyodideDir + "/",
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

pyodide.FS.mkdirTree("/wheels");
for (const name of readdirSync(wheelDir).filter((n) => n.endsWith(".whl"))) {
  pyodide.FS.writeFile(`/wheels/${name}`, readFileSync(join(wheelDir, name)));
}
for (const [host, mountPoint] of [[root, "/repo"], [outDir, "/out"]]) {
  pyodide.FS.mkdirTree(mountPoint);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: host }, mountPoint);
}

const scriptPath = "/repo/" + relative(root, resolve(script)).split("\\").join("/");
pyodide.globals.set("_script_argv", pyodide.toPy([scriptPath, ...scriptArgs]));
const exitCode = await pyodide.runPythonAsync(`
import os, pathlib, runpy, site, sys, traceback, zipfile

sys.dont_write_bytecode = True  # keep the mounted repository free of cpython-314 caches
target = site.getsitepackages()[0]
for wheel in sorted(pathlib.Path("/wheels").glob("*.whl")):
    zipfile.ZipFile(wheel).extractall(target)
os.chdir("/repo")
sys.argv = list(_script_argv)
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
    code = 0
except SystemExit as exit:
    code = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
except BaseException:
    traceback.print_exc()
    code = 1
code
`);
process.exitCode = exitCode;
