// A reader's edits to a cell survive a reload: they are kept in localStorage under the page's
// path and the cell's number. Each saved edit remembers a hash of the code it was made to;
// when an author changes that code, the stale edit is dropped rather than shown in its place.
const PREFIX = "attention_py:live-cell:";

const keyFor = (cellIndex) => `${PREFIX}${location.pathname}#${cellIndex}`;

function storage() {
  try {
    return window.localStorage; // throws when storage is blocked
  } catch {
    return null;
  }
}

/** The reader's saved code for this cell, or null. */
export function loadEdit(cellIndex, originalHash) {
  const store = storage();
  try {
    const saved = JSON.parse(store?.getItem(keyFor(cellIndex)) ?? "null");
    if (saved && saved.hash === originalHash && typeof saved.code === "string") return saved.code;
    if (saved) store.removeItem(keyFor(cellIndex));
  } catch {
    // unreadable entry or storage: behave as if nothing was saved
  }
  return null;
}

/** Saves the code, or forgets the entry when the code is back to the original. */
export function saveEdit(cellIndex, originalHash, code, original) {
  const store = storage();
  try {
    if (code === original) store?.removeItem(keyFor(cellIndex));
    else store?.setItem(keyFor(cellIndex), JSON.stringify({ hash: originalHash, code }));
  } catch {
    // full or blocked storage: the edit simply is not kept
  }
}

export function forgetEdit(cellIndex) {
  try {
    storage()?.removeItem(keyFor(cellIndex));
  } catch {
    // nothing to forget
  }
}
