// The line beside a figure that says why it is not following the reader's input
// (docs/widgets/figures/figure-status.js): which text for which session state, the download's
// progress while Python loads, and nothing (hidden) when the figure follows.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";

import { writeNumber } from "../../docs/widgets/shared/strings.js";
import { FakeElement } from "./fake-dom.mjs";

const { FigureStatus } = await import("../../docs/widgets/figures/figure-status.js");

// The page's strings as strings.js makes them (docs/figure-strings/en.yml, section page).
const ui = {
  figure_starting: "starting",
  figure_restoring: "restoring",
  figure_restarting: "restarting",
  figure_unavailable: "unavailable",
  figure_waiting_for_code: "waiting for code",
  downloading: ({ loaded, total }) => `Loading Python: ${loaded} of ${total} MB`,
  number: (value, digits) => writeNumber(value, digits, { decimal: "," }),
};

const IDLE = { waiting: false, inFlight: false, restoring: false, used: false, updated: false };
const session = (state, more = {}) => ({ state, generation: 1, busyWithCode: false, progress: { phase: "idle", loaded: 0, total: 0 }, ...more });

let root;
beforeEach(() => {
  globalThis.document = { createElement: (name) => new FakeElement(name) };
  root = new FakeElement("div");
  Object.assign(root, { lang: "he", dir: "rtl" });
  root.after = (node) => (root.next = node);
});
afterEach(() => {
  delete globalThis.document;
});

test("the line is a hidden status paragraph after the root (not in it), in the root's language and direction", () => {
  const status = new FigureStatus(root, ui);
  const p = status.element;
  assert.equal(root.next, p);
  assert.equal(root.children.length, 0, "the root's children are Python's");
  assert.equal(p.localName, "p");
  assert.equal(p.getAttribute("role"), "status");
  assert.equal(p.className, "apy-fig-status");
  assert.deepEqual([p.lang, p.dir, p.hidden], ["he", "rtl", true]);
});

describe("show", () => {
  const shown = (s, flags) => {
    const status = new FigureStatus(root, ui);
    status.show(s, { ...IDLE, ...flags });
    return status.element.hidden ? null : status.element.textContent;
  };

  test("a ready session with nothing waiting says nothing", () => {
    assert.equal(shown(session("ready"), { used: true, updated: true }), null);
    assert.equal(shown(session("ready"), { waiting: true, inFlight: true }), null, "a call out, no code cell running");
  });

  test("input waits on a Python still starting: starting, or restoring a saved state", () => {
    assert.equal(shown(session("starting"), { waiting: true }), "starting");
    assert.equal(shown(session("idle"), { waiting: true }), "starting");
    assert.equal(shown(session("starting"), { waiting: true, restoring: true }), "restoring");
  });

  test("restarting only when Python started before and the figure was drawn by it", () => {
    assert.equal(shown(session("starting", { generation: 2 }), { waiting: true, updated: true }), "restarting");
    assert.equal(shown(session("starting", { generation: 2 }), { waiting: true }), "starting");
    assert.equal(shown(session("starting", { generation: 1 }), { waiting: true, updated: true }), "starting");
  });

  test("not starting and nothing waiting: nothing said (the reader has not asked for anything)", () => {
    assert.equal(shown(session("starting"), {}), null);
    assert.equal(shown(session("failed"), {}), null, "a failed Python the reader never used");
  });

  test("a failed Python the reader used, or has input waiting for, is unavailable", () => {
    assert.equal(shown(session("failed"), { used: true }), "unavailable");
    assert.equal(shown(session("failed"), { waiting: true, restoring: true }), "unavailable");
  });

  test("a call held by a running code cell says so", () => {
    assert.equal(shown(session("ready", { busyWithCode: true }), { waiting: true, inFlight: true }), "waiting for code");
    assert.equal(shown(session("ready", { busyWithCode: true }), { waiting: true }), null, "nothing out: nothing held");
  });

  test("while the download runs, how far it is, in MB written as the language writes numbers", () => {
    const downloading = (loaded, total) => session("starting", { progress: { phase: "download", loaded, total } });
    assert.equal(shown(downloading(6_900_000, 16_500_000), { waiting: true }), "starting (Loading Python: 6,9 of 16,5 MB)");
    assert.equal(shown(downloading(6_900_000, 16_500_000), { waiting: true, restoring: true }), "restoring (Loading Python: 6,9 of 16,5 MB)");
    assert.equal(shown(downloading(16_500_000, 16_500_000), { waiting: true }), "starting", "done: no count");
    assert.equal(shown(downloading(0, 0), { waiting: true }), "starting", "no total known yet");
    assert.equal(shown(session("starting", { progress: { phase: "install", loaded: 0, total: 0 } }), { waiting: true }), "starting");
    assert.equal(shown(session("starting", { progress: null }), { waiting: true }), "starting");
  });

  test("the line follows each change and hides when there is nothing to say; an unchanged text is not rewritten", () => {
    const status = new FigureStatus(root, ui);
    const p = status.element;
    let writes = 0;
    let text = "";
    Object.defineProperty(p, "textContent", {
      get: () => text,
      set: (value) => {
        writes += 1;
        text = value;
      },
    });
    status.show(session("starting"), { ...IDLE, waiting: true });
    status.show(session("starting"), { ...IDLE, waiting: true });
    assert.deepEqual([text, p.hidden, writes], ["starting", false, 1]);
    status.show(session("ready"), { ...IDLE, used: true });
    assert.deepEqual([text, p.hidden, writes], ["", true, 2]);
  });
});
