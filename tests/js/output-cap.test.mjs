// The cap on one run's output and on each of its lines (docs/widgets/runtime/output-cap.js).
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { LINE_CUT, MAX_CHARS, MAX_LINE_CHARS, MAX_LINES, cutLongLines, fitUnderCap } from "../../docs/widgets/runtime/output-cap.js";

const counter = () => ({ lines: 0, chars: 0, truncated: false, lineChars: 0, lineCut: false });

describe("fitUnderCap", () => {
  test("a line past MAX_LINE_CHARS keeps its start and says the rest is cut; the next line is whole", () => {
    const c = counter();
    const shown = fitUnderCap(c, `${"x".repeat(MAX_LINE_CHARS + 5)}\nnext\n`);
    assert.equal(shown, `${"x".repeat(MAX_LINE_CHARS)}${LINE_CUT}\nnext\n`);
    assert.equal(c.truncated, false, "a cut line does not end the output");
    assert.equal(c.lines, 2);
  });

  test("the same output comes out the same whatever pieces it arrives in", () => {
    const text = `${"a".repeat(3 * MAX_LINE_CHARS)}\nb\n${"c".repeat(MAX_LINE_CHARS)}\n${"d".repeat(MAX_LINE_CHARS + 1)}`;
    const whole = fitUnderCap(counter(), text);
    for (const size of [1_000, 7, 9_999, 10_001]) {
      const c = counter();
      let pieces = "";
      for (let at = 0; at < text.length; at += size) pieces += fitUnderCap(c, text.slice(at, at + size));
      assert.equal(pieces, whole, `pieces of ${size}`);
    }
    assert.equal(whole.split("\n").map((line) => line.length).join(), [MAX_LINE_CHARS + LINE_CUT.length, 1, MAX_LINE_CHARS, MAX_LINE_CHARS + LINE_CUT.length].join());
  });

  test("output already cut passes a second cap unchanged (the worker's, then the view's)", () => {
    const once = fitUnderCap(counter(), `${"x".repeat(5 * MAX_LINE_CHARS)}\ny`);
    assert.equal(fitUnderCap(counter(), once), once);
  });

  test("the run's caps still hold: lines and characters", () => {
    const c = counter();
    assert.equal(fitUnderCap(c, "z\n".repeat(MAX_LINES + 10)).length, 2 * MAX_LINES);
    assert.ok(c.truncated);
    const d = counter();
    const long = `${"y".repeat(MAX_LINE_CHARS - 1)}\n`.repeat(30);
    assert.equal(fitUnderCap(d, long).length, MAX_CHARS);
    assert.ok(d.truncated);
  });
});

describe("cutLongLines", () => {
  test("a whole block keeps each long line's start and end, and counts what was cut", () => {
    const line = `${"s".repeat(MAX_LINE_CHARS)}${"e".repeat(MAX_LINE_CHARS)} the end`;
    const cut = cutLongLines(`Traceback\n${line}\nshort`);
    const [first, middle, last] = cut.split("\n");
    assert.equal(first, "Traceback");
    assert.equal(last, "short");
    assert.ok(middle.startsWith("sss") && middle.endsWith("eee the end"), middle.slice(-20));
    assert.ok(middle.length <= MAX_LINE_CHARS);
    assert.match(middle, new RegExp(`\\[\\.\\.\\. ${(line.length - (MAX_LINE_CHARS - 100)).toLocaleString("en")} characters cut \\.\\.\\.\\]`));
  });

  test("lines within the bound are left as they are", () => {
    const text = `${"a".repeat(MAX_LINE_CHARS)}\n${"b".repeat(MAX_LINE_CHARS)}`;
    assert.equal(cutLongLines(text), text);
  });
});
