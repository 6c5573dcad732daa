// Morphs a live figure into the markup Python just returned, in place.
//
// Replacing the figure's HTML wholesale would drop the focused control, end a slider drag
// and a pointer capture, and make screen readers start over. A figure keeps the same element
// structure for every state of one shape (see attention_py/figures/README.md), so nearly
// every update is only attributes and text: those are patched on the existing nodes, and a
// node is replaced only where the structure really differs.
//
// Python's markup is not trusted (a live cell can replace the function that draws it):
// parseFigure (figure-sanitise.js) parses it inertly and removes everything not on the
// figures' allow-list before any node of it reaches the page, on every path below.

import { parseFigure } from "./figure-sanitise.js";

// Attributes the host owns on the root, kept as they are whatever the new markup says.
// (tabindex: the host makes the root focusable when the focused control disappears, see
// figure-host.js; id: the figure's instance, set by the build, which the sanitiser removes
// from new markup; data-strings: the figure's strings as the build wrote them, which the
// host sends Python, and which Python's answers leave out, session_runtime.update_figure.)
const HOST_ATTRIBUTES = new Set(["data-live", "data-busy", "tabindex", "id", "data-strings"]);

/**
 * Patches `root` to match `html` (one root element, as attention_py.figures.update returns).
 * `keep(el)` says whether an input's value must be left alone (the reader is still moving
 * or typing in it). Returns nothing; focus is restored by the caller (see figure-host.js).
 */
export function morphFigure(root, html, keep = () => false) {
  const next = parseFigure(html); // allowed elements and attributes only, still inert
  if (!next) throw new Error("attention_py.figures.update returned no element");
  if (!isState(next.getAttribute("data-state"))) {
    // The root's data-state is the figure's state in the page (what a reload restores, what
    // tests and tools read): a drawing without a valid one is refused before anything changes.
    throw new Error("attention_py.figures.update returned a figure without a valid data-state");
  }
  syncAttributes(root, next, HOST_ATTRIBUTES);
  morphChildren(root, next, keep);
}

/** True when `text` is a JSON object (a figure's state). */
function isState(text) {
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value);
  } catch {
    return false;
  }
}

function morphChildren(oldParent, newParent, keep) {
  const oldNodes = [...oldParent.childNodes];
  const newNodes = [...newParent.childNodes];
  const common = Math.min(oldNodes.length, newNodes.length);
  // Pairs by position: where the counts differ (a score added, 4 heads instead of 2) the
  // common prefix is still patched in place, so a focused control before the change survives.
  for (let i = 0; i < common; i += 1) morphNode(oldNodes[i], newNodes[i], keep);
  for (let i = common; i < oldNodes.length; i += 1) oldNodes[i].remove();
  // New nodes are moved out of the parsed template (adopted), not copied: it is thrown away.
  for (let i = common; i < newNodes.length; i += 1) oldParent.appendChild(newNodes[i]);
}

function morphNode(old, next, keep) {
  if (!sameKind(old, next)) {
    old.replaceWith(next);
    return;
  }
  if (old.nodeType === Node.TEXT_NODE || old.nodeType === Node.COMMENT_NODE) {
    if (old.data !== next.data) old.data = next.data;
    return;
  }
  if (old.nodeType !== Node.ELEMENT_NODE) return;
  const tag = old.localName;
  // Asked before the attributes change: "is the reader typing?" compares with the old ones.
  const kept = (tag === "input" || tag === "select" || tag === "textarea") && keep(old);
  syncAttributes(old, next);
  if (tag === "select") {
    morphChildren(old, next, keep);
    const chosen = next.querySelector("option[selected]") || next.querySelector("option");
    if (chosen && !kept && old.value !== chosen.value) old.value = chosen.value;
    return;
  }
  if (tag === "input") {
    if (kept) return;
    if (old.type === "checkbox" || old.type === "radio") {
      const checked = next.hasAttribute("checked");
      if (old.checked !== checked) old.checked = checked;
    } else {
      // Once an input has been edited, its value attribute no longer drives what it shows.
      const value = next.getAttribute("value") ?? "";
      if (old.value !== value) old.value = value;
    }
    return;
  }
  if (tag === "textarea") {
    if (!kept && old.value !== next.value) old.value = next.value;
    return;
  }
  morphChildren(old, next, keep);
}

/** Same node type and tag, and not two different controls (different data-focus-key). */
function sameKind(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return true;
  if (a.namespaceURI !== b.namespaceURI || a.localName !== b.localName) return false;
  return a.getAttribute("data-focus-key") === b.getAttribute("data-focus-key");
}

function syncAttributes(old, next, skip = null) {
  for (const name of old.getAttributeNames()) {
    if (!next.hasAttribute(name) && !skip?.has(name)) old.removeAttribute(name);
  }
  for (const name of next.getAttributeNames()) {
    if (skip?.has(name)) continue;
    const value = next.getAttribute(name);
    if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  }
}
