// The site's files, fetched for the Python worker in the sandboxed frame by the page's files
// worker (files-worker.js; README.md, "Where reader code runs"). The Python worker's origin
// is opaque: its own requests would be cross-origin and never reach the site's service
// worker, so it asks the files worker, a worker of the site's origin, which fetches as the
// page fetches anything (the service worker's checked copies, offline too) and streams the
// answer back over the port. Only this site's files are fetched; at most MAX_ACTIVE at a
// time, MAX_QUEUED waiting: reader code that asks for more gets an error, and no more than
// that many requests are ever running for it.
//
//   worker -> files  {type: "fetch", id, url, whole}   whole: the worker waits for the bytes
//                                                      synchronously (they go to the frame)
//                    {type: "image", id, op, url, bytes}   the kept memory image (image-cache.js)
//   files -> worker  {type: "fetch-head", id, status, statusText, contentType}
//                    {type: "fetch-chunk", id, chunk}, {type: "fetch-end", id}
//                    {type: "fetch-error", id, error}, {type: "image-answer", id, value, error}
//   files -> frame   {type: "file", id, ok, bytes | error}   a whole file, for the waiting worker
import { forgetImage, keepImage, keptImage } from "./image-cache.js";

const MAX_ACTIVE = 8;
const MAX_QUEUED = 256;
// A request the host never answers fails after this long (the worker's data files, the
// runtime's; the service worker has its own limits).
const FETCH_TIMEOUT_MS = 60_000;

export class RuntimeFiles {
  /**
   * `scope` is the global that fetches (the files worker's, or a window); `toWorker(message,
   * transfer)` posts on the Python worker's port; `toFrame` to the frame.
   */
  constructor(scope, toWorker, toFrame) {
    this.scope = scope;
    this.toWorker = toWorker;
    this.toFrame = toFrame;
    this.active = 0;
    this.queue = [];
    this.controllers = new Set();
    this.closed = false;
  }

  /** True when `message` is a request for a file (then it is answered here). */
  handles(message) {
    if (message?.type === "fetch") {
      if (this.active + this.queue.length >= MAX_ACTIVE + MAX_QUEUED) this.refuse(message, `more than ${MAX_ACTIVE + MAX_QUEUED} requests at once`);
      else {
        this.queue.push(message);
        this.next();
      }
      return true;
    }
    if (message?.type === "image") {
      this.image(message);
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    this.queue = [];
    for (const controller of this.controllers) controller.abort();
  }

  next() {
    while (!this.closed && this.active < MAX_ACTIVE && this.queue.length) {
      const message = this.queue.shift();
      this.active += 1;
      this.serve(message).finally(() => {
        this.active -= 1;
        this.next();
      });
    }
  }

  /** The site's URL the worker asked for, or null when it is not one of this site's. */
  siteURL(url) {
    try {
      const target = new URL(String(url), this.scope.location.href);
      return target.origin === this.scope.location.origin ? target : null;
    } catch {
      return null;
    }
  }

  refuse({ id, whole }, error) {
    if (whole) this.toFrame({ type: "file", id, ok: false, error });
    else this.toWorker({ type: "fetch-error", id, error });
  }

  async serve(message) {
    const { id, url, whole } = message;
    const target = this.siteURL(url);
    if (!target) {
      this.refuse(message, `${String(url).slice(0, 200)} is not a file of this site`);
      return;
    }
    const controller = new AbortController();
    this.controllers.add(controller);
    const timer = setTimeout(() => controller.abort(new Error(`no answer in ${FETCH_TIMEOUT_MS / 1000} s`)), FETCH_TIMEOUT_MS);
    try {
      const response = await this.scope.fetch(target.href, { signal: controller.signal });
      if (whole) {
        if (!response.ok) throw new Error(`${target.pathname}: HTTP ${response.status}`);
        const bytes = await response.arrayBuffer();
        this.toFrame({ type: "file", id, ok: true, bytes }, [bytes]);
        return;
      }
      const contentType = response.headers.get("Content-Type") || "";
      this.toWorker({ type: "fetch-head", id, status: response.status, statusText: response.statusText, contentType });
      if (response.body) {
        const reader = response.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          this.toWorker({ type: "fetch-chunk", id, chunk: value }, [value.buffer]);
        }
      }
      this.toWorker({ type: "fetch-end", id });
    } catch (error) {
      this.refuse(message, `${target.pathname}: ${controller.signal.aborted && controller.signal.reason ? controller.signal.reason.message : error?.message || error}`);
    } finally {
      clearTimeout(timer);
      this.controllers.delete(controller);
    }
  }

  /** The kept memory image: read (checked), kept (checked), forgotten. */
  async image({ id, op, url, bytes }) {
    const target = this.siteURL(url);
    let value = null;
    let error = null;
    try {
      if (!target) throw new Error("not a file of this site");
      if (op === "read") value = await keptImage(this.scope, target);
      else if (op === "keep") value = await keepImage(this.scope, target, new Uint8Array(bytes));
      else if (op === "forget") await forgetImage(this.scope, target);
    } catch (thrown) {
      error = String(thrown?.message || thrown);
    }
    this.toWorker({ type: "image-answer", id, value, error }, value instanceof Uint8Array ? [value.buffer] : []);
  }
}
