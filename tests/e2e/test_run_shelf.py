"""train_live's shelf in Chromium: two of the build's runs kept and drawn together, one saved
as a file and imported back with the same curve, the shelf back after a reload, a bad file
refused with its reason, the chart saved as SVG and PNG (attention_py/figures/README.md,
"Actions"; docs/widgets/figure-files.js)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PYTHON_READY_MS, wait_until_live
from tests.e2e.test_accessibility import AXE
from tests.e2e.test_figures_learning import root, settled, state
from tests.languages import language


def shelf(page: Page) -> dict:
    """The shelf as drawn: its run numbers and each line of its chart."""
    fig = root(page, "train_live")
    return fig.evaluate(
        """(el) => ({
            runs: [...el.querySelectorAll('.apy-shelf tr[data-run]')].map((r) => r.dataset.run),
            lines: [...el.querySelectorAll('.apy-shelf__chart polyline')].map((p) => p.getAttribute('points')),
        })"""
    )


def act(page: Page, focus_key: str) -> None:
    root(page, "train_live").locator(f'[data-focus-key="{focus_key}"]').click()
    settled(page, "train_live")


def wait_runs(page: Page, runs: list[str]) -> None:
    page.wait_for_function(
        """(want) => JSON.stringify([...document.querySelectorAll('.apy-fig--train_live .apy-shelf tr[data-run]')]
                     .map((r) => r.dataset.run)) === JSON.stringify(want)""",
        arg=runs,
        timeout=30_000,
    )


@pytest.mark.parametrize("lang", ["en", "he", "fa"])
def test_runs_kept_compared_exported_imported_and_back_after_a_reload(browser, site_url, lang, tmp_path):
    page_url = f"{site_url}/{language(lang).prefix}learning/"
    context = browser.new_context(accept_downloads=True)
    try:
        page = context.new_page()
        page.goto(f"{page_url}#train?positions=none")
        page.wait_for_function("window.attentionPy?.figures !== undefined")
        fig = root(page, "train_live")
        page.wait_for_function(
            "(el) => JSON.parse(el.dataset.state).positions === 'none'",
            arg=fig.element_handle(),
            timeout=PYTHON_READY_MS,
        )
        settled(page, "train_live")
        texts = json.loads(fig.get_attribute("data-strings"))["train_live"]
        assert shelf(page)["runs"] == []
        act(page, "shelf:keep:true")  # the build's run without positions
        wait_runs(page, ["1"])
        act(page, "positions:0")  # the site's recipe: its prepared run
        act(page, "shelf:keep:true")
        wait_runs(page, ["1", "2"])
        compared = shelf(page)
        assert len(compared["lines"]) == 2
        assert compared["lines"][0] != compared["lines"][1]
        label = fig.locator(".apy-shelf__chart").get_attribute("aria-label")
        assert label.startswith(texts["shelf_chart"].split("{")[0])
        page.add_script_tag(path=str(AXE))
        violations = page.evaluate(
            """async () => (await axe.run('.apy-fig--train_live', { resultTypes: ['violations'] })).violations
                 .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3)}`)"""
        )
        assert violations == [], "the figure with two runs kept passes axe"

        # save run 1, forget it, import the file: the same curve comes back, as run 3
        with page.expect_download() as saved:
            act(page, "shelf:export:1")
        path = Path(tmp_path) / saved.value.suggested_filename
        saved.value.save_as(path)
        assert saved.value.suggested_filename == f"run-1-{lang}.json"
        assert json.loads(path.read_text(encoding="utf-8"))["recipe"]["positions"] == "none"
        act(page, "shelf:forget:1")
        wait_runs(page, ["2"])
        fig.locator('input[type="file"][data-import]').set_input_files(str(path))
        wait_runs(page, ["2", "3"])
        assert shelf(page)["lines"] == [compared["lines"][1], compared["lines"][0]]

        # a file that is not a run: refused with its reason, the shelf as it was
        fig.locator('input[type="file"][data-import]').set_input_files(
            files=[{"name": "notes.json", "mimeType": "application/json", "buffer": b"{not json"}]
        )
        error = fig.locator(".apy-fig__error")
        expect(error).to_have_text(texts["file_not_json"], timeout=30_000)
        assert shelf(page)["runs"] == ["2", "3"]

        # the chart as SVG and as PNG
        with page.expect_download() as svg:
            act(page, "shelf:export:svg")
        assert svg.value.suggested_filename == f"runs-{lang}.svg"
        with page.expect_download() as png:
            act(page, "shelf:export:png")
        assert png.value.suggested_filename == f"runs-{lang}.png"
        png_path = Path(tmp_path) / "runs.png"
        png.value.save_as(png_path)
        assert png_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

        # a reload: the shelf comes back from the browser's storage, the same curves
        before = shelf(page)["lines"]
        page.reload()
        page.wait_for_function("window.attentionPy?.figures !== undefined")
        wait_until_live(page)
        wait_runs(page, ["1", "2"])
        assert shelf(page)["lines"] == before
        act(page, "shelf:forget:all")
        wait_runs(page, [])
        page.reload()
        page.wait_for_function("window.attentionPy?.figures !== undefined")
        wait_until_live(page)
        settled(page, "train_live")
        assert shelf(page)["runs"] == []
        assert state(page, "train_live")["step"] == 0
    finally:
        context.close()
