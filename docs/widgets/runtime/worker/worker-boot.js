// Python's start in the worker: Pyodide restored from the build's memory snapshot
// (worker-snapshot.js) or, when there is none to use, loaded the plain way; then the
// attention_py wheel, the output streams, the interrupt buffer and the session runtime.
// boot() returns all it made; the message loop (python-worker.js) keeps it.
import loaderSource from "../python/session_loader.py";
import runtimeSource from "../python/session_runtime.py";
import { forgetImage } from "./worker-image-cache.js";
import { failingOnAbort, readSiteFile, siteFetch } from "./worker-network.js";
import { DownloadProgress } from "./worker-progress.js";
import { restoreSnapshot, snapshotToRestore } from "./worker-snapshot.js";
import { stdlibOnDemand } from "./worker-stdlib.js";
import { PYODIDE_DIR, WHEELS_DIR } from "./worker-urls.js";
import { STDERR, STDOUT } from "../messages.js";

// Uncompressed bytes Pyodide fetches while loading (the wasm, the stdlib zip); the build
// script measures them in node_modules/pyodide so the progress bar can say "how far".
const DOWNLOAD_BYTES = __PYODIDE_DOWNLOAD_BYTES__;
// The runtime's own requests (the manifest, the wheel) go straight to the page: not counted
// by the progress bar, which counts the global fetch while Python loads.
const plainFetch = siteFetch;

/**
 * Starts Python. `post` is the worker's channel to the page (progress messages);
 * `interruptBuffer` the page's Uint8Array on a SharedArrayBuffer, or null; `snapshotUnwanted`
 * why not to use the memory snapshot ("": use it); `writeOutput(stream, text)` takes what
 * Python writes past sys.stdout/sys.stderr (C code, os.write, sys.__stdout__). Returns
 * {pyodide, runtime, info, restoredFromKept, keepImage}: `info` is the "ready" message's
 * value, `restoredFromKept` the kept image's URL when Python was restored from it (to forget
 * if this Python fails), `keepImage` what to do once "ready" is posted (or null).
 */
export async function boot({ post, interruptBuffer, snapshotUnwanted, writeOutput }) {
  const t0 = performance.now();
  const steps = {}; // how long reading the memory image took (ms), reported with "ready"
  const progress = new DownloadProgress(post, DOWNLOAD_BYTES);
  progress.report();
  const stopCounting = progress.countFetches();
  // Meanwhile: the manifest, then the wheel and the memory snapshot it names (both usually
  // in the HTTP cache already: the page preloads them while it parses).
  const manifest = readManifest();
  const wheel = manifest.then(fetchWheel);
  const snapshot = manifest.then((found) => {
    const onKept = (bytes) => {
      progress.total -= bytes; // none of the image is downloaded when it was kept from a visit before
      progress.report();
    };
    const chosen = snapshotToRestore(found, { unwanted: snapshotUnwanted, t0, steps, onKept });
    // Restored, Python downloads the image but not the standard library (stdlib_on_demand.py).
    if (chosen) progress.total += chosen.bytes - (found.stdlib_bytes || 0);
    return chosen;
  });
  // The standard library a normal boot starts with: the build's core of it where there is one.
  // (Whatever goes wrong here is reported by the promises above; the archive is then the whole one.)
  const core = Promise.all([manifest, snapshot.catch(() => null)])
    .then(([found, chosen]) => {
      if (chosen || !found.stdlib_core) return null;
      progress.total += (found.stdlib_core_bytes || 0) - (found.stdlib_bytes || 0);
      return new URL(found.stdlib_core, PYODIDE_DIR);
    })
    .catch(() => null);
  for (const promise of [wheel, snapshot]) promise.catch(() => {}); // reported where awaited
  let restored;
  let why;
  let pyodide;
  try {
    const loadPyodide = await pyodideLoader();
    ({ python: restored, why } = await restoreSnapshot(loadPyodide, snapshot));
    if (why) {
      // For developers only: the reader just gets the normal boot.
      console.warn(`attention_py: the Python memory snapshot was not used (${why}); booting Python the normal way`);
    }
    pyodide = restored ? restored.pyodide : await failingOnAbort(async () => loadPlainPyodide(loadPyodide, await core));
  } finally {
    stopCounting();
  }
  const restoredFromKept = restored?.restoredFromKept ?? null;
  try {
    const t1 = performance.now();
    progress.installing();
    // On the snapshot path the package is imported already; its files still go to
    // site-packages, for tracebacks' source lines and anything imported later.
    installWheel(pyodide, await wheel);
    const t2 = performance.now();
    // Writes that bypass sys.stdout (C-level, os.write, sys.__stdout__) still belong to the
    // running request, under the same cap; between requests they are dropped.
    pyodide.setStdout({ batched: (text) => writeOutput(STDOUT, `${text}\n`) });
    pyodide.setStderr({ batched: (text) => writeOutput(STDERR, `${text}\n`) });
    if (interruptBuffer) pyodide.setInterruptBuffer(interruptBuffer);
    const runtime = restored?.runtime ?? loadRuntime(pyodide);
    runtime.use_site_files(readSiteFile);
    const info = {
      python: pyodide.runPython("import sys; sys.version.split()[0]"),
      interrupts: Boolean(interruptBuffer),
      // How Python started: "snapshot" (restored from the build's memory image) or "plain"
      // (`fallback` says why the image was not used, when there was one).
      boot: restored ? "snapshot" : "plain",
      fallback: why || null,
      // Where the image came from: "network" (the build's gzip) or "cache" (kept by a visit before).
      image: restored ? restored.from : null,
      // Milliseconds, for measuring start-up on real machines: `waited` from the worker's
      // creation to "start" (the page makes it early), then `image` (the memory image in
      // hand: `inflate` of the gzip or `cacheRead` of the kept copy), `pyodide` (Python up),
      // `wheel`, `total`.
      timings: {
        waited: Math.round(t0),
        ...Object.fromEntries(Object.entries(steps).map(([step, ms]) => [step, Math.round(ms)])),
        pyodide: Math.round(t1 - t0),
        wheel: Math.round(t2 - t1),
        total: Math.round(performance.now() - t0),
      },
    };
    return { pyodide, runtime, info, restoredFromKept, keepImage: restored?.keepImage ?? null };
  } catch (error) {
    if (restoredFromKept) forgetImage(restoredFromKept).catch(() => {}); // the next start inflates the build's copy
    throw error;
  }
}

/**
 * Pyodide's `loadPyodide`, bound to its runtime module: both scripts (pyodide.mjs and
 * pyodide.asm.mjs) come from the page as text and are imported from blob: URLs, because an
 * import by the site's URL would leave from the frame's opaque origin (README.md, "Where
 * reader code runs"). Pyodide takes the runtime module it would import itself as
 * `createPyodideModule`.
 */
async function pyodideLoader() {
  const importFromSite = async (name) => {
    const url = new URL(name, PYODIDE_DIR);
    const response = await plainFetch(url);
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
    const source = URL.createObjectURL(new Blob([await response.arrayBuffer()], { type: "text/javascript" }));
    try {
      return await import(source);
    } finally {
      URL.revokeObjectURL(source);
    }
  };
  const [{ loadPyodide }, runtime] = await Promise.all([importFromSite("pyodide.mjs"), importFromSite("pyodide.asm.mjs")]);
  return (options) => loadPyodide({ createPyodideModule: runtime.default, ...options });
}

/**
 * Pyodide loaded the plain way, its files from this site. With `core` (the URL of the build's
 * python_stdlib_core.zip) it starts with the part of the standard library the page's code
 * reads, and fetches the whole archive when code first needs more (worker-stdlib.js).
 */
async function loadPlainPyodide(loadPyodide, core) {
  const pyodide = await loadPyodide({
    indexURL: PYODIDE_DIR.href, // never let Pyodide fall back to its CDN
    ...(core ? { stdLibURL: core.href } : {}),
    // Startup chatter must not reach the console (and nothing else writes yet).
    stdout: () => {},
    stderr: () => {},
  });
  if (core) stdlibOnDemand(pyodide);
  return pyodide;
}

/** assets/wheels/manifest.json: {attention_py: wheel, snapshot?, snapshot_bytes?, snapshot_memory?, ...}. */
async function readManifest() {
  const manifestURL = new URL("manifest.json", WHEELS_DIR);
  const response = await plainFetch(manifestURL);
  if (!response.ok) throw new Error(`${manifestURL.pathname}: HTTP ${response.status}`);
  return response.json();
}

/** The wheel named by the manifest: {name, bytes}. */
async function fetchWheel(manifest) {
  const name = manifest.attention_py;
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
    throw new Error(`could not install ${name}: ${error.message || error}`, { cause: error });
  }
}

/** session_runtime.py as the module _session_runtime, loaded by session_loader.py (as the snapshot's maker does). */
function loadRuntime(pyodide) {
  pyodide.runPython(loaderSource);
  const load = pyodide.globals.get("_load_session_runtime");
  pyodide.runPython("del _load_session_runtime");
  const module = load(runtimeSource);
  load.destroy();
  return module;
}
