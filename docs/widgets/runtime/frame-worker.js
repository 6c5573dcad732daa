// The page's Python worker, hosted in a sandboxed frame (README.md, "Where reader code runs"):
// `FrameWorker` looks to the page's session like a Worker (postMessage, onmessage, onerror,
// terminate), so python-session.js and early-worker.js are the same whichever hosts Python.
//
// The frame (python-frame.js, inline in its srcdoc) has an opaque origin: the code a reader
// runs in it reaches none of the site's storage and none of the page's DOM, and a heap
// exhaustion ends only the frame's process. The page's side stays the one party that fetches
// and keeps the site's files: the worker asks for them over a port of its own, which the
// page's files worker answers (files-worker.js, a dedicated worker of the site's origin made
// here), so the site's service worker (offline copies, checked bytes) serves them as it serves
// the page, and no answer waits for the page's thread. What the frame shares with its worker
// (the interrupt byte, the channel of a file the worker waits for) is memory that cannot be
// shared across origins: the page asks the frame, and the files worker hands whole files to
// the frame over a port.

import { START } from "./messages.js";

// How often the page asks the frame whether it lives, and how long without an answer means
// its process ended (a heap exhaustion): the frame's own thread is idle while Python runs in
// its worker, so it answers within milliseconds.
const PING_MS = 1000;
const SILENT_MS = 4000;

export class FrameWorker {
  /**
   * `win` is the window; `frameSource` the frame's script (python-frame.js as bundled);
   * `workerURL` the runtime's module (assets/widgets/python-worker.js), fetched by the page
   * and handed to the frame as text. The files worker (files-worker.js, published beside it)
   * is made at once, so that it has loaded by the time Python asks for its first file.
   * `firstFiles` ({files, snapshot}, page-boot.js's firstFiles) is what Python will ask for
   * first: the files worker starts on them as soon as Python is started.
   */
  constructor(win, { frameSource, workerURL, firstFiles = { files: [], snapshot: "" } }) {
    this.win = win;
    this.onmessage = null;
    this.onerror = null;
    this.onmessageerror = null;
    this.ended = false;
    this.port = null;
    this.waiting = []; // [message, transfer] sent before the frame was connected
    this.workerURL = new URL(workerURL, win.location.href);
    this.firstFiles = firstFiles;
    // Stop's interrupt byte lives in the frame (shared memory cannot cross origins): writes go
    // there. Present when the page is isolated; the worker says in "ready" whether the frame
    // could take it (python-session.js then drops it).
    this.interruptBuffer = win.crossOriginIsolated ? new RemoteInterrupt(this) : null;
    this.frame = win.document.createElement("iframe");
    this.frame.setAttribute("sandbox", "allow-scripts");
    this.frame.setAttribute("allow", "cross-origin-isolated");
    this.frame.setAttribute("aria-hidden", "true");
    this.frame.setAttribute("tabindex", "-1");
    this.frame.title = "Python";
    this.frame.dataset.python = "";
    this.frame.style.cssText = "position:fixed;inline-size:1px;block-size:1px;border:0;opacity:0;pointer-events:none;inset-block-start:0;inset-inline-start:0";
    this.frame.srcdoc = `<!doctype html><meta charset="utf-8"><script>${frameSource}</script>`;
    this.workerSource = win.fetch(this.workerURL.href).then((response) => {
      if (!response.ok) throw new Error(`${this.workerURL.pathname}: HTTP ${response.status}`);
      return response.text();
    });
    this.workerSource.catch(() => {}); // reported when the frame asks for it
    try {
      this.filesWorker = new win.Worker(new URL("files-worker.js", this.workerURL).href, { name: "python-files" });
      this.filesWorker.onerror = (event) => {
        event.preventDefault?.();
        this.fail(`the worker that hands Python its files stopped (${event.message || "it could not load"})`);
      };
    } catch (error) {
      this.filesWorker = null;
      this.filesError = error?.message || String(error);
    }
    this.listener = (event) => {
      if (event.source === this.frame.contentWindow && !this.ended) this.fromFrame(event.data || {});
    };
    win.addEventListener("message", this.listener);
    (win.document.body || win.document.documentElement).append(this.frame);
  }

  /** Like Worker.postMessage; kept until the frame's worker is connected. */
  postMessage(message, transfer = []) {
    if (this.ended) return;
    // The interrupt byte is the frame's own (interruptBuffer above): "start" says only whether
    // the page wants interrupts.
    if (message?.type === START) {
      message = { ...message, interruptBuffer: null, interrupts: Boolean(this.interruptBuffer) };
      this.startFirstFiles(message.snapshotUnwanted);
    }
    if (this.port) this.port.postMessage(message, transfer);
    else this.waiting.push([message, transfer]);
  }

  /**
   * Python starts: the files worker reads what it will ask for first (the runtime's files,
   * the kept memory image unless the image is `unwanted`) while the frame's worker loads,
   * instead of when it asks.
   */
  startFirstFiles(unwanted) {
    const href = (path) => new URL(path, this.win.location.href).href;
    const { files, snapshot } = this.firstFiles;
    this.filesWorker?.postMessage({ type: "prefetch", files: files.map(href), image: snapshot && !unwanted ? href(snapshot) : "" });
  }

  /** Ends the frame, its process's Python with it. */
  terminate() {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.pinging);
    this.win.removeEventListener("message", this.listener);
    this.filesWorker?.terminate();
    this.port?.close();
    this.frame.remove();
  }

  /** Tells the frame something (its messages are checked by their source there). */
  toFrame(message, transfer = []) {
    if (!this.ended) this.frame.contentWindow?.postMessage(message, "*", transfer);
  }

  fromFrame(message) {
    if (message.type === "frame-ready") this.connect(message.isolated);
    else if (message.type === "pong") this.answeredAt = performance.now();
    else if (message.type === "interrupt-seen") this.interruptBuffer?.seen();
    else if (message.type === "worker-error") this.fail(message.message);
  }

  /**
   * The frame is up: its worker is made with the runtime's source and three ports: the
   * session's (the page keeps the other end), the files' (the files worker keeps the other
   * end) and, for the frame itself, the one the files worker hands whole files on.
   */
  async connect(isolated) {
    if (this.port) return;
    let workerSource;
    try {
      workerSource = await this.workerSource;
    } catch (error) {
      this.fail(`Python's worker could not be loaded (${error.message || error})`);
      return;
    }
    if (this.ended || this.port) return;
    if (!this.filesWorker) {
      this.fail(`this browser could not make the worker that hands Python its files (${this.filesError})`);
      return;
    }
    const session = new MessageChannel();
    const files = new MessageChannel();
    const wholeFiles = new MessageChannel();
    this.port = session.port1;
    this.port.onmessage = (event) => {
      if (!this.ended) this.onmessage?.(event);
    };
    this.port.onmessageerror = (event) => this.onmessageerror?.(event);
    this.filesWorker.postMessage({ type: "serve", worker: files.port1, frame: wholeFiles.port1 }, [files.port1, wholeFiles.port1]);
    const site = new URL("../../", this.workerURL).href; // the worker lives in assets/widgets/
    const ports = { port: session.port2, files: files.port2, wholeFiles: wholeFiles.port2 };
    this.toFrame({ type: "connect", ...ports, workerSource, site, isolated }, Object.values(ports));
    for (const [message, transfer] of this.waiting.splice(0)) this.port.postMessage(message, transfer);
    this.watchLife();
  }

  /**
   * Asks the frame every second whether it lives. A frame whose process ended (a heap
   * exhaustion in its worker) answers no more: after SILENT_MS the worker is reported broken,
   * and the session replaces it. A page whose own timers were held back (a hidden tab) does
   * not count the wait against the frame.
   */
  watchLife() {
    let n = 0;
    let tick = performance.now();
    this.answeredAt = tick;
    this.pinging = setInterval(() => {
      const now = performance.now();
      if (now - tick > 2 * PING_MS) this.answeredAt = now; // this page was asleep, not the frame
      tick = now;
      if (now - this.answeredAt > SILENT_MS) {
        this.fail("Python's frame stopped answering: its process ended (out of memory?)");
        return;
      }
      this.toFrame({ type: "ping", n: ++n });
    }, PING_MS);
  }

  /** Reports the worker broken, once, as a Worker reports an error. */
  fail(message) {
    if (this.ended || this.failed) return;
    this.failed = true;
    clearInterval(this.pinging);
    this.onerror?.({ message, preventDefault() {} });
  }
}

/**
 * The interrupt byte as the session uses a Uint8Array on shared memory (`buffer[0] = 2`,
 * `buffer[0] === 0`), kept in the frame: a write goes there; a read gives the last value
 * written, or 0 once the frame saw Pyodide take the interrupt.
 */
class RemoteInterrupt {
  constructor(host) {
    this.host = host;
    this.value = 0;
  }

  get 0() {
    return this.value;
  }

  set 0(value) {
    if (value === this.value) return;
    this.value = value;
    this.host.toFrame({ type: "interrupt", value });
  }

  seen() {
    this.value = 0;
  }
}
