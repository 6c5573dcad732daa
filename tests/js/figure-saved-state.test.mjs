// Where the reader left a figure, kept across a reload (docs/widgets/figures/figure-saved-state.js):
// saved in sessionStorage against the prerendered state, asked of Python again after a
// reload, and deleted when Python cannot apply it.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { MemoryStorage, installPageGlobals } from "./fake-page.mjs";

installPageGlobals();
const { SavedFigureState } = await import("../../docs/widgets/figures/figure-saved-state.js");

const AUTHOR = JSON.stringify({ head: 0, temperature: "1" });
const root = (state = AUTHOR) => ({ dataset: { state } });
const KEY = "attention_py:figure:/gallery/#";

let session;
beforeEach((t) => {
  session = globalThis.window.sessionStorage = new MemoryStorage();
  globalThis.window.localStorage = new MemoryStorage();
  t.mock.timers.enable({ apis: ["setTimeout"] });
});

test("a kept state comes back after a reload as a change of every key", (t) => {
  const before = new SavedFigureState(root(), "heatmap", "heatmap-2");
  before.keep(JSON.stringify({ head: 3, temperature: "0.5" }));
  assert.equal(session.getItem(`${KEY}heatmap-2`), null, "not written while the reader is still moving");
  t.mock.timers.tick(300);
  assert.ok(session.getItem(`${KEY}heatmap-2`), "kept in sessionStorage, under the page and the instance");
  assert.equal(globalThis.window.localStorage.items.size, 0, "never in localStorage: a new visit starts where the author starts");
  const after = new SavedFigureState(root(), "heatmap", "heatmap-2");
  assert.deepEqual(after.change(), { head: 3, temperature: "0.5" });
});

test("an entry is the figure's instance's, else its name's", (t) => {
  new SavedFigureState(root(), "heatmap", null).keep(JSON.stringify({ head: 1 }));
  t.mock.timers.tick(300);
  assert.ok(session.getItem(`${KEY}heatmap`));
  assert.equal(new SavedFigureState(root(), "other", null).change(), null);
  assert.deepEqual(new SavedFigureState(root(), "heatmap", "").change(), { head: 1 });
});

test("a state back at the prerendered one is not kept: the entry is deleted", (t) => {
  const figure = new SavedFigureState(root(), "heatmap");
  figure.keep(JSON.stringify({ head: 2 }));
  t.mock.timers.tick(300);
  figure.keep(AUTHOR);
  t.mock.timers.tick(300);
  assert.equal(session.getItem(`${KEY}heatmap`), null);
  assert.equal(new SavedFigureState(root(), "heatmap").change(), null);
});

test("a state saved against another prerendered state (the author changed it) is not asked for", (t) => {
  new SavedFigureState(root(), "heatmap").keep(JSON.stringify({ head: 2 }));
  t.mock.timers.tick(300);
  const rebuilt = new SavedFigureState(root(JSON.stringify({ head: 0, temperature: "2" })), "heatmap");
  assert.equal(rebuilt.change(), null);
  assert.equal(session.getItem(`${KEY}heatmap`), null, "and the stale entry is gone");
});

test("an unreadable saved state is forgotten, not asked for", () => {
  session.setItem(`${KEY}heatmap`, JSON.stringify({ base: AUTHOR, value: "{not json" }));
  assert.equal(new SavedFigureState(root(), "heatmap").change(), null);
  assert.equal(session.getItem(`${KEY}heatmap`), null);
});

test("forget deletes the saved state, and one still waiting to be written", (t) => {
  const figure = new SavedFigureState(root(), "heatmap");
  figure.keep(JSON.stringify({ head: 2 }));
  t.mock.timers.tick(300);
  figure.keep(JSON.stringify({ head: 3 }));
  figure.forget();
  t.mock.timers.tick(300);
  assert.equal(session.getItem(`${KEY}heatmap`), null);
});

test("drop deletes the state and warns why, from the reply Python gave or the error", (t) => {
  const warn = t.mock.method(console, "warn", () => {});
  const figure = new SavedFigureState(root(), "heatmap");
  for (const error of [
    Object.assign(new Error("x"), { reply: { status: "timeout", error: "no answer in 10 s" } }),
    new Error("Python died"),
    "a string",
    null,
  ]) {
    session.setItem(`${KEY}heatmap`, JSON.stringify({ base: AUTHOR, value: "{}" }));
    figure.drop(error);
    assert.equal(session.getItem(`${KEY}heatmap`), null);
  }
  assert.deepEqual(
    warn.mock.calls.map((call) => call.arguments[0]),
    [
      "figure heatmap: the state saved before the reload was dropped (timeout: no answer in 10 s)",
      "figure heatmap: the state saved before the reload was dropped (error: Python died)",
      "figure heatmap: the state saved before the reload was dropped (error: a string)",
      "figure heatmap: the state saved before the reload was dropped (error: null)",
    ],
  );
});
