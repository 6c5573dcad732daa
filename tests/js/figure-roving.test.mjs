// The arrow keys inside a figure's group of choices (docs/widgets/figures/figure-roving.js): where
// each key moves focus, in a left-to-right and a right-to-left row, and which button is
// the group's one Tab stop. The browser test (tests/e2e/test_keyboard.py) presses the keys
// on the learning article's train_live in English and Hebrew.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { makeStop, restingStop, rovingTarget } from "../../docs/widgets/figures/figure-roving.js";

describe("rovingTarget", () => {
  test("Right and Down go to the next button, Left and Up to the previous, left to right", () => {
    assert.equal(rovingTarget("ArrowRight", 1, 4, false), 2);
    assert.equal(rovingTarget("ArrowDown", 1, 4, false), 2);
    assert.equal(rovingTarget("ArrowLeft", 1, 4, false), 0);
    assert.equal(rovingTarget("ArrowUp", 1, 4, false), 0);
  });

  test("right to left, Left and Right are mirrored; Up and Down are not", () => {
    assert.equal(rovingTarget("ArrowLeft", 1, 4, true), 2, "Left goes on along a row read from the right");
    assert.equal(rovingTarget("ArrowRight", 1, 4, true), 0);
    assert.equal(rovingTarget("ArrowDown", 1, 4, true), 2);
    assert.equal(rovingTarget("ArrowUp", 1, 4, true), 0);
  });

  test("moves wrap around both ends", () => {
    assert.equal(rovingTarget("ArrowRight", 3, 4, false), 0);
    assert.equal(rovingTarget("ArrowLeft", 0, 4, false), 3);
    assert.equal(rovingTarget("ArrowLeft", 3, 4, true), 0);
    assert.equal(rovingTarget("ArrowUp", 0, 2, true), 1);
  });

  test("Home and End go to the first and the last, in either direction", () => {
    for (const rtl of [false, true]) {
      assert.equal(rovingTarget("Home", 2, 4, rtl), 0);
      assert.equal(rovingTarget("End", 0, 4, rtl), 3);
    }
  });

  test("other keys (Enter, Space, Tab, letters) do not move focus: they keep their own meaning", () => {
    for (const key of ["Enter", " ", "Tab", "a", "PageDown", "Escape"]) assert.equal(rovingTarget(key, 1, 4, false), null);
  });

  test("a group of one stays put, an empty one has nowhere to go", () => {
    assert.equal(rovingTarget("ArrowRight", 0, 1, false), 0);
    assert.equal(rovingTarget("End", 0, 0, false), null);
  });
});

/** A button as far as the Tab stop rules read it: attributes only. */
function button(pressed) {
  const attributes = new Map([["aria-pressed", String(pressed)]]);
  return {
    getAttribute: (name) => attributes.get(name) ?? null,
    setAttribute: (name, value) => attributes.set(name, String(value)),
  };
}

describe("the Tab stop", () => {
  test("rests on the pressed button, or on the first when none is pressed", () => {
    const row = [button(false), button(true), button(false)];
    assert.equal(restingStop(row), row[1]);
    const none = [button(false), button(false)];
    assert.equal(restingStop(none), none[0]);
  });

  test("makeStop gives exactly one button tabindex 0 and the others -1", () => {
    const row = [button(false), button(true), button(false)];
    makeStop(row, row[2]);
    assert.deepEqual(
      row.map((b) => b.getAttribute("tabindex")),
      ["-1", "-1", "0"],
    );
    makeStop(row, restingStop(row));
    assert.deepEqual(
      row.map((b) => b.getAttribute("tabindex")),
      ["-1", "0", "-1"],
    );
  });
});
