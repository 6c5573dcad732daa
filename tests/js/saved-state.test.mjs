// A reader's saved edit (docs/widgets/shared/saved-state.js): the page hears whether the browser kept
// each write, so a cell can say when an edit is too large to survive a reload.
import assert from "node:assert/strict";
import { test } from "node:test";

import { MemoryStorage, installPageGlobals } from "./fake-page.mjs";

installPageGlobals();
const { SavedEntry } = await import("../../docs/widgets/shared/saved-state.js");

/** localStorage as a browser's: a value past its quota is refused with an exception. */
class SmallStorage extends MemoryStorage {
  setItem(key, value) {
    if (String(value).length > 1_000) throw new DOMException("quota", "QuotaExceededError");
    super.setItem(key, value);
  }
}

test("an edit the storage refuses is reported, and no older edit is left to come back", () => {
  globalThis.window.localStorage = new SmallStorage();
  const heard = [];
  const entry = new SavedEntry("live-cell", 1, "local", (kept) => heard.push(kept));
  entry.save("base", "x = 1", "original");
  assert.equal(entry.load("base"), "x = 1");
  entry.save("base", "y".repeat(5_000), "original");
  assert.equal(entry.load("base"), null, "the older edit would come back on reload as if it were this one");
  entry.save("base", "x = 2", "original");
  entry.forget();
  assert.deepEqual(heard, [true, false, true, true]);
});
