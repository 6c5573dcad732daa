// Stand-ins for the little of the browser the page-side modules use, for tests under Node
// (no DOM): elements that hold attributes and children, a document, storage, an
// IntersectionObserver the test fires, and a window for page-boot.js, which reads everything
// from the window it is given.
import { FakeWorker } from "./fake-worker.mjs";

export const PAGE_URL = "https://attention.example/gallery/";

/** An element: attributes, dataset, children, listeners; enough for the hosts and the boot. */
export class FakeElement {
  constructor(localName, ownerDocument = null) {
    this.localName = localName;
    this.ownerDocument = ownerDocument;
    this.attributes = new Map();
    this.dataset = {};
    this.children = [];
    this.listeners = [];
    this.textContent = "";
    this.hidden = false;
    this.isConnected = true;
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
  append(...nodes) {
    this.children.push(...nodes);
  }
  after(node) {
    this.next = node;
  }
  contains(node) {
    return node === this || this.children.some((child) => child === node || child.contains?.(node));
  }
  addEventListener(type, listener) {
    this.listeners.push({ type, listener });
  }
  dispatchEvent(event) {
    for (const { type, listener } of this.listeners) if (type === event.type) listener(event);
    return true;
  }
  querySelector(selector) {
    return this.querySelectorAll(selector)[0] ?? null;
  }
  /** Children matched by `[data-role=name]` only: the one query the tests need. */
  querySelectorAll(selector) {
    const role = /^\[data-role=(\w+)\]$/.exec(selector)?.[1];
    return role ? this.children.filter((child) => child.dataset.role === role) : [];
  }
  focus() {}
  scrollIntoView() {
    this.scrolledIntoView = (this.scrolledIntoView ?? 0) + 1;
  }
}

export class FakeDocument {
  constructor({ elements = {} } = {}) {
    this.head = new FakeElement("head", this);
    this.body = new FakeElement("body", this);
    this.elements = elements; // id -> element
    this.activeElement = this.body;
  }
  createElement(localName) {
    return new FakeElement(localName, this);
  }
  getElementById(id) {
    return this.elements[id] ?? null;
  }
}

/** Web Storage in memory. */
export class MemoryStorage {
  constructor() {
    this.items = new Map();
  }
  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }
  setItem(key, value) {
    this.items.set(key, String(value));
  }
  removeItem(key) {
    this.items.delete(key);
  }
}

/** An IntersectionObserver the test drives: `observers` lists every one made; `fire` calls back. */
export function observerFactory() {
  const observers = [];
  class IntersectionObserver {
    constructor(callback, options) {
      this.callback = callback;
      this.options = options;
      this.observed = [];
      this.disconnected = false;
      observers.push(this);
    }
    observe(element) {
      this.observed.push(element);
    }
    disconnect() {
      this.disconnected = true;
    }
    /** The browser reports these roots as intersecting (near) or not. */
    fire(near, roots = this.observed) {
      this.callback(roots.map((target) => ({ target, isIntersecting: near.includes(target) })));
    }
  }
  return { IntersectionObserver, observers };
}

/**
 * A window for page-boot.js. `connection` is navigator.connection (undefined: the browser has
 * none); the document holds the template's boot config (`config`, JSON) when given.
 */
export function fakeWindow({ connection, crossOriginIsolated = false, Worker = FakeWorker, IntersectionObserver, config } = {}) {
  const document = new FakeDocument();
  if (config) {
    const script = document.createElement("script");
    script.textContent = JSON.stringify(config);
    document.elements["apy-boot-config"] = script;
  }
  return {
    navigator: connection === undefined ? {} : { connection },
    location: { href: PAGE_URL, pathname: new URL(PAGE_URL).pathname },
    URL,
    Blob,
    // The stand-in for frame-worker.js's FrameWorker: a fake worker, with the interrupt byte
    // FrameWorker offers when the page is isolated (shared here, as a frame shares it).
    makePythonWorker: ({ workerURL }) => {
      const worker = new Worker(new URL(workerURL, PAGE_URL).href, { name: "python" });
      worker.interruptBuffer = crossOriginIsolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
      return worker;
    },
    performance,
    crossOriginIsolated,
    IntersectionObserver,
    document,
  };
}

/**
 * Makes Node's global scope look like a page's for modules that read the window's globals
 * (saved-state.js: location, addEventListener, sessionStorage; figure-host.js: document).
 * Returns the document and the session storage.
 */
export function installPageGlobals() {
  const document = new FakeDocument();
  const sessionStorage = new MemoryStorage();
  const listeners = [];
  const location = { href: PAGE_URL, pathname: new URL(PAGE_URL).pathname, hash: "" };
  // history.replaceState changes the hash, and records each address it was given
  const history = { state: null, replaced: [], replaceState: (state, title, url) => history.replaced.push((location.hash = url)) };
  Object.assign(globalThis, {
    document,
    location,
    history,
    addEventListener: (type, listener) => listeners.push({ type, listener }),
    window: { sessionStorage, localStorage: new MemoryStorage() },
  });
  /** The reader followed a link to `hash` in the page: the window's hashchange listeners run. */
  const followLink = (hash) => {
    location.hash = hash;
    for (const { type, listener } of listeners) if (type === "hashchange") listener({ type });
  };
  return { document, sessionStorage, location, history, followLink };
}

/** The page's session as the host sees it; each call waits for the test to settle it. */
export class FakeSession extends EventTarget {
  constructor() {
    super();
    this.state = "ready";
    this.generation = 1;
    this.progress = { phase: "idle", loaded: 0, total: 0 };
    this.busyWithCode = false;
    this.calls = [];
  }
  start() {}
  call(name, args, kwargs, options) {
    return new Promise((resolve, reject) => {
      const fail = (status, error = null) => reject(Object.assign(new Error(error || status), { reply: { status, error } }));
      this.calls.push({ name, args, state: args[1], changes: args[2], strings: args[4], options, resolve, fail });
    });
  }
  get last() {
    return this.calls.at(-1);
  }
}
