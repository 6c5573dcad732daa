// The generic figure host: one FigureHost per prerendered `.apy-fig[data-figure]` root.
//
// It knows nothing about any particular figure. Its concerns, each in its own module:
//   figure-input.js        the reader's input, as the markup declares it -> a change
//   figure-batch.js        changes waiting for Python, merged into one batch
//   figure-call.js         the call to Python (attention_py.figures.update; strings sent once)
//   figure-morph.js        Python's answer patched into the page (through the allow-list)
//   figure-address.js      the page address of a shareable figure
//   figure-saved-state.js  where the reader left the figure, across a reload
//   figure-files.js        files to and from a running figure (import, export, its kept runs)
//   figure-status.js       the line that says why the figure is not following, when it is not
// This file is the update cycle that joins them (protocol in attention_py/figures/README.md).
// No number is computed here: values are sent as the reader gave them and Python parses,
// validates, clamps and draws.
//
// Timing: at most one call per figure is in flight; input arriving meanwhile is merged
// (later wins) and sent as one call when the answer is in, so a drag never builds a backlog.
// Input made before Python is ready is merged the same way and applied once it is.
// Each applied update dispatches a `figure-updated` event on the root (timings in `detail`)
// for tests and bench/figure_latency.py.
//
// State: the figure's state is the one Python last answered with, kept here (the first one
// read from the prerendered root); the root's data-state shows the same (Python draws it).
//
// Motion: the host adds none (no transitions, no smooth scrolling; focus moves use
// preventScroll), so prefers-reduced-motion has nothing to turn off here. A figure changes
// exactly when the reader acts on it, and only as far as Python's new drawing says.

import { FigureAddress, arrivedByLink, excerpt } from "./figure-address.js";
import { Batch } from "./figure-batch.js";
import { FigureCall } from "./figure-call.js";
import { FigureFiles } from "./figure-files.js";
import { FigureInput } from "./figure-input.js";
import { SavedFigureState } from "./figure-saved-state.js";
import { FigureStatus } from "./figure-status.js";
import { MAX_FIGURE_ERROR, cutEnd } from "../runtime/message-bounds.js";

export { UPDATE } from "./figure-call.js";
// Replies that mean "the session went away before answering": the change is sent again.
const RETRY_STATUSES = new Set(["restarted", "stopped", "timeout", "crashed", "cancelled"]);
// ... but the call itself may have caused these (it hung, or crashed Python): it is sent
// again once, in the fresh session; a state saved before a reload is dropped at once.
const OWN_FAULTS = new Set(["timeout", "crashed"]);
// data-busy (a progress cursor) only when an answer is slow: at drag speed it would flicker.
const BUSY_AFTER_MS = 120;

export class FigureHost {
  /**
   * `morph(root, html, keep)` patches the root with Python's answer: figure-morph.js's
   * morphFigure, given by figure-page.js (the host itself parses no markup; tests give a
   * stand-in, since the sanitiser needs a browser).
   */
  constructor(root, { session, uiStrings, morph }) {
    this.root = root;
    this.session = session;
    this.morph = morph;
    this.lastHtml = null; // the markup of the last answer patched in (see apply)
    this.name = root.dataset.figure;
    this.instance = root.id || null;
    this.ui = uiStrings; // the page's strings (strings.js)
    this.state = prerenderedState(root); // the figure's state: Python's last answer
    this.pending = null; // the Batch not yet sent
    this.inFlight = null; // the Batch of the call being answered
    this.stats = { inputs: 0, calls: 0, updates: 0, errors: 0, retries: 0 };
    // The data file the figure reads (data-resource, e.g. "training/en"): only compared here,
    // to warm up one figure per file (figure-page.js); Python checks the key when it reads it
    // (attention_py/resources.py), so the page keeps no copy of that rule.
    this.resource = root.dataset.resource || null;
    this.call = new FigureCall(root, session);
    this.status = new FigureStatus(root, uiStrings);
    this.saved = new SavedFigureState(root, this.name, this.instance);
    this.address = new FigureAddress(root, this.instance, uiStrings);
    this.input = new FigureInput(root, (change, source, event) => this.queue(change, source, event));
    this.files = new FigureFiles(root, this.instance, (change, source, event) => this.queue(change, source, event));
    const kept = this.files.restoreChange(); // the runs kept before a reload, put back first
    if (kept) this.queue(kept, null, null);
    addEventListener("hashchange", () => this.openAddress(true)); // a link in the article to these settings
    // A link to this figure's settings wins over where the reader left it before a reload.
    if (!this.openAddress(arrivedByLink())) this.restore();
    this.input.catchUp();
  }

  /** The link under a shareable figure (null for others). */
  get addressLink() {
    return this.address.link;
  }

  /** Opens the settings the address names, if it names this figure; true if it did. */
  openAddress(scroll) {
    const asked = this.address.asked(location.hash);
    if (!asked) return false;
    if (asked.refused) this.showError(this.ui.figure_address_refused({ setting: excerpt(asked.refused) }));
    else this.queue(asked.change, null, null, "address");
    if (scroll) this.root.scrollIntoView({ block: "start" }); // no element has the id "train?...": the browser did not
    return true;
  }

  /** Where the reader left this figure before a reload, queued like input (Python starts). */
  restore() {
    const change = this.saved.change();
    if (change) this.queue(change, null, null, "restore");
  }

  // --- the update cycle ----------------------------------------------------------------------

  /**
   * Merges a change into the pending batch and sends it when Python is free. `carries` marks
   * the batch as carrying the page address's values ("address") or a saved state ("restore").
   */
  queue(change, source, event, carries = null) {
    this.pending = (this.pending ?? new Batch()).add(change, source, event);
    if (carries) this.pending[carries] = true;
    this.stats.inputs += 1;
    this.session.start();
    this.flush();
    this.showStatus();
  }

  /** Sends the pending batch if there is one, no call is in flight and Python is ready. */
  flush() {
    if (!this.pending || this.inFlight || this.session.state !== "ready") return;
    const batch = this.pending;
    this.pending = null;
    batch.sentAt = performance.now();
    if (!this.state) {
      this.report(batch, new Error("the figure's prerendered data-state is not a JSON object")); // never in flight
      return;
    }
    this.inFlight = batch;
    this.stats.calls += 1;
    const busyTimer = setTimeout(() => {
      this.root.setAttribute("data-busy", "");
      this.showStatus(); // a slow answer may be one waiting behind a running code cell
    }, BUSY_AFTER_MS);
    const { root } = this;
    this.call
      .send(this.state, batch.changes)
      .then(
        (result) => this.apply(batch, result), // a plain object: {ok, html, state} or {ok: false, ...}
        (error) => this.callFailed(batch, error),
      )
      .catch((error) => this.report(batch, error))
      .finally(() => {
        clearTimeout(busyTimer);
        this.inFlight = null;
        if (!this.pending) root.removeAttribute("data-busy");
        this.flush();
        this.showStatus();
      });
  }

  /** Warms Python up for this figure (figure-page.js): a throwaway call, no changes. */
  warmUp(options) {
    return this.call.send(this.state, {}, options);
  }

  apply(batch, result) {
    const receivedAt = performance.now();
    if (!result.ok && batch.address) {
      // the figure stays as drawn; the value refused is named as the address wrote it
      this.stats.errors += 1;
      this.showError(this.ui.figure_address_refused({ setting: excerpt(`${result.key}=${batch.changes[result.key] ?? ""}`) }));
    } else if (!result.ok && batch.restore) {
      this.saved.forget(); // a saved state this build refuses: the figure stays as drawn
    } else if (!result.ok) {
      this.stats.errors += 1;
      this.showError(result.error, this.controlFor(result.key, batch.sources));
    } else {
      const { state } = result;
      const drawn = typeof result.html === "string"; // null: a running figure has nothing new to draw yet
      if (!state || typeof state !== "object" || Array.isArray(state) || !(drawn || (result.html === null && state.running === true))) {
        throw new Error("attention_py.figures.update answered without a state"); // reported: the figure stays as drawn
      }
      const focused = this.root.contains(document.activeElement) ? document.activeElement : null;
      const focusKey = focused?.closest("[data-focus-key]")?.getAttribute("data-focus-key");
      // A control keeps its own value while newer input from it waits to be sent (the thumb
      // of a dragged slider must not jump back), or while the reader is typing in it.
      const keep = (el) => Boolean(this.pending?.sources.has(el)) || (el === document.activeElement && isEditing(el, batch));
      // A running figure draws a few times a second, whatever its step rate: in between it
      // answers with the state reached and no markup (html null), and the page keeps its
      // drawing (attention_py/figures/README.md, "Running figures"). The same markup again is
      // not patched either: its parse would cost the main thread for nothing; an answer to the
      // reader's input is always patched (it may put back a value the state clamped).
      const again = !drawn || (batch.sources.size === 0 && !batch.address && result.html === this.lastHtml);
      if (!again) this.morph(this.root, result.html, keep);
      if (drawn) this.lastHtml = result.html;
      this.state = state;
      if (focused) this.keepFocus(focused, focusKey);
      this.saved.keep(this.root.dataset.state);
      this.files.answered(result);
      this.address.show(batch.sources.size > 0 || batch.address); // not for a running figure's next chunk
      this.stats.updates += 1;
      if (state.running === true) this.keepRunning();
    }
    const appliedAt = performance.now();
    this.root.dispatchEvent(
      new CustomEvent("figure-updated", {
        bubbles: true,
        detail: {
          name: this.name,
          ok: Boolean(result.ok),
          changes: batch.changes,
          inputs: batch.inputs, // how many inputs this one call carried
          firstInputAt: batch.firstInputAt,
          sentAt: batch.sentAt,
          receivedAt,
          appliedAt,
          drawn: Boolean(result.ok) && typeof result.html === "string", // false: nothing new to draw
        },
      }),
    );
  }

  /**
   * Focus stays where the reader put it. If that control was replaced (the shape changed),
   * focus its successor (same data-focus-key); if it is gone or was just disabled ("Next"
   * at the last word), focus the figure itself rather than let focus fall to the page.
   */
  keepFocus(focused, focusKey) {
    if (focused.isConnected && !focused.disabled && document.activeElement === focused) return;
    const again = focusKey && this.root.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
    if (again && !again.disabled) {
      again.focus({ preventScroll: true });
      return;
    }
    this.root.setAttribute("tabindex", "-1"); // focusable by script only, not a Tab stop
    this.root.focus({ preventScroll: true });
  }

  callFailed(batch, error) {
    const status = error?.reply?.status;
    const ownFault = OWN_FAULTS.has(status);
    if (batch.restore && ownFault) {
      this.saved.drop(error);
      return;
    }
    if ((RETRY_STATUSES.has(status) || status === "failed") && !(ownFault && batch.retry)) {
      // The session went away (a live cell was stopped, Python restarted, or it could not
      // start): nothing was applied, so the same changes go again, under any newer ones.
      this.stats.retries += 1;
      this.pending = (this.pending ?? new Batch()).takeBack(batch, ownFault);
      return;
    }
    this.report(batch, error);
  }

  /** A fault, not a refused value: a Python exception or a bug here. */
  report(batch, error) {
    if (batch.restore) {
      this.saved.drop(error); // a saved state Python could not apply: the figure stays as drawn
      return;
    }
    this.stats.errors += 1;
    console.error(`figure ${this.name}: ${error?.reply?.error || error?.stack || error}`);
    this.showError(this.ui.figure_failed_update, [...batch.sources].at(-1));
  }

  // --- running figures ----------------------------------------------------------------------

  /**
   * A figure whose new state says `running: true` (training in the page) is called again,
   * with no changes, as soon as this answer is applied (the batch waits in `pending`; `flush`
   * sends it when the call in flight is done): the worker computes while the page patches.
   * One call at a time, each a budget's work, so another figure's call or the reader's input,
   * each a task of its own, waits at most one short call. It stops when the state says
   * otherwise (Pause), on an error, or when the figure has left the page.
   */
  keepRunning() {
    if (!this.root.isConnected || this.pending) return; // what is pending goes next: its answer decides
    this.queue({}, null, null);
  }

  controlFor(key, sources) {
    if (key) {
      const named = this.root.querySelector(`[name="${CSS.escape(key)}"]`);
      if (named) return named;
    }
    return [...sources].at(-1);
  }

  showError(message, control) {
    this.lastHtml = null; // the slot and the control's mark are not Python's markup: patch next time
    const slot = this.root.querySelector("[data-role=error]");
    if (slot) {
      // A figure's own message is a sentence or two; a longer one comes from code in the page.
      const note = (count) => this.ui.figure_error_cut({ count: this.ui.number(count) });
      slot.textContent = cutEnd(String(message), MAX_FIGURE_ERROR, note);
      slot.hidden = false;
    }
    if (control && this.root.contains(control)) control.setAttribute("aria-invalid", "true");
  }

  /** Says why the figure is not following the reader's input, when it is not. */
  showStatus() {
    this.status.show(this.session, {
      waiting: Boolean(this.pending || this.inFlight),
      inFlight: Boolean(this.inFlight),
      restoring: Boolean(this.pending?.restore),
      used: this.stats.inputs > 0,
      updated: this.stats.updates > 0,
    });
  }

  /** The session is ready (first start or after a restart): go live, send what waited. */
  onSessionReady() {
    this.root.setAttribute("data-live", "");
    this.flush();
    this.showStatus();
  }
}

/** The state the build drew the figure with (data-state), or null if it is not a JSON object. */
function prerenderedState(root) {
  try {
    const state = JSON.parse(root.dataset.state);
    return state && typeof state === "object" && !Array.isArray(state) ? state : null;
  } catch {
    return null;
  }
}

/** A text box the reader is typing in: its text differs from what was last drawn. */
function isEditing(el, batch) {
  if (el.localName !== "input" || el.type === "range" || el.type === "checkbox") return false;
  return !batch.sources.has(el) && el.value !== el.getAttribute("value");
}
