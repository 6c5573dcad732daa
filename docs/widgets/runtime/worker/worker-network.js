// The worker's requests. The worker runs in the sandboxed frame (python-frame.js): its origin
// is opaque, so it asks the page's files worker for the site's files (files-worker.js and
// runtime-files.js fetch them, the site's service worker serving its kept copies), over the
// port the page connected it with. Here: the network rule for code run here (this site
// only), the site's files as the files worker hands them (streamed, or whole through the
// frame for a synchronous read), the kept memory image through the files worker, and the
// watch over the runtime's own files while Pyodide loads them (Pyodide itself waits for ever
// on a file that failed).
import { describe } from "./worker-describe.js";
import { PYODIDE_DIR, SITE_ORIGIN, WORKER_URL } from "./worker-urls.js";

// How long a synchronous read of one of the site's files (a trained model, ~250 KB; the
// standard library, 2.5 MB) may take.
const SITE_FILE_TIMEOUT_MS = 45_000;

// The link to the files worker, set once by linkToFiles (python-worker.js's connect).
let link = null;
let nextId = 1;
const streams = new Map(); // id -> {head, controller} of a fetch the files worker is answering
const questions = new Map(); // id -> {resolve, reject} of an "image" question
// Taken before any reader code runs (it may replace the globals, not these).
const realFetch = self.fetch.bind(self);
const RealXMLHttpRequest = self.XMLHttpRequest;

/**
 * Connects this module to the page's files worker: `port` is the channel to it, kept here
 * (reader code can reach neither it nor its answers); `fileState` and `fileBytes` the memory
 * the frame shares for synchronous reads (null when the frame is not cross-origin isolated: a
 * synchronous read is then a plain request, which a host answers only with CORS).
 */
export function linkToFiles(port, fileState, fileBytes) {
  if (link) return;
  link = { post: port.postMessage.bind(port), fileState, fileBytes };
  port.addEventListener("message", (event) => {
    if (event.isTrusted) fromFiles(event.data);
  });
  port.start();
}

/** An answer of the files worker: a streamed file's part, or an answer about the image. */
function fromFiles(message) {
  const { type, id } = message || {};
  if (type === "image-answer") {
    const question = questions.get(id);
    questions.delete(id);
    if (message.error) question?.reject(new Error(message.error));
    else question?.resolve(message.value);
    return;
  }
  const stream = streams.get(id);
  if (!stream) return;
  if (type === "fetch-head") {
    stream.head.resolve(message);
  } else if (type === "fetch-chunk") {
    stream.controller?.enqueue(message.chunk);
  } else if (type === "fetch-end") {
    streams.delete(id);
    stream.controller?.close();
  } else if (type === "fetch-error") {
    streams.delete(id);
    const error = new TypeError(`Failed to fetch ${stream.url} (${message.error})`);
    stream.head.reject(error);
    stream.controller?.error(error);
  }
}

/** The files worker's fetch of one of the site's files, as a streamed Response (not counted, not guarded). */
export function siteFetch(url) {
  if (!link) return Promise.reject(new TypeError("Failed to fetch: the page has not connected Python's worker"));
  const id = nextId++;
  const href = new URL(url, WORKER_URL).href;
  const stream = { url: href, controller: null };
  const head = new Promise((resolve, reject) => {
    stream.head = { resolve, reject };
  });
  const body = new ReadableStream({
    start(controller) {
      stream.controller = controller;
    },
  });
  streams.set(id, stream);
  link.post({ type: "fetch", id, url: href, whole: false });
  return head.then(({ status, statusText, contentType }) => {
    const response = new Response(status === 204 || status === 304 ? null : body, {
      status,
      statusText,
      headers: contentType ? { "Content-Type": contentType } : {},
    });
    Object.defineProperty(response, "url", { value: href });
    return response;
  });
}

/** Asks the files worker about the kept memory image (image-cache.js): op "read", "keep" or "forget". */
export function askFiles(op, url, bytes = null) {
  if (!link) return Promise.reject(new Error("the page has not connected Python's worker"));
  const id = nextId++;
  return new Promise((resolve, reject) => {
    questions.set(id, { resolve, reject });
    link.post({ type: "image", id, op, url: String(url), bytes }, bytes ? [bytes.buffer] : []);
  });
}

/**
 * The bytes of the site's file at `url`, read synchronously: Python asks for them in the
 * middle of running code (a data file, the standard library at an import), and only this
 * worker waits. Through the files worker and the frame's shared memory when the frame is isolated;
 * otherwise a plain synchronous request. Throws on an HTTP error or a file that never comes.
 */
export function readSiteBytes(url) {
  const target = new URL(url, WORKER_URL);
  if (link?.fileState) {
    const state = link.fileState;
    const id = nextId++;
    Atomics.store(state, 0, 0);
    link.post({ type: "fetch", id, url: target.href, whole: true });
    const deadline = performance.now() + SITE_FILE_TIMEOUT_MS;
    for (;;) {
      const left = deadline - performance.now();
      if (left <= 0 || Atomics.wait(state, 0, 0, left) === "timed-out") {
        throw new Error(`${target.pathname}: no answer in ${SITE_FILE_TIMEOUT_MS / 1000} s`);
      }
      if (Atomics.load(state, 2) === id) break;
      Atomics.store(state, 0, 0); // a late answer to an earlier read: wait for this one's
    }
    const bytes = new Uint8Array(link.fileBytes, 0, Atomics.load(state, 1)).slice();
    if (Atomics.load(state, 0) === 2) throw new Error(new TextDecoder().decode(bytes));
    return bytes;
  }
  const request = new RealXMLHttpRequest();
  request.open("GET", target.href, false);
  request.responseType = "arraybuffer";
  request.send(null);
  if (request.status !== 200) throw new Error(`${target.pathname}: HTTP ${request.status}`);
  return new Uint8Array(request.response);
}

/**
 * The page's network rule for code run here: requests go to this site only. fetch (which
 * pyodide.http.pyfetch and js.fetch use) goes to the files worker, which fetches the site's file;
 * XMLHttpRequest (pyodide.http.open_url), WebSocket, EventSource and WebTransport refuse any
 * other URL with an error that names the rule (their requests to the site leave from the
 * frame's opaque origin: a host answers them only with CORS). Relative URLs are resolved
 * against the worker's published URL; blob: and data: URLs are local. The browser enforces
 * the same rule through the page's Content-Security-Policy (connect-src), which the frame and
 * this worker inherit; this guard is what gives the reader a clear message instead of
 * "Failed to fetch". Called first of all (python-worker.js), before Pyodide or anything else
 * can take a reference to fetch.
 */
export function guardNetwork() {
  const check = (what, url) => {
    let target;
    try {
      target = new URL(url instanceof Request ? url.url : String(url), WORKER_URL ?? undefined);
    } catch {
      return null; // not a URL at all: the real function gives its own error
    }
    if (target.protocol === "blob:" || target.protocol === "data:") return null;
    const origin = target.protocol.startsWith("ws") ? target.origin.replace(/^ws/, "http") : target.origin;
    if (origin !== SITE_ORIGIN) {
      throw new Error(
        `${what}(${JSON.stringify(target.href)}) refused: code on this page may only request files of this site (${SITE_ORIGIN}), not other hosts`,
      );
    }
    return target;
  };
  self.fetch = function fetch(input, init) {
    const target = check("fetch", input); // a refusal is thrown at once, as before any request
    if (!target) return realFetch(input, init);
    const method = (init?.method || (input instanceof Request ? input.method : "GET")).toUpperCase();
    if (method !== "GET" && method !== "HEAD") {
      return Promise.reject(new TypeError(`fetch(${JSON.stringify(target.href)}): only GET requests reach the site from here`));
    }
    return siteFetch(target.href);
  };
  const open = RealXMLHttpRequest.prototype.open;
  RealXMLHttpRequest.prototype.open = function (method, url, ...rest) {
    return open.call(this, method, check("XMLHttpRequest.open", url)?.href ?? url, ...rest);
  };
  for (const name of ["WebSocket", "EventSource", "WebTransport"]) {
    const Real = self[name];
    if (typeof Real !== "function") continue;
    self[name] = new Proxy(Real, {
      construct: (target, [url, ...rest], newTarget) => Reflect.construct(target, [check(name, url)?.href ?? url, ...rest], newTarget),
    });
  }
}

/**
 * The text of the site's file assets/<path> (a data file such as training/en.json), read
 * synchronously (readSiteBytes): Python asks for it in the middle of running code
 * (attention_py.resources, through session_runtime.use_site_files).
 */
export function readSiteFile(path) {
  return new TextDecoder().decode(readSiteBytes(new URL(`../${path}`, WORKER_URL))); // the worker is published in assets/widgets/
}

/**
 * What `load()` starts (a load of Pyodide), or a rejection as soon as it cannot end well.
 * Pyodide's runtime aborts on a wasm it cannot fetch or compile (a 404, a 503, a corrupt
 * file) with an error thrown in a callback, and its own promise then never settles; without
 * this, start-up would wait for ever ("Loading Python: 6.9 of 16.5 MB"). While the load is
 * pending: an error nobody handles, a file of the runtime that fails (checkRuntimeFile) and a
 * wasm that does not compile each end it. The watch is in place before `load()` starts, so it
 * sees every request the load makes.
 */
export function failingOnAbort(load) {
  let stop;
  const aborted = new Promise((_, reject) => {
    const onError = (event) => {
      event.preventDefault?.();
      reject(new Error(`Python's runtime could not load (${describe(event.reason ?? event.error ?? event.message)})`));
    };
    self.addEventListener("unhandledrejection", onError);
    self.addEventListener("error", onError);
    const fetchBefore = self.fetch;
    self.fetch = async (...args) => {
      const response = await fetchBefore(...args);
      const url = new URL(response.url || String(args[0]?.url ?? args[0]), PYODIDE_DIR);
      if (url.href.startsWith(PYODIDE_DIR.href)) checkRuntimeFile(url, response, reject);
      return response;
    };
    // A wasm that arrives but does not compile: Pyodide's loader (314.0.7) only warns on the
    // console ("wasm instantiation failed!") and never settles its promise; here the failure
    // ends the load.
    const originals = { instantiate: WebAssembly.instantiate, instantiateStreaming: WebAssembly.instantiateStreaming };
    for (const [name, original] of Object.entries(originals)) {
      WebAssembly[name] = function (...args) {
        const result = original.apply(this, args);
        result.catch((error) => reject(new Error(`pyodide.asm.wasm could not be compiled (${describe(error)})`)));
        return result;
      };
    }
    stop = () => {
      self.removeEventListener("unhandledrejection", onError);
      self.removeEventListener("error", onError);
      self.fetch = fetchBefore;
      Object.assign(WebAssembly, originals);
    };
  });
  const loading = new Promise((resolve) => {
    resolve(load()); // a synchronous throw becomes the load's rejection
  });
  return Promise.race([loading, aborted]).finally(stop);
}

/**
 * Pyodide does not notice a file of its runtime that failed: it waits for ever. A response
 * that is not OK, or a .wasm that does not start with the wasm magic number, calls `fail`
 * with an error that names the file (the page then says Python could not start).
 */
function checkRuntimeFile(url, response, fail) {
  const name = url.pathname.split("/").pop();
  if (!response.ok) {
    fail(new Error(`${name}: HTTP ${response.status}`));
    return;
  }
  if (!name.endsWith(".wasm") || !response.body) return;
  const reader = response.clone().body.getReader();
  reader.read().then(({ value }) => {
    reader.cancel().catch(() => {});
    const magic = value && value[0] === 0x00 && value[1] === 0x61 && value[2] === 0x73 && value[3] === 0x6d;
    if (!magic) fail(new Error(`${name}: not a WebAssembly module`));
  }, () => {});
}
