// A live cell's Run and Stop (docs/widgets/cells/live-cell.js, setBusy): Stop is disabled (not
// pressable, not a Tab stop) whenever nothing waits or runs, and a reader on Stop when the
// run ends is moved to Run instead of falling to the top of the page. Run stays focusable
// while busy (aria-disabled). The cell is driven through setBusy on stand-in buttons; the
// browser tests (tests/e2e/test_live_cells.py) run real code and press the real buttons.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

const { LiveCell } = await import("../../docs/widgets/cells/live-cell.js");

const STRINGS = { run: "Run", run_waiting: "Starting Python…", waiting: "Waiting.", queued: "Queued.", running: "Running." };

/** A document whose focus the buttons move, and a cell's Run, Stop and status on it. */
function fakeCell() {
  const document = { activeElement: null };
  const button = (name) => {
    const attributes = new Map();
    const b = {
      name,
      ownerDocument: document,
      disabled: false,
      textContent: "",
      setAttribute: (key, value) => attributes.set(key, String(value)),
      getAttribute: (key) => attributes.get(key) ?? null,
      focus() {
        if (b.disabled) return; // as a browser: a disabled button takes no focus
        document.activeElement = b;
      },
    };
    return b;
  };
  const cell = Object.create(LiveCell.prototype);
  Object.assign(cell, {
    strings: STRINGS,
    root: { dataset: {} },
    runButton: button("run"),
    stopButton: button("stop"),
    status: { textContent: "" },
  });
  return { cell, document };
}

describe("a live cell's Stop", () => {
  test("is disabled while nothing runs, and a real button while a run waits or runs", () => {
    const { cell } = fakeCell();
    cell.setBusy(false);
    assert.equal(cell.stopButton.disabled, true);
    assert.equal(cell.runButton.getAttribute("aria-disabled"), "false");
    for (const busy of ["waiting", "queued", "running"]) {
      cell.setBusy(busy);
      assert.equal(cell.stopButton.disabled, false, busy);
      assert.equal(cell.runButton.getAttribute("aria-disabled"), "true", busy);
      assert.equal(cell.runButton.disabled, false, "Run stays focusable while busy");
    }
    cell.setBusy(false);
    assert.equal(cell.stopButton.disabled, true, "disabled again once the run has ended");
  });

  test("a reader on Stop when the run ends goes to Run", () => {
    const { cell, document } = fakeCell();
    cell.setBusy("running");
    cell.stopButton.focus();
    assert.equal(document.activeElement, cell.stopButton);
    cell.setBusy(false);
    assert.equal(document.activeElement, cell.runButton);
    assert.equal(cell.stopButton.disabled, true);
  });

  test("focus elsewhere stays where it is", () => {
    const { cell, document } = fakeCell();
    const editor = { name: "editor" };
    cell.setBusy("running");
    document.activeElement = editor;
    cell.setBusy(false);
    assert.equal(document.activeElement, editor);
  });

  test("a click on a disabled or aria-disabled button does nothing", () => {
    const listeners = [];
    const made = {
      set type(_) {},
      set className(_) {},
      set textContent(_) {},
      disabled: false,
      attributes: new Map(),
      getAttribute(key) {
        return this.attributes.get(key) ?? null;
      },
      addEventListener: (type, listener) => listeners.push(listener),
    };
    const bar = { appendChild: (element) => element };
    let presses = 0;
    globalThis.document = { createElement: () => made };
    let button;
    try {
      button = LiveCell.prototype.button.call({}, bar, "stop", "Stop", "", () => (presses += 1));
    } finally {
      delete globalThis.document;
    }
    assert.equal(button, made);
    button.disabled = true;
    listeners.forEach((listener) => listener());
    button.disabled = false;
    button.attributes.set("aria-disabled", "true");
    listeners.forEach((listener) => listener());
    assert.equal(presses, 0);
    button.attributes.set("aria-disabled", "false");
    listeners.forEach((listener) => listener());
    assert.equal(presses, 1);
  });
});
