// The bounds on what one answer of Python's carries to the page (docs/widgets/runtime/message-bounds.js).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import { MAX_CALL_ANSWER, MAX_ERROR, MAX_FIGURE_ERROR, cutEnd, cutMiddle } from "../../docs/widgets/runtime/message-bounds.js";

// figure-sanitise.js imports its allow-list as JSON, which Node 20 will not without an import
// attribute: its bound on markup is read from its source.
const sanitiser = readFileSync(new URL("../../docs/widgets/figures/figure-sanitise.js", import.meta.url), "utf8");
const MAX_MARKUP = Number(/export const MAX_MARKUP = ([\d_]+);/.exec(sanitiser)[1].replaceAll("_", ""));

describe("cutMiddle", () => {
  test("text within the bound is left as it is, and so is what is not text", () => {
    assert.equal(cutMiddle("abc", 3), "abc");
    assert.equal(cutMiddle(undefined, 3), undefined);
  });

  test("a longer text keeps its start and its end, and says how much was cut", () => {
    const traceback = `Traceback (most recent call last):\n${"x".repeat(100)}\nValueError: the end`;
    const cut = cutMiddle(traceback, 80);
    assert.ok(cut.startsWith("Traceback (most recent call last):"));
    assert.ok(cut.endsWith("ValueError: the end"));
    assert.match(cut, new RegExp(`\\[\\.\\.\\. ${traceback.length - 80} characters cut \\.\\.\\.\\]`));
    assert.equal(cut.replace(/\n\[\.\.\. .* characters cut \.\.\.\]\n/, "").length, 80);
  });
});

describe("cutEnd", () => {
  test("keeps the start and adds the note with the count left out", () => {
    assert.equal(cutEnd("abcdef", 6, () => "never"), "abcdef");
    assert.equal(cutEnd("abcdefgh", 3, (n) => `(${n} more)`), "abc… (5 more)");
  });
});

test("the bounds leave room for what they bound", () => {
  assert.ok(MAX_CALL_ANSWER > MAX_MARKUP + MAX_ERROR, "a figure's largest markup fits in a call's answer");
  assert.ok(MAX_FIGURE_ERROR < MAX_ERROR);
});
