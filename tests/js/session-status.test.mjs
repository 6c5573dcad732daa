// The session's state beside each cell (docs/widgets/cells/session-status.js): when Python could
// not start on a page the site's service worker serves, a link beside Restart repairs the kept
// copy (`?apy-repair`, which the worker answers itself); never otherwise.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import { SessionStatusView } from "../../docs/widgets/cells/session-status.js";

class Node {
  constructor(tag) {
    this.tag = tag;
    this.children = [];
    this.hidden = false;
    this.classList = { add: () => {} };
    this.attributes = {};
    this.style = {};
    this.dataset = {};
  }
  appendChild(child) {
    this.children.push(child);
    return child;
  }
  setAttribute(name, value) {
    this.attributes[name] = value;
  }
  addEventListener() {}
}

const strings = new Proxy({ number: (x) => String(x) }, { get: (target, key) => target[key] ?? String(key) });

function view(state, { controlled }) {
  globalThis.document = { createElement: (tag) => new Node(tag) };
  globalThis.location = { href: "https://example.org/attention/he/learning/#train" };
  const navigator = { serviceWorker: { controller: controlled ? {} : null } };
  Object.defineProperty(globalThis, "navigator", { value: navigator, configurable: true, writable: true });
  const session = Object.assign(new EventTarget(), { state, progress: { phase: "idle" }, error: "wasm refused" });
  const container = new Node("div");
  new SessionStatusView(container, { session, strings });
  return container.children.find((child) => child.tag === "a");
}

afterEach(() => {
  delete globalThis.document;
  delete globalThis.location;
  delete globalThis.navigator;
});

describe("the repair link", () => {
  test("Python could not start on a page the worker serves: the link repairs this page", () => {
    const link = view("failed", { controlled: true });
    assert.equal(link.hidden, false);
    assert.equal(link.href, "https://example.org/attention/he/learning/?apy-repair");
    assert.equal(link.textContent, "repair_link");
  });
  test("no service worker serves the page: nothing kept to repair, no link", () => {
    assert.equal(view("failed", { controlled: false }).hidden, true);
  });
  test("Python ready or loading: no link", () => {
    assert.equal(view("ready", { controlled: true }).hidden, true);
    assert.equal(view("loading", { controlled: true }).hidden, true);
  });
});
