// The page's Python: Pyodide in a module Web Worker, so that neither loading nor running
// Python ever blocks the page. The message protocol is described in README.md.
//
// Every URL is resolved against this file's own URL (assets/widgets/python-worker.js), so
// the worker finds the self-hosted runtime from /, /he/ and /fa/ pages alike, and also when
// the site lives under a sub-path. (The page starts this module from a tiny blob: worker
// that imports it, so that the worker inherits the page's Content-Security-Policy; see
// `attentionPyBoot.newWorker` in docs/overrides/main.html. import.meta.url is still this
// file's real URL.)
//
// Reliability rules kept here (README.md, "What is guaranteed"):
// - every request gets exactly one answer: a result, or "fatal" when Pyodide died under it;
//   nothing a request does can stop later messages from being handled;
// - a request's output is capped and batched here, whichever way it was written (sys.stdout,
//   sys.__stdout__, os.write): the page never receives more than the cap, nor a flood of
//   messages it would spend its time on;
// - code may request files of this site only (guardNetwork below).
import runtimeSource from "./session_runtime.py";
import loaderSource from "./session_loader.py";
import stdlibOnDemandSource from "./stdlib_on_demand.py";
import { fitUnderCap } from "./output-cap.js";

const PYODIDE_DIR = new URL("../pyodide/", import.meta.url);
const WHEELS_DIR = new URL("../wheels/", import.meta.url);
const SITE_ORIGIN = new URL(import.meta.url).origin;
// Uncompressed bytes Pyodide fetches while loading (wasm, stdlib zip, lock file); the build
// script measures them in node_modules/pyodide so the progress bar can say "how far".
const DOWNLOAD_BYTES = __PYODIDE_DOWNLOAD_BYTES__;
// Output cap per request, the same as session_runtime.py's and output-view.js's.
// Output batching: up to BURST_POSTS messages go out at once in any BATCH_MS window (a
// program that prints a few lines and then hangs still shows them); beyond that, output
// waits for the next write after the window, or for the request's end.
const BATCH_MS = 50;
const BURST_POSTS = 50;
// Arguments of a call nested deeper than this are refused: Python's json parser recurses
// in C and a few thousand levels crash Pyodide (a figure state is a few levels deep).
const MAX_ARGUMENT_DEPTH = 64;
// How long reading one of the site's data files (a trained model, ~250 KB) may take.
const SITE_FILE_TIMEOUT_MS = 45_000;

guardNetwork(); // before Pyodide or anything else can take a reference to fetch

let pyodide = null;
let runtime = null; // the session_runtime module, once Python is up
let interruptBuffer = null; // Uint8Array on a SharedArrayBuffer, when the page is isolated
let output = null; // the RequestOutput of the running request (Pyodide's own streams write there)
let ready = null; // promise of boot(), set by the "start" message
let fatal = null; // message of the fatal error Pyodide suffered, once it has
let snapshotUnwanted = ""; // the page's connection rule said why not to use the snapshot
let afterReady = null; // what boot() leaves to do once "ready" is posted
let restoredFromKept = null; // the image's URL when Python was restored from the kept copy
const steps = {}; // how long steps of the boot took (ms), reported with "ready"

// The runtime's own channel to the page, taken before any reader code runs; boot() then
// removes postMessage from the worker's globals (hideChannel), so that code in the page's
// Python (through `js`) can neither flood the page with messages nor forge an answer.
const postToPage = self.postMessage.bind(self);
const post = (message) => postToPage(message);
const plainFetch = self.fetch.bind(self); // not counted by the progress bar (see below)
// Taken before any reader code runs (reader code may replace the globals, not these).
const cacheStorage = self.caches || null;
const digestOf = self.crypto?.subtle ? crypto.subtle.digest.bind(crypto.subtle) : null; // secure contexts only, as caches

// Code that closes this worker (`import js; js.close()`) would leave the page waiting for
// answers that never come: say so first, so the page replaces the worker at once.
const closeWorker = self.close.bind(self);
self.close = () => {
  post({ type: "closing" });
  closeWorker();
};

// Pyodide reports a fatal error on the console first, then dumps the Python stack to the
// streams: that dump is runtime plumbing, not the reader's output.
const consoleError = console.error.bind(console);
console.error = (...args) => {
  if (String(args[0]).startsWith("Pyodide has suffered a fatal error")) output?.mute();
  consoleError(...args);
};

// Installed before anything is awaited: messages that arrive while Python loads wait in
// this chain instead of being lost, and requests run strictly one after another. The catch
// keeps the chain alive whatever one message does.
let chain = Promise.resolve();
self.onmessage = (event) => {
  const message = event.data;
  chain = chain.then(() => handle(message)).catch((error) => reportFault(message, error));
};

async function handle(message) {
  const { id, type } = message;
  if (type === "start") {
    interruptBuffer = message.interruptBuffer || null;
    snapshotUnwanted = message.snapshotUnwanted || "";
    ready = boot();
    try {
      post({ id, type: "ready", value: await ready });
    } catch (error) {
      forgetKeptImage();
      post({ id, type: "failed", error: describe(error) });
    }
    // Housekeeping that must not delay "ready" (keeping the image for the next visit).
    afterReady?.()
      .then((kept) => kept && post({ type: "kept" }))
      .catch((error) => console.info(`attention_py: the Python memory image was not kept (${describe(error)})`));
    afterReady = null;
    return;
  }
  try {
    await ready;
  } catch {
    return; // the "failed" reply has told the page already
  }
  if (fatal) {
    post({ id, type: "fatal", error: fatal });
    return;
  }
  const out = (output = new RequestOutput(id));
  let reply;
  let thrown = null;
  try {
    reply = JSON.parse(execute(message, out));
  } catch (error) {
    // Only a fault of the runtime itself lands here; user errors come back as replies.
    thrown = error;
    reply = { status: "error", error: describe(error) };
  }
  output = null;
  if (diedFrom(thrown)) {
    out.mute(); // whatever Pyodide dumped while dying
    forgetKeptImage();
    post({ id, type: "fatal", error: fatal });
    return;
  }
  out.flush();
  post({ id, type: "result", ...reply, truncated: Boolean(reply.truncated || out.truncated) });
}

/** Runs one request; returns the runtime's reply, a JSON string. */
function execute(message, out) {
  const emit = (stream, text) => (stream === "truncated" ? out.markTruncated() : out.write(stream, text));
  if (message.type === "run") {
    return runtime.run_cell(message.code, message.filename || "<cell>", emit);
  }
  if (message.type === "call") {
    const args = JSON.stringify(message.args || []);
    const kwargs = JSON.stringify(message.kwargs || {});
    const depth = Math.max(nesting(args), nesting(kwargs));
    if (depth > MAX_ARGUMENT_DEPTH) {
      return JSON.stringify({ status: "error", error: `the arguments of ${message.name} are nested ${depth} levels deep; at most ${MAX_ARGUMENT_DEPTH} are accepted` });
    }
    return runtime.call(message.name, args, kwargs, emit);
  }
  return JSON.stringify({ status: "error", error: `unknown request type: ${message.type}` });
}

/**
 * True when Pyodide has suffered a fatal error (it cannot be used any more). Pyodide marks
 * the error it throws, and from then on every public property of the API throws; a second
 * fatal error in the same Pyodide is not even thrown (the call returns undefined), which the
 * property check still catches.
 */
function diedFrom(error) {
  if (fatal) return true;
  let dead = Boolean(error && error.pyodide_fatal_error);
  if (!dead) {
    try {
      void pyodide.globals;
    } catch {
      dead = true;
    }
  }
  if (dead) fatal = describe(error || "Pyodide stopped working");
  return dead;
}

/**
 * Removes postMessage from the worker's global object and its prototype chain (it lives on
 * DedicatedWorkerGlobalScope.prototype), so that neither `globalThis`, `self`, the prototype
 * chain, `eval` nor `Function` reaches the page's channel; the runtime keeps `postToPage`.
 * (A nested worker's postMessage talks to this worker, not to the page.)
 */
function hideChannel() {
  for (let scope = self; scope && scope !== Object.prototype; scope = Object.getPrototypeOf(scope)) {
    if (Object.prototype.hasOwnProperty.call(scope, "postMessage")) delete scope.postMessage;
  }
  if (typeof self.postMessage === "function") throw new Error("the worker's channel to the page could not be hidden");
}

/** A Python restored from the kept image died: the next start inflates the build's copy again. */
function forgetKeptImage() {
  if (restoredFromKept) forgetImage(restoredFromKept).catch(() => {});
  restoredFromKept = null;
}

/** A message that escaped handle(): the request still gets an answer. */
function reportFault(message, error) {
  output = null;
  if (message && message.id !== undefined && message.type !== "start") {
    post({ id: message.id, type: "result", status: "error", error: describe(error) });
  }
}

function describe(error) {
  return String(error && error.message ? `${error.name || "Error"}: ${error.message}` : error);
}

/** How deep a JSON text nests its arrays and objects (brackets inside strings do not count). */
function nesting(json) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) deepest = Math.max(deepest, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  return deepest;
}

/**
 * One request's output on its way to the page: capped (MAX_LINES lines or MAX_CHARS
 * characters; the rest is dropped and the page told once) and batched. Both of Python's
 * paths write here: sys.stdout/sys.stderr through session_runtime.py (line-buffered there),
 * and writes that bypass them (os.write, sys.__stdout__, C code) through Pyodide's streams.
 * Python blocks this worker while it runs, so no timer can flush: batching is decided at
 * each write.
 */
class RequestOutput {
  constructor(id) {
    this.id = id;
    this.lines = 0;
    this.chars = 0;
    this.truncated = false;
    this.muted = false;
    this.pending = []; // [stream, text] not yet posted
    this.windowStart = -Infinity;
    this.windowPosts = 0;
  }

  write(stream, text) {
    if (this.truncated || this.muted || !text) return;
    text = this.fit(text);
    if (text) {
      const last = this.pending.at(-1);
      if (last && last[0] === stream) last[1] += text;
      else this.pending.push([stream, text]);
    }
    if (this.truncated) {
      this.flush();
      post({ id: this.id, type: "truncated" });
      return;
    }
    const now = performance.now();
    if (now - this.windowStart >= BATCH_MS) {
      this.windowStart = now;
      this.windowPosts = 0;
    }
    if (this.windowPosts < BURST_POSTS) this.flush();
  }

  /** session_runtime.py reached its own cap (the same numbers): nothing more is sent. */
  markTruncated() {
    if (this.truncated || this.muted) return;
    this.truncated = true;
    this.flush();
    post({ id: this.id, type: "truncated" });
  }

  /** Drops what is not posted yet, and everything after. */
  mute() {
    this.muted = true;
    this.pending = [];
  }

  flush() {
    for (const [stream, text] of this.pending) {
      post({ id: this.id, type: stream, text });
      this.windowPosts += 1;
    }
    this.pending = [];
  }

  fit(text) {
    return fitUnderCap(this, text);
  }
}

async function boot() {
  const t0 = performance.now();
  steps.t0 = t0;
  let total = DOWNLOAD_BYTES;
  const progress = (phase, loaded = 0) => post({ type: "progress", phase, loaded, total: phase === "download" ? total : 0 });
  progress("download", 0);
  let downloaded = 0;
  const restoreFetch = countDownloadedBytes((loaded) => progress("download", (downloaded = loaded)));
  // Meanwhile: the manifest, then the wheel and the memory snapshot it names (both usually
  // in the HTTP cache already: the page preloads them while it parses).
  const manifest = readManifest();
  const wheel = manifest.then(fetchWheel);
  const image = manifest.then((found) => {
    // Restored, Python downloads the image but not the standard library (stdlibOnDemand);
    // none of the image either when it was kept from a visit before.
    const snapshot = snapshotToRestore(found, (delta) => {
      total += delta;
      progress("download", downloaded);
    });
    if (snapshot) total += snapshot.bytes - (found.stdlib_bytes || 0);
    return snapshot;
  });
  for (const promise of [wheel, image]) promise.catch(() => {}); // reported where awaited
  let how = "plain";
  let why = "";
  let imageFrom = null;
  let loadPyodide;
  try {
    ({ loadPyodide } = await import(new URL("pyodide.mjs", PYODIDE_DIR).href));
    let snapshot = null;
    try {
      snapshot = await image;
    } catch (error) {
      why = describe(error);
    }
    if (snapshot) {
      try {
        pyodide = await failingOnAbort(restore(loadPyodide, snapshot));
        how = "snapshot";
        imageFrom = snapshot.from;
        if (snapshot.from === "cache") restoredFromKept = snapshot.url;
        if (snapshot.pristine) {
          const bytes = snapshot.pristine;
          snapshot.pristine = null;
          afterReady = () => keepImage(snapshot.url, bytes);
        }
      } catch (error) {
        why = describe(error);
        pyodide = null;
        runtime = null;
        if (snapshot.from === "cache") forgetImage(snapshot.url).catch(() => {});
      }
    }
    if (why) {
      // For developers only: the reader just gets the normal boot.
      console.warn(`attention_py: the Python memory snapshot was not used (${why}); booting Python the normal way`);
    }
    if (!pyodide) {
      pyodide = await failingOnAbort(loadPyodide({
        indexURL: PYODIDE_DIR.href, // never let Pyodide fall back to its CDN
        // Startup chatter must not reach the console (and nothing else writes yet).
        stdout: () => {},
        stderr: () => {},
      }));
    }
  } finally {
    restoreFetch();
  }
  const t1 = performance.now();
  progress("install");
  // On the snapshot path the package is imported already; its files still go to
  // site-packages, for tracebacks' source lines and anything imported later.
  installWheel(pyodide, await wheel);
  const t2 = performance.now();
  // Writes that bypass sys.stdout (C-level, os.write, sys.__stdout__) still belong to the
  // running request, under the same cap; between requests they are dropped.
  pyodide.setStdout({ batched: (text) => output?.write("stdout", `${text}\n`) });
  pyodide.setStderr({ batched: (text) => output?.write("stderr", `${text}\n`) });
  if (interruptBuffer) pyodide.setInterruptBuffer(interruptBuffer);
  runtime ??= loadRuntime(pyodide);
  runtime.use_site_files(readSiteFile);
  hideChannel(); // last: Pyodide and the runtime are loaded, no reader code has run yet
  return {
    python: pyodide.runPython("import sys; sys.version.split()[0]"),
    interrupts: Boolean(interruptBuffer),
    // How Python started: "snapshot" (restored from the build's memory image) or "plain"
    // (`fallback` says why the image was not used, when there was one).
    boot: how,
    fallback: why || null,
    // Where the image came from: "network" (the build's gzip) or "cache" (kept by a visit before).
    image: how === "snapshot" ? imageFrom : null,
    // Milliseconds, for measuring start-up on real machines: `waited` from the worker's creation to "start" (the page makes it early),
    // then `image` (the memory image in hand: `inflate` of the gzip or `cacheRead` of the kept
    // copy), `pyodide` (Python up), `wheel`, `total`.
    timings: {
      waited: Math.round(t0),
      ...Object.fromEntries(Object.entries(steps).filter(([k]) => k !== "t0").map(([k, v]) => [k, Math.round(v)])),
      pyodide: Math.round(t1 - t0),
      wheel: Math.round(t2 - t1),
      total: Math.round(performance.now() - t0),
    },
  };
}

/**
 * `promise`, or a rejection as soon as the worker meets an error nobody handles while it is
 * pending: Pyodide's runtime aborts on a wasm it cannot fetch or compile (a 404, a 503, a
 * corrupt file) with an error thrown in a callback, and its own promise then never settles.
 * Without this, start-up would wait for ever ("Loading Python: 6.9 of 16.5 MB").
 */
function failingOnAbort(promise) {
  let stop;
  const aborted = new Promise((_, reject) => {
    const onError = (event) => {
      event.preventDefault?.();
      reject(new Error(`Python's runtime could not load (${describe(event.reason ?? event.error ?? event.message)})`));
    };
    self.addEventListener("unhandledrejection", onError);
    self.addEventListener("error", onError);
    runtimeBroken = (error) => reject(error); // a file of the runtime that cannot work (countDownloadedBytes)
    // A wasm that arrives but does not compile: Pyodide's loader (314.0.7) only warns on the
    // console ("wasm instantiation failed!") and never settles its promise; here the failure
    // ends the load.
    const originals = { instantiate: WebAssembly.instantiate, instantiateStreaming: WebAssembly.instantiateStreaming };
    for (const [name, original] of Object.entries(originals)) {
      WebAssembly[name] = function (...args) {
        const result = original.apply(this, args);
        result.catch((error) => runtimeBroken?.(new Error(`pyodide.asm.wasm could not be compiled (${describe(error)})`)));
        return result;
      };
    }
    stop = () => {
      self.removeEventListener("unhandledrejection", onError);
      self.removeEventListener("error", onError);
      Object.assign(WebAssembly, originals);
      runtimeBroken = null;
    };
  });
  return Promise.race([promise, aborted]).finally(stop);
}
let runtimeBroken = null; // rejects the load in progress (failingOnAbort), while there is one

/** assets/wheels/manifest.json: {attention_py: wheel, snapshot?, snapshot_bytes?, snapshot_memory?}. */
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
 * The memory snapshot the manifest names, as {name, bytes, image}, where `image` is a promise
 * of the decompressed image (Pyodide awaits it, so the download overlaps loading Pyodide's
 * script); null when there is none to use (then the reason, if any, is thrown).
 */
function snapshotToRestore(manifest, adjustTotal) {
  if (!manifest.snapshot) return null; // a build without one (no Node.js there): nothing to say
  // The page's connection rule (docs/overrides/main.html): on Data Saver or a connection
  // slower than 4g, the image's 6.7 MB would cost more time than the restore saves.
  if (snapshotUnwanted) {
    console.info(`attention_py: booting Python without the memory snapshot (${snapshotUnwanted})`);
    return null;
  }
  if (typeof DecompressionStream !== "function") throw new Error("this browser has no DecompressionStream");
  const url = new URL(`../snapshot/${manifest.snapshot}`, WHEELS_DIR);
  const expected = manifest.snapshot_memory || 0;
  const digest = manifest.snapshot_sha256 || "";
  const snapshot = { name: manifest.snapshot, url, digest, bytes: manifest.snapshot_bytes || 0, from: null, image: null, pristine: null };
  snapshot.image = (async () => {
    const started = performance.now();
    // A reader who was here before: the image as the last visit inflated it (see keepImage).
    const kept = expected && digest ? await keptImage(url, expected, digest) : null;
    if (kept) {
      snapshot.from = "cache";
      adjustTotal(-snapshot.bytes);
      steps.cacheRead = performance.now() - started;
      steps.image = performance.now() - steps.t0;
      return kept;
    }
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
    const bytes = await readImage(response.body, expected, url.pathname);
    // Pyodide restores in place: the buffer it is given is not the image afterwards. What is
    // kept for the next visit is this copy, as it arrived (its digest is checked then).
    if (digest && cacheStorage) snapshot.pristine = bytes.slice();
    snapshot.from = "network";
    steps.inflate = performance.now() - started;
    steps.image = performance.now() - steps.t0;
    return bytes;
  })();
  snapshot.image.catch(() => {}); // reported where awaited
  return snapshot;
}

// The inflated image, kept in Cache Storage after a restore from the network (keepImage):
// on the next visit reading its 31 MB from there takes about a third of the time of
// inflating the 6.7 MB gzip again (docs/widgets/README.md, "The memory snapshot"). One image
// per site: keeping a new one deletes the others. Its key is the gzip's URL (a digest name)
// with "?inflated". Code in the page can rewrite Cache Storage (through `js`, or a nested
// worker), so a kept image is used only when its SHA-256 is the one the build recorded in
// the manifest, and it is deleted when it is not, or when a Python restored from it fails.
const IMAGE_CACHE = "attention-py-python-image";
const imageKey = (url) => `${url.href}?inflated`;

/** The kept image for `url`, or null (none, another length or digest, no Cache Storage here). */
async function keptImage(url, expected, digest) {
  try {
    if (!cacheStorage) return null; // not a secure context
    const cache = await cacheStorage.open(IMAGE_CACHE);
    const found = await cache.match(imageKey(url));
    if (!found) return null;
    const bytes = new Uint8Array(await found.arrayBuffer());
    if (bytes.byteLength === expected && (await sha256(bytes)) === digest) return bytes;
    console.info("attention_py: the Python memory image kept by an earlier visit was changed; it is deleted and the build's copy is used");
    await cache.delete(imageKey(url));
  } catch {
    // Storage refused or broken: the network copy will do.
  }
  return null;
}

/** Hex SHA-256 of `bytes`. */
async function sha256(bytes) {
  if (!digestOf) return "";
  const hash = new Uint8Array(await digestOf("SHA-256", bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Keeps the image just restored from the network for the next visit (after Python is ready);
 * true once it is stored. (It arrived whole: gzip's own checksum and the length were checked.) */
async function keepImage(url, bytes) {
  if (!cacheStorage || !digestOf) return false; // without a way to check it later, nothing is kept
  const cache = await cacheStorage.open(IMAGE_CACHE);
  for (const request of await cache.keys()) {
    if (request.url !== imageKey(url)) await cache.delete(request);
  }
  await cache.put(imageKey(url), new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
  return true;
}

/** Forgets a kept image Pyodide refused (the next visit inflates the network copy again). */
async function forgetImage(url) {
  if (cacheStorage) await (await cacheStorage.open(IMAGE_CACHE)).delete(imageKey(url));
}

/**
 * The image from the response body, inflated while it arrives (reading 6.7 MB from the HTTP
 * cache and inflating them overlap) into one buffer of the size the manifest gives. A host
 * that sent the file with Content-Encoding: gzip has inflated it already (no gzip magic).
 * Throws on a corrupt gzip or a length other than `expected` (when given).
 */
async function readImage(body, expected, name) {
  const reader = body.getReader();
  const first = await reader.read();
  const head = first.value || new Uint8Array(0);
  const gzipped = head[0] === 0x1f && head[1] === 0x8b;
  const whole = new ReadableStream({
    start(controller) {
      if (head.byteLength) controller.enqueue(head);
      if (first.done) controller.close();
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const stream = gzipped ? whole.pipeThrough(new DecompressionStream("gzip")) : whole;
  if (!expected) return new Uint8Array(await new Response(stream).arrayBuffer());
  const bytes = new Uint8Array(expected);
  let length = 0;
  const chunks = stream.getReader();
  for (;;) {
    const { done, value } = await chunks.read();
    if (done) break;
    if (length + value.byteLength > expected) {
      chunks.cancel();
      length += value.byteLength;
      break;
    }
    bytes.set(value, length);
    length += value.byteLength;
  }
  if (length !== expected) {
    throw new Error(`${name}: ${length > expected ? "more than " : ""}${length} bytes after decompression, the manifest says ${expected}`);
  }
  return bytes;
}

/**
 * Pyodide restored from the build's memory image (private, experimental API of Pyodide
 * 314.0.7). Pyodide itself refuses an image of another build; the image's session runtime
 * must be exactly the one bundled here. Throws otherwise (the caller boots normally).
 */
async function restore(loadPyodide, snapshot) {
  // The standard library's archive is not downloaded to start: an empty one stands in for it
  // until code imports a module the image does not hold (stdlibOnDemand).
  const emptyArchive = URL.createObjectURL(new Blob([EMPTY_ZIP], { type: "application/zip" }));
  let restored;
  try {
    restored = await loadPyodide({
      indexURL: PYODIDE_DIR.href,
      stdLibURL: emptyArchive,
      _loadSnapshot: snapshot.image,
      stdout: () => {},
      stderr: () => {},
    });
  } finally {
    URL.revokeObjectURL(emptyArchive);
  }
  stdlibOnDemand(restored);
  const module = restored.runPython("import sys; sys.modules.get('_session_runtime')");
  const made = module && module.__snapshot__;
  const source = made && made.get("source");
  made?.destroy?.();
  if (source !== runtimeSource) {
    module?.destroy?.();
    throw new Error(`${snapshot.name} was made with another session_runtime.py`);
  }
  // The image froze the state of `random` (if anything imported it): every page would draw
  // the same numbers. A fresh seed from the browser's entropy, as a normal boot has.
  restored.runPython("import sys\nif 'random' in sys.modules: sys.modules['random'].seed()");
  runtime = module;
  return restored;
}

// An empty zip archive: the end-of-central-directory record and nothing else.
const EMPTY_ZIP = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);
const STDLIB_URL = new URL("python_stdlib.zip", PYODIDE_DIR);

/**
 * Installs stdlib_on_demand.py's finder in a restored Python: the first import of a module
 * the image does not hold downloads python_stdlib.zip (synchronously: Python is waiting in
 * the middle of an import, and only this worker waits) into the place of the empty archive.
 */
function stdlibOnDemand(pyodide) {
  const archive = pyodide.runPython("import sys; next(p for p in sys.path if p.endswith('.zip'))");
  const install = () => {
    const request = new XMLHttpRequest();
    request.open("GET", STDLIB_URL.href, false);
    request.responseType = "arraybuffer";
    request.send(null);
    if (request.status !== 200) throw new Error(`${STDLIB_URL.pathname}: HTTP ${request.status}`);
    pyodide.FS.writeFile(archive, new Uint8Array(request.response));
  };
  pyodide.runPython(stdlibOnDemandSource);
  const setUp = pyodide.globals.get("_stdlib_on_demand");
  pyodide.runPython("del _stdlib_on_demand");
  setUp(install);
  setUp.destroy();
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

/** session_runtime.py as the module _session_runtime, loaded by session_loader.py (as the snapshot's maker does). */
function loadRuntime(pyodide) {
  pyodide.runPython(loaderSource);
  const load = pyodide.globals.get("_load_session_runtime");
  pyodide.runPython("del _load_session_runtime");
  const module = load(runtimeSource);
  load.destroy();
  return module;
}

/**
 * The text of the site's file assets/<path> (a data file such as training/en.json), read
 * synchronously: Python asks for it in the middle of running code (attention_py.resources),
 * and only this worker waits. Same origin by construction; an HTTP error throws.
 */
function readSiteFile(path) {
  const url = new URL(`../${path}`, import.meta.url); // this file lives in assets/widgets/
  const request = new XMLHttpRequest();
  request.open("GET", url.href, false);
  // Bounded: a file that never arrives fails the call that reads it (shorter than the
  // figures' warm-up limit, so the worker is never replaced for a slow file).
  request.timeout = SITE_FILE_TIMEOUT_MS;
  request.send(null);
  if (request.status !== 200) throw new Error(`${url.pathname}: HTTP ${request.status}`);
  return request.responseText;
}

// Pyodide fetches its big files with the global fetch. While it loads, wrap fetch to count
// each response's bytes as they arrive. The count reads a clone: Pyodide still gets the
// original response, so the browser can stream-compile the wasm and cache the compiled code
// (a rebuilt Response would lose its URL and with it that cache). Returns the undo.
/**
 * Pyodide does not notice a file of its runtime that failed: it waits for ever. A response
 * that is not OK, or a .wasm that does not start with the wasm magic number, ends the load
 * in progress with an error that names the file (the page then says Python could not start).
 */
function checkRuntimeFile(url, response) {
  const name = url.pathname.split("/").pop();
  if (!response.ok) {
    runtimeBroken?.(new Error(`${name}: HTTP ${response.status}`));
    return;
  }
  if (!name.endsWith(".wasm") || !response.body) return;
  const reader = response.clone().body.getReader();
  reader.read().then(({ value }) => {
    reader.cancel().catch(() => {});
    const magic = value && value[0] === 0x00 && value[1] === 0x61 && value[2] === 0x73 && value[3] === 0x6d;
    if (!magic) runtimeBroken?.(new Error(`${name}: not a WebAssembly module`));
  }, () => {});
}

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
    const url = new URL(response.url || String(args[0]?.url ?? args[0]), PYODIDE_DIR);
    if (url.href.startsWith(PYODIDE_DIR.href)) checkRuntimeFile(url, response);
    if (response.ok && response.body) count(response.clone().body).catch(() => {});
    return response;
  };
  return () => {
    self.fetch = original;
  };
}

/**
 * The page's network rule for code run here: requests go to this site only (the origin the
 * worker script came from). fetch (which pyodide.http.pyfetch and js.fetch use),
 * XMLHttpRequest (pyodide.http.open_url), WebSocket, EventSource and WebTransport refuse
 * any other URL with an error that names the rule. Relative URLs are resolved against this
 * file's URL. The browser enforces the same rule through the page's Content-Security-Policy
 * (connect-src 'self', script-src without other hosts), which this worker inherits; this
 * guard is what gives the reader a clear message instead of "Failed to fetch".
 */
function guardNetwork() {
  const check = (what, url) => {
    let target;
    try {
      target = new URL(url instanceof Request ? url.url : String(url), import.meta.url);
    } catch {
      return url; // not a URL at all: the real function gives its own error
    }
    const origin = target.protocol.startsWith("ws") ? target.origin.replace(/^ws/, "http") : target.origin;
    if (origin !== SITE_ORIGIN) {
      throw new Error(
        `${what}(${JSON.stringify(target.href)}) refused: code on this page may only request files of this site (${SITE_ORIGIN}), not other hosts`,
      );
    }
    return url instanceof Request ? url : target.href;
  };
  const realFetch = self.fetch;
  self.fetch = function fetch(input, init) {
    return realFetch.call(self, check("fetch", input), init);
  };
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    return open.call(this, method, check("XMLHttpRequest.open", url), ...rest);
  };
  for (const name of ["WebSocket", "EventSource", "WebTransport"]) {
    const Real = self[name];
    if (typeof Real !== "function") continue;
    self[name] = new Proxy(Real, {
      construct: (target, [url, ...rest], newTarget) => Reflect.construct(target, [check(name, url), ...rest], newTarget),
    });
  }
}
