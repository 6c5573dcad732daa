// FigureHost (docs/widgets/figures/figure-host.js): what happens to a figure's change when Python's
// call fails. Failures where the session went away (restarted, stopped, cancelled, failed)
// are sent again as often as it takes; failures the call may have caused itself (timeout,
// crashed) are sent again once; anything else is reported next to the figure; a state saved
// before a reload that fails is dropped. And what a call carries: the figure's strings once
// per Python (again to a Python that says it lacks them), the state Python last answered. A
// fake session answers the calls; the browser tests (tests/e2e/test_figures_live.py,
// test_reliability.py) cover the same with Python.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, mock, test } from "node:test";
import { setImmediate } from "node:timers/promises";

import { FakeElement, FakeSession, installPageGlobals } from "./fake-page.mjs";

const { sessionStorage } = installPageGlobals(); // before the import: saved-state.js reads them
const { FigureHost, UPDATE } = await import("../../docs/widgets/figures/figure-host.js");
const { MAX_FIGURE_ERROR } = await import("../../docs/widgets/runtime/message-bounds.js");

const DRAWN_STATE = '{"z":[1,2]}';
const SAVED_KEY = "attention_py:figure:/gallery/#figure-1"; // saved-state.js: page path and figure id
const UI = {
  figure_failed_update: "The figure could not be redrawn.",
  figure_unavailable: "Python is not available.",
  figure_waiting_for_code: "Waiting for the running cell.",
  figure_restoring: "Restoring.",
  figure_starting: "Starting Python.",
  figure_restarting: "Restarting Python.",
  number: (value) => String(value),
  figure_error_cut: ({ count }) => `(${count} more characters not shown)`,
  downloading: ({ loaded, total }) => `${loaded} of ${total} MB`,
};

/** A prerendered figure root with its error slot, and a host on it. */
function figure({ strings = "{}" } = {}) {
  const root = new FakeElement("div");
  Object.assign(root, { id: "figure-1", lang: "en", dir: "ltr" });
  Object.assign(root.dataset, { figure: "softmax", strings, state: DRAWN_STATE });
  const errorSlot = new FakeElement("p");
  errorSlot.dataset.role = "error";
  errorSlot.hidden = true;
  root.append(errorSlot);
  const session = new FakeSession();
  // The stand-in morph takes the answer's markup to be the new state (the real one patches
  // the root with Python's drawing, data-state included).
  const morph = (target, html) => (target.dataset.state = html);
  const host = new FigureHost(root, { session, uiStrings: UI, morph });
  return { host, session, root, errorSlot };
}

/** Lets the host's promise callbacks run (setImmediate is not among the faked timers). */
const settled = () => setImmediate();

let errors, warnings;
/** What the host said on the console: errors it reported, saved states it dropped (not Node's own warnings). */
const ownLines = (spy) => spy.mock.calls.map((call) => String(call.arguments[0])).filter((line) => line.startsWith("figure softmax:"));
const reported = () => ownLines(errors);
const dropped = () => ownLines(warnings);

beforeEach(() => {
  mock.timers.enable({ apis: ["setTimeout"] });
  errors = mock.method(console, "error", () => {});
  warnings = mock.method(console, "warn", () => {});
  sessionStorage.items.clear();
});
afterEach(() => {
  mock.timers.reset();
  mock.restoreAll();
});

describe("a change whose session went away is sent again, as often as it takes", () => {
  for (const status of ["restarted", "stopped", "cancelled", "failed"]) {
    test(status, async () => {
      const { host, session, errorSlot } = figure();
      host.queue({ "z.0": "3" }, null, null);
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        assert.equal(session.calls.length, attempt);
        assert.equal(session.last.name, UPDATE);
        assert.deepEqual(session.last.changes, { "z.0": "3" });
        session.last.fail(status);
        await settled();
      }
      assert.equal(session.calls.length, 4);
      assert.equal(host.stats.retries, 3);
      assert.deepEqual(reported(), []);
      assert.equal(errorSlot.hidden, true);
    });
  }

  test("under newer input: one call carries both, the newer value wins", async () => {
    const { host, session } = figure();
    host.queue({ "z.0": "3" }, null, null);
    host.queue({ "z.0": "4", "z.1": "5" }, null, null); // while the first call is in flight
    assert.equal(session.calls.length, 1, "at most one call in flight");
    session.last.fail("restarted");
    await settled();
    assert.equal(session.calls.length, 2);
    assert.deepEqual(session.last.changes, { "z.0": "4", "z.1": "5" });
  });
});

describe("a change that may have caused its failure is sent again once", () => {
  for (const status of ["timeout", "crashed"]) {
    test(`${status}: sent again, then reported`, async () => {
      const { host, session, errorSlot } = figure();
      host.queue({ "z.0": "3" }, null, null);
      session.last.fail(status);
      await settled();
      assert.equal(session.calls.length, 2);
      assert.deepEqual(session.last.changes, { "z.0": "3" });
      session.last.fail(status);
      await settled();
      assert.equal(session.calls.length, 2, "not a third time");
      assert.equal(reported().length, 1);
      assert.equal(errorSlot.hidden, false);
      assert.equal(errorSlot.textContent, UI.figure_failed_update);
    });
  }

  test("once per change: after an answer, the next change gets its own second chance", async () => {
    const { host, session } = figure();
    host.queue({ "z.0": "3" }, null, null);
    session.last.fail("timeout");
    await settled();
    session.last.resolve({ ok: true, html: '{"z":[3,2]}', state: { z: [3, 2] } });
    await settled();
    host.queue({ "z.0": "4" }, null, null);
    session.last.fail("timeout");
    await settled();
    assert.equal(session.calls.length, 4);
    assert.deepEqual(session.last.changes, { "z.0": "4" });
    assert.equal(reported().length, 0);
  });
});

describe("other failures are reported, not sent again", () => {
  test("an exception in Python (status error)", async () => {
    const { host, session, errorSlot } = figure();
    host.queue({ "z.0": "3" }, null, null);
    session.last.fail("error", "Traceback ... ZeroDivisionError");
    await settled();
    assert.equal(session.calls.length, 1);
    assert.equal(reported().length, 1);
    assert.match(reported()[0], /ZeroDivisionError/);
    assert.equal(errorSlot.textContent, UI.figure_failed_update);
    host.queue({ "z.0": "4" }, null, null);
    assert.equal(session.calls.length, 2, "the figure takes the next input");
  });

  test("a value Python refuses is shown, not retried", async () => {
    const { host, session, errorSlot } = figure();
    host.queue({ "z.0": "abc" }, null, null);
    session.last.resolve({ ok: false, error: "not a number", key: null });
    await settled();
    assert.equal(session.calls.length, 1);
    assert.equal(errorSlot.textContent, "not a number");
    assert.equal(reported().length, 0);
  });

  test("a figure's error longer than a figure's message is cut, and says so", async () => {
    const { host, session, errorSlot } = figure();
    host.queue({ "z.0": "abc" }, null, null);
    session.last.resolve({ ok: false, error: "E".repeat(MAX_FIGURE_ERROR + 5000), key: null });
    await settled();
    assert.equal(errorSlot.textContent, `${"E".repeat(MAX_FIGURE_ERROR)}… (5000 more characters not shown)`);
  });
});

describe("a state saved before a reload", () => {
  function saveState(value) {
    sessionStorage.setItem(SAVED_KEY, JSON.stringify({ base: DRAWN_STATE, value }));
  }

  test("is asked for as soon as the host arrives", () => {
    saveState('{"z.0": "7"}');
    const { session } = figure();
    assert.equal(session.calls.length, 1);
    assert.deepEqual(session.last.changes, { "z.0": "7" });
  });

  for (const status of ["timeout", "crashed", "error"]) {
    test(`is dropped when its call fails with ${status}, and not sent again`, async () => {
      saveState('{"z.0": "7"}');
      const { session, errorSlot } = figure();
      session.last.fail(status);
      await settled();
      assert.equal(session.calls.length, 1);
      assert.equal(sessionStorage.getItem(SAVED_KEY), null);
      assert.equal(dropped().length, 1);
      assert.equal(reported().length, 0);
      assert.equal(errorSlot.hidden, true, "the figure stays as the build drew it");
    });
  }

  test("is sent again when the session went away", async () => {
    saveState('{"z.0": "7"}');
    const { session } = figure();
    session.last.fail("restarted");
    await settled();
    assert.equal(session.calls.length, 2);
    assert.deepEqual(session.last.changes, { "z.0": "7" });
    assert.notEqual(sessionStorage.getItem(SAVED_KEY), null);
  });
});

describe("the figure's strings cross to Python once per Python", () => {
  const STRINGS = '{"softmax":{"title":"Softmax"}}';
  const answer = (call, state = { z: [3, 2] }) => call.resolve({ ok: true, html: JSON.stringify(state), state });

  test("sent with the first call, not with the next", async () => {
    const { host, session } = figure({ strings: STRINGS });
    host.queue({ "z.0": "3" }, null, null);
    assert.deepEqual(session.last.strings, { softmax: { title: "Softmax" } });
    answer(session.last);
    await settled();
    host.queue({ "z.0": "4" }, null, null);
    assert.equal(session.last.strings, null);
    assert.equal(session.last.args.at(-1), host.call.key, "named by the key Python keeps them under");
  });

  test("sent again to a fresh Python (a new session generation)", async () => {
    const { host, session } = figure();
    host.queue({ "z.0": "3" }, null, null);
    answer(session.last);
    await settled();
    session.generation = 2;
    host.queue({ "z.0": "4" }, null, null);
    assert.deepEqual(session.last.strings, {});
  });

  test("a Python without them draws nothing and gets the same call again, with them", async () => {
    const { host, session, root } = figure();
    host.queue({ "z.0": "3" }, null, null);
    answer(session.last);
    await settled();
    host.queue({ "z.0": "4" }, null, null);
    assert.equal(session.last.strings, null);
    session.last.resolve({ ok: false, strings: "missing" });
    await settled();
    assert.equal(session.calls.length, 3);
    assert.deepEqual(session.last.strings, {});
    assert.deepEqual(session.last.changes, { "z.0": "4" });
    assert.equal(root.dataset.state, '{"z":[3,2]}', "nothing drawn meanwhile");
    answer(session.last, { z: [4, 2] });
    await settled();
    assert.equal(root.dataset.state, '{"z":[4,2]}');
    assert.equal(host.stats.errors, 0);
    assert.equal(host.stats.updates, 2);
  });

  test("the next call sends the state Python answered, without reading the page", async () => {
    const { host, session, root } = figure();
    assert.equal(session.calls.length, 0);
    host.queue({ "z.0": "3" }, null, null);
    assert.deepEqual(session.last.state, { z: [1, 2] }, "the first: the prerendered state");
    answer(session.last, { z: [3, 2] });
    await settled();
    root.dataset.state = "not read again";
    host.queue({ "z.1": "5" }, null, null);
    assert.deepEqual(session.last.state, { z: [3, 2] });
  });
});

describe("the same markup again", () => {
  /** A host whose morph counts its patches. */
  function counted() {
    const made = figure();
    const patched = [];
    made.host.morph = (target, html) => patched.push(html);
    return { ...made, patched };
  }
  const running = { ok: true, html: "<p>step 3</p>", state: { running: true, step: 3 } };

  test("a running figure's next chunk that draws the same step is not patched again", async () => {
    const { host, session, patched } = counted();
    host.queue({ running: "true" }, new FakeElement("button"), null);
    session.last.resolve(running);
    await settled();
    // keepRunning: the next chunk was asked for as soon as the answer was applied, no input of the reader's
    assert.equal(session.calls.length, 2);
    session.last.resolve(running);
    await settled();
    assert.deepEqual(patched, ["<p>step 3</p>"]);
    session.last.resolve({ ...running, html: "<p>step 4</p>", state: { running: true, step: 4 } });
    await settled();
    assert.deepEqual(patched, ["<p>step 3</p>", "<p>step 4</p>"]);
    assert.equal(host.stats.updates, 3);
  });

  test("an answer to the reader's input is always patched (a clamped value goes back)", async () => {
    const { host, session, patched } = counted();
    const answer = { ok: true, html: "<p>z 10</p>", state: { z: [10, 2] } };
    host.queue({ "z.0": "10" }, new FakeElement("input"), null);
    session.last.resolve(answer);
    await settled();
    host.queue({ "z.0": "999" }, new FakeElement("input"), null);
    session.last.resolve(answer);
    await settled();
    assert.equal(patched.length, 2);
  });

  test("a running figure's answer without markup keeps the drawing and takes the state", async () => {
    const { host, session, patched } = counted();
    host.queue({ running: "true" }, new FakeElement("button"), null);
    session.last.resolve(running);
    await settled();
    session.last.resolve({ ok: true, html: null, state: { running: true, step: 5 } });
    await settled();
    assert.deepEqual(patched, ["<p>step 3</p>"]);
    assert.deepEqual(host.state, { running: true, step: 5 }, "the next call sends the step reached");
    assert.equal(session.calls.length, 3, "and it goes on");
    assert.deepEqual(session.last.args[1], { running: true, step: 5 });
    session.last.resolve({ ...running, html: "<p>step 3</p>", state: { running: true, step: 6 } });
    await settled();
    assert.deepEqual(patched, ["<p>step 3</p>"], "the markup it has is still the last drawn");
    assert.equal(errors.mock.callCount(), 0);
  });

  test("an answer without markup for a figure that is not running is a fault, reported", async () => {
    const { host, session, patched } = counted();
    host.queue({ running: "false" }, new FakeElement("button"), null);
    session.last.resolve({ ok: true, html: null, state: { running: false, step: 5 } });
    await settled();
    assert.deepEqual(patched, []);
    assert.equal(reported().length, 1);
  });

  test("after an error is shown, the same markup is patched again", async () => {
    const { host, session, patched } = counted();
    host.queue({ running: "true" }, new FakeElement("button"), null);
    session.last.resolve(running);
    await settled();
    host.showError("shown in the figure's slot");
    session.last.resolve(running);
    await settled();
    assert.equal(patched.length, 2);
  });
});

describe("the digest that names a figure's strings", async () => {
  const { digest } = await import("../../docs/widgets/figures/figure-call.js");
  test("differs for different texts, and is the same for the same", () => {
    assert.equal(digest('{"a":"b"}'), digest('{"a":"b"}'));
    assert.notEqual(digest('{"a":"b"}'), digest('{"a":"c"}'));
    assert.notEqual(digest("ab"), digest("ba"));
    assert.match(digest(""), /^0-/);
  });
});
