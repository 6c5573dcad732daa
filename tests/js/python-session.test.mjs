// PythonSession (docs/widgets/runtime/python-session.js) against a fake worker, with fake timers: the
// queue, time limits, Stop with and without an interrupt buffer, replacing a worker that
// crashed, a start that cannot begin or stalls, and the bounds on what a worker may send.
// The browser tests (tests/e2e/test_live_cells.py, test_reliability.py) prove the same with
// the real worker; these pin the rules, in milliseconds.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, mock, test } from "node:test";

import { createBoot, createEarlyWorker } from "../../docs/widgets/boot/page-boot.js";
import {
  CALL_TIMEOUT_MS,
  INTERRUPT_GRACE_MS,
  INTERRUPT_SEEN_EXTRA_MS,
  MAX_MESSAGE_CHARS,
  MAX_MESSAGES_PER_SECOND,
  PythonSession,
  STARTUP_STALL_MS,
} from "../../docs/widgets/runtime/python-session.js";
import { fakeWindow } from "./fake-page.mjs";
import { workerFactory } from "./fake-worker.mjs";

const BOOT_CONFIG = { worker: "../assets/widgets/python-worker.js", preload: [], snapshot: "" };

beforeEach(() => {
  mock.timers.enable({ apis: ["setTimeout", "Date"], now: 1_000_000 });
  // The session's clock follows the fake one (a plain stand-in: mock.method would record
  // each of the flood tests' thousands of calls).
  performance.now = () => Date.now();
});

afterEach(() => {
  mock.timers.reset();
  delete performance.now; // back to Performance.prototype.now
  delete globalThis.attentionPyBoot;
});

/** A page with the early boot (page-boot.js) on a fake window, and a session on it. */
function pageWithPython({ isolated = false, refuse = null } = {}) {
  const { Worker, workers } = workerFactory({ refuse });
  const win = fakeWindow({ crossOriginIsolated: isolated, Worker });
  const boot = (globalThis.attentionPyBoot = createBoot(win, BOOT_CONFIG));
  return { session: new PythonSession(), workers, boot, win };
}

/** As above, with Python started and ready in the first worker. */
function readyPython(options) {
  const page = pageWithPython(options);
  page.session.start();
  page.workers[0].ready({ python: "3.14", interrupts: Boolean(options?.isolated), boot: "plain", fallback: null });
  assert.equal(page.session.state, "ready");
  return page;
}

describe("the queue", () => {
  test("jobs wait for Python, then go one at a time, in the order they came", async () => {
    const { session, workers } = pageWithPython();
    const started = [];
    const jobs = ["a = 1", "b = 2", "c = 3"].map((code) => session.run(code, { onStart: () => started.push(code) }));
    const [worker] = workers;
    assert.deepEqual(
      worker.posted.map((message) => message.type),
      ["start"],
    );
    worker.ready();
    for (const [index, code] of ["a = 1", "b = 2", "c = 3"].entries()) {
      const runs = worker.requests("run");
      assert.equal(runs.length, index + 1, "one request at a time");
      assert.equal(runs[index].code, code);
      assert.deepEqual(started, ["a = 1", "b = 2", "c = 3"].slice(0, index + 1));
      worker.answer(runs[index], { value: String(index) });
    }
    const replies = await Promise.all(jobs.map((job) => job.reply));
    assert.deepEqual(
      replies.map((reply) => [reply.status, reply.value]),
      [
        ["ok", "0"],
        ["ok", "1"],
        ["ok", "2"],
      ],
    );
  });

  test("a run carries its page's language to the worker (a cell reads that language's model)", () => {
    const { session, workers } = readyPython();
    session.run("x = 1", { filename: "<cell 1>", lang: "he" });
    const [run] = workers[0].requests("run");
    assert.equal(run.lang, "he");
    assert.equal(run.filename, "<cell 1>");
  });

  test("output goes to the running job; messages of a job that ended are ignored", async () => {
    const { session, workers } = readyPython();
    const output = [];
    const job = session.run("print(1)", { onOutput: (stream, text) => output.push([stream, text]) });
    const [request] = workers[0].requests("run");
    workers[0].send({ id: request.id, type: "stdout", text: "1\n" });
    workers[0].answer(request);
    workers[0].send({ id: request.id, type: "stdout", text: "late\n" });
    assert.equal((await job.reply).status, "ok");
    assert.deepEqual(output, [["stdout", "1\n"]]);
  });

  test("a queued job stopped before it ran is cancelled and never sent", async () => {
    const { session, workers } = readyPython();
    session.run("first");
    const queued = session.run("second");
    queued.stop();
    assert.equal((await queued.reply).status, "cancelled");
    workers[0].answer(workers[0].requests("run")[0]);
    assert.deepEqual(
      workers[0].requests("run").map((message) => message.code),
      ["first"],
    );
  });

  test("a request the worker cannot receive fails on its own and the queue goes on", async () => {
    const { session, workers } = readyPython();
    const unsendable = session.call("attention_py.softmax", [() => 1]); // a function cannot be copied
    const next = session.run("x = 1");
    await assert.rejects(unsendable, (error) => error.reply.status === "error" && /could not be sent/.test(error.reply.error));
    const [run] = workers[0].requests("run");
    assert.equal(run.code, "x = 1");
    workers[0].answer(run);
    assert.equal((await next.reply).status, "ok");
  });
});

describe("time limits", () => {
  test("a run that exceeds its timeoutMs ends with status timeout (no isolation: a fresh worker)", async () => {
    const { session, workers } = readyPython();
    const job = session.run("while True: pass", { timeoutMs: 5000 });
    mock.timers.tick(4999);
    assert.equal(workers[0].terminated, false);
    mock.timers.tick(1);
    assert.equal(workers[0].terminated, true);
    assert.equal(workers.length, 2, "a fresh worker took over");
    assert.deepEqual(await job.reply, { status: "timeout", restarted: true });
  });

  test("call() has CALL_TIMEOUT_MS unless told otherwise, and rejects at it", async () => {
    const { session, workers } = readyPython();
    const call = session.call("attention_py.softmax", [[1, 2]]);
    mock.timers.tick(CALL_TIMEOUT_MS - 1);
    assert.equal(workers.length, 1);
    mock.timers.tick(1);
    await assert.rejects(call, (error) => error.reply.status === "timeout");
    const longer = session.call("attention_py.softmax", [[1, 2]], {}, { timeoutMs: 3 * CALL_TIMEOUT_MS });
    workers[1].ready();
    mock.timers.tick(2 * CALL_TIMEOUT_MS);
    workers[1].answer(workers[1].requests("call")[0], { value: [0.27, 0.73] });
    assert.deepEqual(await longer, [0.27, 0.73]);
  });
});

describe("code an earlier request left running", () => {
  test("holds the worker past a job's limit: the leftover is interrupted, the job gets its full time", async () => {
    const { session, workers } = readyPython({ isolated: true });
    const [worker] = workers;
    const buffer = worker.posted[0].interruptBuffer;
    session.run("js.setTimeout(loop, 0)");
    worker.answer(worker.requests("run")[0]);
    worker.held = true; // the loop the first run scheduled runs now
    const job = session.run("innocent()", { timeoutMs: 5000 });
    mock.timers.tick(5000);
    assert.equal(buffer[0], 2, "the leftover is interrupted");
    assert.equal(worker.terminated, false);
    buffer[0] = 0; // Pyodide raised KeyboardInterrupt in the leftover
    worker.begin(worker.requests("run")[1]);
    mock.timers.tick(INTERRUPT_GRACE_MS + 4999);
    assert.equal(worker.terminated, false, "the job's own limit counts from when it started");
    worker.answer(worker.requests("run")[1]);
    assert.deepEqual(await job.reply, { status: "ok", value: null, error: null, truncated: false, leftover: "interrupted" });
  });

  test("a leftover that does not unwind: a fresh worker, the job runs first in it", async () => {
    const { session, workers } = readyPython({ isolated: true });
    session.run("js.setTimeout(loop_in_js, 0)");
    workers[0].answer(workers[0].requests("run")[0]);
    workers[0].held = true;
    const job = session.run("innocent()", { timeoutMs: 5000 });
    const after = session.run("after()");
    mock.timers.tick(5000);
    mock.timers.tick(INTERRUPT_GRACE_MS);
    assert.equal(workers[0].terminated, true);
    workers[1].ready();
    assert.deepEqual(workers[1].requests("run").map((r) => r.code), ["innocent()"], "the held job first, alone");
    workers[1].answer(workers[1].requests("run")[0]);
    assert.equal((await job.reply).leftover, "replaced");
    assert.equal((await job.reply).status, "ok");
    workers[1].answer(workers[1].requests("run")[1]);
    assert.equal((await after.reply).leftover, undefined);
  });

  test("without isolation the worker is replaced at the job's limit, and the job is not blamed", async () => {
    const { session, workers } = readyPython();
    workers[0].held = true;
    const job = session.run("innocent()", { timeoutMs: 5000 });
    mock.timers.tick(5000);
    assert.equal(workers[0].terminated, true);
    workers[1].ready();
    mock.timers.tick(4999);
    workers[1].answer(workers[1].requests("run")[0]);
    assert.deepEqual(await job.reply, { status: "ok", value: null, error: null, truncated: false, leftover: "replaced" });
  });

  test("a leftover that throws before the job started: the job runs in a fresh worker, not blamed", async () => {
    const { session, workers } = readyPython({ isolated: true });
    workers[0].held = true;
    const job = session.run("innocent()", { timeoutMs: 5000 });
    workers[0].crash("KeyboardInterrupt in a timer's callback");
    assert.equal(workers[0].terminated, true);
    workers[1].ready();
    workers[1].answer(workers[1].requests("run")[0]);
    assert.deepEqual(await job.reply, { status: "ok", value: null, error: null, truncated: false, leftover: "replaced" });
  });

  test("a job that started and then runs too long is timed out as before", async () => {
    const { session } = readyPython();
    const job = session.run("while True: pass", { timeoutMs: 5000 });
    mock.timers.tick(5000);
    assert.deepEqual(await job.reply, { status: "timeout", restarted: true });
  });
});

describe("Stop with an interrupt buffer (cross-origin isolated)", () => {
  test("the interrupt is tried first: Python unwinds and the session lives on", async () => {
    const { session, workers } = readyPython({ isolated: true });
    const [worker] = workers;
    const buffer = worker.posted[0].interruptBuffer; // shared with the page, as in the browser
    const job = session.run("while True: pass", { timeoutMs: 1000 });
    const next = session.run("after = 1");
    mock.timers.tick(1000);
    assert.equal(buffer[0], 2, "SIGINT written into the shared buffer");
    buffer[0] = 0; // Pyodide raises KeyboardInterrupt and clears it
    worker.answer(worker.requests("run")[0], { status: "interrupted", error: "KeyboardInterrupt" });
    const reply = await job.reply;
    assert.equal(reply.status, "timeout");
    assert.equal(reply.restarted, undefined);
    assert.equal(worker.terminated, false);
    assert.equal(workers.length, 1);
    assert.equal(worker.requests("run")[1].code, "after = 1", "the next job runs in the same Python");
    worker.answer(worker.requests("run")[1]);
    assert.equal((await next.reply).status, "ok");
  });

  test("the worker is replaced only after the grace period when Python does not answer", async () => {
    const { session, workers } = readyPython({ isolated: true });
    const job = session.run("while True:\n  try: pass\n  except KeyboardInterrupt: pass");
    job.stop();
    assert.equal(workers[0].posted[0].interruptBuffer[0], 2);
    mock.timers.tick(INTERRUPT_GRACE_MS - 1);
    assert.equal(workers[0].terminated, false);
    mock.timers.tick(1);
    assert.equal(workers[0].terminated, true);
    assert.equal(workers.length, 2);
    assert.deepEqual(await job.reply, { status: "stopped", restarted: true });
  });

  test("Python took the interrupt but has not answered: it gets INTERRUPT_SEEN_EXTRA_MS more", async () => {
    const { session, workers } = readyPython({ isolated: true });
    const job = session.run("slow()");
    job.stop();
    workers[0].posted[0].interruptBuffer[0] = 0; // taken, the reply may be on its way
    mock.timers.tick(INTERRUPT_GRACE_MS); // (in steps: a timer set by a timer counts from the tick's end)
    mock.timers.tick(INTERRUPT_SEEN_EXTRA_MS - 1);
    assert.equal(workers[0].terminated, false);
    mock.timers.tick(1);
    assert.equal(workers[0].terminated, true);
    assert.equal((await job.reply).status, "stopped");
  });

  test("the buffer is cleared before each request, so a late Stop never hits the next one", () => {
    const { session, workers } = readyPython({ isolated: true });
    const buffer = workers[0].posted[0].interruptBuffer;
    session.run("first");
    buffer[0] = 2; // a Stop that came as the first job ended
    workers[0].answer(workers[0].requests("run")[0]);
    session.run("second");
    assert.equal(buffer[0], 0);
  });

  test("without isolation Stop replaces the worker at once", async () => {
    const { session, workers } = readyPython({ isolated: false });
    assert.equal(workers[0].posted[0].interruptBuffer, null);
    const job = session.run("while True: pass");
    job.stop();
    assert.equal(workers[0].terminated, true);
    assert.deepEqual(await job.reply, { status: "stopped", restarted: true });
  });
});

describe("replacing a worker", () => {
  test("after a crash a fresh worker is made and the queued jobs run in it", async () => {
    const { session, workers } = readyPython();
    const restarts = [];
    session.addEventListener("restart", (event) => restarts.push(event.detail));
    const running = session.run("crash()");
    const queued = session.run("after = 1");
    const event = workers[0].crash("RangeError: out of memory");
    assert.equal(event.defaultPrevented, true, "reported on the page, not as an uncaught error");
    assert.equal(workers[0].terminated, true);
    assert.deepEqual(await running.reply, { status: "crashed", error: "RangeError: out of memory", restarted: true });
    assert.deepEqual(restarts, [{ reason: "crashed", error: "RangeError: out of memory" }]);
    assert.equal(session.generation, 2);
    assert.deepEqual(
      workers[1].posted.map((message) => message.type),
      ["start"],
      "nothing is sent before the fresh Python is ready",
    );
    assert.deepEqual(workers[0].requests("run").length, 1, "the queued job never went to the dead worker");
    workers[1].ready();
    const [run] = workers[1].requests("run");
    assert.equal(run.code, "after = 1");
    workers[1].answer(run);
    assert.equal((await queued.reply).status, "ok");
  });

  test("a fatal error reported by the worker replaces it too; the crashed job is not run again", async () => {
    const { session, workers } = readyPython();
    const job = session.run("recurse()");
    workers[0].send({ id: workers[0].requests("run")[0].id, type: "fatal", error: "Maximum call stack size exceeded" });
    assert.deepEqual(await job.reply, { status: "crashed", error: "Maximum call stack size exceeded", restarted: true });
    workers[1].ready();
    assert.equal(workers[1].requests("run").length, 0);
  });

  test("a worker closed by its code ends after its job, which says its session is gone", async () => {
    const { session, workers } = readyPython();
    const job = session.run("import js; js.close()");
    const queued = session.run("x = 1");
    workers[0].send({ type: "closing" });
    workers[0].answer(workers[0].requests("run")[0]);
    assert.deepEqual(await job.reply, { status: "ok", value: null, error: null, truncated: false, restarted: true });
    assert.equal(workers[0].terminated, true);
    workers[1].ready();
    workers[1].answer(workers[1].requests("run")[0]);
    assert.equal((await queued.reply).status, "ok");
  });

  test("restart() ends the running job as restarted; the old worker's last words are ignored", async () => {
    const { session, workers } = readyPython();
    const job = session.run("x = 1");
    const [request] = workers[0].requests("run");
    session.restart();
    workers[0].answer(request, { value: "from the old worker" });
    assert.deepEqual(await job.reply, { status: "restarted", restarted: true });
    assert.equal(session.state, "loading");
  });
});

describe("start-up", () => {
  test("no worker can be made: the session fails with a message, and so do its jobs", async () => {
    const { session, workers } = pageWithPython({ refuse: new Error("workers are off") });
    const job = session.run("x = 1");
    assert.equal(workers.length, 0);
    assert.equal(session.state, "failed");
    assert.equal(session.error, "this browser could not make its worker (workers are off)");
    assert.deepEqual(await job.reply, { status: "failed", error: session.error, reason: null });
  });

  test("a worker that fails before it is ready fails the start; start() tries again", async () => {
    const { session, workers } = pageWithPython();
    const job = session.run("x = 1");
    workers[0].send({ id: 0, type: "failed", error: "pyodide.asm.wasm: HTTP 404" });
    assert.equal(session.state, "failed");
    assert.equal((await job.reply).error, "pyodide.asm.wasm: HTTP 404");
    session.start();
    assert.equal(workers.length, 2);
    assert.equal(session.state, "loading");
  });

  test(`a start with nothing from the worker for STARTUP_STALL_MS (${STARTUP_STALL_MS} ms) fails as stalled`, async () => {
    const { session, workers } = pageWithPython();
    const job = session.run("x = 1");
    mock.timers.tick(STARTUP_STALL_MS - 1);
    workers[0].send({ type: "progress", phase: "download", loaded: 1, total: 10 }); // a word: the watch starts over
    mock.timers.tick(STARTUP_STALL_MS - 1);
    assert.equal(session.state, "loading");
    mock.timers.tick(1);
    assert.equal(session.state, "failed");
    assert.equal(session.failReason, "stalled");
    assert.equal(workers[0].terminated, true);
    const reply = await job.reply;
    assert.equal(reply.status, "failed");
    assert.equal(reply.reason, "stalled");
  });

  test("the stall watch ends when Python is ready", () => {
    const { session } = readyPython();
    mock.timers.tick(10 * STARTUP_STALL_MS);
    assert.equal(session.state, "ready");
  });

  test("the page's early worker is adopted, with what it said before the session existed", () => {
    const { Worker, workers } = workerFactory();
    const win = fakeWindow({ Worker });
    const boot = (globalThis.attentionPyBoot = createBoot(win, BOOT_CONFIG));
    createEarlyWorker(win, boot, BOOT_CONFIG);
    boot.worker.start(); // the observer: a cell is near
    workers[0].send({ type: "progress", phase: "download", loaded: 5, total: 10 });
    const session = new PythonSession();
    session.start();
    assert.equal(workers.length, 1, "no second worker");
    assert.equal(boot.worker.adopt(new PythonSession()), null, "taken once");
    assert.equal(workers[0].requests("start").length, 1, "started once");
    assert.deepEqual(session.progress, { phase: "download", loaded: 5, total: 10 });
    workers[0].ready();
    assert.equal(session.state, "ready");
  });
});

describe("what a worker may send", () => {
  function flood(worker, id, count, text = "x\n") {
    for (let i = 0; i < count; i += 1) worker.send({ id, type: "stdout", text });
  }

  test(`more than MAX_MESSAGES_PER_SECOND (${MAX_MESSAGES_PER_SECOND}) messages in a second replace the worker`, async () => {
    const { session, workers } = readyPython();
    const job = session.run("flood()", { onOutput: () => {} });
    const { id } = workers[0].requests("run")[0];
    flood(workers[0], id, MAX_MESSAGES_PER_SECOND - 2); // with "ready" and "started": exactly the bound
    assert.equal(workers[0].terminated, false);
    flood(workers[0], id, 1);
    assert.equal(workers[0].terminated, true);
    const reply = await job.reply;
    assert.equal(reply.status, "crashed");
    assert.match(reply.error, /flood of messages/);
  });

  test("a fresh worker is counted from zero: the flood of the one it replaced is not its own", async () => {
    const { session, workers } = readyPython();
    const job = session.run("flood()", { onOutput: () => {} });
    const { id } = workers[0].requests("run")[0];
    flood(workers[0], id, MAX_MESSAGES_PER_SECOND);
    assert.equal(workers[0].terminated, true);
    assert.equal((await job.reply).status, "crashed");
    // the same second: the fresh worker's first messages are not "more than it may"
    workers[1].ready();
    assert.equal(workers[1].terminated, false);
    assert.equal(session.state, "ready");
    const next = session.run("x = 1");
    workers[1].answer(workers[1].requests("run")[0], { value: null });
    assert.equal((await next.reply).status, "ok");
  });

  test("the bound is per second: the same number spread over two seconds is fine", () => {
    const { session, workers } = readyPython();
    session.run("print_a_lot()", { onOutput: () => {} });
    const { id } = workers[0].requests("run")[0];
    mock.timers.tick(1000);
    flood(workers[0], id, MAX_MESSAGES_PER_SECOND);
    mock.timers.tick(1000);
    flood(workers[0], id, MAX_MESSAGES_PER_SECOND);
    assert.equal(workers[0].terminated, false);
  });

  test(`an output message over MAX_MESSAGE_CHARS (${MAX_MESSAGE_CHARS}) characters replaces the worker`, async () => {
    const { session, workers } = readyPython();
    const seen = [];
    const job = session.run("big()", { onOutput: (_, text) => seen.push(text.length) });
    const { id } = workers[0].requests("run")[0];
    flood(workers[0], id, 1, "x".repeat(MAX_MESSAGE_CHARS));
    assert.equal(workers[0].terminated, false);
    flood(workers[0], id, 1, "x".repeat(MAX_MESSAGE_CHARS + 1));
    assert.equal(workers[0].terminated, true);
    assert.deepEqual(seen, [MAX_MESSAGE_CHARS], "the long message never reached the page's output");
    assert.equal((await job.reply).status, "crashed");
  });
});
