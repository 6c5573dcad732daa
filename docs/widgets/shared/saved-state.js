// What a reader did survives a reload. One entry per thing on the page, kept under the page's
// path and the thing's id:
//
// - a live cell's edited code, in localStorage: it is the reader's work, kept across visits
//   until they press Reset;
// - a figure's state, in sessionStorage: where the reader left the figure survives a reload
//   or a trip back in the tab's history, but a new visit starts where the author starts.
//
// Each entry remembers what it was made to (`base`: a hash of the cell's original code, the
// figure's prerendered state). When the author changes that, the stale entry is dropped
// instead of shown.
//
// Writes wait until the value has been still for a moment (typing, dragging), and happen at
// once when the page is left, so a reload never misses the last change.

const SAVE_AFTER_MS = 300;

export class SavedEntry {
  /**
   * `kind` names the entry ("live-cell", "figure"); `where` is "local" or "session";
   * `onKept(kept)`, if given, hears after each write whether the storage took it (false: the
   * value is too large, or the storage is full), so the page can say a change is not kept.
   */
  constructor(kind, id, where = "local", onKept = null) {
    this.key = `attention_py:${kind}:${location.pathname}#${id}`;
    this.where = where;
    this.onKept = onKept;
    this.pending = null; // arguments of save() not yet written
    this.timer = 0;
    addEventListener("pagehide", () => this.flush());
  }

  /** save(), once the value has not changed for a moment (or the page is left). */
  saveSoon(base, value, original) {
    this.pending = [base, value, original];
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), SAVE_AFTER_MS);
  }

  flush() {
    clearTimeout(this.timer);
    const pending = this.pending;
    this.pending = null;
    if (pending) this.save(...pending);
  }

  storage() {
    try {
      return this.where === "session" ? window.sessionStorage : window.localStorage; // throws when blocked
    } catch {
      return null;
    }
  }

  /** The saved value made to `base`, or null. A stale or unreadable entry is deleted. */
  load(base) {
    const store = this.storage();
    try {
      const saved = JSON.parse(store?.getItem(this.key) ?? "null");
      if (saved && saved.base === base && typeof saved.value === "string") return saved.value;
      if (saved !== null) this.forget();
    } catch {
      this.forget(); // unreadable: behave as if nothing was saved, and do not meet it again
    }
    return null;
  }

  /** Saves `value` (a string), or forgets the entry when it is back to `original`. */
  save(base, value, original) {
    if (value === original) {
      this.forget();
      return;
    }
    let kept = true;
    try {
      this.storage()?.setItem(this.key, JSON.stringify({ base, value }));
    } catch {
      kept = false; // too large, or the storage is full: the value is not kept
      this.forgetStored(); // nor is an older value, which would come back on reload as if it were
    }
    this.onKept?.(kept);
  }

  forget() {
    clearTimeout(this.timer);
    this.pending = null;
    this.forgetStored();
    this.onKept?.(true); // back to the original: nothing needs keeping
  }

  forgetStored() {
    try {
      this.storage()?.removeItem(this.key);
    } catch {
      // nothing to forget
    }
  }
}
