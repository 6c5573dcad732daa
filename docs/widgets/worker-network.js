// The worker's requests: the network rule for code run here (this site only), the one way
// Python reads one of the site's data files, and the watch over the runtime's own files
// while Pyodide loads them (Pyodide itself waits for ever on a file that failed).
import { describe } from "./worker-describe.js";
import { PYODIDE_DIR, SITE_ORIGIN, WORKER_URL } from "./worker-urls.js";

// How long reading one of the site's data files (a trained model, ~250 KB) may take.
const SITE_FILE_TIMEOUT_MS = 45_000;

/**
 * The page's network rule for code run here: requests go to this site only (the origin the
 * worker script came from). fetch (which pyodide.http.pyfetch and js.fetch use),
 * XMLHttpRequest (pyodide.http.open_url), WebSocket, EventSource and WebTransport refuse
 * any other URL with an error that names the rule. Relative URLs are resolved against the
 * worker's URL. The browser enforces the same rule through the page's Content-Security-Policy
 * (connect-src 'self', script-src without other hosts), which this worker inherits; this
 * guard is what gives the reader a clear message instead of "Failed to fetch". Called first
 * of all (python-worker.js), before Pyodide or anything else can take a reference to fetch.
 */
export function guardNetwork() {
  const check = (what, url) => {
    let target;
    try {
      target = new URL(url instanceof Request ? url.url : String(url), WORKER_URL);
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

/**
 * The text of the site's file assets/<path> (a data file such as training/en.json), read
 * synchronously: Python asks for it in the middle of running code (attention_py.resources,
 * through session_runtime.use_site_files), and only this worker waits. Same origin by
 * construction; an HTTP error throws.
 */
export function readSiteFile(path) {
  const url = new URL(`../${path}`, WORKER_URL); // the worker lives in assets/widgets/
  const request = new XMLHttpRequest();
  request.open("GET", url.href, false);
  // Bounded: a file that never arrives fails the call that reads it (shorter than the
  // figures' warm-up limit, so the worker is never replaced for a slow file).
  request.timeout = SITE_FILE_TIMEOUT_MS;
  request.send(null);
  if (request.status !== 200) throw new Error(`${url.pathname}: HTTP ${request.status}`);
  return request.responseText;
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
