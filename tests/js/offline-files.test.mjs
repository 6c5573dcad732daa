// What the service worker and the offline control know of the build's files
// (docs/widgets/offline/offline-files.js): which listed file an address asks for, cache keys that carry
// the revision, each language's share of the site, the type a kept file is served with, and
// the repair's address and page. Chromium runs the worker itself in
// tests/e2e/test_offline.py.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  SITE_CACHE,
  addressOf,
  bytesOf,
  isSiteCache,
  keyOf,
  languageOf,
  parseKey,
  pathOf,
  pathsFor,
  repairAddress,
  repairPage,
  typeOf,
  withoutRepair,
} from "../../docs/widgets/offline/offline-files.js";

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

describe("kept files served as built", () => {
  const types = { ".css": "text/css; charset=utf-8", ".html": "text/html; charset=utf-8", ".wasm": "application/wasm" };
  test("the type comes from the name's extension, whatever was stored", () => {
    assert.equal(typeOf("assets/extras/site.css", types), "text/css; charset=utf-8");
    assert.equal(typeOf("he/index.html", types), "text/html; charset=utf-8");
    assert.equal(typeOf("assets/pyodide/PYODIDE.ASM.WASM", types), "application/wasm");
  });
  test("a name the build gave no type, or none at all, is never something to run", () => {
    assert.equal(typeOf("assets/x.exe", types), "application/octet-stream");
    assert.equal(typeOf("assets/.css", types), "application/octet-stream");
    assert.equal(typeOf("assets/css", types), "application/octet-stream");
  });
});

describe("repair", () => {
  test("the repair address of a page, and the page again without it", () => {
    assert.equal(repairAddress("https://example.org/attention/he/?from=x#top"), "https://example.org/attention/he/?from=x&apy-repair");
    assert.equal(repairAddress("https://example.org/attention/"), "https://example.org/attention/?apy-repair");
    assert.equal(withoutRepair("https://example.org/attention/he/?from=x&apy-repair"), "https://example.org/attention/he/?from=x");
    assert.equal(withoutRepair("https://example.org/attention/?apy-repair"), "https://example.org/attention/");
  });
  test("the site's caches, not other sites' on the same origin", () => {
    assert.ok(isSiteCache(SITE_CACHE));
    assert.ok(isSiteCache("attention-py-python-image"));
    assert.ok(!isSiteCache("workbox-precache-v2"));
    assert.ok(!isSiteCache("attention-pyx"));
  });
  const words = {
    dir: "rtl",
    repair_page_title: "מתקנים <את> האתר",
    repair_page_done: "נמחק & נטען",
    repair_page_continue: "להמשיך",
  };
  test("the repair page: the language and direction, the words escaped, no script, going on by itself", () => {
    const next = 'https://example.org/attention/he/?q="><script>alert(1)</script>';
    const page = repairPage("he", words, next);
    assert.match(page, /<html lang="he" dir="rtl">/);
    assert.match(page, /<h1>מתקנים &lt;את&gt; האתר<\/h1>/);
    assert.match(page, /נמחק &amp; נטען/);
    assert.doesNotMatch(page, /<script/);
    assert.match(page, /<meta http-equiv="refresh" content="1; url=https:\/\/example.org\/attention\/he\/\?q=&quot;&gt;&lt;script&gt;/);
  });
  test("a direction other than rtl is ltr", () => {
    assert.match(repairPage("en", { ...words, dir: "sideways" }, "https://example.org/"), /dir="ltr"/);
  });
});
