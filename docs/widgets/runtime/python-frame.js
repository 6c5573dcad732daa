// The runtime's frame: the one script of the sandboxed frame that hosts the page's Python
// (README.md, "Where reader code runs"). The page (frame-worker.js) writes it inline into the
// frame's srcdoc, byte for byte as scripts/build-widgets.mjs bundled it, so the page's
// Content-Security-Policy, which the srcdoc inherits, allows it by its hash. The frame has
// `sandbox="allow-scripts"` without `allow-same-origin`: its origin is opaque, so the code a
// reader runs here reaches none of the site's storage (Cache Storage, IndexedDB,
// localStorage), nor the page's DOM, and Chromium gives it a process of its own, so a heap
// exhaustion ends this frame and not the page.
//
// The frame only starts the worker and holds the memory it shares with it; it never sees a
// request or an answer (the worker talks to the page and to the page's files worker over
// MessagePorts the page made):
//   page -> frame  {type: "connect", port, files, wholeFiles, workerSource, site}
//                    make the Python worker, with `port` (the session's) and `files` (its
//                    requests for the site's files); `wholeFiles` is this frame's own
//                  {type: "interrupt", value}                   Stop: the shared interrupt byte
//                  {type: "ping", n}                            are you alive?
//   files -> frame {type: "file", id, ok, bytes | error}        (on `wholeFiles`) a file the
//                                                               worker waits for
//   frame -> page  {type: "frame-ready", isolated}, {type: "pong", n},
//                  {type: "interrupt-seen"}, {type: "worker-error", message}
// Only the parent's messages and those on the port it gave count: the worker's own
// postMessage (which reader code can call) reaches this frame's Worker object, and nothing
// here listens to it.
(() => {
  const page = parent;
  const say = (message) => page.postMessage(message, "*");
  const isolated = Boolean(self.crossOriginIsolated);
  // Shared with the worker when this frame is cross-origin isolated (the page delegates it
  // with allow="cross-origin-isolated"): the interrupt byte Pyodide watches, and the channel
  // of a file the worker waits for synchronously (state, length; then the bytes).
  const interrupt = isolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
  const fileState = isolated ? new Int32Array(new SharedArrayBuffer(12)) : null;
  const fileBytes = isolated ? new SharedArrayBuffer(0, { maxByteLength: 256 * 1024 * 1024 }) : null;
  let worker = null;
  let watching = 0;

  function start({ port, files, wholeFiles, workerSource, site }) {
    if (worker) return;
    wholeFiles.onmessage = (event) => {
      if (event.data?.type === "file") giveFile(event.data);
    };
    const module = URL.createObjectURL(new Blob([workerSource], { type: "text/javascript" }));
    // A classic worker that imports the runtime's module: Chromium refuses a module worker
    // whose blob: URL belongs to an opaque origin, and a classic one may import modules.
    // Pyodide takes a worker where importScripts works for a classic one, which it refuses to
    // run in ("Classic web workers are not supported"): the page's CSP refuses the data: script
    // it tries, and without that policy (a copy of the pages served without it) the worker
    // has no importScripts at all, so Pyodide loads as in a module worker either way.
    const bootstrap = `self.importScripts = () => { throw new TypeError("importScripts is not available in Python's worker"); }; self.onmessage = (event) => { self.onmessage = null; import(${JSON.stringify(module)}).then((runtime) => runtime.connect(event.data)).catch((error) => setTimeout(() => { throw error; })); };`;
    try {
      worker = new Worker(URL.createObjectURL(new Blob([bootstrap], { type: "text/javascript" })), { name: "python" });
    } catch (error) {
      say({ type: "worker-error", message: `this browser could not make its worker (${error?.message || error})` });
      return;
    }
    worker.onerror = (event) => {
      event.preventDefault();
      say({ type: "worker-error", message: event.message || "the Python worker stopped" });
    };
    worker.postMessage({ port, files, site, interruptBuffer: interrupt, fileState, fileBytes }, [port, files]);
  }

  function setInterrupt(value) {
    if (!interrupt) return;
    Atomics.store(interrupt, 0, value);
    clearInterval(watching);
    if (value === 0) return;
    // Pyodide puts the byte back to 0 when it raises KeyboardInterrupt: the page waits a little
    // longer for an answer from a Python that did.
    watching = setInterval(() => {
      if (Atomics.load(interrupt, 0) !== 0) return;
      clearInterval(watching);
      say({ type: "interrupt-seen" });
    }, 25);
  }

  // fileState: [0] 0 while the worker waits, 1 the bytes are there, 2 an error's text is;
  // [1] their length; [2] the id of the request they answer (a late answer to an earlier one
  // is not taken for this one).
  function giveFile({ id, ok, bytes, error }) {
    if (!fileState) return;
    const body = ok ? new Uint8Array(bytes) : new TextEncoder().encode(String(error));
    if (body.byteLength > fileBytes.maxByteLength) {
      giveFile({ id, ok: false, error: `the file is ${body.byteLength} bytes long; at most ${fileBytes.maxByteLength} can be handed over` });
      return;
    }
    if (fileBytes.byteLength < body.byteLength) fileBytes.grow(body.byteLength);
    new Uint8Array(fileBytes).set(body);
    Atomics.store(fileState, 1, body.byteLength);
    Atomics.store(fileState, 2, id);
    Atomics.store(fileState, 0, ok ? 1 : 2);
    Atomics.notify(fileState, 0);
  }

  addEventListener("message", (event) => {
    if (event.source !== page) return;
    const message = event.data || {};
    if (message.type === "connect") start(message);
    else if (message.type === "interrupt") setInterrupt(message.value);
    else if (message.type === "ping") say({ type: "pong", n: message.n });
  });
  say({ type: "frame-ready", isolated });
})();
