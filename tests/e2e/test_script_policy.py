"""The pages under their Content-Security-Policy in Chromium: no inline script but by its hash,
no eval (site_hooks/guards/script_policy.py; the built markup: tests/site/test_script_policy.py).

Every built page is opened in one context and must report no ``securitypolicyviolation``
and log no error (a refused script logs one). Python is held back there (its start is the
same on every page); it runs on the articles in every language below, where a cell runs,
a figure redraws and reader code that asks the browser to evaluate JavaScript is refused.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PYTHON_READY_MS, RECORD_UPDATES, PageGuard, PythonGate, start_without_earlier_edits
from tests.languages import CODES, language

# Before any page script: every violation the document reports, kept for the test.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => window.__violations.push(
  `${event.effectiveDirective} refused ${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber}: ${event.sample}`));
"""
ARTICLE = "what-matters/"  # live cells and figures, in every language


def violations(page: Page) -> list[str]:
    page.evaluate("new Promise((settled) => setTimeout(settled, 50))")  # reports are queued as tasks
    return page.evaluate("window.__violations")


@pytest.fixture
def guarded(browser) -> Iterator[tuple[Page, PageGuard]]:
    context = browser.new_context()
    guard = PageGuard(context)
    page = guard.watch(context.new_page())
    page.add_init_script(RECORD_VIOLATIONS)
    yield page, guard
    context.close()


def test_every_page_runs_under_its_policy(guarded, site_dir, site_url):
    page, guard = guarded
    PythonGate(page)  # never released: pages with Python run everything up to its start
    paths = sorted(html.relative_to(site_dir).as_posix() for html in site_dir.rglob("*.html"))
    refused = {}
    for path in paths:
        page.goto(f"{site_url}/{path.removesuffix('index.html')}")
        page.wait_for_function("typeof document$ !== 'undefined'")  # Material's bundle ran
        if path.endswith("notebooks/first-steps/index.html"):  # mkdocs-jupyter's own scripts too
            page.locator(".jupyter-wrapper").first.wait_for()
        if path.removesuffix("index.html") in {language(code).prefix for code in CODES}:
            page.locator("input.md-search__input").click()  # search: Material's worker and lunr
            page.locator("input.md-search__input").fill("Python")
            page.locator("input.md-search__input").press("End")
            page.locator(".md-search-result__item").first.wait_for(timeout=10_000)
            page.keyboard.press("Escape")
        if found := violations(page):
            refused[path] = found
    assert not refused, refused
    guard.check()
    assert len(paths) >= 40, paths


@pytest.mark.parametrize("lang", CODES)
def test_cells_run_and_figures_redraw_under_the_policy_and_eval_is_refused(guarded, site_url, lang):
    page, guard = guarded
    start_without_earlier_edits(page)
    page.add_init_script(RECORD_UPDATES)
    page.goto(f"{site_url}/{language(lang).prefix}{ARTICLE}")
    page.locator(".live-cell--mounted").first.wait_for()
    page.evaluate("attentionPy.session.start()")
    page.wait_for_function("attentionPy.session.state === 'ready'", timeout=PYTHON_READY_MS)
    cell = page.locator(".live-cell").first
    cell.locator(".live-cell__run").click()
    page.wait_for_function("document.querySelector('.live-cell').dataset.busy === ''", timeout=PYTHON_READY_MS)
    expect(cell.locator(".live-cell__output")).not_to_be_empty()
    assert "Error" not in cell.locator(".live-cell__output").inner_text()

    page.wait_for_function("attentionPy.figures?.hosts?.length > 0 && document.querySelector('.apy-fig[data-live]')")
    slider = page.locator(".apy-fig[data-live] input[type=range]").first
    slider.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("window.__figureUpdates.length > 0", timeout=PYTHON_READY_MS)

    # The reader's Python inherits the policy: no JavaScript from a string, by eval or Function.
    page.locator(".live-cell .cm-content").first.click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.insert_text(
        'import js\ntry:\n    js.eval("1 + 1")\nexcept Exception as e:\n    print(type(e).__name__, e)'
    )
    cell.locator(".live-cell__run").click()
    page.wait_for_function("document.querySelector('.live-cell').dataset.busy === ''", timeout=PYTHON_READY_MS)
    refused = cell.locator(".live-cell__output").inner_text()
    assert "EvalError" in refused, refused
    assert "Content Security Policy" in refused, refused
    cell.locator(".live-cell__reset").click()

    assert violations(page) == []
    guard.check()
