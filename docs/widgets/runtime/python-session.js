// The page side of the page's one Python session (see README.md for the protocol).
//
// PythonSession owns the worker: it starts it on demand, queues jobs so that exactly
// one runs at a time (which makes time limits and Stop unambiguous), and recovers from
// runaway code. With cross-origin isolation a SharedArrayBuffer lets Stop raise
// KeyboardInterrupt inside Python and the session lives on; without it the only way to stop
// a busy worker is to terminate it and start a fresh one, and definitions are lost.
//
// Every job ends (README.md, "What is guaranteed"): with the worker's answer; failed with a
// message; or at its time limit (cells: the fence's timeout, figure calls: CALL_TIMEOUT_MS),
// with the worker replaced if Python does not unwind. A worker whose Pyodide suffered a
// fatal error, or that was closed by the code it ran, is replaced at once; the job it was
// running says so (status "crashed", or `restarted: true`), and queued jobs run in the new one.
// The worker says when it takes a job up ("started"): a job whose time runs out before that
// was held by code an earlier request left running, which is stopped instead of the job
// (freeFromLeftover).

import { earlyWorker } from "../boot/early-worker.js";
import { CALL, CLOSING, FAILED, FATAL, KEPT, PROGRESS, READY, RESULT, RUN, STARTED } from "./messages.js";

// After an interrupt, how long Python may take to unwind before the worker is replaced
// (code that swallows KeyboardInterrupt, or a long C call, never checks the buffer).
export const INTERRUPT_GRACE_MS = 2000;
// Pyodide sets the buffer back to 0 when it raises KeyboardInterrupt. If it has done so when
// the grace ends, Python did unwind and its reply may only be waiting behind a busy page
// (a timer can run before a message that arrived earlier): it gets this much longer.
export const INTERRUPT_SEEN_EXTRA_MS = 1000;
// A call (a figure's update) takes milliseconds; one that takes this long is stuck.
export const CALL_TIMEOUT_MS = 10_000;
// Start-up always ends: when the worker has said nothing (no progress) for this long while
// Python loads (a stalled download, a runtime that hangs), the start fails with a message
// and the Restart button. The longest quiet step of a normal start (compiling the wasm,
// restoring the image) takes a few seconds even on a loaded machine.
export const STARTUP_STALL_MS = 30_000;
// What the page accepts from its worker (issue 19). The runtime sends at most about 1,000
// messages a second (output is batched: 50 per 50 ms) and caps a request's output at 200
// KB; a worker that sends more messages, or a longer output message, is not the runtime
// speaking (reader code cannot reach the channel any more: python-worker.js hideChannel),
// and is replaced at once.
export const MAX_MESSAGES_PER_SECOND = 5_000;
export const MAX_MESSAGE_CHARS = 1_000_000;

/**
 * The page's early boot (page-boot.js, run inline in the page's <head>): the connection
 * rule's answer, and the one way to make and start a worker.
 */
const boot = () => globalThis.attentionPyBoot || null;

/**
 * A worker that has been sent its "start", as one object {worker, startedAt, interruptBuffer,
 * messages}: the early worker (early-worker.js) when it was started already (its messages so
 * far in `messages`), else the early one or a new one, started now (`newWorker` and
 * `startWorker` of the page's early boot: the one way to make a worker and to start it). The
 * early worker is taken once, by the first session's first start; a fresh worker reports why
 * when the early one failed to load.
 */
function launchWorker(session) {
  const early = earlyWorker()?.adopt(session);
  if (early?.started) return early;
  const worker = early?.worker ?? boot().newWorker();
  return { worker, messages: [], ...boot().startWorker(worker) };
}

export class PythonSession extends EventTarget {
  constructor() {
    super();
    this.state = "idle"; // idle | loading | ready | failed
    this.progress = { phase: "idle", loaded: 0, total: 0 };
    this.info = null; // {python, interrupts, timings} once ready
    this.error = null;
    this.generation = 0; // counts fresh workers: the first session is 1
    this.worker = null;
    this.queue = []; // jobs not yet sent
    this.running = null; // the job the worker is executing
    this.nextId = 1;
    this.interruptBuffer = null;
    this.callTimeoutMs = CALL_TIMEOUT_MS; // the default time limit of call()
    this.closing = false; // the worker said its code closed it: it ends after the running job
  }

  /** Starts Python if it is not started; cheap to call again. */
  start() {
    if (this.state === "idle" || this.state === "failed") this.spawn();
  }

  /**
   * Runs a cell's code; returns a job: {id, reply, stop(reason)}. `job.reply` resolves (never
   * rejects) with {status, value, error, truncated, restarted}; status is one of ok, error,
   * stopped, timeout, restarted, crashed (Pyodide suffered a fatal error; `error` says which,
   * a fresh Python has started), cancelled, failed.
   */
  run(code, { filename, lang, timeoutMs, onOutput, onStart } = {}) {
    return this.submit({ type: RUN, code, filename, lang }, { timeoutMs, onOutput, onStart });
  }

  /**
   * Calls a Python function by dotted name; resolves with its result (plain data), rejects on
   * failure (also at the time limit, `this.callTimeoutMs` unless `timeoutMs` is given).
   */
  async call(name, args = [], kwargs = {}, { timeoutMs = this.callTimeoutMs } = {}) {
    const reply = await this.submit({ type: CALL, name, args, kwargs }, { timeoutMs }).reply;
    if (reply.status === "ok") return reply.value;
    throw Object.assign(new Error(reply.error || reply.status), { reply });
  }

  /**
   * Stops a job: a queued one is dropped, a running one is interrupted (or, without
   * isolation, its worker replaced). `reason` ends up in the reply's status ("stopped" or
   * "timeout").
   */
  stop(job, reason = "stopped") {
    if (!job || job.done) return;
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.finish(job, { status: "cancelled" });
      return;
    }
    if (job !== this.running || job.stopReason) return;
    if (reason === "timeout" && !job.started) {
      if (!job.held) this.freeFromLeftover(job);
      return;
    }
    job.stopReason = reason;
    if (this.interruptBuffer && this.state === "ready") {
      this.interruptBuffer[0] = 2; // SIGINT: Python raises KeyboardInterrupt at the next check
      job.graceTimer = setTimeout(() => this.graceEnded(job, reason), INTERRUPT_GRACE_MS);
    } else {
      this.replaceWorker(reason);
    }
  }

  /**
   * `job` reached its time limit without the worker taking it up: code an earlier request
   * left running (a timer, an asyncio task) holds the worker, and this job is not to blame.
   * The leftover is interrupted (or, when it does not unwind, its worker replaced) and the
   * job then runs with its full time, its reply saying what happened (`leftover`:
   * "interrupted" or "replaced").
   */
  freeFromLeftover(job) {
    job.held = true;
    clearTimeout(job.timer);
    if (this.interruptBuffer && this.state === "ready") {
      this.interruptBuffer[0] = 2;
      job.graceTimer = setTimeout(() => {
        if (!job.done && !job.started && job === this.running) this.replaceLeftover(job);
      }, INTERRUPT_GRACE_MS);
    } else {
      this.replaceLeftover(job);
    }
  }

  /**
   * A fresh worker for the job a leftover held: the job goes first in the new one, timed from
   * there as any job (no longer held: a fresh worker has no leftover).
   */
  replaceLeftover(job) {
    job.held = false;
    job.leftover = "replaced";
    clearTimeout(job.graceTimer);
    this.running = null; // not finished with the old worker: it runs again in the new one
    this.queue.unshift(job);
    this.replaceWorker("leftover");
  }

  /** The worker took up the running job: its time limit counts from now if a leftover held it. */
  jobStarted(job) {
    job.started = true;
    if (!job.held) return;
    job.leftover ??= "interrupted";
    clearTimeout(job.graceTimer);
    clearTimeout(job.timer);
    if (job.timeoutMs > 0) job.timer = setTimeout(() => this.stop(job, "timeout"), job.timeoutMs);
  }

  /** The interrupted job has not answered in time: wait a little more, or replace the worker. */
  graceEnded(job, reason) {
    if (job.done || job !== this.running) return;
    if (this.interruptBuffer[0] === 0 && !job.graceExtended) {
      job.graceExtended = true;
      job.graceTimer = setTimeout(() => this.graceEnded(job, reason), INTERRUPT_SEEN_EXTRA_MS);
      return;
    }
    this.replaceWorker(reason);
  }

  /** True while a cell's code (not a figure's call) has the worker: others wait for it. */
  get busyWithCode() {
    return this.running?.message.type === RUN;
  }

  /** A fresh Python: the running job ends as "restarted"; queued ones run afterwards. */
  restart() {
    this.replaceWorker("restarted");
  }

  // --- internals ---

  submit(message, { timeoutMs, onOutput, onStart } = {}) {
    let resolve;
    const reply = new Promise((settle) => {
      resolve = settle;
    });
    const job = { id: this.nextId++, message, timeoutMs, onOutput, onStart, resolve, reply, done: false };
    job.stop = (reason) => this.stop(job, reason);
    this.queue.push(job);
    this.start();
    this.pump();
    return job;
  }

  pump() {
    if (this.state !== "ready" || !this.worker || this.running) return;
    if (this.closing) {
      this.replaceWorker("closed"); // the worker is gone: what is queued runs in a fresh one
      return;
    }
    if (!this.queue.length) return;
    const job = (this.running = this.queue.shift());
    job.started = false; // until the worker says it took the job up ("started")
    // A Stop that came too late for the previous job must not hit this one. Cleared here,
    // before the job is sent, so that a Stop of this job is never lost.
    if (this.interruptBuffer) this.interruptBuffer[0] = 0;
    try {
      this.worker.postMessage({ id: job.id, ...job.message });
    } catch (error) {
      // The request cannot be copied to the worker (say, arguments nested too deeply for the
      // structured clone): it fails, the worker never saw it, the queue goes on.
      this.finish(job, { status: "error", error: `the request could not be sent to Python: ${error?.message || error}` });
      return;
    }
    if (job.timeoutMs > 0) {
      job.timer = setTimeout(() => this.stop(job, "timeout"), job.timeoutMs);
    }
    job.onStart?.();
  }

  finish(job, reply) {
    if (job.done) return;
    job.done = true;
    clearTimeout(job.timer);
    clearTimeout(job.graceTimer);
    if (this.running === job) this.running = null;
    job.resolve(reply);
    this.pump();
  }

  spawn() {
    this.generation += 1;
    let launched;
    try {
      launched = launchWorker(this);
    } catch (error) {
      // No worker at all (a browser without module workers): cells and figures say so.
      this.fail(`this browser could not make its worker (${error.message})`);
      return;
    }
    const { worker, startedAt, interruptBuffer, messages } = launched;
    this.spawnedAt = startedAt; // with readyAt: how long Python took to start
    this.state = "loading";
    this.error = null;
    this.setProgress({ phase: "download", loaded: 0, total: 0 });
    this.watchStartup();
    this.interruptBuffer = interruptBuffer;
    this.closing = false;
    this.window = null; // what a worker may send is counted per worker: a fresh one starts at zero
    this.worker = worker;
    worker.onmessage = (event) => this.receive(worker, event.data);
    worker.onerror = (event) => {
      event.preventDefault(); // reported on the page instead of as an uncaught error
      if (worker !== this.worker) return;
      // Before "ready" the worker could not start; after, it broke: a fresh one takes over.
      // Code an earlier request left running that throws (a timer's callback, interrupted)
      // before the worker took up the running job: that job is not the one that broke.
      if (this.state === "ready" && this.running && !this.running.started) this.replaceLeftover(this.running);
      else if (this.state === "ready") this.replaceWorker("crashed", event.message || "the Python worker stopped");
      else this.fail(event.message || "the Python worker could not start");
    };
    worker.onmessageerror = () => {
      if (worker === this.worker && this.running) {
        this.finish(this.running, { status: "error", error: "Python's answer could not be read" });
      }
    };
    for (const message of messages) this.receive(worker, message); // what the early worker said before
  }

  /** One message of `worker`'s (messages.js). @param {import("./messages.js").WorkerMessage} message */
  receive(worker, message) {
    if (worker !== this.worker) return; // a terminated worker's last words
    if (this.floods(message)) {
      this.replaceWorker("crashed", "Python's worker sent the page more than it may (a flood of messages)");
      return;
    }
    const { id, type } = message;
    if (type === PROGRESS) {
      this.setProgress(message);
      this.watchStartup();
    } else if (type === READY) {
      clearTimeout(this.stallTimer);
      this.info = message.value;
      // The frame could not take the interrupt byte (a browser that does not delegate
      // isolation to it): Stop replaces the worker instead.
      if (!this.info?.interrupts) this.interruptBuffer = null;
      this.readyAt = performance.now();
      performance.mark("python:ready");
      this.setState("ready");
      this.pump();
    } else if (type === KEPT) {
      // The memory image this Python was restored from is now kept for the next visit.
      if (this.info) this.info.imageKept = true;
    } else if (type === FAILED) {
      this.fail(message.error);
    } else if (type === FATAL) {
      // Pyodide cannot be used any more (a stack overflow in C, memory exhausted ...).
      this.replaceWorker("crashed", message.error);
    } else if (type === CLOSING) {
      // The code closed the worker: it ends after the running job, whose result still comes.
      this.closing = true;
      if (!this.running) this.replaceWorker("closed");
    } else if (this.running && id === this.running.id) {
      if (type === STARTED) {
        this.jobStarted(this.running);
      } else if (type === RESULT) {
        const { type: _, id: __, ...reply } = message;
        if (this.running.leftover) reply.leftover = this.running.leftover;
        if (reply.status === "interrupted") reply.status = this.running.stopReason || "stopped";
        if (this.closing) reply.restarted = true; // its session ends with it
        this.finish(this.running, reply);
      } else {
        this.running.onOutput?.(type, message.text);
      }
    }
  }

  /**
   * A fresh worker: the running job ends with `status: reason` (and `error`, when given);
   * queued jobs wait for the new Python. The new worker is spawned (state "loading") before
   * the job is finished, so that finishing it cannot send the next job to the old one.
   */
  replaceWorker(reason, error) {
    this.worker?.terminate();
    this.worker = null;
    const running = this.running;
    this.running = null;
    this.spawn();
    if (running) this.finish(running, error ? { status: reason, error, restarted: true } : { status: reason, restarted: true });
    this.dispatchEvent(new CustomEvent("restart", { detail: { reason, error } }));
  }

  /** True when `message` breaks the bounds of what a worker may send (per second, per message). */
  floods(message) {
    const now = performance.now();
    if (!this.window || now - this.window.start >= 1000) this.window = { start: now, count: 0 };
    this.window.count += 1;
    const text = message?.text; // output; a job's one result is bounded by the figure host and the output view
    return this.window.count > MAX_MESSAGES_PER_SECOND || (typeof text === "string" && text.length > MAX_MESSAGE_CHARS);
  }

  /** (Re)starts the start-up watchdog: STARTUP_STALL_MS without a word from the worker fails the start. */
  watchStartup() {
    clearTimeout(this.stallTimer);
    const worker = this.worker;
    this.stallTimer = setTimeout(() => {
      if (this.state !== "loading" || (worker && worker !== this.worker)) return;
      const seconds = STARTUP_STALL_MS / 1000;
      this.fail(`nothing arrived from Python's worker for ${seconds} s while it was starting`, "stalled");
    }, STARTUP_STALL_MS);
  }

  /** Python could not start: every waiting job fails; `reason` ("stalled") tells the cells why. */
  fail(error, reason = null) {
    clearTimeout(this.stallTimer);
    this.worker?.terminate();
    this.worker = null;
    this.error = error;
    this.failReason = reason;
    this.setState("failed");
    const waiting = [this.running, ...this.queue].filter(Boolean);
    this.running = null;
    this.queue = [];
    for (const job of waiting) this.finish(job, { status: "failed", error, reason });
  }

  setState(state) {
    this.state = state;
    this.dispatchEvent(new CustomEvent("state", { detail: state }));
    // For the page's offline reading (offline.js), which keeps Python's files once it is ready.
    if (typeof document !== "undefined") document.documentElement.dataset.apyPython = state;
  }

  setProgress(progress) {
    this.progress = { phase: progress.phase, loaded: progress.loaded || 0, total: progress.total || 0 };
    this.dispatchEvent(new CustomEvent("progress", { detail: this.progress }));
  }
}

let shared = null;

/** The page's one session, shared by the live cells and the figures (figure-host.js). */
export function pageSession() {
  shared ??= new PythonSession();
  return shared;
}
