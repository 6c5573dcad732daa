"""Offline reading, in headless Chromium with the site's service worker (sw.js) allowed.

- A page visited once works with the network cut, in every language: the home page's live
  cell runs, and on the gallery a slider redraws its figure and train_live trains.
- A page never visited, offline, leads to the offline page in the reader's language, which
  lists what is kept and links back.
- The home page's control keeps one language ahead, sized before it downloads (the size the
  build's list gives), so that a page never visited works offline; Remove empties the cache.
- A new build replaces the old whole: the files it changed are fetched again and the old
  copies deleted, the files it did not change are not downloaded again.
- Storage refused (a quota of a few bytes): the site works online as before and the control
  says why nothing is kept.
- Kept files cannot be turned against the site: entries the test itself rewrites in Cache
  Storage (the same bytes as ``text/plain`` with ``nosniff``, or other bytes) are served as
  the build made them, or fetched again: styles apply, scripts run, a cell runs, online and
  offline.
- ``<page>?apy-repair`` drops every kept copy with no script of the site's, in the page's
  language, and the page loads afresh.
- The page the reader landed on is kept though they left it at once; an unvisited page of
  any language, offline, gets that language's offline page.
- Keeping survives a failing host (errors, dropped connections, a host that hangs): the
  control says what failed and how much is kept within a bounded time, its buttons come
  back, and Keep goes on where it stopped; two tabs keeping at once download each file once.

The other browser tests block the worker (tests/e2e/conftest.py, ``WithoutServiceWorker``).
"""

from __future__ import annotations

import html
import json
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from devtools.static_server import serve
from site_hooks.assets import offline
from tests.e2e.conftest import GALLERY, PYTHON_READY_MS, PageGuard, wait_until_live
from tests.languages import LANGUAGES, config_path, language, read_config

CODES = [lang.code for lang in LANGUAGES]
KEEP_MS = 60_000


@pytest.fixture
def reader(browser) -> Iterator[tuple[object, Page]]:
    """A fresh context with the service worker allowed, and its page; guarded like ``page``."""
    context = browser.new_context(service_workers="allow")
    guard = PageGuard(context)
    page = guard.watch(context.new_page())
    yield context, page
    context.close()
    guard.check()


def ask_status(page: Page, timeout_ms: int) -> dict | None:
    """The controlling service worker's answer to "status", or None if none came in time (a
    worker replaced while it was asked never answers)."""
    return page.evaluate(
        """(timeoutMs) => new Promise((resolve) => {
            const done = (answer) => {
                navigator.serviceWorker.removeEventListener("message", listen);
                clearTimeout(timer);
                resolve(answer);
            };
            const listen = (event) => {
                if (event.data?.type === "apy-offline-status" && event.data.id === "test") done(event.data);
            };
            const timer = setTimeout(() => done(null), timeoutMs);
            navigator.serviceWorker.addEventListener("message", listen);
            navigator.serviceWorker.controller.postMessage({ type: "status", id: "test" });
        })""",
        timeout_ms,
    )


def status(page: Page) -> dict:
    """What the service worker says is kept (its answer to "status")."""
    answer = ask_status(page, 10_000)
    assert answer is not None, "the service worker did not answer in 10 s"
    return answer


def kept_paths(page: Page) -> set[str]:
    return set(
        page.evaluate(
            """async () => {
                const root = new URL("./", navigator.serviceWorker.controller.scriptURL);
                const keys = await (await caches.open("attention-py-site")).keys();
                return keys.map((r) => new URL(r.url).pathname.slice(root.pathname.length));
            }"""
        )
    )


def wait_until_kept(page: Page, *paths: str) -> None:
    """Waits until the worker keeps ``paths`` (relative to the site root)."""
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=KEEP_MS)
    deadline = KEEP_MS / 1000
    start = time.monotonic()
    while not set(paths) <= kept_paths(page):
        assert time.monotonic() - start < deadline, f"not kept: {set(paths) - kept_paths(page)}"
        time.sleep(0.25)


def settled_kept(page: Page) -> set[str]:
    """What the worker keeps once the visit's list is done (unchanged for a second)."""
    kept, start = kept_paths(page), time.monotonic()
    while time.monotonic() - start < KEEP_MS / 1000:
        time.sleep(1)
        now = kept_paths(page)
        if now == kept:
            return kept
        kept = now
    raise AssertionError("the worker kept on keeping files for a minute")


def visit_with_python(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_function("window.attentionPy?.session !== undefined")
    page.evaluate("attentionPy.session.start()")
    page.wait_for_function("attentionPy.session.state === 'ready'", timeout=PYTHON_READY_MS)
    wait_until_kept(page, "assets/pyodide/pyodide.asm.wasm", "assets/pyodide/pyodide.asm.mjs")
    # What a start needs, not the whole standard library: Python starts from the image or the
    # core, and fetches the rest only for code that imports more (stdlib_on_demand.py).
    wait_until_kept(page, "assets/pyodide/python_stdlib_core.zip")
    assert "assets/pyodide/python_stdlib.zip" not in settled_kept(page)


def run_first_cell(page: Page) -> str:
    cell = page.locator(".live-cell").first
    cell.locator(".live-cell__run").click()
    page.wait_for_function("document.querySelector('.live-cell').dataset.busy === ''", timeout=PYTHON_READY_MS)
    return cell.locator(".live-cell__output").inner_text()


def figure_state(page: Page, name: str) -> dict:
    return json.loads(page.locator(f'.apy-fig[data-figure="{name}"]').get_attribute("data-state"))


@pytest.mark.parametrize("lang", CODES)
def test_a_visited_page_works_offline_in_full(reader, site_url, lang):
    context, page = reader
    home = f"{site_url}/{language(lang).prefix}"
    visit_with_python(page, home)
    online = run_first_cell(page)
    assert "Error" not in online, online
    gallery = f"{site_url}/{GALLERY[lang]}"
    page.goto(gallery)
    wait_until_live(page)
    page.wait_for_timeout(500)  # the page's list of what it fetched goes out after its load event
    wait_until_kept(page, f"{GALLERY[lang]}index.html", f"assets/training/{lang}.json")

    context.set_offline(True)
    page.reload()
    wait_until_live(page)
    softmax = page.locator('.apy-fig[data-figure="softmax"]')
    softmax.locator('input[name="z.0"]').fill("-2")
    page.wait_for_function(
        "(el) => JSON.parse(el.dataset.state).z[0] === -2", arg=softmax.element_handle(), timeout=PYTHON_READY_MS
    )
    train = page.locator('.apy-fig[data-figure="train_live"]')
    train.locator('[data-focus-key="train"]').click()
    page.wait_for_function(
        "(el) => JSON.parse(el.dataset.state).step >= 1", arg=train.element_handle(), timeout=PYTHON_READY_MS
    )
    assert page.evaluate("crossOriginIsolated"), "the worker's page is cross-origin isolated"

    page.goto(home)
    page.wait_for_function("window.attentionPy?.session !== undefined")
    assert run_first_cell(page) == online


@pytest.mark.parametrize("lang", CODES)
def test_a_page_never_visited_leads_offline_to_the_offline_page_of_its_language(reader, site_url, lang):
    context, page = reader
    home = f"{site_url}/{language(lang).prefix}"
    visit_with_python(page, home)  # nothing left in flight: its Python started and is kept
    page.locator("[data-offline-control][data-kept]").wait_for(timeout=KEEP_MS)  # the visit is kept
    context.set_offline(True)
    wanted = f"{site_url}/{language(lang).prefix}what-matters/"
    page.goto(wanted)
    assert re.search(rf"/{language(lang).prefix}offline/\?from=", page.url), page.url
    assert page.evaluate("document.documentElement.lang") == lang
    control = page.locator("[data-offline-control]")
    expect(control.locator(".apy-offline__pages a")).to_have_count(1)  # the home page, kept
    assert control.locator(".apy-offline__pages a").get_attribute("href") == home
    expect(control.locator(f'a[href="{wanted}"]')).to_have_count(1)  # try again


def test_keeping_a_language_makes_unvisited_pages_work_offline_and_remove_empties(reader, site_url, site_dir):
    context, page = reader
    page.goto(f"{site_url}/")
    wait_until_kept(page, "index.html")
    listing = offline.site_files(Path(site_dir), {lang.code: lang.prefix for lang in LANGUAGES})
    wanted = sum(
        size for size, group in ((f[1], f[2]) for f in listing["files"].values()) if group in ("en", "shared", "python")
    )
    control = page.locator("[data-offline-control]")
    keep = control.get_by_role("button", name=re.compile("English"))
    shown = float(re.search(r"\(([\d.]+) MB\)", keep.inner_text()).group(1))
    assert shown == pytest.approx(wanted / 1e6, abs=0.5), "the button says what it will download"
    keep.click()
    expect(control.locator(".apy-offline__status")).to_contain_text("Keeping for offline reading")
    page.locator("[data-offline-control][data-kept]").wait_for(timeout=120_000)
    expect(control.locator(".apy-offline__status")).to_contain_text("Kept on this device")
    assert {path for path, (_, _, group) in listing["files"].items() if group == "en"} <= kept_paths(page)

    context.set_offline(True)
    page.goto(f"{site_url}/{GALLERY['en']}")
    wait_until_live(page)  # never visited, every figure live
    page.goto(f"{site_url}/")
    context.set_offline(False)
    page.reload()
    page.locator("[data-offline-control][data-kept]").wait_for(timeout=KEEP_MS)
    control.get_by_role("button", name=re.compile("Remove")).click()
    expect(control.locator(".apy-offline__status")).to_have_text("Nothing is kept on this device yet.")
    assert kept_paths(page) == set()


def build_of(page: Page) -> str:
    return status(page)["build"]


def wait_for_takeover(page: Page, build: str) -> None:
    """Waits until the worker of ``build`` controls the page. The browser activates a new
    worker only once the old one's events have ended, so the old one is not asked anything
    while a new one is installing or waiting (asking every 0.25 s kept it busy for a minute)."""
    start = time.monotonic()
    while True:
        assert time.monotonic() - start < KEEP_MS / 1000, "the new sw.js did not take over"
        time.sleep(0.25)
        settled = page.evaluate("navigator.serviceWorker.getRegistration().then((r) => !r.installing && !r.waiting)")
        if settled and (ask_status(page, 2_000) or {}).get("build") == build:
            return


def test_a_new_build_replaces_the_old_one_whole(browser, site_dir, tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(site_dir, copy)
    homes = {lang.code: lang.prefix for lang in LANGUAGES}
    context = browser.new_context(service_workers="allow")
    guard = PageGuard(context)
    page = guard.watch(context.new_page())
    css, changed = "assets/extras/site.css", "what-matters/index.html"
    with serve(copy) as server:
        page.goto(f"{server.url}/what-matters/")
        wait_until_kept(page, changed, css, "assets/widgets/offline.js")
        kept_before = settled_kept(page)
        head, _, code = (copy / "sw.js").read_text().partition("\n")
        before = json.loads(head.removeprefix("self.__APY_SITE = ").removesuffix(";"))
        assert build_of(page) == before["build"]

        # A new build: one stylesheet and one page changed, everything else as it was.
        with (copy / css).open("a") as sheet:
            sheet.write("\n/* a new build */\n")
        (copy / changed).write_text((copy / changed).read_text().replace("</body>", "<!-- a new build --></body>"))
        after = offline.site_files(copy, homes, read_config(config_path())["site_name"])
        assert after["titles"] == before["titles"]
        assert after["build"] != before["build"]
        (copy / "sw.js").write_text(f"self.__APY_SITE = {json.dumps(after)};\n{code}")
        server.sent.clear()
        page.reload()  # the browser finds the new sw.js, which takes over at once
        wait_for_takeover(page, after["build"])
        page.reload()
        wait_until_kept(page, changed, css)
        keys = page.evaluate("caches.open('attention-py-site').then((c) => c.keys()).then((k) => k.map((r) => r.url))")
        for path in (css, changed):
            assert before["files"][path][0] != after["files"][path][0]
            assert [key for key in keys if f"/{path}?" in key] == [
                key for key in keys if key.endswith(f"/{path}?apy-revision={after['files'][path][0]}")
            ], f"only the new {path} is kept"
        sent = {path for path, size in server.sent if size}
        assert f"/{css}" in sent, "the changed file is fetched again"
        unchanged = {f"/{path}" for path in kept_before} - {f"/{css}", f"/{changed}"}
        assert not sent & unchanged, f"files the new build did not change were downloaded again: {sent & unchanged}"
    context.close()
    guard.check()


def test_storage_refused_falls_back_to_online_with_the_message(reader, site_url):
    context, page = reader
    cdp = context.new_cdp_session(page)
    page.goto(f"{site_url}/")
    origin = re.match(r"https?://[^/]+", site_url).group(0)
    cdp.send("Storage.overrideQuotaForOrigin", {"origin": origin, "quotaSize": 1000})
    page.evaluate("caches.delete('attention-py-site')")
    page.reload()
    control = page.locator("[data-offline-control]")
    expect(control.locator(".apy-offline__status")).to_have_text(
        "This device has no room left for the site, so nothing more is kept; it works online as usual.",
        timeout=KEEP_MS,
    )
    page.wait_for_function("window.attentionPy?.session !== undefined")
    page.evaluate("attentionPy.session.start()")
    page.wait_for_function("attentionPy.session.state === 'ready'", timeout=PYTHON_READY_MS)
    assert "Error" not in run_first_cell(page)


# --- kept files that cannot be turned against the site ---------------------------------------

# Rewrites every kept entry as a cell of the site's origin could: the same bytes, but served
# as text the browser must not sniff; the entries whose path ends with one of `changed` get
# other bytes (of their own type, so that they would run or apply if served).
POISON = """async ({ changed }) => {
    const cache = await caches.open("attention-py-site");
    let count = 0;
    for (const request of await cache.keys()) {
        const path = new URL(request.url).pathname;
        let body = await (await cache.match(request)).arrayBuffer();
        let type = "text/plain";
        if (changed.some((name) => path.endsWith("/" + name))) {
            body = path.endsWith(".css")
                ? "body { display: none !important; }"
                : "document.documentElement.dataset.hostile = 'ran';";
            type = path.endsWith(".css") ? "text/css" : "text/javascript";
        }
        await cache.put(request, new Response(body, {
            status: 200, headers: { "Content-Type": type, "X-Content-Type-Options": "nosniff" } }));
        count += 1;
    }
    return count;
}"""
CHANGED = ["assets/extras/site.css", "assets/widgets/offline.js"]

STYLES_APPLY = """() => [...document.querySelectorAll('link[rel="stylesheet"]')].every((link) => {
    try {
        return link.sheet !== null && link.sheet.cssRules.length > 0;
    } catch {
        return false; // a sheet the browser refused to read as CSS
    }
}) && getComputedStyle(document.body).display !== "none" """


def poison(page: Page) -> int:
    return page.evaluate(POISON, {"changed": CHANGED})


def assert_the_site_works(page: Page, output: str) -> None:
    """Styles apply, the site's scripts run (the offline control answers), no hostile script ran,
    and the first cell prints ``output``."""
    assert page.evaluate(STYLES_APPLY), "every stylesheet applies"
    page.locator("[data-offline-control][data-kept]").wait_for(timeout=KEEP_MS)
    assert page.evaluate("document.documentElement.dataset.hostile") is None
    page.wait_for_function("window.attentionPy?.session !== undefined")
    assert run_first_cell(page) == output


def kept_entries(page: Page) -> list[dict]:
    """Every kept entry: its path, stored Content-Type, and whether its text says it was changed."""
    return page.evaluate(
        """async () => {
            const cache = await caches.open("attention-py-site");
            const entries = [];
            for (const request of await cache.keys()) {
                const response = await cache.match(request);
                const text = new TextDecoder().decode((await response.arrayBuffer()).slice(0, 200));
                entries.push({ path: new URL(request.url).pathname, type: response.headers.get("Content-Type"),
                               changed: text.includes("display: none") || text.includes("hostile") });
            }
            return entries;
        }"""
    )


def test_hostile_kept_entries_are_served_as_built_or_fetched_again(reader, site_url):
    context, page = reader
    home = f"{site_url}/"
    visit_with_python(page, home)
    output = run_first_cell(page)
    assert "Error" not in output, output
    settled_kept(page)
    assert poison(page) > 20

    page.reload()  # online: kept files are used first
    assert_the_site_works(page, output)
    changed = [entry for entry in kept_entries(page) if entry["changed"]]
    assert changed == [], f"changed entries are deleted and fetched again: {changed}"

    context.set_offline(True)
    assert poison(page) > 20  # again, with nothing to fetch them from
    page.reload()
    assert page.evaluate(STYLES_APPLY), "offline, the kept styles apply"
    assert page.evaluate("document.documentElement.dataset.hostile") is None
    page.wait_for_function("window.attentionPy?.session !== undefined")
    assert run_first_cell(page) == output, "offline, Python starts from kept files served as built"


def repair_words(lang: str) -> dict[str, str]:
    return {key: language(lang).page_string(key) for key in offline.REPAIR_WORDS}


@pytest.mark.parametrize("lang", CODES)
def test_apy_repair_drops_every_kept_copy_and_reloads_the_page(reader, site_url, lang):
    _, page = reader
    home = f"{site_url}/{language(lang).prefix}"
    visit_with_python(page, home)
    output = run_first_cell(page)
    settled_kept(page)
    page.evaluate("caches.open('attention-py-python-image').then((c) => c.put('/apy-test-marker', new Response('x')))")
    poison(page)

    answers: list[tuple[str, str]] = []
    page.on("response", lambda r: answers.append((r.url, r.text())) if "apy-repair" in r.url else None)
    page.goto(f"{home}?apy-repair")
    page.wait_for_url(home, timeout=10_000)  # the repair page goes on by itself, without the parameter
    (_, text), *_ = answers
    words = repair_words(lang)
    assert f'<html lang="{lang}" dir="{language(lang).direction}">' in text
    assert html.escape(words["repair_page_title"]) in text
    assert html.escape(words["repair_page_done"]) in text
    assert "<script" not in text, "the repair needs no script"

    marker = "caches.open('attention-py-python-image').then((c) => c.match('/apy-test-marker')).then(Boolean)"
    assert page.evaluate(marker) is False, "the cache of the memory image is dropped too"
    assert_the_site_works(page, output)
    assert [entry for entry in kept_entries(page) if entry["type"] == "text/plain" or entry["changed"]] == []


# --- every visited page is kept ------------------------------------------------------------


def test_the_page_the_reader_landed_on_is_kept_though_left_at_once(browser, site_url):
    context = browser.new_context(service_workers="allow")
    guard = PageGuard(context)
    page = guard.watch(context.new_page())
    page.goto(f"{site_url}/")  # lands: the worker installs; the reader moves on at once
    for article in ("what-matters/", "learning/"):
        page.goto(f"{site_url}/{article}")
        page.wait_for_function("window.attentionPy?.session !== undefined")
        assert "Error" not in run_first_cell(page)
    page.wait_for_timeout(500)  # the page's list of what it fetched goes out after its load event
    wait_until_kept(page, "index.html", "learning/index.html")
    settled_kept(page)

    context.set_offline(True)
    page.goto(f"{site_url}/")
    assert page.url == f"{site_url}/", "the home page itself, not the offline page"
    page.wait_for_function("window.attentionPy?.session !== undefined")
    assert "Error" not in run_first_cell(page)
    guard.check()

    # Another language, never visited: its offline page, in its language. What only that
    # language's pages use (its face, its search index) is not kept yet: the page shows in the
    # device's font, and Material's search reports that its index did not load.
    # A request the next navigation cut short (net::ERR_ABORTED: Material's search worker
    # still loading a script as the page is left) is not a file missing offline.
    failed: list[str] = []
    page.on("requestfailed", lambda request: request.failure != "net::ERR_ABORTED" and failed.append(request.url))
    for lang in CODES:
        prefix = language(lang).prefix
        if not prefix:
            continue
        page.goto(f"{site_url}/{prefix}what-matters/")
        assert re.search(rf"/{prefix}offline/\?from=", page.url), page.url
        assert page.evaluate("document.documentElement.lang") == lang
        page.locator("[data-offline-control][data-kept]").wait_for(timeout=KEEP_MS)
    unexpected = [
        url
        for url in failed
        if not re.search(r"/assets/fonts/.*\.woff2$|/search/search_index\.json$|/assets/snapshot/.*\.gz$", url)
    ]
    assert unexpected == [], "only the language's face and search index are missing"
    guard.errors = [e for e in guard.errors if "net::ERR_FAILED" not in e and e != "pageerror: Network error"]
    context.close()
    guard.check()


# --- keeping survives a failing host --------------------------------------------------------

# With Data Saver on, only the reader's own gesture starts Python (start-policy.js).
DATA_SAVER = (
    "Object.defineProperty(Navigator.prototype, 'connection', {get: () => ({saveData: true, effectiveType: '4g'})})"
)
FAILURE_BOUND_S = 40  # the worker gives a download up after 20 s of silence; the page waits 30 s


def control_buttons(page: Page):  # type: ignore[no-untyped-def]
    return page.locator("[data-offline-control] .apy-offline__buttons button")


@pytest.mark.parametrize("failure", [503, 0, None], ids=["503", "dropped", "hangs"])
def test_keeping_survives_a_failing_host_and_resumes_where_it_stopped(browser, site_dir, failure):
    context = browser.new_context(service_workers="allow")
    guard = PageGuard(context)
    page = guard.watch(context.new_page())
    page.add_init_script(DATA_SAVER)  # Python starts when the test says, after the host failed
    with serve(Path(site_dir)) as server:
        page.goto(f"{server.url}/")
        page.locator("[data-offline-control][data-kept]").wait_for(timeout=KEEP_MS)
        settled_kept(page)
        control = page.locator("[data-offline-control]")
        server.fail(failure, after=6)  # half-way: a few files arrive, then the host fails
        start = time.monotonic()
        control.get_by_role("button", name=re.compile("English")).click()
        expect(control.locator(".apy-offline__status")).to_contain_text(
            "Keeping stopped at", timeout=FAILURE_BOUND_S * 1000
        )
        took = time.monotonic() - start
        reason = {503: "the site answered with error 503", 0: "the site could not be reached"}.get(
            failure, "the site sent nothing for 20 s"
        )
        expect(control.locator(".apy-offline__status")).to_contain_text(reason)
        assert took < FAILURE_BOUND_S
        expect(control_buttons(page)).to_have_count(3)  # keep all, keep English, remove
        for button in control_buttons(page).all():
            expect(button).to_be_enabled()
        server.heal()
        # The page's own visit answers later (its Python's files, once Python is ready): the
        # control still says why the keep stopped until the reader keeps or removes again.
        counted = control.get_attribute("data-kept")
        page.wait_for_function("window.attentionPy?.session !== undefined")
        page.evaluate("attentionPy.session.start()")
        page.wait_for_function("attentionPy.session.state === 'ready'", timeout=PYTHON_READY_MS)
        page.wait_for_function(
            "(n) => document.querySelector('[data-offline-control]').dataset.kept > n",
            arg=int(counted),
            timeout=KEEP_MS,
        )
        expect(control.locator(".apy-offline__status")).to_contain_text(reason)
        kept_before = kept_paths(page)

        server.reset_count()
        control.get_by_role("button", name=re.compile("English")).click()
        page.locator("[data-offline-control][data-kept]").wait_for(timeout=120_000)
        expect(control.locator(".apy-offline__status")).to_contain_text("Kept on this device")
        listing = offline.site_files(Path(site_dir), {lang.code: lang.prefix for lang in LANGUAGES})
        wanted = {path for path, (_, _, group) in listing["files"].items() if group in ("en", "shared", "python")}
        assert wanted <= kept_paths(page)
        again = {path.lstrip("/") for path, _ in server.sent} & kept_before
        assert not again, f"files kept before the host failed were asked for again: {sorted(again)[:5]}"
    print(f"\nfailure {failure}: the control said so after {took:.1f} s")
    context.close()
    guard.check()


def test_two_tabs_keeping_at_once_download_each_file_once(browser, site_url):
    context = browser.new_context(service_workers="allow")
    guard = PageGuard(context)
    tabs = [guard.watch(context.new_page()) for _ in range(2)]
    for tab in tabs:
        tab.goto(f"{site_url}/")
        tab.locator("[data-offline-control][data-kept]").wait_for(timeout=KEEP_MS)
    settled_kept(tabs[0])
    asked: list[str] = []
    context.on("request", lambda request: asked.append(request.url) if request.service_worker else None)
    for tab in tabs:
        tab.locator("[data-offline-control]").get_by_role("button", name=re.compile("English")).click()
    for tab in tabs:
        tab.locator("[data-offline-control][data-kept]").wait_for(timeout=120_000)
        expect(tab.locator(".apy-offline__status")).to_contain_text("Kept on this device")
    assert len(asked) > 50, "the keep fetched the language's files"
    twice = {url for url in asked if asked.count(url) > 1}
    assert not twice, f"asked for twice: {sorted(twice)[:5]}"
    context.close()
    guard.check()
