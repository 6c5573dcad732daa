// A figure's input, read as its markup declares it (protocol in attention_py/figures/README.md,
// "Events -> changes"): each event on a control becomes a *change* (dotted state path ->
// value, as the reader gave it) handed to `queue(change, source, event)`. No number is
// computed here beyond mapping a pointer into the drawing's units, as data-drag says:
// Python parses, validates, clamps and snaps. Groups of choices move focus by arrow keys
// without any change (figure-roving.js).

import { focusArrived, focusLeft, keepStop, rovingKey } from "./figure-roving.js";

export class FigureInput {
  /** Listens on `root`; every change goes to `queue(change, sourceElement, event)`. */
  constructor(root, queue) {
    this.root = root;
    this.queue = queue;
    this.drag = null; // {pointerId, handle, spec}
    const on = (type, handler) => root.addEventListener(type, (event) => handler.call(this, event));
    on("input", this.onInput);
    on("change", this.onChange);
    on("click", this.onClick);
    on("keydown", this.onKeyDown);
    on("focusin", this.onHoverOrFocus);
    on("focusin", focusArrived);
    on("focusout", focusLeft);
    // after each morph (figure-host.js), which writes Python's Tab stops back
    on("figure-updated", () => keepStop(root));
    // pointerenter does not bubble: pointerover, filtered to entering the element itself.
    on("pointerover", this.onHoverOrFocus);
    on("pointerdown", this.onPointerDown);
    on("pointermove", this.onPointerMove);
    on("pointerup", this.endDrag);
    on("pointercancel", this.endDrag);
    on("lostpointercapture", this.endDrag);
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
    if (rovingKey(event)) {
      event.preventDefault(); // the arrow moved focus within a group of choices: no scrolling
      return;
    }
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
}
