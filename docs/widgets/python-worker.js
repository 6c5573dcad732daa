// The page's Python: Pyodide in a module Web Worker, so that neither loading nor running
// Python ever blocks the page. The message protocol is described in README.md.
//
// Every URL is resolved against this file's own URL (assets/widgets/python-worker.js), so
// the worker finds the self-hosted runtime from /, /he/ and /fa/ pages alike, and also when
// the site lives under a sub-path.
import runtimeSource from "./session_runtime.py";

const PYODIDE_DIR = new URL("../pyodide/", import.meta.url);
const WHEELS_DIR = new URL("../wheels/", import.meta.url);
// Uncompressed bytes Pyodide fetches while loading (wasm, stdlib zip, lock file); the build
// script measures them in node_modules/pyodide so the progress bar can say "how far".
const DOWNLOAD_BYTES = __PYODIDE_DOWNLOAD_BYTES__;

let runtime = null; // the session_runtime module, once Python is up
let interruptBuffer = null; // Uint8Array on a SharedArrayBuffer, when the page is isolated
let current = null; // id of the request whose output Pyodide's own streams belong to
let ready = null; // promise of boot(), set by the "start" message

const post = (message) => self.postMessage(message);
const plainFetch = self.fetch.bind(self); // not counted by the progress bar (see below)

// Installed before anything is awaited: messages that arrive while Python loads wait in
// this chain instead of being lost, and requests run strictly one after another.
let chain = Promise.resolve();
self.onmessage = (event) => {
  const message = event.data;
  chain = chain.then(() => handle(message));
};

async function handle(message) {
  const { id, type } = message;
  if (type === "start") {
    interruptBuffer = message.interruptBuffer || null;
    ready = boot();
    try {
      post({ id, type: "ready", value: await ready });
    } catch (error) {
      post({ id, type: "failed", error: String(error && error.message ? error.message : error) });
    }
    return;
  }
  try {
    await ready;
  } catch {
    return; // the "failed" reply has told the page already
  }
  current = id;
  const emit = (stream, text) => post({ id, type: stream, text });
  let reply;
  try {
    if (type === "run") {
      reply = runtime.run_cell(message.code, message.filename || "<cell>", emit);
    } else if (type === "call") {
      const args = JSON.stringify(message.args || []);
      const kwargs = JSON.stringify(message.kwargs || {});
      reply = runtime.call(message.name, args, kwargs, emit);
    } else {
      reply = JSON.stringify({ status: "error", error: `unknown request type: ${type}` });
    }
  } catch (error) {
    // Only a fault of the runtime itself lands here; user errors come back as replies.
    reply = JSON.stringify({ status: "error", error: String(error) });
  }
  current = null;
  post({ id, type: "result", ...JSON.parse(reply) });
}

async function boot() {
  const t0 = performance.now();
  const progress = (phase, loaded = 0, total = 0) => post({ type: "progress", phase, loaded, total });
  progress("download", 0, DOWNLOAD_BYTES);
  const wheel = findWheel(); // meanwhile: the wheel's URL, and the wheel in the HTTP cache
  wheel.catch(() => {}); // (a failure is reported when installWheel awaits it)
  const restoreFetch = countDownloadedBytes((loaded) => progress("download", loaded, DOWNLOAD_BYTES));
  let pyodide;
  try {
    const { loadPyodide } = await import(new URL("pyodide.mjs", PYODIDE_DIR).href);
    pyodide = await loadPyodide({
      indexURL: PYODIDE_DIR.href, // never let Pyodide fall back to its CDN
      // Startup chatter must not reach the console (and nothing else writes yet).
      stdout: () => {},
      stderr: () => {},
    });
  } finally {
    restoreFetch();
  }
  const t1 = performance.now();
  progress("install");
  installWheel(pyodide, await wheel);
  const t2 = performance.now();
  // Writes that bypass sys.stdout (C-level, os.write) still belong to the running request.
  pyodide.setStdout({ batched: (text) => current !== null && post({ id: current, type: "stdout", text: text + "\n" }) });
  pyodide.setStderr({ batched: (text) => current !== null && post({ id: current, type: "stderr", text: text + "\n" }) });
  if (interruptBuffer) pyodide.setInterruptBuffer(interruptBuffer);
  runtime = loadRuntime(pyodide);
  return {
    python: pyodide.runPython("import sys; sys.version.split()[0]"),
    interrupts: Boolean(interruptBuffer),
    // Milliseconds spent on each step, for measuring start-up on real machines.
    timings: { pyodide: Math.round(t1 - t0), wheel: Math.round(t2 - t1), total: Math.round(performance.now() - t0) },
  };
}

/** The wheel named by the manifest, fetched while Pyodide loads: {name, bytes}. */
async function findWheel() {
  const manifestURL = new URL("manifest.json", WHEELS_DIR);
  const response = await plainFetch(manifestURL);
  if (!response.ok) throw new Error(`${manifestURL.pathname}: HTTP ${response.status}`);
  const name = (await response.json()).attention_py;
  if (!name) throw new Error("the wheel manifest names no attention_py wheel");
  const url = new URL(name, WHEELS_DIR);
  const wheel = await plainFetch(url);
  if (!wheel.ok) throw new Error(`${url.pathname}: HTTP ${wheel.status}`);
  return { name, bytes: await wheel.arrayBuffer() };
}

/**
 * A pure-Python wheel is a zip of the package: unpacking it into site-packages installs it
 * (about 10 ms, where loadPackage took about 130 ms). The import proves it worked.
 */
function installWheel(pyodide, { name, bytes }) {
  try {
    const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
    pyodide.unpackArchive(bytes, "wheel", { extractDir: sitePackages });
    pyodide.runPython("import importlib; importlib.invalidate_caches(); import attention_py");
  } catch (error) {
    throw new Error(`could not install ${name}: ${error.message || error}`);
  }
}

function loadRuntime(pyodide) {
  const load = pyodide.runPython(`
def _load_session_runtime(source):
    import sys, types
    module = types.ModuleType("_session_runtime")
    module.__file__ = "/live-cells/session_runtime.py"
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    sys.modules[module.__name__] = module
    return module
_load_session_runtime
`);
  const module = load(runtimeSource);
  load.destroy();
  pyodide.runPython("del _load_session_runtime");
  return module;
}

// Pyodide fetches its big files with the global fetch. While it loads, wrap fetch to count
// each response's bytes as they arrive. The count reads a clone: Pyodide still gets the
// original response, so the browser can stream-compile the wasm and cache the compiled code
// (a rebuilt Response would lose its URL and with it that cache). Returns the undo.
function countDownloadedBytes(report) {
  const original = self.fetch;
  let loaded = 0;
  let lastReport = 0;
  const count = async (body) => {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      loaded += value.byteLength;
      const now = performance.now();
      if (now - lastReport > 100) {
        lastReport = now;
        report(loaded);
      }
    }
    report(loaded);
  };
  self.fetch = async (...args) => {
    const response = await original(...args);
    if (response.ok && response.body) count(response.clone().body).catch(() => {});
    return response;
  };
  return () => {
    self.fetch = original;
  };
}
