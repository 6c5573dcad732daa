// Where the reader left a figure, kept across a reload (sessionStorage, saved-state.js): each
// applied state is saved, made to the prerendered state; after a reload that state is asked
// of Python again as soon as it can be, so the figure comes back where the reader left it. A
// saved state that Python refuses, fails on, hangs or crashes on is deleted, so the next
// reload does not meet it again (README.md, "What is guaranteed").

import { SavedEntry } from "../shared/saved-state.js";

export class SavedFigureState {
  /** The entry of the figure `root` (by its id, else its name), made to its prerendered state. */
  constructor(root, name, instance) {
    this.name = name;
    this.authorState = root.dataset.state; // as prerendered: what a saved state was made to
    this.entry = new SavedEntry("figure", instance || name, "session");
  }

  /** The saved state as a change (every key), or null; an unreadable one is forgotten. */
  change() {
    const state = this.entry.load(this.authorState); // never the author's state: keep() forgets that
    if (!state) return null;
    try {
      return JSON.parse(state);
    } catch {
      this.entry.forget();
      return null;
    }
  }

  /** Keeps `drawn` (the root's data-state text), once it has been still for a moment. */
  keep(drawn) {
    this.entry.saveSoon(this.authorState, drawn, this.authorState);
  }

  /** Deletes the saved state (one this build refuses). */
  forget() {
    this.entry.forget();
  }

  /** A saved state Python could not apply: deleted, with a console warning that says why. */
  drop(error) {
    this.entry.forget();
    const reply = error?.reply;
    console.warn(`figure ${this.name}: the state saved before the reload was dropped (${reply?.status || "error"}: ${reply?.error || error?.message || error})`);
  }
}
