// What the service worker and the offline control know of the build's files
// (docs/widgets/offline-files.js): which listed file an address asks for, cache keys that carry
// the revision, each language's share of the site. Chromium runs the worker itself in
// tests/e2e/test_offline.py.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { addressOf, bytesOf, keyOf, languageOf, parseKey, pathOf, pathsFor } from "../../docs/widgets/offline-files.js";

const scope = "https://example.org/attention/";
const site = {
  files: {
    "index.html": ["aaaa", 100, "en"],
    "he/index.html": ["bbbb", 200, "he"],
    "assets/extras/site.css": ["cccc", 10, "shared"],
    "assets/pyodide/pyodide.asm.wasm": ["dddd", 5000, "python"],
    "fa/index.html": ["eeee", 300, "fa"],
  },
  homes: { en: "", he: "he/", fa: "fa/" },
};

describe("pathOf", () => {
  test("a folder's address is its index.html, query and fragment dropped", () => {
    assert.equal(pathOf("https://example.org/attention/", scope), "index.html");
    assert.equal(pathOf("https://example.org/attention/he/?x=1#top", scope), "he/index.html");
    assert.equal(pathOf("https://example.org/attention/assets/extras/site.css?v=2", scope), "assets/extras/site.css");
  });
  test("outside the site, another host, or a malformed escape: no path", () => {
    assert.equal(pathOf("https://example.org/other/", scope), null);
    assert.equal(pathOf("https://evil.example/attention/", scope), null);
    assert.equal(pathOf("https://example.org/attention/%E0%A4%A.html", scope), null);
  });
  test("escapes are decoded, so the path is the file's name", () => {
    assert.equal(pathOf("https://example.org/attention/a%20b.html", scope), "a b.html");
  });
});

describe("keys", () => {
  test("a key carries the revision and reads back", () => {
    const key = keyOf("he/index.html", "bbbb", scope);
    assert.equal(key, "https://example.org/attention/he/index.html?apy-revision=bbbb");
    assert.deepEqual(parseKey(key, scope), ["he/index.html", "bbbb"]);
  });
  test("a key without a revision, or outside the site, is not ours", () => {
    assert.equal(parseKey("https://example.org/attention/he/index.html", scope), null);
    assert.equal(parseKey("https://example.org/x.html?apy-revision=1", scope), null);
  });
  test("a page's address is its folder", () => {
    assert.equal(addressOf("he/index.html", scope), "https://example.org/attention/he/");
    assert.equal(addressOf("index.html", scope), "https://example.org/attention/");
    assert.equal(addressOf("assets/extras/site.css", scope), "https://example.org/attention/assets/extras/site.css");
  });
});

describe("languages", () => {
  test("a path belongs to the language whose home holds it, else to the default", () => {
    assert.equal(languageOf("he/learning/index.html", site.homes), "he");
    assert.equal(languageOf("learning/index.html", site.homes), "en");
    assert.equal(languageOf("help/index.html", site.homes), "en"); // "he" is a home, "help" is not "he/"
  });
  test("one language is its pages with the shared files and Python's; all is everything", () => {
    assert.deepEqual(pathsFor(site, "he").sort(), ["assets/extras/site.css", "assets/pyodide/pyodide.asm.wasm", "he/index.html"]);
    assert.equal(bytesOf(site, pathsFor(site, "he")), 5210);
    assert.equal(bytesOf(site, pathsFor(site, "all")), 5610);
    assert.equal(bytesOf(site, ["nothing.html"]), 0);
  });
});
