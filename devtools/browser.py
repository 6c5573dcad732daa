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
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
