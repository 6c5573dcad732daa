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
// What was read ahead and not asked for within this long is dropped (the memory image alone
// is 31 MB).
const EARLY_KEPT_MS = 30_000;

/**
 * What Python will ask for first, read ahead while its frame and worker load (the page says
 * what when Python starts: frame-worker.js): a warm visit's runtime files come from the
 * service worker, and the kept memory image is read and checked, before the worker asks. A
 * file is taken once, by the first request for its URL; anything of another site is ignored.
 */
export class EarlyFiles {
  constructor(scope) {
    this.scope = scope;
    this.files = new Map(); // href -> {response: Promise<Response>, controller}
    this.image = null; // {href, bytes: Promise<Uint8Array | null>}
  }

  /** Starts reading `files` (URLs) and the kept image at `image` ("" for none). */
  start(files = [], image = "") {
    const origin = this.scope.location.origin;
    for (const href of files) {
      if (this.files.has(href) || new URL(href).origin !== origin) continue;
      const controller = new AbortController();
      const response = this.scope.fetch(href, { signal: controller.signal });
      response.catch(() => {}); // the request that takes it sees the error
      this.files.set(href, { response, controller });
    }
    if (image && new URL(image).origin === origin) {
      this.image = { href: image, bytes: keptImage(this.scope, new URL(image)) };
    }
    clearTimeout(this.dropping);
    this.dropping = setTimeout(() => this.drop(), EARLY_KEPT_MS);
  }

  /** The response read ahead for `href` ({response, controller}), once; or null. */
  takeFile(href) {
    const early = this.files.get(href) ?? null;
    this.files.delete(href);
    return early;
  }

  /** The kept image read ahead for `href` (a promise of its bytes or null), once; or null. */
  takeImage(href) {
    if (this.image?.href !== href) return null;
    const { bytes } = this.image;
    this.image = null;
    return bytes;
  }

  /** Drops what was not taken. */
  drop() {
    clearTimeout(this.dropping);
    for (const { controller } of this.files.values()) controller.abort();
    this.files.clear();
    this.image = null;
  }
}

export class RuntimeFiles {
  /**
   * `scope` is the global that fetches (the files worker's, or a window); `toWorker(message,
   * transfer)` posts on the Python worker's port; `toFrame` to the frame; `early` is what was
   * read ahead (EarlyFiles), or null.
   */
  constructor(scope, toWorker, toFrame, early = null) {
    this.scope = scope;
    this.early = early;
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
    const early = this.early?.takeFile(target.href);
    const controller = early?.controller ?? new AbortController();
    this.controllers.add(controller);
    const timer = setTimeout(() => controller.abort(new Error(`no answer in ${FETCH_TIMEOUT_MS / 1000} s`)), FETCH_TIMEOUT_MS);
    try {
      const response = await (early?.response ?? this.scope.fetch(target.href, { signal: controller.signal }));
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
      if (op === "read") value = await (this.early?.takeImage(target.href) ?? keptImage(this.scope, target));
      else if (op === "keep") value = await keepImage(this.scope, target, new Uint8Array(bytes));
      else if (op === "forget") await forgetImage(this.scope, target);
    } catch (thrown) {
      error = String(thrown?.message || thrown);
    }
    this.toWorker({ type: "image-answer", id, value, error }, value instanceof Uint8Array ? [value.buffer] : []);
  }
}
