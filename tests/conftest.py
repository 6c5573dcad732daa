"""What every test may use: the built site, and the tiers a test belongs to.

This file is also read inside Pyodide (tests/pyodide runs tests/unit there), where only the
standard library, pytest and hypothesis exist: the build and devtools are imported where used.

Tiers are pytest markers, given from what a test needs, never by hand:

- ``site``: the test reads the built site (the ``site_dir`` fixture), or builds a site of its
  own (``new_language`` in tests/e2e/test_new_language.py). The site is built once per test
  session with ``python -m mkdocs build --strict`` into a temporary folder, unless
  ``ATTENTION_SITE_DIR`` points at an already built ``site/`` (``./run build`` makes one).
- ``browser``: the test drives headless Chromium (the ``browser`` fixture, tests/e2e/).
- ``slow``: the unit tests again inside Pyodide under Node.js (tests/pyodide/), and the few
  native tests marked by hand that take several seconds each.

``./run check`` runs ``-m "not site and not browser and not slow"``; ``./run test`` runs all.
Pick any other tier the same way, e.g. ``./run test -m "site and not browser"``. Which folder
holds which tests, and in which tier they run: tests/README.md.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

TIERS = {
    "site": "reads the built site (ATTENTION_SITE_DIR, or a build made for the session)",
    "browser": "drives headless Chromium",
    "slow": "takes seconds to minutes: Pyodide under Node.js, long native checks",
}


SITE_FIXTURES = {"site_dir", "new_language"}

# Property tests are checked for what they find, not for how fast: on a busy two-core machine
# one example can take 300 ms and hypothesis's default 200 ms deadline would fail it.
settings.register_profile("project", deadline=None)
settings.load_profile("project")


def pytest_configure(config: pytest.Config) -> None:
    for name, meaning in TIERS.items():
        config.addinivalue_line("markers", f"{name}: {meaning}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        needs = set(getattr(item, "fixturenames", ()))
        if needs & SITE_FIXTURES:
            item.add_marker(pytest.mark.site)
        if "browser" in needs:
            item.add_marker(pytest.mark.browser)
        if "tests/pyodide/" in item.nodeid:
            item.add_marker(pytest.mark.slow)
    # Quick answers first: the native tests, then Pyodide, then the built site's HTML, then
    # the browser, so a broken unit fails in the first minute. A file moves as a whole, with
    # its slowest test (its module-scoped fixtures, such as a site built for it, are made once).
    slowest: dict[str, int] = {}
    for item in items:
        slowest[item.path] = max(slowest.get(item.path, 0), _tier_order(item))
    items.sort(key=lambda item: slowest[item.path])


def _tier_order(item: pytest.Item) -> int:
    if item.get_closest_marker("browser"):
        return 3
    if item.get_closest_marker("site"):
        return 2
    return 1 if item.get_closest_marker("slow") else 0


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from devtools.browser import build_site

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
    from devtools.static_server import serve

    with serve(site_dir) as server:
        yield server.url


@pytest.fixture(scope="session", autouse=True)
def trained_models() -> None:
    """The models and the prepared runs the build trains (and the induction run), trained once, side by side on the
    machine's cores, when the cache lacks them (a fresh clone): the first tests that draw the
    training figures would otherwise train them one after another."""
    if sys.platform == "emscripten":
        return
    from site_hooks.content.training import model_names, train_missing, train_missing_runs
    from tests.languages import LANGUAGES

    codes = [lang.code for lang in LANGUAGES]
    train_missing([name for code in codes for name in model_names(code)])
    train_missing_runs(codes)
    from site_hooks.content.induction import record_file

    record_file("run")  # the induction article's runs (two models side by side)


@pytest.fixture(autouse=True)
def build_resources() -> None:
    """Figures drawn natively (the training figures, and the tests that compare the page with
    attention_py's own answer) read the models the build trains: set for every test, not by
    an import (attention_py/resources.py). Inside Pyodide (tests/pyodide runs tests/unit
    there, with this file) there is no build, and no PyYAML to read one."""
    if sys.platform == "emscripten":
        return
    from site_hooks.content.training import use_build_resources

    use_build_resources()
