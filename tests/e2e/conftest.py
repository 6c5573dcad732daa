"""Fixtures for the browser tests: the built site, served on a free localhost port, and
a headless Chromium page that fails the test if it asks any other host for anything or
logs an uncaught error.

The site is built once per test session with ``python -m mkdocs build --strict`` into a
temporary folder, unless ``ATTENTION_SITE_DIR`` points at an already built ``site/``.
Chromium is Debian's (``/usr/bin/chromium``, or ``CHROMIUM_PATH``); Playwright never
downloads a browser here.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str:
    path = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        pytest.fail(
            "Chromium is missing: install it with `apt-get install -y chromium` "
            "(the browser tests never download one)"
        )
    return path


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prebuilt = os.environ.get("ATTENTION_SITE_DIR")
    if prebuilt:
        return Path(prebuilt)
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if result.returncode:
        pytest.fail(f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}")
    return out


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Static files; with ``isolated`` it also sends the cross-origin isolation headers."""

    isolated = False
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".whl": "application/zip",
    }

    def end_headers(self) -> None:
        if self.isolated:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def _serve(directory: Path, isolated: bool) -> Iterator[str]:
    handler = type("Handler", (_QuietHandler,), {"isolated": isolated})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(directory))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def site_url(site_dir: Path) -> Iterator[str]:
    """Base URL of the built site on a plain static server (no special headers)."""
    yield from _serve(site_dir, isolated=False)


@pytest.fixture(scope="session")
def isolated_site_url(site_dir: Path) -> Iterator[str]:
    """Base URL of the built site served with COOP/COEP (cross-origin isolated)."""
    yield from _serve(site_dir, isolated=True)


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
