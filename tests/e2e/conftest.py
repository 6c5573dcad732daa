"""Fixtures for the browser tests: the built site, served on a free localhost port, and
a headless Chromium page that fails the test if it asks any other host for anything or
logs an uncaught error.

The site is built once per test session with ``python -m mkdocs build --strict`` into a
temporary folder, unless ``ATTENTION_SITE_DIR`` points at an already built ``site/``.
Chromium is Debian's (``/usr/bin/chromium``, or ``CHROMIUM_PATH``); Playwright never
downloads a browser here.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from devtools import browser as browser_tools
from devtools.browser import CHROMIUM_FLAGS, build_site
from devtools.static_server import serve


def chromium_path() -> str:
    try:
        return browser_tools.chromium_path()
    except browser_tools.ChromiumMissing as error:
        pytest.fail(str(error))


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prebuilt = os.environ.get("ATTENTION_SITE_DIR")
    if prebuilt:
        return Path(prebuilt)
    out = tmp_path_factory.mktemp("site")
    try:
        build_site(out)
    except RuntimeError as error:
        pytest.fail(str(error))
    return out


@pytest.fixture(scope="session")
def site_url(site_dir: Path) -> Iterator[str]:
    """Base URL of the built site on a plain static server (no special headers)."""
    with serve(site_dir) as server:
        yield server.url


@pytest.fixture(scope="session")
def isolated_site_url(site_dir: Path) -> Iterator[str]:
    """Base URL of the built site served with COOP/COEP (cross-origin isolated)."""
    with serve(site_dir, isolated=True) as server:
        yield server.url


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        yield browser
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
