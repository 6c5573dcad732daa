// A figure's input as its markup declares it (docs/widgets/figures/figure-input.js): each event on a
// control becomes a change (state path -> value as the reader gave it) handed to the queue;
// nothing else is computed but a pointer's place in the drawing's units.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";

import { FakeSelectElement, h, installDomGlobals } from "./fake-dom.mjs";

const { FigureInput } = await import("../../docs/widgets/figures/figure-input.js");

let undo;
let queued;
beforeEach(() => {
  undo = installDomGlobals();
  queued = [];
});
afterEach(() => undo());

/** A figure root holding `controls`, listened to by a FigureInput that records what it queues. */
function figure(...controls) {
  const root = h("div", { class: "apy-fig" }, ...controls);
  const input = new FigureInput(root, (change, source, event) => queued.push({ change, source, event }));
  return { root, input };
}
const changes = () => queued.map((q) => q.change);

describe("input and change", () => {
  test("a slider's input is queued as its value, text as the reader gave it, with its element", () => {
    const slider = h("input", { type: "range", name: "attention.temperature", value: "1" });
    const { root } = figure(slider);
    slider.value = "2.50";
    const event = root.fire("input", slider);
    assert.deepEqual(changes(), [{ "attention.temperature": "2.50" }]);
    assert.equal(queued[0].source, slider);
    assert.equal(queued[0].event, event);
  });

  test("data-values: the slider's index picks the value; an index out of range queues nothing", () => {
    const slider = h("input", { type: "range", name: "head", value: "0", "data-values": JSON.stringify(["first", 2, null]) });
    const { root } = figure(slider);
    for (const index of ["1", "2", "3", "-1"]) {
      slider.value = index;
      root.fire("input", slider);
    }
    assert.deepEqual(changes(), [{ head: 2 }, { head: null }]);
  });

  test("input from a checkbox, a radio, a data-commit control, outside the root or not an element queues nothing", () => {
    const box = h("input", { type: "checkbox", name: "a" });
    const radio = h("input", { type: "radio", name: "b", value: "x" });
    const committed = h("input", { name: "c", "data-commit": "change" });
    const outside = h("input", { name: "d" });
    h("div", {}, outside);
    const { root } = figure(box, radio, committed);
    for (const target of [box, radio, committed, outside, { name: "text node" }, null]) root.fire("input", target);
    assert.deepEqual(queued, []);
  });

  test("change: a checkbox gives its checked state; a data-commit=change control its value; others nothing", () => {
    const box = h("input", { type: "checkbox", name: "show.mask" });
    const text = h("input", { name: "sentence", "data-commit": "change", value: "" });
    const plain = h("input", { type: "range", name: "t", value: "1" });
    const { root } = figure(box, text, plain);
    box.checked = true;
    root.fire("change", box);
    text.value = "the cat sat";
    root.fire("change", text);
    root.fire("change", plain); // its input events already said it
    assert.deepEqual(changes(), [{ "show.mask": true }, { sentence: "the cat sat" }]);
  });
});

describe("data-set and data-keys", () => {
  test("a click on a data-set element, or inside it, queues its change; a disabled one nothing", () => {
    const icon = h("span");
    const button = h("button", { "data-set": JSON.stringify({ head: 3, "view.mode": "grid" }) }, icon);
    const off = h("button", { "data-set": JSON.stringify({ head: 4 }) });
    off.disabled = true;
    const { root } = figure(button, off);
    root.fire("click", icon);
    root.fire("click", off);
    assert.deepEqual(changes(), [{ head: 3, "view.mode": "grid" }]);
    assert.equal(queued[0].source, button);
  });

  test("data-keys: a listed key (with Shift+ when shifted) queues its change and keeps the key from the page", () => {
    const keys = { ArrowRight: { "step.by": 1 }, "Shift+ArrowRight": { "step.by": 10 } };
    const handle = h("circle", { "data-keys": JSON.stringify(keys) });
    const { root } = figure(handle);
    const right = root.fire("keydown", handle, { key: "ArrowRight" });
    const shifted = root.fire("keydown", handle, { key: "ArrowRight", shiftKey: true });
    const other = root.fire("keydown", handle, { key: "ArrowLeft" });
    assert.deepEqual(changes(), [{ "step.by": 1 }, { "step.by": 10 }]);
    assert.deepEqual([right.defaultPrevented, shifted.defaultPrevented, other.defaultPrevented], [true, true, false]);
  });

  test("a key with Alt, Ctrl or Meta is the browser's: nothing queued, nothing prevented", () => {
    const handle = h("circle", { "data-keys": JSON.stringify({ ArrowRight: { x: 1 } }) });
    const { root } = figure(handle);
    for (const modifier of ["altKey", "ctrlKey", "metaKey"]) {
      assert.equal(root.fire("keydown", handle, { key: "ArrowRight", [modifier]: true }).defaultPrevented, false);
    }
    assert.deepEqual(queued, []);
  });

  test("Enter and Space press a data-set element that is not a button or input; a native one is left to its click", () => {
    const cell = h("rect", { "data-set": JSON.stringify({ pick: "3,4" }) });
    const button = h("button", { "data-set": JSON.stringify({ pick: "0,0" }) });
    const { root } = figure(cell, button);
    const enter = root.fire("keydown", cell, { key: "Enter" });
    root.fire("keydown", cell, { key: " " });
    root.fire("keydown", cell, { key: "a" });
    const native = root.fire("keydown", button, { key: "Enter" });
    assert.deepEqual(changes(), [{ pick: "3,4" }, { pick: "3,4" }]);
    assert.equal(enter.defaultPrevented, true);
    assert.equal(native.defaultPrevented, false);
  });
});

describe("data-set-on=focus", () => {
  test("focus or a pointer entering queues the change; one already pressed queues nothing", () => {
    const token = h("span", { "data-set": JSON.stringify({ query: 2 }), "data-set-on": "focus" });
    const pressed = h("span", { "data-set": JSON.stringify({ query: 5 }), "data-set-on": "focus", "aria-pressed": "true" });
    const clickOnly = h("span", { "data-set": JSON.stringify({ query: 9 }) });
    const { root } = figure(token, pressed, clickOnly);
    root.fire("focusin", token);
    root.fire("pointerover", token, { relatedTarget: root });
    root.fire("focusin", pressed);
    root.fire("focusin", clickOnly);
    assert.deepEqual(changes(), [{ query: 2 }, { query: 2 }]);
  });

  test("a pointer moving between the element's own children is not an entry", () => {
    const inner = h("tspan");
    const token = h("text", { "data-set": JSON.stringify({ query: 1 }), "data-set-on": "focus" }, inner);
    const { root } = figure(token);
    root.fire("pointerover", token, { relatedTarget: inner });
    root.fire("pointerover", inner, { relatedTarget: token });
    assert.deepEqual(queued, []);
  });
});

describe("dragging", () => {
  // The drawing's user units are screen pixels halved, 10 px in: its inverse maps back.
  const screenCTM = { inverse: () => ({ map: (p) => ({ x: (p.x - 10) / 2, y: (p.y - 10) / 2 }) }) };
  class DOMPoint {
    constructor(x, y) {
      Object.assign(this, { x, y });
    }
    matrixTransform(matrix) {
      return matrix.map(this);
    }
  }
  beforeEach(() => {
    globalThis.DOMPoint = DOMPoint;
  });
  afterEach(() => {
    delete globalThis.DOMPoint;
  });

  function handleIn({ spec = { x: "point.x", y: "point.y", origin: [5, 20], scale: [10, -10] }, ctm = screenCTM, capture = true } = {}) {
    const handle = h("circle", { "data-drag": JSON.stringify(spec) });
    handle.captured = new Set();
    handle.setPointerCapture = (id) => {
      if (!capture) throw new DOMException("not an active pointer", "NotFoundError");
      handle.captured.add(id);
    };
    handle.hasPointerCapture = (id) => handle.captured.has(id);
    handle.releasePointerCapture = (id) => handle.captured.delete(id);
    handle.ownerSVGElement = { getScreenCTM: () => ctm };
    return handle;
  }
  const press = (root, handle, props = {}) => root.fire("pointerdown", handle, { pointerId: 1, isPrimary: true, button: 0, ...props });

  test("a primary press captures the pointer and takes focus; each move is the pointer in state units", () => {
    const handle = handleIn();
    const { root } = figure(handle);
    assert.equal(press(root, handle).defaultPrevented, true);
    assert.ok(handle.captured.has(1));
    assert.equal(globalThis.document.activeElement, handle);
    root.fire("pointermove", handle, { pointerId: 1, clientX: 120, clientY: 30 }); // user (55, 10)
    assert.deepEqual(changes(), [{ "point.x": 5, "point.y": 1 }]);
    assert.equal(queued[0].source, handle);
  });

  test("a spec with one axis moves that axis only", () => {
    const handle = handleIn({ spec: { y: "level", origin: [0, 0], scale: [1, 2] } });
    const { root } = figure(handle);
    press(root, handle);
    root.fire("pointermove", handle, { pointerId: 1, clientX: 500, clientY: 50 });
    assert.deepEqual(changes(), [{ level: 10 }]);
  });

  test("another pointer's moves, and moves after the release, change nothing; the capture is released", () => {
    const handle = handleIn();
    const { root, input } = figure(handle);
    press(root, handle);
    root.fire("pointermove", handle, { pointerId: 2, clientX: 50, clientY: 50 });
    root.fire("pointerup", handle, { pointerId: 2 }); // not this drag's pointer: it goes on
    assert.notEqual(input.drag, null);
    root.fire("pointerup", handle, { pointerId: 1 });
    assert.equal(input.drag, null);
    assert.equal(handle.captured.size, 0);
    root.fire("pointermove", handle, { pointerId: 1, clientX: 50, clientY: 50 });
    assert.deepEqual(queued, []);
  });

  test("a cancelled pointer or a lost capture ends the drag too", () => {
    for (const end of ["pointercancel", "lostpointercapture"]) {
      const handle = handleIn();
      const { root, input } = figure(handle);
      press(root, handle);
      root.fire(end, handle, { pointerId: 1 });
      assert.equal(input.drag, null, end);
    }
  });

  test("no drag: a secondary button, a pointer that is not primary, or one that cannot be captured", () => {
    const handle = handleIn();
    const { root, input } = figure(handle);
    assert.equal(press(root, handle, { button: 2 }).defaultPrevented, false);
    press(root, handle, { isPrimary: false });
    assert.equal(input.drag, null);
    const synthetic = handleIn({ capture: false });
    const other = figure(synthetic);
    press(other.root, synthetic);
    assert.equal(other.input.drag, null);
    other.root.fire("pointermove", synthetic, { pointerId: 1, clientX: 50, clientY: 50 });
    assert.deepEqual(queued, []);
  });

  test("a drawing not laid out (no screen matrix) queues nothing", () => {
    const handle = handleIn({ ctm: null });
    const { root } = figure(handle);
    press(root, handle);
    root.fire("pointermove", handle, { pointerId: 1, clientX: 50, clientY: 50 });
    assert.deepEqual(queued, []);
  });
});

describe("catchUp", () => {
  test("controls that already differ from the drawing are queued like fresh input; the others are not", () => {
    const moved = h("input", { type: "range", name: "t", value: "1" });
    moved.value = "3";
    const same = h("input", { type: "range", name: "u", value: "1.0" });
    same.value = "1"; // the same number, written otherwise
    const box = h("input", { type: "checkbox", name: "mask" });
    box.checked = true;
    const keptBox = h("input", { type: "checkbox", name: "keep", checked: "" });
    const text = h("input", { name: "sentence", "data-commit": "change" });
    text.value = "typed before the chunk loaded";
    const typed = h("input", { name: "free" });
    typed.value = "x";
    const select = new FakeSelectElement({ name: "lang" }, [["en", true], ["he", false]]);
    select.value = "he";
    const stillSelect = new FakeSelectElement({ name: "model" }, [["small", false], ["big", true]]);
    const { input } = figure(moved, same, box, keptBox, text, typed, select, stillSelect);
    input.catchUp();
    assert.deepEqual(changes(), [{ t: "3" }, { mask: true }, { sentence: "typed before the chunk loaded" }, { free: "x" }, { lang: "he" }]);
  });

  test("nothing moved: nothing queued", () => {
    const { input } = figure(h("input", { type: "range", name: "t", value: "1" }), h("input", { name: "s", value: "a" }));
    input.catchUp();
    assert.deepEqual(queued, []);
  });
});
