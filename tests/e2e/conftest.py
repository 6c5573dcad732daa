"""Fixtures for the browser tests: a headless Chromium page that fails the test if it asks
any other host for anything or logs an uncaught error, and the site served cross-origin
isolated (the built site itself, ``site_dir`` and ``site_url``, is in tests/conftest.py).

Chromium is Debian's (``/usr/bin/chromium``, or ``CHROMIUM_PATH``); Playwright never
downloads a browser here. Pages keep their Content-Security-Policy in every test, which
refuses eval and inline scripts the page did not write: ``page.wait_for_function`` is
devtools.browser's (Playwright's own polls with the page's eval), and a test's own script
file runs through ``add_test_script``, not ``page.add_script_tag``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page

from devtools import browser as browser_tools
from devtools.browser import CHROMIUM_FLAGS
from devtools.static_server import serve
from tests.languages import LANGUAGES


def chromium_path() -> str:
    try:
        return browser_tools.chromium_path()
    except browser_tools.ChromiumMissing as error:
        pytest.fail(str(error))


@pytest.fixture(scope="session")
def isolated_site_url(site_dir: Path) -> Iterator[str]:
    """Base URL of the built site served with COOP/COEP (cross-origin isolated)."""
    with serve(site_dir, isolated=True) as server:
        yield server.url


class WithoutServiceWorker:
    """The browser, whose new contexts block the site's service worker (sw.js) unless a test
    asks for it with ``service_workers="allow"`` (tests/e2e/test_offline.py does): Playwright's
    ``route`` never sees a request a service worker answers, and most tests route requests to
    hold or break Python's files. Everything else is the browser's own."""

    def __init__(self, browser: object) -> None:
        self._browser = browser

    def new_context(self, **options: object) -> object:
        options.setdefault("service_workers", "block")
        return self._browser.new_context(**options)  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    browser_tools.use_waits_that_keep_the_policy()  # the pages refuse eval, which Playwright's waits use
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        yield WithoutServiceWorker(browser)
        browser.close()


class PageGuard:
    """Watches a browser context for requests to non-local hosts and for page errors.

    ``check()`` fails the test if anything was seen, and forgets it, so one context can be
    guarded across several tests (see ``warm_page`` in test_live_cells.py).
    """

    def __init__(self, context: object) -> None:
        self.foreign: list[str] = []
        self.errors: list[str] = []
        context.on("request", self._on_request)  # type: ignore[attr-defined]  # pages, workers, service workers

    def _on_request(self, request: object) -> None:
        url = request.url  # type: ignore[attr-defined]
        host = urlsplit(url).hostname
        if urlsplit(url).scheme in ("http", "https", "ws", "wss") and host not in ("127.0.0.1", "localhost"):
            self.foreign.append(url)

    def watch(self, page: object) -> object:
        """Records the page's uncaught errors and console errors; returns the page."""
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))  # type: ignore[attr-defined]
        page.on(  # type: ignore[attr-defined]
            "console",
            lambda msg: self.errors.append(f"console.error: {msg.text}") if msg.type == "error" else None,
        )
        return page

    def check(self) -> None:
        foreign, errors = self.foreign[:], self.errors[:]
        self.foreign.clear()
        self.errors.clear()
        assert not foreign, f"requests left the local server: {foreign}"
        assert not errors, f"errors reached the console: {errors}"


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    """A fresh page; at teardown, fails on any request to a non-local host or page error."""
    context = browser.new_context()  # type: ignore[attr-defined]
    guard = PageGuard(context)
    page = guard.watch(context.new_page())
    yield page
    context.close()
    guard.check()


@pytest.fixture(scope="module")
def module_context(browser: object) -> Iterator[tuple[object, PageGuard]]:
    """One browser context for a whole test module, with its guard.

    Pages opened in it share the HTTP cache, so the Python runtime (about 13 MB) is fetched
    once per module rather than once per test. Tests must ``guard.watch`` their pages and
    ``guard.check()`` at the end; ``warm_page`` in test_live_cells.py shows how.
    """
    context = browser.new_context()  # type: ignore[attr-defined]
    guard = PageGuard(context)
    yield context, guard
    context.close()
    guard.check()


# Tabs of one context share localStorage, so a cell may mount with an edit an earlier test's
# tab saved (and a test that types the same code then changes nothing, so nothing is saved).
# Clearing after `goto` races with the cells' mounting; this runs before any page script, once
# per tab: a reload in the same tab keeps what the test saved.
NO_EARLIER_EDITS = """
if (window === window.top && !sessionStorage.getItem("apy-test:tab-started")) {
  localStorage.clear();
  sessionStorage.setItem("apy-test:tab-started", "1");
}
"""


_SCRIPT_SRC = re.compile(r"(<meta http-equiv=\"Content-Security-Policy\" content=\"[^\"]*?)script-src [^;\"]*")
LAX_SCRIPT_SRC = "script-src 'self' 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' blob:"


@pytest.fixture(scope="session")
def site_url_with_a_lax_policy(site_dir: Path) -> Iterator[str]:
    """Base URL of the built site whose pages' policy lets any inline script, event handler
    and eval run (``LAX_SCRIPT_SRC``, the policy before issue 43), for tests of the defences
    behind the real policy, whose attacker runs JavaScript with ``js.eval`` or inline
    handlers: the real one refuses both (tests/e2e/test_script_policy.py). The rest of the
    policy stays: without it (Playwright's ``bypass_csp``, or no ``<meta>``) the frame's
    worker may load ``data:`` scripts, and Pyodide, taking it for a classic worker, does not
    start."""
    pages = {}
    for html in site_dir.rglob("*.html"):
        path = "/" + html.relative_to(site_dir).as_posix()
        text, found = _SCRIPT_SRC.subn(rf"\1{LAX_SCRIPT_SRC}", html.read_text(encoding="utf-8"), count=1)
        assert found, path
        pages[path] = ("text/html; charset=utf-8", text.encode())
        if path.endswith("/index.html"):
            pages[path.removesuffix("index.html")] = pages[path]
    with serve(site_dir, extra_files=pages) as server:
        yield server.url


def add_test_script(page: Page, path: Path) -> None:
    """Runs a test's own script file (axe-core) in the page. ``page.add_script_tag`` writes
    it as an inline <script>, which the page's policy refuses (only the page's own inline
    scripts run, by their hashes); an evaluation from the test is not the page's."""
    page.evaluate(path.read_text(encoding="utf-8") + "\n;undefined")


def start_without_earlier_edits(page) -> None:
    """The tab's first page sees no edit saved by another tab of the shared context."""
    page.add_init_script(NO_EARLIER_EDITS)


class PythonGate:
    """Holds the page's Python back until ``release()``: the worker's first request (the wheel
    manifest) waits. Python starts at the first layout and, restored from the memory snapshot,
    may be ready within a second, so a test of what happens *before* it is ready holds it."""

    ROUTE = "**/assets/wheels/manifest.json"

    def __init__(self, page: object) -> None:
        self.open = False
        self.held: list = []
        page.route(self.ROUTE, self._hold)  # type: ignore[attr-defined]

    def _hold(self, route: object) -> None:
        if self.open:
            route.continue_()  # type: ignore[attr-defined]
        else:
            self.held.append(route)

    def release(self) -> None:
        self.open = True
        for route in self.held:
            route.continue_()
        self.held.clear()


# --- the live gallery: every figure on one page per language --------------------------------

PYTHON_READY_MS = 60_000
GALLERY = {lang.code: f"{lang.prefix}gallery/" for lang in LANGUAGES}  # every built language (mkdocs.yml)

# Records every update the host applies, before any page script runs.
RECORD_UPDATES = """
window.__figureUpdates = [];
document.addEventListener("figure-updated", (event) => window.__figureUpdates.push(event.detail));
"""


def open_gallery(page: Page, base_url: str, lang: str) -> Page:
    page.add_init_script(RECORD_UPDATES)
    page.goto(f"{base_url}/{GALLERY[lang]}")
    page.wait_for_function("window.attentionPy?.figures !== undefined")
    return page


def wait_until_live(page: Page) -> None:
    page.wait_for_function(
        """window.attentionPy?.session?.state === 'ready'
           && [...document.querySelectorAll('.apy-fig[data-figure]')].every((root) => root.hasAttribute('data-live'))""",
        timeout=PYTHON_READY_MS,
    )


@pytest.fixture(scope="module")
def galleries(module_context, site_url) -> Iterator[Callable[[str], Page]]:
    """Opens (once per module) the live gallery page of a language: ``galleries("he")``."""
    context, guard = module_context
    pages: dict[str, Page] = {}

    def get(lang: str) -> Page:
        if lang not in pages:
            page = guard.watch(context.new_page())
            open_gallery(page, site_url, lang)
            wait_until_live(page)
            pages[lang] = page
        # The tab in front: Chromium throttles a background tab's animation frames, which
        # wait_for_function polls by (a test on the other language's tab took 3 s, not 0.2 s).
        pages[lang].bring_to_front()
        return pages[lang]

    yield get
    for page in pages.values():
        page.close()


@pytest.fixture
def checked(module_context) -> Iterator[None]:
    """Fails the test on a foreign request or console error seen while it ran."""
    _, guard = module_context
    yield
    guard.check()
