// Turns the markup Python returned for a figure into nodes that can only draw.
//
// A figure's markup comes from attention_py.figures.update in the page's Python, and a live
// cell can replace that function (or any other), so the markup is the reader's, not the
// site's. The promise is that nothing from Python runs as script in the page. So the markup
// is parsed into a <template> (inert: nothing in it loads, runs or fires an event) and every
// node that is not on the allow-list is removed there, before figure-morph.js moves anything
// into the page:
// - elements: only those figures draw, per namespace (HTML, and SVG inside <svg>); anything
//   else goes with everything inside it (script, iframe, object, img, foreignObject, use,
//   style, a, animate, MathML ...);
// - attributes: only those figures use on that element; never an event handler (on*), an
//   id (the host keeps the root's own), or a URL (href, src ...: no figure has one);
// - tabindex: only 0 and -1 (a group's Tab stop and its other buttons), never a positive
//   one, which would pull the page's Tab order into the figure first;
// - style: only CSS custom properties set to plain numbers ("--p:0.2500"), as figures.css
//   reads them, so no url() and nothing that moves or covers the page;
// - class: only the figures' own classes (apy-*), never the theme's (a figure drawing
//   Material's `md-consent__overlay` covered the whole page); the root's id is the host's
//   and goes silently (running figures draw one), anything else removed is warned about;
// - size: markup over MAX_MARKUP characters is refused whole, before it is parsed. The
//   largest real figure is about 80 KB (induction_live; devtools/figure_allowlist.py keeps
//   every figure under 3/4 of the bound). Laying markup out costs about 14 ms per 100 KB on
//   an idle 2-core machine, on every update: markup padded to 400 KB on each training step
//   left gaps of 606 ms under load, and 10 MB took 3.5 s to parse.
// The list, figure-allowlist.json, is generated from what the twelve figures draw in every
// state shape (python -m devtools.figure_allowlist) and checked by tests/figures/test_figure_allowlist.py,
// so a real figure never loses anything here. Plain DOM code, no dependency: the list is
// small and fixed, and parsing with the browser's own parser into a template leaves no
// parser differential to exploit (the nodes checked are the nodes inserted, never
// serialised and parsed again).

import ALLOWED from "./figure-allowlist.json";

const HTML_NS = "http://www.w3.org/1999/xhtml";
const SVG_NS = "http://www.w3.org/2000/svg";
const toTable = (elements) => new Map(Object.entries(elements).map(([tag, attrs]) => [tag, new Set(attrs)]));
const ELEMENTS = new Map([
  [HTML_NS, toTable(ALLOWED.html)],
  [SVG_NS, toTable(ALLOWED.svg)],
]);
const STYLE = new RegExp(ALLOWED.style);
const OWN_CLASS = /^apy-[\w-]*$/;
const TABINDEX = /^(0|-1)$/;
export const MAX_MARKUP = 160_000;

/**
 * Parses `html` and returns its first element with everything not allowed removed (or
 * null). Still inside the template's inert document: the caller moves the nodes into the
 * page. What was removed is said once on the console, as a warning (a figure that needs a
 * new element or attribute shows up there, and in the allow-list test).
 */
export function parseFigure(html) {
  if (typeof html !== "string") throw new Error("a figure's markup must be a string");
  if (html.length > MAX_MARKUP) {
    throw new Error(`the figure's markup is ${html.length.toLocaleString("en")} characters long; at most ${MAX_MARKUP.toLocaleString("en")} are accepted`);
  }
  const template = document.createElement("template");
  template.innerHTML = html;
  template.content.firstElementChild?.removeAttribute("id"); // the host's own, kept on the live root
  const removed = new Set();
  clean(template.content, removed);
  if (removed.size) console.warn(`figure markup: removed ${[...removed].slice(0, 20).join(", ")}`);
  return template.content.firstElementChild;
}

// Read through the prototypes, never through the node: a <form> in hostile markup can
// shadow its own properties with named controls (<input name="nodeName">, "DOM clobbering",
// found by DOMPurify's corpus). No allowed element is a form, so once a node is allowed
// its own properties can be trusted.
const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
const nodeTypeOf = getter(Node.prototype, "nodeType");
const nodeNameOf = getter(Node.prototype, "nodeName");
const namespaceOf = getter(Element.prototype, "namespaceURI");
const localNameOf = getter(Element.prototype, "localName");
const removeNode = Element.prototype.remove;
const removeCharacterData = CharacterData.prototype.remove;

function clean(fragment, removed) {
  // A stack rather than recursion: hostile markup may nest deeper than the call stack.
  const stack = [];
  for (const child of fragment.childNodes) stack.push(child);
  while (stack.length) {
    const node = stack.pop();
    const type = nodeTypeOf.call(node);
    if (type === Node.TEXT_NODE || type === Node.COMMENT_NODE) continue;
    const element = type === Node.ELEMENT_NODE;
    const allowed = element ? ELEMENTS.get(namespaceOf.call(node))?.get(String(localNameOf.call(node)).toLowerCase()) : null;
    if (!allowed) {
      removed.add(`<${String(nodeNameOf.call(node)).toLowerCase()}>`);
      (element ? removeNode : removeCharacterData).call(node);
      continue;
    }
    for (const attr of [...node.attributes]) {
      const name = attr.name.toLowerCase();
      const ok =
        allowed.has(name) &&
        !name.startsWith("on") &&
        (name !== "style" || STYLE.test(attr.value)) &&
        (name !== "tabindex" || TABINDEX.test(attr.value));
      if (!ok) {
        removed.add(`${name} on <${node.localName}>`);
        node.removeAttributeNode(attr);
      } else if (name === "class") {
        const names = attr.value.split(/\s+/).filter(Boolean);
        const own = names.filter((c) => OWN_CLASS.test(c));
        const others = names.filter((c) => !OWN_CLASS.test(c));
        if (others.length) removed.add(`class ${others.slice(0, 3).join(" ")} on <${node.localName}>`);
        if (own.length) attr.value = own.join(" ");
        else node.removeAttributeNode(attr);
      }
    }
    for (const child of node.childNodes) stack.push(child);
  }
}
