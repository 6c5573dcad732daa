// Where the worker finds the site's files (docs/widgets/runtime/worker/worker-urls.js): every URL from the
// site's root the page gives, set once. Each test imports its own copy of the module (a
// query on its URL), as each worker has its own.
import assert from "node:assert/strict";
import { test } from "node:test";

let copies = 0;
const freshUrls = () => import(`../../docs/widgets/runtime/worker/worker-urls.js?copy=${++copies}`);

test("nothing is known before the page says where the site is", async () => {
  const urls = await freshUrls();
  assert.deepEqual([urls.SITE_ROOT, urls.WORKER_URL, urls.PYODIDE_DIR, urls.WHEELS_DIR, urls.SITE_ORIGIN], [null, null, null, null, null]);
});

test("every URL is under the site's root, also when the site lives under a sub-path", async () => {
  const urls = await freshUrls();
  urls.locateSite("https://example.org/docs/attention/");
  assert.equal(urls.SITE_ROOT.href, "https://example.org/docs/attention/");
  assert.equal(urls.WORKER_URL.href, "https://example.org/docs/attention/assets/widgets/python-worker.js");
  assert.equal(urls.PYODIDE_DIR.href, "https://example.org/docs/attention/assets/pyodide/");
  assert.equal(urls.WHEELS_DIR.href, "https://example.org/docs/attention/assets/wheels/");
  assert.equal(urls.SITE_ORIGIN, "https://example.org");
  assert.equal(new URL("python_stdlib.zip", urls.PYODIDE_DIR).href, "https://example.org/docs/attention/assets/pyodide/python_stdlib.zip");
});

test("the site is located once: a second call changes nothing", async () => {
  const urls = await freshUrls();
  urls.locateSite("https://attention.example/");
  urls.locateSite("https://elsewhere.example/other/");
  assert.equal(urls.SITE_ORIGIN, "https://attention.example");
  assert.equal(urls.PYODIDE_DIR.href, "https://attention.example/assets/pyodide/");
});

test("a root that is not a URL is refused, and leaves the site unlocated", async () => {
  const urls = await freshUrls();
  assert.throws(() => urls.locateSite("not a url"), TypeError);
  assert.equal(urls.SITE_ROOT, null);
  urls.locateSite("https://attention.example/");
  assert.equal(urls.SITE_ORIGIN, "https://attention.example");
});
