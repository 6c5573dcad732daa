"""Headless Chromium and the built site, shared by the browser tests and the benchmarks.

Chromium is Debian's (``/usr/bin/chromium``, or ``CHROMIUM_PATH``): Playwright never
downloads a browser here. Without the background-networking flags Chromium keeps trying to
reach Google's hosts, which this machine refuses.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from devtools.wheels import ROOT

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # A test keeps several tabs of one context open (one gallery per language): Chromium would
    # slow the timers of those not in front, and a test waiting on one would wait for that.
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]


class ChromiumMissing(RuntimeError):
    pass


def chromium_path() -> str:
    """Path of the Chromium executable, or ChromiumMissing saying how to install it."""
    path = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        raise ChromiumMissing(
            "Chromium is missing: install it with `apt-get install -y chromium` "
            "(the browser tests never download one), or set CHROMIUM_PATH"
        )
    return path


def build_site(target: Path) -> None:
    """``mkdocs build --strict`` into ``target``; RuntimeError with mkdocs' output on failure."""
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(target)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
    )
    if result.returncode:
        raise RuntimeError(f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}")


@contextmanager
def built_site(existing: Path | None = None) -> Iterator[Path]:
    """``existing`` if given; otherwise a fresh strict build in a temporary folder."""
    if existing is not None:
        yield existing
        return
    with tempfile.TemporaryDirectory() as scratch:
        print("building the site ...", flush=True)
        build_site(Path(scratch, "site"))
        yield Path(scratch, "site")


# --- waiting on a page whose policy refuses eval -----------------------------------------------

# The predicate is written into the source of the function Playwright hands the browser, so
# DevTools compiles it, outside the page's policy; it is then polled in the page on each
# animation frame (or every `every` ms), as Playwright's own wait polls.
_POLL = """async ([__waitArg, __waitLimit, __waitEvery]) => {
  const __waitValue = () => {
    const value = (%s);
    return typeof value === "function" ? value(__waitArg) : value;
  };
  return await new Promise((resolve, reject) => {
    const deadline = performance.now() + __waitLimit;
    const poll = () => {
      let value;
      try { value = __waitValue(); } catch (error) { reject(error); return; }
      if (value) resolve({ value });
      else if (performance.now() >= deadline) resolve({ timedOut: true });
      else if (__waitEvery) setTimeout(poll, __waitEvery);
      else requestAnimationFrame(poll);
    };
    poll();
  });
}"""
_NAVIGATED = ("Execution context was destroyed", "Cannot find context with specified id")


def wait_for_function(frame: Any, expression: str, *, arg: Any = None, polling: Any = None, timeout: Any = None) -> Any:
    """Playwright's ``wait_for_function`` for pages whose policy refuses ``eval`` (the site's,
    site_hooks/guards/script_policy.py): Playwright's own evaluates its predicate with the
    page's ``eval`` on every poll after the first, which throws EvalError there. Same arguments
    and result (a handle to the truthy value); Playwright's TimeoutError when time runs out
    (``timeout`` 0: never); a navigation during the wait starts it again in the new page."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    if isinstance(timeout, timedelta):
        timeout = timeout.total_seconds() * 1000
    limit = frame._impl_obj._timeout(timeout)  # None: the page's default timeout, as Playwright's
    every = None if polling in (None, "raf") else polling
    started = time.monotonic()
    while True:
        left = limit - (time.monotonic() - started) * 1000 if limit else float("inf")
        try:
            result = frame.evaluate_handle(_POLL % expression, [arg, min(left, 2**31 - 1), every])
        except PlaywrightError as error:
            if any(reason in str(error) for reason in _NAVIGATED) and left > 0:
                time.sleep(0.05)
                continue
            raise
        if result.get_property("timedOut").json_value():
            raise PlaywrightTimeoutError(f"Timeout {limit:.0f}ms exceeded waiting for function: {expression}")
        return result.get_property("value")


def use_waits_that_keep_the_policy() -> None:
    """Makes ``Page.wait_for_function`` and ``Frame.wait_for_function`` this module's, for
    every page of the process (the browser tests and the benchmarks call it before they
    start Chromium): pages keep their Content-Security-Policy in every test (Playwright's
    ``bypass_csp`` would drop it), so a test meets what a reader's browser enforces."""
    from playwright.sync_api import Frame, Page

    def on_frame(self: Any, expression: str, **options: Any) -> Any:
        return wait_for_function(self, expression, **options)

    def on_page(self: Any, expression: str, **options: Any) -> Any:
        return wait_for_function(self.main_frame, expression, **options)

    Frame.wait_for_function = on_frame  # type: ignore[method-assign]
    Page.wait_for_function = on_page  # type: ignore[method-assign]
