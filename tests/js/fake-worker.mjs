// A stand-in for the page's Python worker (docs/widgets/runtime/worker/python-worker.js), for the page-side
// tests: it records what the page posts and lets the test answer as the worker would, crash
// it (onerror), or stay silent. Messages are copied as postMessage copies them
// (structuredClone), so a request the real worker could not receive fails here too, and an
// interrupt buffer on a SharedArrayBuffer is shared with the page as in the browser.

export class FakeWorker {
  constructor(url, options) {
    this.url = url;
    this.options = options;
    this.posted = []; // what the page sent, in order
    this.terminated = false;
    this.held = false; // true: code an earlier request left running keeps the worker busy
    this.onmessage = null;
    this.onerror = null;
    this.onmessageerror = null;
  }

  postMessage(message) {
    this.posted.push(structuredClone(message));
    // The worker takes a job up at once and says so, unless code left running holds it.
    if ((message.type === "run" || message.type === "call") && !this.held) this.begin(message);
  }

  /** The worker takes `request` up (it says "started"); `held` keeps it from doing so by itself. */
  begin(request) {
    this.send({ id: request.id, type: "started" });
  }

  terminate() {
    this.terminated = true;
  }

  /** The requests posted so far of one type ("start", "run", "call"). */
  requests(type) {
    return this.posted.filter((message) => message.type === type);
  }

  /** The worker says `data` to the page. */
  send(data) {
    this.onmessage?.({ data });
  }

  /** Python is up ("ready" answers the start request, id 0). */
  ready(value = { python: "3.14", interrupts: false, boot: "plain", fallback: null }) {
    this.send({ id: 0, type: "ready", value });
  }

  /** The result of `request` (one of `posted`): ok with `value` unless `reply` says otherwise. */
  answer(request, reply = {}) {
    this.send({ id: request.id, type: "result", status: "ok", value: null, error: null, truncated: false, ...reply });
  }

  /** The worker throws (an uncaught error in its script): the page's onerror gets the event. */
  crash(message = "the worker crashed") {
    const event = {
      message,
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    this.onerror?.(event);
    return event;
  }
}

/**
 * A Worker constructor for a fake window that keeps every worker it makes in `workers`, or
 * throws `refuse` (a browser that cannot make the worker).
 */
export function workerFactory({ refuse = null } = {}) {
  const workers = [];
  class Worker extends FakeWorker {
    constructor(url, options) {
      if (refuse) throw refuse;
      super(url, options);
      workers.push(this);
    }
  }
  return { Worker, workers };
}
