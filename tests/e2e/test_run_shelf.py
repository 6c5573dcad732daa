"""train_live's shelf in Chromium: two of the build's runs kept and drawn together, one saved
as a file and imported back with the same curve, the shelf back after a reload, a bad file
refused with its reason, the chart saved as SVG and PNG (attention_py/figures/README.md,
"Actions"; docs/widgets/figures/figure-files.js)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PYTHON_READY_MS, add_test_script, wait_until_live
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
        add_test_script(page, AXE)
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


# --- hostile files and text (issue 43) -----------------------------------------------------------

# The page's tasks of 50 ms or more from the moment a file is chosen (its input's change event)
# to the moment its refusal is shown: what the page does to read it, send it and say why.
LONG_TASKS = """(error) => {
    window.__chosenAt = window.__shownAt = Infinity;
    window.__longTasks = [];
    document.addEventListener("change", () => (window.__chosenAt = performance.now()), { capture: true, once: true });
    new MutationObserver((_, observer) => {
        window.__shownAt = performance.now();
        observer.disconnect();
    }).observe(error, { childList: true, characterData: true, subtree: true });
    new PerformanceObserver((list) => window.__longTasks.push(...list.getEntries())).observe({ type: "longtask" });
}"""
LONGEST_WHILE_READ = """Math.max(0, ...window.__longTasks
    .filter((t) => t.startTime >= window.__chosenAt && t.startTime <= window.__shownAt)
    .map((t) => t.duration))"""


def hostile_files(lang: str) -> dict[str, tuple[str, str, dict]]:
    """Name -> (the file's text, the string that refuses it, what fills that string)."""
    from tests.figures.test_run_shelf import a_prepared_file

    infinite = a_prepared_file(lang)
    infinite["history"][-1]["loss"] = float("inf")
    last = len(infinite["history"]) - 1
    long_language = {**a_prepared_file(lang), "language": "\u202e" + "x" * 900_000}
    almost_a_megabyte = '{"format":"' + "x" * (999_999 - 13) + '"}'
    assert len(almost_a_megabyte) == 999_999
    return {
        "nested 400,000 levels": ('{"format":' + "[" * 400_000 + "]" * 400_000 + "}", "file_too_deep", {"limit": 32}),
        "an infinite last loss": (
            json.dumps(infinite),
            "file_not_finite",
            {"part": f"\u2068history[{last}].loss\u2069"},
        ),
        "a 900 KB language": (
            json.dumps(long_language),
            "file_language",
            {"language": "\u2068" + "x" * 32 + "…\u2069"},
        ),
        "999,999 characters": (almost_a_megabyte, "file_not_run", {}),
    }


def said(texts: dict, key: str, values: dict, digits: str) -> str:
    """A refusal as the page's Python writes it: counts in the language's digits."""
    written = {
        k: str(v).translate(str.maketrans("0123456789", digits)) if isinstance(v, int) else v for k, v in values.items()
    }
    return texts[key].format(**written)


def choose(fig, folder: Path, name: str, text: str) -> None:
    """Chooses a file of ``text`` in the shelf's file input, as a reader does (from the disk:
    a file given to Playwright as bytes is built in the page's thread, a long task of its own)."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    fig.locator('input[type="file"][data-import]').set_input_files(str(path))


@pytest.mark.parametrize("lang", ["en", "he"])
def test_hostile_files_are_refused_saying_why_and_pythons_session_lives(browser, site_url, lang, tmp_path):
    from tests.e2e.test_reliability import run_cell, type_code
    from tests.figures.test_run_shelf import a_prepared_file

    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{site_url}/{language(lang).prefix}learning/#train")
        page.wait_for_function("window.attentionPy?.figures !== undefined")
        wait_until_live(page)
        type_code(page, 0, "kept_before = 6 * 7\nprint('defined')")
        assert run_cell(page, 0).strip() == "defined"
        fig = root(page, "train_live")
        strings = json.loads(fig.get_attribute("data-strings"))
        texts, digits = strings["train_live"], strings["common"]["digits"]
        error = fig.locator(".apy-fig__error")
        longest = {}
        for name, (text, key, values) in hostile_files(lang).items():
            error.evaluate("(el) => (el.textContent = '')")
            error.evaluate(LONG_TASKS)
            choose(fig, tmp_path, f"{key}-{len(text)}.json", text)
            # Waited for in the page, not by Playwright's locator checks: those run on the
            # page's thread too, and took 50-70 ms there, as long tasks of the page's own.
            page.wait_for_function("window.__shownAt !== Infinity", timeout=30_000)
            longest[name] = page.evaluate(LONGEST_WHILE_READ)
            expect(error).to_have_text(said(texts, key, values, digits), timeout=30_000)
            assert shelf(page)["runs"] == []
        print(f"\nlongest task while a hostile file was refused ({lang}): {longest}")
        assert longest["999,999 characters"] < 50, "reading and sending a file just under the limit"

        # imports that are not the site's run: listed, and said so; the figure is not wedged
        genuine = a_prepared_file(lang)
        claimed = {**genuine, "recipe": {**genuine["recipe"], "seed": 1}}
        forged = json.loads(json.dumps(genuine))
        forged["step_losses"][0] *= 1.5
        for i, file in enumerate((claimed, forged, genuine), start=1):
            choose(fig, tmp_path, f"run-{i}.json", json.dumps(file))
            wait_runs(page, [str(n) for n in range(1, i + 1)])
        origins = fig.locator(".apy-shelf__origin").all_inner_texts()
        assert origins == [texts["shelf_origin_imported"], texts["shelf_origin_differs"]]
        act(page, "positions:1")  # the figure still draws
        assert state(page, "train_live")["positions"] != genuine["recipe"]["positions"]

        # the same Python all along: the cell's definition is still there
        type_code(page, 0, "print(kept_before)")
        assert run_cell(page, 0).strip() == "42"
    finally:
        context.close()
