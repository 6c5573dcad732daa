// The page's early worker: the Python worker the page's <head> creates while the page parses
// (page-boot.js), so that a worker's start, which needs the page's thread, is not made to
// wait for the page's scripts. This module is its one owner: the worker's state changes only
// through the four methods below, and everything else asks them.
//
//   watch(roots)       main.html, right after the content: the start rule (whenNear) watches
//                      the cells and figures; when none is near, Python's files are preloaded
//   start()            the start rule says go: the session starts, or, before the page's
//                      modules have made one, this worker is sent the session's first request
//   handOver(session)  the start policy (start-policy.js) has the page's session: from now on
//                      the rule starts that session; false when nothing is watching
//   adopt(session)     the session's first start (python-session.js) takes the worker, once
//
// The page's modules find it as `attentionPyBoot.worker` (earlyWorker()), which page-boot.js
// sets once; null when there is none (Data Saver, or it could not be made).

export class EarlyWorker {
  /** `worker` was just made by `boot.newWorker()`; `preload()` starts Python's downloads. */
  constructor(worker, boot, preload) {
    this.worker = worker;
    this.boot = boot;
    this.preload = preload;
    this.failed = false; // the worker's script could not load
    this.started = false; // sent the session's first request ("start")
    this.startedAt = 0;
    this.interruptBuffer = null;
    this.messages = []; // what it said before a session adopted it
    this.session = null; // the session the start rule starts, once there is one
    this.adopted = false;
    this.watching = false;
    worker.onmessage = (event) => this.messages.push(event.data); // until the session adopts it
    worker.onerror = (event) => {
      event.preventDefault();
      this.failed = true;
    };
  }

  /** The start rule watches `roots`; nothing near at the first layout: the downloads start. */
  watch(roots) {
    this.watching = this.boot.whenNear(
      roots,
      () => this.start(),
      () => this.preload(),
    );
  }

  /** The start rule says go. */
  start() {
    if (this.session) {
      this.session.start();
      return;
    }
    if (this.started || this.failed) return;
    this.started = true;
    Object.assign(this, this.boot.startWorker(this.worker));
  }

  /**
   * The start policy's session: the rule, when it fires, starts it (at once if the rule has
   * fired already). False when nothing watches (the caller then watches itself).
   */
  handOver(session) {
    if (!this.watching) return false;
    if (this.started) session.start();
    else this.session = session;
    return true;
  }

  /**
   * The worker for `session`'s first start, once: {worker, started, startedAt,
   * interruptBuffer, messages}; null when it was taken already or could not load (then it is
   * ended here, and the session makes a fresh one, which says why).
   */
  adopt(session) {
    if (this.adopted) return null;
    this.adopted = true;
    this.session = session; // from now on, the rule only asks the session to start
    if (this.failed) {
      this.worker.terminate();
      return null;
    }
    this.worker.onmessage = null;
    this.worker.onerror = null;
    const { worker, started, startedAt, interruptBuffer, messages } = this;
    this.messages = [];
    return { worker, started, startedAt, interruptBuffer, messages };
  }
}

/** The page's early worker (made by page-boot.js in <head>), or null. */
export function earlyWorker() {
  return globalThis.attentionPyBoot?.worker ?? null;
}
