// holdSearchIndex (docs/widgets/boot/search-hold.js) on a fake window: the search index's request
// waits, any other goes at once; Python ready, the reader focusing search, the caller's
// release or the time limit each let it go, once. tests/e2e/test_search.py and
// test_offline.py prove search and offline keeping with the real page in Chromium.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, mock, test } from "node:test";

import { holdSearchIndex } from "../../docs/widgets/boot/search-hold.js";

function fakeWindow() {
  const sent = [];
  const listeners = [];
  const observers = [];
  class XMLHttpRequest {
    open(method, url) {
      this.url = url;
    }
    send() {
      sent.push(this.url);
    }
  }
  class PerformanceObserver {
    constructor(callback) {
      this.callback = callback;
      observers.push(this);
    }
    observe() {}
    disconnect() {
      this.disconnected = true;
    }
  }
  const win = {
    location: { href: "https://example.org/site/he/page/" },
    XMLHttpRequest,
    PerformanceObserver,
    document: {
      addEventListener: (type, listener) => listeners.push({ type, listener }),
      removeEventListener: (type, listener) => listeners.splice(listeners.findIndex((l) => l.listener === listener), 1),
    },
  };
  const mark = (name) => observers.forEach((o) => o.callback({ getEntriesByName: (n) => (n === name ? [{ name }] : []) }));
  const focus = (inSearch) =>
    [...listeners].forEach(({ listener }) => listener({ target: { closest: (selector) => (inSearch && selector === ".md-search" ? {} : null) } }));
  const request = (url) => {
    const xhr = new win.XMLHttpRequest();
    xhr.open("GET", url);
    xhr.send();
  };
  return { win, sent, listeners, observers, mark, focus, request };
}

describe("holdSearchIndex", () => {
  beforeEach(() => mock.timers.enable({ apis: ["setTimeout"] }));
  afterEach(() => mock.timers.reset());

  test("the index waits; any other request goes at once; Python ready lets it go, once", () => {
    const { win, sent, observers, mark, request } = fakeWindow();
    holdSearchIndex(win);
    request("../search/search_index.json");
    request("../assets/data.json");
    assert.deepEqual(sent, ["../assets/data.json"]);
    mark("live-cells:mounted");
    assert.equal(sent.length, 1, "another mark does nothing");
    mark("python:ready");
    assert.deepEqual(sent, ["../assets/data.json", "../search/search_index.json"]);
    assert.equal(observers[0].disconnected, true);
    request("../search/search_index.json");
    assert.equal(sent.length, 3, "after the release, the index goes at once");
    mock.timers.tick(10_000);
    assert.equal(sent.length, 3, "the time limit releases nothing twice");
  });

  test("the reader focusing search lets it go; a focus elsewhere does not", () => {
    const { win, sent, listeners, focus, request } = fakeWindow();
    holdSearchIndex(win);
    request("/site/he/search/search_index.json");
    focus(false);
    assert.deepEqual(sent, []);
    focus(true);
    assert.deepEqual(sent, ["/site/he/search/search_index.json"]);
    assert.equal(listeners.length, 0, "the focus listener is removed");
  });

  test("the caller's release and the time limit let it go", () => {
    const first = fakeWindow();
    const release = holdSearchIndex(first.win);
    first.request("search/search_index.json");
    release();
    assert.equal(first.sent.length, 1);

    const second = fakeWindow();
    holdSearchIndex(second.win);
    second.request("search/search_index.json");
    mock.timers.tick(5_999);
    assert.equal(second.sent.length, 0);
    mock.timers.tick(1);
    assert.equal(second.sent.length, 1);
  });

  test("without a PerformanceObserver nothing is held", () => {
    const { win, sent, request } = fakeWindow();
    delete win.PerformanceObserver;
    holdSearchIndex(win);
    request("search/search_index.json");
    assert.equal(sent.length, 1);
  });
});
