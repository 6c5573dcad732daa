"""The page's Python restored from the build's memory snapshot, and the normal boot when the
snapshot cannot be used (docs/widgets/README.md, "The memory snapshot").

Proof that the worker really restored the image, not just said so: the session runtime
module carries ``__snapshot__`` (set by site_hooks/assets/make_snapshot.mjs before the image was
taken, never by the worker), whose key is the one in the image's file name. Proof of the
fallback: the image is made unusable on the wire (404, garbage, an image of another runtime),
yet Python becomes ready, boots the normal way, runs the cell, and says why on the console,
as a warning, never an error.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page

from tests.e2e.conftest import PageGuard
from tests.e2e.test_live_cells import PYTHON_READY_MS, SOFTMAX_OUTPUT, open_home, run_and_wait, wait_for_python

SNAPSHOT_ROUTE = "**/assets/snapshot/*.gz"


@pytest.fixture(scope="module")
def manifest(site_dir: Path) -> dict:
    found = json.loads((site_dir / "assets" / "wheels" / "manifest.json").read_text())
    if not found.get("snapshot"):
        pytest.fail("the build made no memory snapshot (Node.js and node_modules/pyodide are there in tests)")
    return found


@pytest.fixture
def loose_page(browser) -> Page:
    """A page in a fresh context that records the console instead of failing on errors (a
    404 the test causes is logged by Chromium as an error), and every request's host."""
    context = browser.new_context()
    page = context.new_page()
    page.console_lines = []
    page.hosts = set()
    page.on("console", lambda message: page.console_lines.append((message.type, message.text)))
    context.on("request", lambda request: page.hosts.add(urlsplit(request.url).hostname))
    yield page
    context.close()
    assert page.hosts <= {"127.0.0.1", "localhost", None}, page.hosts


def info(page: Page) -> dict:
    return page.evaluate("attentionPy.session.info")


def made_with_key(page: Page) -> str | None:
    """The key make_snapshot.mjs stored in the image (None when Python booted normally)."""
    reply = page.evaluate(
        """attentionPy.session.run(
            "import sys\\nm = sys.modules['_session_runtime']\\ngetattr(m, '__snapshot__', {}).get('key')"
        ).reply"""
    )
    assert reply["status"] == "ok", reply
    return None if reply["value"] in (None, "None") else reply["value"].strip("'")


def test_python_is_restored_from_the_snapshot(page, site_url, manifest):
    requested = []
    page.on("request", lambda request: requested.append(urlsplit(request.url).path))
    open_home(page, site_url)
    wait_for_python(page)
    assert info(page)["boot"] == "snapshot", info(page)
    assert info(page)["fallback"] is None
    key = made_with_key(page)
    assert key
    assert manifest["snapshot"] == f"python-{key[:20]}.gz"
    assert f"/assets/snapshot/{manifest['snapshot']}" in requested
    # The package's files are in site-packages too (tracebacks show its source lines).
    reply = page.evaluate(
        """attentionPy.session.run("import inspect, attention_py\\nlen(inspect.getsource(attention_py.softmax)) > 0").reply"""
    )
    assert reply["value"] == "True", reply
    assert SOFTMAX_OUTPUT.search(run_and_wait(page))


def test_two_restored_pages_draw_different_random_numbers(page, site_url):
    """The image freezes `random`'s state; the worker reseeds it after restoring."""
    draws = []
    for _ in range(2):
        open_home(page, site_url)
        wait_for_python(page)
        assert info(page)["boot"] == "snapshot"
        reply = page.evaluate("attentionPy.session.run('import random\\nrandom.random()').reply")
        draws.append(reply["value"])
    assert draws[0] != draws[1], draws


def test_python_starts_from_the_first_layout_with_the_worker_the_head_made(page, site_url):
    """A cell in the first screen: the worker <head> created while the page parsed is sent
    "start" by the observer right after the content, before the page's modules have mounted
    the cells; the session adopts that worker (no second one). No preload beside it: the
    worker's own requests would only compete with one."""
    workers = []
    page.on("worker", lambda worker: workers.append(worker.url))
    open_home(page, site_url)
    wait_for_python(page)
    marks = page.evaluate("Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]))")
    assert marks["python:start"] < marks["live-cells:mounted"], marks
    assert page.evaluate("performance.getEntriesByName('python:start').length") == 1
    assert page.evaluate("attentionPy.session.generation") == 1
    assert len([url for url in workers if url.startswith("blob:")]) == 1, workers
    assert page.evaluate("document.querySelectorAll('link[rel=preload][data-python]').length") == 0
    assert SOFTMAX_OUTPUT.search(run_and_wait(page))


def test_without_an_early_worker_the_same_start_rule_starts_python(page, site_url):
    """The worker <head> tries to make cannot be made (the page's first frame for it cannot
    be created): the session makes its own with the page's one `newWorker`, and
    start-policy.js watches the cells with the same rule, so a cell in the first screen still
    starts Python unasked."""
    page.add_init_script(
        """(() => {
            if (window !== window.top) return;
            const create = Document.prototype.createElement;
            let refused = false;
            Document.prototype.createElement = function (name, ...rest) {
                if (!refused && String(name).toLowerCase() === "iframe") { refused = true; throw new Error("no worker for <head>"); }
                return create.call(this, name, ...rest);
            };
        })()"""
    )
    open_home(page, site_url)
    assert page.evaluate("attentionPyBoot.worker") is None
    page.wait_for_function("window.attentionPy?.session?.state === 'ready'", timeout=PYTHON_READY_MS)
    assert page.evaluate("performance.getEntriesByName('python:start').length") == 1
    assert page.evaluate("attentionPy.session.generation") == 1
    assert SOFTMAX_OUTPUT.search(run_and_wait(page))


# Python's frame gets one more policy, `worker-src 'none'`, as a browser or an extension that
# refuses workers would give it. (Replacing `Worker` by an init script reaches the page, but
# not always the sandboxed frame, which runs in a process of its own: the frame's script can
# run before Playwright's init script does.)
NO_WORKERS = r"""
(() => {
  const srcdoc = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, "srcdoc");
  const policy = `<meta http-equiv="Content-Security-Policy" content="worker-src 'none'">`;
  Object.defineProperty(HTMLIFrameElement.prototype, "srcdoc", {
    get() { return srcdoc.get.call(this); },
    set(html) { srcdoc.set.call(this, html.replace('<meta charset="utf-8">', `<meta charset="utf-8">${policy}`)); },
  });
})();
"""


def test_a_browser_that_cannot_make_a_worker_gets_a_clear_message(browser, site_url):
    """Python's frame may not make a worker: Run does not hang on "Starting Python", it says so."""
    context = browser.new_context()
    guard = PageGuard(context)
    page = guard.watch(context.new_page())
    page.add_init_script(NO_WORKERS)
    open_home(page, site_url)
    first = page.locator(".live-cell").first
    first.locator(".live-cell__run").click()
    note = first.locator(".live-cell__note--error")
    note.wait_for(timeout=10_000)
    assert "Python could not start" in note.inner_text()
    assert page.evaluate("attentionPy.session.state") == "failed"
    context.close()
    refused = [error for error in guard.errors if "worker-src 'none'" in error]
    assert refused, "the frame's policy refused the worker"
    guard.errors[:] = [error for error in guard.errors if error not in refused]
    guard.check()


def test_with_data_saver_only_the_readers_gesture_starts_python_without_the_image(page, site_url):
    """Data Saver on: no early worker, no preload, no start when a cell is on screen; the
    reader pointing at a cell starts the normal boot (the 6.7 MB image is not fetched)."""
    page.add_init_script(
        "Object.defineProperty(Navigator.prototype, 'connection', {get: () => ({saveData: true, effectiveType: '4g'})})"
    )
    requested = []
    page.on("request", lambda request: requested.append(urlsplit(request.url).path))
    open_home(page, site_url)
    page.wait_for_timeout(1000)
    assert page.evaluate("attentionPy.session.state") == "idle"
    assert page.evaluate("attentionPyBoot.snapshotUnwanted") == "the browser asks to save data"
    assert page.evaluate("document.querySelectorAll('link[rel=preload][data-python]').length") == 0
    assert not [path for path in requested if path.startswith("/assets/pyodide/")], requested
    page.locator("[data-live-cell]").first.hover()
    page.wait_for_function("attentionPy.session.state === 'ready'", timeout=PYTHON_READY_MS)
    assert info(page)["boot"] == "plain", info(page)
    assert not [path for path in requested if path.startswith("/assets/snapshot/")], requested
    assert SOFTMAX_OUTPUT.search(run_and_wait(page))


def test_a_page_whose_cells_are_far_down_preloads_pythons_files_and_waits(page, site_url, manifest):
    """No cell or figure within half a screen after the first layout: Python does not start,
    its files download meanwhile (low priority), and scrolling to a cell starts it."""
    page.goto(f"{site_url}/what-matters/")
    page.wait_for_function("document.querySelectorAll('link[rel=preload][data-python]').length > 0")
    hrefs = page.evaluate("[...document.querySelectorAll('link[rel=preload][data-python]')].map((l) => l.href)")
    paths = [urlsplit(href).path for href in hrefs]
    assert f"/assets/snapshot/{manifest['snapshot']}" in paths
    assert "/assets/pyodide/pyodide.asm.wasm" in paths
    assert "/assets/pyodide/python_stdlib.zip" not in paths  # a restore does not need it
    page.wait_for_timeout(500)
    assert page.evaluate("performance.getEntriesByName('python:start').length") == 0
    page.locator("[data-live-cell]").first.scroll_into_view_if_needed()
    page.wait_for_function("window.attentionPy?.session?.state === 'ready'", timeout=PYTHON_READY_MS)
    assert info(page)["boot"] == "snapshot", info(page)


def test_a_second_visit_restores_the_image_kept_in_cache_storage(page, site_url, manifest):
    """The first restore keeps the inflated image in Cache Storage; the next visit reads it
    from there instead of inflating the gzip again."""
    open_home(page, site_url)
    wait_for_python(page)
    assert info(page)["image"] == "network", info(page)
    key = page.evaluate("location.origin") + f"/assets/snapshot/{manifest['snapshot']}?inflated"
    wait_for_kept_digest(page, key, equal=manifest["snapshot_sha256"])  # kept whole, and the build's
    open_home(page, site_url)
    wait_for_python(page)
    assert info(page)["boot"] == "snapshot", info(page)
    assert info(page)["image"] == "cache", info(page)
    assert manifest["snapshot"] == f"python-{made_with_key(page)[:20]}.gz"
    assert SOFTMAX_OUTPUT.search(run_and_wait(page))


KEPT = "async (key) => { const r = await (await caches.open('attention-py-python-image')).match(key); return r ? (await r.arrayBuffer()).byteLength : 0; }"
KEPT_DIGEST = """async (key) => {
    const r = await (await caches.open('attention-py-python-image')).match(key);
    if (!r) return null;
    const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', await r.arrayBuffer()));
    return Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
}"""
# Without js.eval, which the page's policy refuses: the kept image's bytes rewritten through `js`.
POISON = """import asyncio
import js

async def poison():
    cache = await js.caches.open("attention-py-python-image")
    request = (await cache.keys())[0]
    data = js.Uint8Array.new(await (await cache.match(request)).arrayBuffer())
    for i in range(1 << 20, data.length, 4096):
        data[i] ^= 0x5A
    await cache.put(request, js.Response.new(data))

js.caches
asyncio.ensure_future(poison())
"""


def kept_key(page: Page, manifest: dict) -> str:
    return page.evaluate("location.origin") + f"/assets/snapshot/{manifest['snapshot']}?inflated"


def wait_for_kept_digest(page: Page, key: str, *, equal: str | None = None, other_than: str | None = None) -> None:
    """Waits until the kept image's digest is ``equal`` (then also until the worker says the
    image is stored: a put still in progress can be matched, and is lost if the page leaves),
    or is something ``other_than`` the given one."""
    if equal:
        page.wait_for_function("attentionPy.session.info?.imageKept === true")
    test = f"d === {json.dumps(equal)}" if equal else f"d !== null && d !== {json.dumps(other_than)}"
    page.wait_for_function(f"async (key) => ({KEPT_DIGEST})(key).then((d) => {test})", arg=key)


def test_a_kept_image_that_is_not_the_builds_is_not_used(loose_page, site_url, manifest):
    """A kept image of the right length that is not the build's (storage gone bad, or written
    by code in the page): its digest differs from the manifest's, so it is never restored;
    Python restores the build's gzip instead and keeps that, and the next visit uses it."""
    page = loose_page
    page.goto(f"{site_url}/404.html")
    key = kept_key(page, manifest)
    page.evaluate(
        """async ([key, length]) => {
            const cache = await caches.open("attention-py-python-image");
            await cache.put(key, new Response(new Uint8Array(length).fill(7)));
        }""",
        [key, manifest["snapshot_memory"]],
    )
    open_home(page, site_url)
    wait_for_python(page)
    assert info(page)["boot"] == "snapshot", info(page)
    assert info(page)["image"] == "network", info(page)
    assert SOFTMAX_OUTPUT.search(run_and_wait(page, timeout=PYTHON_READY_MS))
    wait_for_kept_digest(page, key, equal=manifest["snapshot_sha256"])
    open_home(page, site_url)
    wait_for_python(page)
    assert info(page)["boot"] == "snapshot", info(page)
    assert info(page)["image"] == "cache", info(page)


def test_a_reader_cell_cannot_reach_the_kept_image(loose_page, site_url, manifest):
    """The attack of issue 19, from a cell (rewrite the kept image through `js`): the page's
    Python runs in a sandboxed frame of opaque origin, where Cache Storage does not exist and
    IndexedDB refuses to open, also in a worker the cell starts itself. The kept image stays
    the build's, and the next visit restores from it. (A kept image changed by anything else
    is refused: test_a_kept_image_that_is_not_the_builds_is_not_used.)"""
    page = loose_page
    open_home(page, site_url)
    wait_for_python(page)
    key = kept_key(page, manifest)
    wait_for_kept_digest(page, key, equal=manifest["snapshot_sha256"])
    reply = page.evaluate("(code) => attentionPy.session.run(code).reply", POISON)
    assert reply["status"] == "error", reply
    assert "AttributeError: caches" in reply["error"], reply
    probe = (
        "import js\n"
        "print(hasattr(js, 'caches'), hasattr(js, 'localStorage'), js.self.origin)\n"
        "try:\n"
        "    js.indexedDB.open('x')\n"
        "except Exception as error:\n"
        "    print(error)"
    )
    output = []
    reply = page.evaluate(
        "(code) => { const out = []; window.__out = out; return attentionPy.session.run(code, {onOutput: (t, x) => out.push(x)}).reply; }",
        probe,
    )
    assert reply["status"] == "ok", reply
    output = "".join(page.evaluate("window.__out"))
    assert output.split()[:4] == ["False", "False", "null", "SecurityError:"], output
    wait_for_kept_digest(page, key, equal=manifest["snapshot_sha256"])
    open_home(page, site_url)
    wait_for_python(page)
    assert info(page)["image"] == "cache", info(page)
    assert SOFTMAX_OUTPUT.search(run_and_wait(page, timeout=PYTHON_READY_MS))


def test_a_python_restored_from_the_kept_image_that_dies_forgets_it(loose_page, site_url, manifest):
    """Whatever went wrong, a Python restored from the kept image that suffers a fatal error
    deletes the kept copy: the next start inflates the build's gzip again."""
    page = loose_page
    open_home(page, site_url)
    wait_for_python(page)
    key = kept_key(page, manifest)
    wait_for_kept_digest(page, key, equal=manifest["snapshot_sha256"])
    open_home(page, site_url)
    wait_for_python(page)
    assert info(page)["image"] == "cache", info(page)
    page.evaluate(
        "(code) => attentionPy.session.run(code).reply.catch(() => null)",
        'import json\njson.loads("[" * 50000 + "]" * 50000)',
    )
    page.wait_for_function(f"async (key) => ({KEPT})(key) === 0", arg=key, timeout=PYTHON_READY_MS)


def test_a_restored_python_downloads_the_standard_library_only_when_code_needs_it(page, site_url):
    """The image holds every module the page's code imports at start: the restored Python gets
    an empty archive in place of python_stdlib.zip (2.5 MB). The first import of a module not
    in memory downloads it, once, and works; so do the source lines of standard modules in a
    traceback."""
    requested = []
    page.on("request", lambda request: requested.append(urlsplit(request.url).path))
    open_home(page, site_url)
    wait_for_python(page)
    assert info(page)["boot"] == "snapshot"
    assert SOFTMAX_OUTPUT.search(run_and_wait(page))
    assert "/assets/pyodide/python_stdlib.zip" not in requested
    reply = page.evaluate("""attentionPy.session.run("import json\\njson.loads('{bad')").reply""")
    assert reply["status"] == "error", reply
    assert "return _default_decoder.decode(s)" in reply["error"], reply
    reply = page.evaluate(
        """attentionPy.session.run("import difflib\\ndifflib.SequenceMatcher(None, 'abc', 'abd').ratio()").reply"""
    )
    assert reply["status"] == "ok", reply
    assert reply["value"] == "0.6666666666666666", reply
    assert requested.count("/assets/pyodide/python_stdlib.zip") == 1, requested


def test_a_package_the_site_does_not_serve_is_pythons_own_missing_module(page, site_url):
    """The served lock file lists no package (site_hooks/assets/vendored.pyodide_lock): a
    cell importing numpy gets Python's own error, not advice to install what the site cannot
    serve."""
    open_home(page, site_url)
    wait_for_python(page)
    reply = page.evaluate("""attentionPy.session.run("import numpy").reply""")
    assert reply["status"] == "error", reply
    assert "ModuleNotFoundError: No module named 'numpy'" in reply["error"], reply
    assert "micropip" not in reply["error"], reply
    assert "loadPackage" not in reply["error"], reply


def test_a_failed_standard_library_download_fails_that_import_only(page, site_url):
    failing = {"now": True}
    page.route(
        "**/assets/pyodide/python_stdlib.zip",
        lambda route: route.fulfill(status=503, body="busy") if failing["now"] else route.continue_(),
    )
    open_home(page, site_url)
    wait_for_python(page)
    assert info(page)["boot"] == "snapshot"
    reply = page.evaluate("""attentionPy.session.run("import difflib").reply""")
    assert reply["status"] == "error", reply
    assert "ImportError: cannot import 'difflib': the standard library could not be downloaded" in reply["error"]
    assert "HTTP 503" in reply["error"]
    failing["now"] = False
    reply = page.evaluate("""attentionPy.session.run("import difflib\\ndifflib.__name__").reply""")
    assert reply["status"] == "ok", reply
    assert reply["value"] == "'difflib'", reply


def _garbage(route):
    route.fulfill(status=200, body=gzip.compress(b"not a memory image" * 1000), content_type="application/gzip")


def _truncated(route):
    route.fulfill(status=200, body=b"\x1f\x8b\x08\x00garbage", content_type="application/gzip")


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (lambda route: route.fulfill(status=404, body="missing"), r"HTTP 404"),
        (_garbage, r"bytes after decompression|magic number"),
        (_truncated, r"\w"),
    ],
    ids=["missing", "not-an-image", "corrupt-gzip"],
)
def test_an_unusable_snapshot_falls_back_to_the_normal_boot(loose_page, site_url, manifest, answer, reason):
    page = loose_page
    page.route(SNAPSHOT_ROUTE, answer)
    open_home(page, site_url)
    wait_for_python(page)
    assert info(page)["boot"] == "plain", info(page)
    assert re.search(reason, info(page)["fallback"]), info(page)
    assert made_with_key(page) is None
    assert SOFTMAX_OUTPUT.search(run_and_wait(page, timeout=PYTHON_READY_MS))
    notes = [text for kind, text in page.console_lines if "snapshot was not used" in text]
    assert notes, page.console_lines
    assert all(kind == "warning" for kind, text in page.console_lines if "snapshot" in text), page.console_lines
    assert not [line for line in page.console_lines if line[0] == "error" and "404" not in line[1]], page.console_lines


def test_an_image_of_another_runtime_is_not_used(loose_page, site_url, manifest, site_dir):
    """The session runtime in the image must be the one the worker was bundled with: an image
    whose runtime differs (here: the worker's copy of the runtime source is changed on the
    wire) is refused and Python boots normally."""
    page = loose_page

    def changed_worker(route):
        body = (site_dir / "assets" / "widgets" / "python-worker.js").read_text()
        # The bundled runtime source starts with the module docstring; change one word of it.
        assert "The Python half of the page's Python session" in body
        route.fulfill(
            status=200,
            content_type="text/javascript",
            body=body.replace(
                "The Python half of the page's Python session", "The Python half of the page's Python sessions", 1
            ),
        )

    page.route("**/assets/widgets/python-worker.js", changed_worker)
    open_home(page, site_url)
    wait_for_python(page)
    assert info(page)["boot"] == "plain", info(page)
    assert "another session_runtime.py" in info(page)["fallback"]
    assert SOFTMAX_OUTPUT.search(run_and_wait(page))


def test_a_slow_connection_boots_without_the_snapshot(browser, site_url, manifest):
    """On a connection the browser rates slower than 4g the image (6.5 MB more on a first
    visit) costs more than it saves: the page does not preload it, the worker does not fetch
    it, Python boots the normal way and says why on the console (information, not a warning),
    with the part of the standard library the page's code reads (0.8 of its 2.5 MB)."""
    from devtools.browser import CHROMIUM_FLAGS, chromium_path

    # A second Chromium from the session's Playwright (one per thread), told its connection is 3G.
    slow = browser.browser_type.launch(
        executable_path=chromium_path(), args=[*CHROMIUM_FLAGS, "--force-effective-connection-type=3G"]
    )
    try:
        page = slow.new_page()
        console = []
        requested = []
        page.on("console", lambda message: console.append((message.type, message.text)))
        page.on("request", lambda request: requested.append(urlsplit(request.url).path))
        open_home(page, site_url)
        assert page.evaluate("navigator.connection.effectiveType") == "3g"  # the flag took
        wait_for_python(page)
        assert info(page) | {"timings": None} == info(page) | {"boot": "plain", "fallback": None, "timings": None}, (
            info(page)
        )
        assert not [path for path in requested if path.startswith("/assets/snapshot/")], requested
        assert ("info", "attention_py: booting Python without the memory snapshot (a 3g connection)") in console, (
            console
        )
        assert SOFTMAX_OUTPUT.search(run_and_wait(page, timeout=PYTHON_READY_MS))
        # It starts with the standard library's core (stdlib_core.py), and the whole archive
        # comes once, when code imports a module the core does not hold.
        assert "/assets/pyodide/python_stdlib_core.zip" in requested, requested
        assert "/assets/pyodide/python_stdlib.zip" not in requested, requested
        reply = page.evaluate(
            """attentionPy.session.run("import difflib\\ndifflib.SequenceMatcher(None, 'abc', 'abd').ratio()").reply"""
        )
        assert (reply["status"], reply.get("value")) == ("ok", "0.6666666666666666"), reply
        reply = page.evaluate("""attentionPy.session.run("import json\\njson.loads('{bad')").reply""")
        assert "return _default_decoder.decode(s)" in reply["error"], reply  # source lines of the core
        assert requested.count("/assets/pyodide/python_stdlib.zip") == 1, requested
        # A page whose cells are far down preloads Python's files, but not the image.
        page.goto(f"{site_url}/what-matters/")
        page.wait_for_function("document.querySelectorAll('link[rel=preload][data-python]').length > 0")
        hrefs = page.evaluate("[...document.querySelectorAll('link[rel=preload][data-python]')].map((l) => l.href)")
        assert not [href for href in hrefs if "/assets/snapshot/" in href], hrefs
        assert [href for href in hrefs if href.endswith("/python_stdlib_core.zip")], hrefs  # the normal boot needs it
    finally:
        slow.close()
