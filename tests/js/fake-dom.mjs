// A small element tree for modules that walk the DOM (figure-input.js, figure-files.js) under
// Node: elements with attributes, a dataset read from their data-* attributes, parents, and
// closest()/querySelectorAll() for the simple selectors those modules use (a tag, .class,
// [attr] and [attr="value"], combined, or a comma list of such). `installDomGlobals` puts
// Node, Element, HTMLInputElement and a document on the global object, and removes them.

export class FakeNode {
  constructor() {
    this.parentNode = null;
    this.children = [];
  }
  contains(node) {
    for (let at = node; at; at = at.parentNode) if (at === this) return true;
    return false;
  }
}

const camel = (name) => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

export class FakeElement extends FakeNode {
  constructor(localName, attributes = {}) {
    super();
    this.localName = localName;
    this.attributes = new Map();
    this.listeners = [];
    this.disabled = false;
    for (const [name, value] of Object.entries(attributes)) this.setAttribute(name, value);
  }
  setAttribute(name, value) {
    this.attributes.set(name, String(value));
  }
  getAttribute(name) {
    return this.attributes.get(name) ?? null;
  }
  hasAttribute(name) {
    return this.attributes.has(name);
  }
  removeAttribute(name) {
    this.attributes.delete(name);
  }
  /** data-* attributes, read as the browser's dataset reads them (data-set-on -> setOn). */
  get dataset() {
    const data = {};
    for (const [name, value] of this.attributes) if (name.startsWith("data-")) data[camel(name.slice(5))] = value;
    return data;
  }
  append(...nodes) {
    for (const node of nodes) {
      node.parentNode = this;
      this.children.push(node);
    }
    return this;
  }
  matches(selector) {
    return selector.split(",").some((one) => matchesCompound(this, one.trim()));
  }
  closest(selector) {
    for (let at = this; at instanceof FakeElement; at = at.parentNode) if (at.matches(selector)) return at;
    return null;
  }
  querySelectorAll(selector) {
    const found = [];
    const walk = (el) => {
      for (const child of el.children) {
        if (child.matches(selector)) found.push(child);
        walk(child);
      }
    };
    walk(this);
    return found;
  }
  querySelector(selector) {
    return this.querySelectorAll(selector)[0] ?? null;
  }
  addEventListener(type, listener) {
    this.listeners.push({ type, listener });
  }
  /** An event of `type` on `target` (this or a descendant) reaches this element's listeners, as by bubbling. */
  fire(type, target, props = {}) {
    const event = {
      type,
      target,
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
      ...props,
    };
    for (const { type: on, listener } of this.listeners) if (on === type) listener(event);
    return event;
  }
  focus() {
    if (globalThis.document) globalThis.document.activeElement = this;
  }
  remove() {
    if (!this.parentNode) return;
    this.parentNode.children = this.parentNode.children.filter((child) => child !== this);
    this.parentNode = null;
  }
}

/** An <input>: value, checked and type as the browser reflects them from the markup. */
export class FakeInputElement extends FakeElement {
  constructor(attributes = {}) {
    super("input", attributes);
    this.type = this.getAttribute("type") ?? "text";
    this.value = this.getAttribute("value") ?? "";
    this.checked = this.hasAttribute("checked");
  }
}

/** A <select> whose value is its selected option's. */
export class FakeSelectElement extends FakeElement {
  constructor(attributes = {}, options = []) {
    super("select", attributes);
    for (const [value, selected] of options) {
      const option = new FakeElement("option", selected ? { value, selected: "" } : { value });
      option.value = value;
      this.append(option);
    }
    this.value = options.find(([, selected]) => selected)?.[0] ?? options[0]?.[0] ?? "";
  }
}

/** `el` as built by the helpers: a tag, or an input/select with its attributes. */
export function h(localName, attributes = {}, ...children) {
  const el = localName === "input" ? new FakeInputElement(attributes) : new FakeElement(localName, attributes);
  return el.append(...children);
}

function matchesCompound(el, selector) {
  const parts = selector.match(/^[a-z][\w-]*|\.[\w-]+|\[[^\]]+\]/g) ?? [];
  if (parts.join("") !== selector) throw new Error(`fake-dom: selector not understood: ${selector}`);
  return parts.every((part) => {
    if (part.startsWith(".")) return (el.getAttribute("class") ?? "").split(/\s+/).includes(part.slice(1));
    if (part.startsWith("[")) {
      const [, name, value] = /^\[([\w-]+)(?:="([^"]*)")?\]$/.exec(part);
      return value === undefined ? el.hasAttribute(name) : el.getAttribute(name) === value;
    }
    return el.localName === part;
  });
}

/** Node, Element, HTMLInputElement and a document on the global object; returns the undo. */
export function installDomGlobals() {
  const names = ["Node", "Element", "HTMLInputElement", "document"];
  const before = Object.fromEntries(names.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]));
  const document = { activeElement: null, body: new FakeElement("body"), createElement: (name) => new FakeElement(name) };
  Object.assign(globalThis, { Node: FakeNode, Element: FakeElement, HTMLInputElement: FakeInputElement, document });
  return () => {
    for (const name of names) {
      if (before[name]) Object.defineProperty(globalThis, name, before[name]);
      else delete globalThis[name];
    }
  };
}
