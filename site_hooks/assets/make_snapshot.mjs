// Makes the page's Python memory snapshot under Node.js (site_hooks/assets/snapshot.py calls it).
//
//   node site_hooks/assets/make_snapshot.mjs --wheel W.whl --runtime session_runtime.py --key KEY --out FILE.gz
//
// Boots the pinned Pyodide (node_modules/pyodide) with the private, experimental
// `_makeSnapshot` option, does what the page's worker does at start (unpacks the attention_py
// wheel into site-packages, imports the package and every submodule, loads
// session_runtime.py as the module `_session_runtime` with docs/widgets/runtime/python/session_loader.py), then writes
// `pyodide.makeMemorySnapshot()` gzipped to FILE.gz. Its last line on stdout is JSON: the
// image's sizes and `stdlib`, the standard library's files imported by then. The browser
// restores it with `loadPyodide({_loadSnapshot})` (docs/widgets/runtime/worker/python-worker.js). An image
// made here loads in Chromium's module worker (probed 2026-11-30): the heap layout depends on
// the wasm build, not on the host, and Pyodide refuses an image of another build (BUILD_ID in
// its header).
//
// The runtime module carries `__snapshot__` = {key, source}: the worker compares `source`
// with the runtime it was bundled with and boots normally when they differ.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const argv = process.argv.slice(2);
function take(name) {
  const i = argv.indexOf(name);
  if (i < 0 || i + 1 >= argv.length) throw new Error(`usage: make_snapshot.mjs --wheel W --runtime R --key K --out F (missing ${name})`);
  return argv[i + 1];
}
const wheelPath = resolve(take("--wheel"));
const runtimePath = resolve(take("--runtime"));
const key = take("--key");
const outPath = resolve(take("--out"));

const pyodideDir = join(root, "node_modules", "pyodide") + "/";
const { loadPyodide } = await import(join(pyodideDir, "pyodide.mjs"));
const pyodide = await loadPyodide({
  indexURL: pyodideDir, // never Pyodide's CDN
  packageBaseUrl: pyodideDir,
  _makeSnapshot: true,
  stdout: () => {},
  stderr: (line) => process.stderr.write(line + "\n"),
});

// The same steps as python-worker.js's installWheel and loadRuntime (docs/widgets/runtime/python/session_loader.py
// is the one loader of the runtime, for both).
const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
pyodide.unpackArchive(new Uint8Array(readFileSync(wheelPath)), "wheel", { extractDir: sitePackages });
pyodide.runPython(readFileSync(join(root, "docs", "widgets", "runtime", "python", "session_loader.py"), "utf8"));
pyodide.globals.set("_runtime_source", readFileSync(runtimePath, "utf8"));
pyodide.globals.set("_snapshot_key", key);
const skipped = pyodide.runPython(`
import importlib, pkgutil
importlib.invalidate_caches()
import attention_py
_skipped = []
for _info in pkgutil.walk_packages(attention_py.__path__, "attention_py."):
    try:
        importlib.import_module(_info.name)
    except Exception as _error:  # it fails in the page too; the page imports it lazily then
        _skipped.append(f"{_info.name}: {_error!r}")

_load_session_runtime(_runtime_source).__snapshot__ = {"key": _snapshot_key, "source": _runtime_source}
del _load_session_runtime, _runtime_source, _snapshot_key, _info
del importlib, pkgutil, attention_py
__import__("gc").collect()
"\\n".join(_skipped)
`);
pyodide.runPython("del _skipped");
if (skipped) process.stderr.write(`submodules not imported into the snapshot:\n${skipped}\n`);

// The standard library's files that Python has read by now: what a normal boot needs of
// python_stdlib.zip to start the page's Python (site_hooks/assets/stdlib_core.py).
const stdlib = JSON.parse(
  pyodide.runPython(`
import json as _json, sys as _sys
_archive = next(p for p in _sys.path if p.endswith(".zip")) + "/"
_read = sorted({
    m.__spec__.origin[len(_archive):]
    for m in list(_sys.modules.values())
    if getattr(m, "__spec__", None) is not None and (m.__spec__.origin or "").startswith(_archive)
})
_json.dumps(_read)
`),
);
pyodide.runPython("del _json, _sys, _archive, _read");

const image = pyodide.makeMemorySnapshot();
const packed = gzipSync(image, { level: 9 });
writeFileSync(outPath, packed);
console.log(JSON.stringify({ bytes: packed.length, memory: image.length, stdlib }));
