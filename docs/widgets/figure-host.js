// The generic figure host: one FigureHost per prerendered `.apy-fig[data-figure]` root.
//
// It knows nothing about any particular figure. It reads the reader's input as the markup
// declares it (`name`, `data-set`, `data-keys`, `data-drag`; protocol in
// attention_py/figures/README.md), turns it into a *change* (dotted state path -> value),
// asks Python for the new figure with attention_py.figures.update in the page's shared
// Python session, and morphs the answer into the page. No number is computed here: values
// are sent as the reader typed them and Python parses, validates, clamps and draws.
//
// Timing: at most one call per figure is in flight; input arriving meanwhile is merged
// (later wins) and sent as one call when the answer is in, so a drag never builds a backlog.
// Input made before Python is ready is merged the same way and applied once it is.
// Each applied update dispatches a `figure-updated` event on the root (timings in `detail`)
// for tests and bench/figure_latency.py.
//
// Reload: the state of each update is kept in sessionStorage (saved-state.js), made to the
// prerendered state; after a reload the host asks Python for the saved state as soon as it
// can, so the figure comes back where the reader left it.
//
// Address: a figure that declares shareable keys (data-share: each key and its default) is
// opened by a link to `#<its id>?key=value&...` (on arrival, and on a hashchange when the
// article links to it): those values, the other shareable keys at their defaults, are sent
// to Python as text, like a control's, and Python refuses what it cannot use; the figure
// then keeps its drawing and says so. A key the figure does not share, a repeated key or an
// overlong address is refused here, before Python. Python writes the address of what the
// figure shows on its root (data-address); the host shows it as a link under the figure and,
// after the reader changes the figure, puts it in the address bar (history.replaceState), so
// the address bar always holds a link to what the reader sees.
//
// Motion: the host adds none (no transitions, no smooth scrolling; focus moves use
// preventScroll), so prefers-reduced-motion has nothing to turn off here. A figure changes
// exactly when the reader acts on it, and only as far as Python's new drawing says.

import { SavedEntry } from "./saved-state.js";

export const UPDATE = "attention_py.figures.update";
// Replies that mean "the session went away before answering": the change is sent again.
const RETRY_STATUSES = new Set(["restarted", "stopped", "timeout", "crashed", "cancelled"]);
// ... but the call itself may have caused these (it hung, or crashed Python): it is sent
// again once, in the fresh session; a state saved before a reload is dropped at once.
const OWN_FAULTS = new Set(["timeout", "crashed"]);
// data-busy (a progress cursor) only when an answer is slow: at drag speed it would flicker.
const BUSY_AFTER_MS = 120;
// An address longer than this, or a value longer than that, is refused as is.
const ADDRESS_MAX_CHARS = 1000;
const ADDRESS_VALUE_MAX_CHARS = 40;
// What a figure's own address looks like (attention_py/figures/_figure.py, Figure.address).
const ADDRESS = /^#[a-z][a-z0-9-]*(\?[\w.~%=&+-]*)?$/;

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
    this.name = root.dataset.figure;
    this.instance = root.id || null;
    this.strings = JSON.parse(root.dataset.strings); // the figure's own, the same for every call
    this.ui = uiStrings; // the page's strings (strings.js)
    this.pending = null; // merged changes not yet sent
    this.pendingSources = new Set(); // elements those changes came from
    this.firstInputAt = null; // event time of the oldest unsent input
    this.inputCount = 0; // inputs merged into the pending batch
    this.inFlight = null; // {changes, sources} of the call being answered
    this.pendingRestore = false; // the pending batch carries a state saved before a reload
    this.pendingRetry = false; // the pending batch carries changes that timed out or crashed once
    this.pendingAddress = false; // the pending batch carries the page address's values
    this.drag = null; // {pointerId, handle, spec}
    this.stats = { inputs: 0, calls: 0, updates: 0, errors: 0, retries: 0 };
    this.status = this.createStatus();
    this.authorState = root.dataset.state; // as prerendered: what a saved state was made to
    this.saved = new SavedEntry("figure", this.instance || this.name, "session");
    // The data file the figure reads (data-resource, e.g. "training/en"): only compared here,
    // to warm up one figure per file (figure-page.js); Python checks the key when it reads it
    // (attention_py/resources.py), so the page keeps no copy of that rule.
    this.resource = root.dataset.resource || null;
    this.tick = null; // the timer of the next call of a running figure
    this.share = root.dataset.share ? JSON.parse(root.dataset.share) : null; // shareable key -> default
    this.addressLink = this.share && this.instance ? this.createAddressLink() : null;
    this.listen();
    // A link to this figure's settings wins over where the reader left it before a reload.
    if (!this.openAddress(arrivedByLink())) this.restore();
    this.catchUp();
  }

  /**
   * What the page's address asks of this figure: null when it does not name the figure with
   * settings; `{change}` (every shareable key: the address's value as text, else its default);
   * or `{refused: "key=value"}` for what this figure does not share.
   */
  addressChange(hash) {
    if (!this.share || !this.instance || !this.isOwnAddress(hash) || !hash.includes("?")) return null;
    const query = hash.slice(hash.indexOf("?") + 1);
    if (query.length > ADDRESS_MAX_CHARS) return { refused: `${query.slice(0, ADDRESS_VALUE_MAX_CHARS)}…` };
    const change = { ...this.share };
    const seen = new Set();
    for (const [key, value] of new URLSearchParams(query)) {
      if (!Object.hasOwn(this.share, key) || seen.has(key) || value.length > ADDRESS_VALUE_MAX_CHARS) {
        return { refused: `${key}=${value}`.slice(0, 2 * ADDRESS_VALUE_MAX_CHARS) };
      }
      seen.add(key);
      change[key] = value;
    }
    return { change };
  }

  /** Opens the settings the address names, if it names this figure; true if it did. */
  openAddress(scroll) {
    const asked = this.addressChange(location.hash);
    if (!asked) return false;
    if (asked.refused) {
      this.showError(this.ui.figure_address_refused({ setting: asked.refused }));
    } else {
      this.pendingAddress = true; // before queue(): it may send at once if Python is up
      this.queue(asked.change, null, null);
    }
    if (scroll) this.root.scrollIntoView({ block: "start" }); // no element has the id "train?...": the browser did not
    return true;
  }

  /** Whether `hash` is this figure's address: `#<id>`, with or without `?settings`. */
  isOwnAddress(hash) {
    const own = `#${this.instance}`;
    return hash === own || hash.startsWith(`${own}?`);
  }

  /** The address of the settings the figure shows, as Python wrote it (data-address), if it is one. */
  drawnAddress() {
    const address = this.root.dataset.address;
    return address && ADDRESS.test(address) && this.isOwnAddress(address) ? address : null;
  }

  /** The link under the figure follows its settings; with `toBar`, the address bar too. */
  showAddress(toBar) {
    const hash = this.drawnAddress();
    if (!hash) return;
    this.addressLink?.setAttribute("href", hash);
    if (!toBar || location.hash === hash) return;
    // at its defaults: the address the reader came by stays, unless it was this figure's
    if (hash === `#${this.instance}` && !this.isOwnAddress(location.hash)) return;
    try {
      history.replaceState(history.state, "", hash);
    } catch {
      // a sandboxed page: the link in the figure still holds the settings
    }
  }

  /** Where the reader left this figure before a reload, queued like input (Python starts). */
  restore() {
    const state = this.saved.load(this.authorState); // never the author's state: save() forgets that
    if (!state) return;
    let change;
    try {
      change = JSON.parse(state);
    } catch {
      this.saved.forget();
      return;
    }
    this.pendingRestore = true; // before queue(): it may send at once if Python is up
    this.queue(change, null, null);
  }

  /**
   * Controls whose value already differs from the drawing when the host arrives: moved in
   * the moment before this chunk loaded, or restored by the browser on a return visit. They
   * are queued like fresh input, so the drawing follows what the controls show.
   */
  catchUp() {
    for (const el of this.root.querySelectorAll("input[name], select[name]")) {
      if (el.type === "checkbox") {
        if (el.checked !== el.hasAttribute("checked")) this.onChange({ target: el });
      } else if (el.localName === "select") {
        const drawn = el.querySelector("option[selected]");
        if (drawn && el.value !== drawn.value) this.onInput({ target: el });
      } else if (el.type === "range" ? Number(el.value) !== Number(el.getAttribute("value")) : el.value !== (el.getAttribute("value") ?? "")) {
        if (el.dataset.commit) this.onChange({ target: el });
        else this.onInput({ target: el });
      }
    }
  }

  // --- input -> change --------------------------------------------------------------------

  listen() {
    const { root } = this;
    root.addEventListener("input", (event) => this.onInput(event));
    root.addEventListener("change", (event) => this.onChange(event));
    root.addEventListener("click", (event) => this.onClick(event));
    root.addEventListener("keydown", (event) => this.onKeyDown(event));
    root.addEventListener("focusin", (event) => this.onHoverOrFocus(event));
    // pointerenter does not bubble: pointerover, filtered to entering the element itself.
    root.addEventListener("pointerover", (event) => this.onHoverOrFocus(event));
    root.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    root.addEventListener("pointermove", (event) => this.onPointerMove(event));
    root.addEventListener("pointerup", (event) => this.endDrag(event));
    root.addEventListener("pointercancel", (event) => this.endDrag(event));
    root.addEventListener("lostpointercapture", (event) => this.endDrag(event));
    addEventListener("hashchange", () => this.openAddress(true)); // a link in the article to these settings
  }

  control(event, selector) {
    const el = event.target instanceof Element ? event.target.closest(selector) : null;
    return el && this.root.contains(el) ? el : null;
  }

  onInput(event) {
    const el = this.control(event, "[name]");
    if (!el || el.dataset.commit || el.type === "checkbox" || el.type === "radio") return;
    let value = el.value;
    if (el.dataset.values) {
      const values = JSON.parse(el.dataset.values);
      value = values[Number(el.value)];
      if (value === undefined) return;
    }
    this.queue({ [el.getAttribute("name")]: value }, el, event);
  }

  onChange(event) {
    const el = this.control(event, "[name]");
    if (!el) return;
    if (el.type === "checkbox") this.queue({ [el.getAttribute("name")]: el.checked }, el, event);
    else if (el.dataset.commit === "change") this.queue({ [el.getAttribute("name")]: el.value }, el, event);
  }

  onClick(event) {
    const el = this.control(event, "[data-set]");
    if (!el || el.disabled) return;
    this.queue(JSON.parse(el.dataset.set), el, event);
  }

  onKeyDown(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const keyed = this.control(event, "[data-keys]");
    if (keyed) {
      const change = JSON.parse(keyed.dataset.keys)[(event.shiftKey ? "Shift+" : "") + event.key];
      if (change) {
        event.preventDefault();
        this.queue(change, keyed, event);
      }
      return;
    }
    const setter = this.control(event, "[data-set]");
    const native = setter && (setter.localName === "button" || setter.localName === "input");
    if (setter && !native && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      this.queue(JSON.parse(setter.dataset.set), setter, event);
    }
  }

  onHoverOrFocus(event) {
    const el = this.control(event, '[data-set][data-set-on="focus"]');
    if (!el || el.getAttribute("aria-pressed") === "true") return;
    if (event.type === "pointerover" && event.relatedTarget instanceof Node && el.contains(event.relatedTarget)) return;
    this.queue(JSON.parse(el.dataset.set), el, event);
  }

  onPointerDown(event) {
    const handle = this.control(event, "[data-drag]");
    if (!handle || !event.isPrimary || event.button !== 0) return;
    event.preventDefault(); // no text selection, no scrolling, no emulated mouse events
    try {
      handle.setPointerCapture(event.pointerId);
    } catch {
      return; // not an active pointer (a synthetic event): nothing to drag
    }
    // Focus follows the hand, so arrow keys continue where the pointer left off.
    if (document.activeElement !== handle) handle.focus({ preventScroll: true });
    this.drag = { pointerId: event.pointerId, handle, spec: JSON.parse(handle.dataset.drag) };
  }

  onPointerMove(event) {
    const { drag } = this;
    if (!drag || event.pointerId !== drag.pointerId) return;
    const svg = drag.handle.ownerSVGElement;
    const matrix = svg?.getScreenCTM();
    if (!matrix) return;
    // Client pixels -> the drawing's user units -> state values, as data-drag declares.
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    const { x, y, origin, scale } = drag.spec;
    const change = {};
    if (x) change[x] = (p.x - origin[0]) / scale[0];
    if (y) change[y] = (p.y - origin[1]) / scale[1];
    this.queue(change, drag.handle, event);
  }

  endDrag(event) {
    const { drag } = this;
    if (!drag || event.pointerId !== drag.pointerId) return;
    this.drag = null;
    if (drag.handle.hasPointerCapture?.(event.pointerId)) drag.handle.releasePointerCapture(event.pointerId);
  }

  // --- the update cycle ----------------------------------------------------------------------

  /** Merges a change into the pending batch and sends it when Python is free. */
  queue(change, source, event) {
    this.pending = Object.assign(this.pending || {}, change);
    if (source) this.pendingSources.add(source);
    this.firstInputAt ??= event?.timeStamp ?? performance.now();
    this.inputCount += 1;
    this.stats.inputs += 1;
    this.session.start();
    this.flush();
    this.showStatus();
  }

  /** Sends the pending batch if there is one, no call is in flight and Python is ready. */
  flush() {
    if (!this.pending || this.inFlight || this.session.state !== "ready") return;
    const batch = {
      changes: this.pending,
      sources: this.pendingSources,
      firstInputAt: this.firstInputAt,
      inputs: this.inputCount,
      restore: Boolean(this.pendingRestore), // carries the state saved before a reload
      address: Boolean(this.pendingAddress), // carries the page address's values
      retry: Boolean(this.pendingRetry),
      sentAt: performance.now(),
    };
    this.pendingRestore = false;
    this.pendingRetry = false;
    this.pendingAddress = false;
    this.pending = null;
    this.pendingSources = new Set();
    this.firstInputAt = null;
    this.inputCount = 0;
    let args;
    try {
      args = this.updateArgs(batch.changes); // reads the live root's state
    } catch (error) {
      this.report(batch, error); // never in flight, so the figure takes the next input
      return;
    }
    this.inFlight = batch;
    this.stats.calls += 1;
    const busyTimer = setTimeout(() => {
      this.root.setAttribute("data-busy", "");
      this.showStatus(); // a slow answer may be one waiting behind a running code cell
    }, BUSY_AFTER_MS);
    const { root } = this;
    this.session
      .call(UPDATE, args)
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

  /** The arguments of attention_py.figures.update: plain data, sent as one JSON message. */
  updateArgs(changes) {
    const { root } = this;
    return [this.name, JSON.parse(root.dataset.state), changes, root.lang, this.strings, this.instance];
  }

  apply(batch, result) {
    const receivedAt = performance.now();
    if (!result.ok && batch.address) {
      // the figure stays as drawn; the value refused is named as the address wrote it
      this.stats.errors += 1;
      this.showError(this.ui.figure_address_refused({ setting: `${result.key}=${batch.changes[result.key] ?? ""}` }));
    } else if (!result.ok && batch.restore) {
      this.saved.forget(); // a saved state this build refuses: the figure stays as drawn
    } else if (!result.ok) {
      this.stats.errors += 1;
      this.showError(result.error, this.controlFor(result.key, batch.sources));
    } else {
      const focused = this.root.contains(document.activeElement) ? document.activeElement : null;
      const focusKey = focused?.closest("[data-focus-key]")?.getAttribute("data-focus-key");
      // A control keeps its own value while newer input from it waits to be sent (the thumb
      // of a dragged slider must not jump back), or while the reader is typing in it.
      const keep = (el) => this.pendingSources.has(el) || (el === document.activeElement && isEditing(el, batch));
      this.morph(this.root, result.html, keep);
      if (focused) this.keepFocus(focused, focusKey);
      this.saved.saveSoon(this.authorState, this.root.dataset.state, this.authorState);
      this.showAddress(batch.sources.size > 0 || batch.address); // not for a running figure's next chunk
      this.stats.updates += 1;
      if (result.state?.running === true) this.keepRunning();
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
      this.dropSaved(batch, error);
      return;
    }
    if ((RETRY_STATUSES.has(status) || status === "failed") && !(ownFault && batch.retry)) {
      // The session went away (a live cell was stopped, Python restarted, or it could not
      // start): nothing was applied, so the same changes go again, under any newer ones.
      this.stats.retries += 1;
      this.pending = Object.assign(batch.changes, this.pending || {});
      this.pendingRestore ||= batch.restore;
      this.pendingAddress ||= batch.address;
      this.pendingRetry ||= ownFault;
      for (const el of batch.sources) this.pendingSources.add(el);
      this.firstInputAt = Math.min(batch.firstInputAt, this.firstInputAt ?? Infinity);
      this.inputCount += batch.inputs;
      return;
    }
    this.report(batch, error);
  }

  /** A fault, not a refused value: a Python exception or a bug here. */
  report(batch, error) {
    if (batch.restore) {
      this.dropSaved(batch, error);
      return;
    }
    this.stats.errors += 1;
    console.error(`figure ${this.name}: ${error?.reply?.error || error?.stack || error}`);
    this.showError(this.ui.figure_failed_update, [...batch.sources].at(-1));
  }

  /**
   * A state saved before a reload that Python could not apply (it failed, hung or crashed
   * Python): deleted, so the next reload does not meet it again; the figure stays as drawn.
   */
  dropSaved(batch, error) {
    this.saved.forget();
    console.warn(`figure ${this.name}: the state saved before the reload was dropped (${error?.reply?.status || "error"}: ${error?.reply?.error || error?.message || error})`);
  }

  // --- running figures ----------------------------------------------------------------------

  /**
   * A figure whose new state says `running: true` (training in the page) is called again,
   * with no changes, after yielding to the event loop: one short call at a time, so other
   * figures' calls and the reader's input take their turn in between. It stops when the
   * state says otherwise (Pause), on an error, or when the figure has left the page.
   */
  keepRunning() {
    clearTimeout(this.tick);
    this.tick = setTimeout(() => {
      this.tick = null;
      if (!this.root.isConnected || this.pending || this.inFlight) return; // the next answer decides
      let state;
      try {
        state = JSON.parse(this.root.dataset.state);
      } catch {
        return;
      }
      if (state.running === true) this.queue({}, null, null);
    }, 0);
  }

  controlFor(key, sources) {
    if (key) {
      const named = this.root.querySelector(`[name="${CSS.escape(key)}"]`);
      if (named) return named;
    }
    return [...sources].at(-1);
  }

  showError(message, control) {
    const slot = this.root.querySelector("[data-role=error]");
    if (slot) {
      slot.textContent = message;
      slot.hidden = false;
    }
    if (control && this.root.contains(control)) control.setAttribute("aria-invalid", "true");
  }

  // --- the reader-facing status --------------------------------------------------------------

  /** A link to the figure's settings, beside the root (its children are Python's). */
  createAddressLink() {
    const paragraph = document.createElement("p");
    paragraph.className = "apy-fig-address";
    paragraph.lang = this.root.lang;
    paragraph.dir = this.root.dir;
    const link = document.createElement("a");
    link.textContent = this.ui.figure_share;
    link.title = this.ui.figure_share_title;
    link.setAttribute("href", this.drawnAddress() ?? `#${this.instance}`);
    paragraph.append(link);
    this.root.after(paragraph);
    return link;
  }

  createStatus() {
    // Beside the root, not inside it: the root's children are Python's (morphed on update).
    const status = document.createElement("p");
    status.className = "apy-fig-status";
    status.setAttribute("role", "status");
    status.lang = this.root.lang;
    status.dir = this.root.dir;
    status.hidden = true;
    this.root.after(status);
    return status;
  }

  /** Says why the figure is not following the reader's input, when it is not. */
  showStatus() {
    const { state } = this.session;
    const waiting = Boolean(this.pending || this.inFlight);
    let text = "";
    if (state === "failed" && (waiting || this.stats.inputs)) text = this.ui.figure_unavailable;
    else if (state === "ready" && this.inFlight && this.session.busyWithCode) text = this.ui.figure_waiting_for_code;
    else if (state !== "ready" && waiting) {
      if (this.pendingRestore) text = this.ui.figure_restoring;
      else text = this.session.generation > 1 && this.stats.updates ? this.ui.figure_restarting : this.ui.figure_starting;
      const progress = this.session.progress;
      if (progress?.phase === "download" && progress.total && progress.loaded < progress.total) {
        const mb = (bytes) => this.ui.number(bytes / 1e6, 1);
        text += ` (${this.ui.downloading({ loaded: mb(progress.loaded), total: mb(progress.total) })})`;
      }
    }
    if (this.status.textContent !== text) this.status.textContent = text;
    this.status.hidden = !text;
  }

  /** The session is ready (first start or after a restart): go live, send what waited. */
  onSessionReady() {
    this.root.setAttribute("data-live", "");
    this.flush();
    this.showStatus();
  }
}

/** Whether the page was opened by following a link (not a reload or a step back in history). */
function arrivedByLink() {
  const navigation = performance.getEntriesByType?.("navigation")?.[0];
  return !navigation || navigation.type === "navigate";
}

/** A text box the reader is typing in: its text differs from what was last drawn. */
function isEditing(el, batch) {
  if (el.localName !== "input" || el.type === "range" || el.type === "checkbox") return false;
  return !batch.sources.has(el) && el.value !== el.getAttribute("value");
}
