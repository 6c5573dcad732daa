"""The built site as a reader meets it, in headless Chromium: the language switcher,
notebooks (each code cell's output starting where its code starts), math in right-to-left
pages, and no missing resource. Each language's face, direction, footer and 404 message are
in test_languages.py, search in test_search.py, checks of the HTML alone in tests/site/.
The ``page`` fixture (conftest.py) also fails any test whose page asks another host for
anything or logs an error.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.figures.support import ROOT
from tests.languages import CODES, LANGUAGES, language, language_of_path

# The languages come from mkdocs.yml (tests/languages.py), with what each test needs to know
# about them derived from their own files.
RIGHT_TO_LEFT = [lang.code for lang in LANGUAGES if lang.direction == "rtl"]
NOTEBOOK = "notebooks/first-steps/"


@pytest.fixture
def site_page(page):
    """``page`` without the live cells' Python runtime, for the tests that are not about it.

    Booting Pyodide costs seconds of CPU per page; those tests check the site around it.
    The home-page resource test uses the full ``page``.
    """
    page.route("**/assets/widgets/live-cells.js", lambda route: route.fulfill(body="", content_type="text/javascript"))
    return page


def _path(url: str) -> str:
    return urlsplit(url).path


_language_of = language_of_path


def test_home_pages_load_no_missing_resource(page, site_url):
    """Everything the home pages load, live cells and their Python runtime included, exists.

    One page visits every language, so the runtime is fetched once (browser cache).
    """
    failed: list[str] = []
    page.on(
        "response",
        lambda response: failed.append(f"{response.status} {response.url}") if response.status >= 400 else None,
    )
    for lang in LANGUAGES:
        page.goto(f"{site_url}/{lang.prefix}", wait_until="networkidle")
        page.wait_for_timeout(500)  # late requests of scripts that ran after network idle
    assert not failed


def _switches() -> list[tuple[str, str]]:
    """Home to home around every language (en -> he -> fa -> en), and a notebook from each
    translation to the next one, the last back to the default language."""
    homes = [lang.prefix for lang in LANGUAGES]
    pairs = list(zip(homes, homes[1:] + homes[:1]))
    translations = [f"{lang.prefix}{NOTEBOOK}" for lang in LANGUAGES[1:]]
    return pairs + list(zip(translations, [*translations[1:], NOTEBOOK]))


@pytest.mark.parametrize(("start", "target"), _switches())
def test_language_switcher_leads_to_the_same_page_in_the_other_language(site_page, site_url, start, target):
    site_page.goto(f"{site_url}/{start}")
    target_lang = _language_of(target)
    site_page.locator(".md-header__option .md-select").hover()
    site_page.locator(f".md-select__link[hreflang='{target_lang}']").click()
    site_page.wait_for_load_state()
    assert _path(site_page.url) == f"/{target}"
    assert site_page.evaluate("document.documentElement.lang") == target_lang


@pytest.mark.parametrize("lang", CODES)
def test_notebook_is_rendered_as_a_page_with_its_outputs(site_page, site_url, lang):
    response = site_page.goto(f"{site_url}/{language(lang).prefix}{NOTEBOOK}")
    assert response is not None
    assert response.ok
    assert response.headers["content-type"].startswith("text/html")
    assert site_page.evaluate("document.documentElement.lang") == lang
    assert site_page.locator(".jupyter-wrapper .jp-CodeCell").count() >= 2
    # computed by a Jupyter kernel at build time, with this attention_py: what the example prints
    printed = (ROOT / "docs" / "examples" / "index" / "softmax.out").read_text(encoding="utf-8").strip()
    assert printed in site_page.locator(".jupyter-wrapper .jp-OutputArea").first.inner_text()
    assert site_page.locator("#weights-add-up-to-one").count() == 1  # the anchor shared by all languages


@pytest.mark.parametrize("lang", RIGHT_TO_LEFT)
def test_math_and_code_stay_left_to_right_in_rtl_pages(site_page, site_url, lang):
    site_page.goto(f"{site_url}/{language(lang).prefix}")
    site_page.locator(".arithmatex .katex").first.wait_for(timeout=10_000)
    directions = site_page.evaluate(
        """() => ({
            text: getComputedStyle(document.querySelector('.md-content p')).direction,
            math: [...document.querySelectorAll('.katex')].map(e => getComputedStyle(e).direction),
            code: [...document.querySelectorAll('.md-content pre')].map(e => getComputedStyle(e).direction),
        })"""
    )
    assert directions["text"] == "rtl"
    assert directions["math"]
    assert set(directions["math"]) == {"ltr"}
    assert directions["code"]
    assert set(directions["code"]) == {"ltr"}
    # the display formula reads left to right: the fraction comes after "softmax(z)_i ="
    formula = site_page.locator("div.arithmatex").first
    equals = formula.locator(".mrel").first.bounding_box()
    fraction = formula.locator(".mfrac").first.bounding_box()
    assert equals["x"] < fraction["x"]


def test_math_in_notebooks_is_typeset_by_katex(site_page, site_url):
    site_page.goto(f"{site_url}/{language(RIGHT_TO_LEFT[0]).prefix}{NOTEBOOK}")
    site_page.locator(".jupyter-wrapper .arithmatex .katex").first.wait_for(timeout=10_000)


_ALIGNMENT = """() => {
  const firstCharLeft = (root) => {
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
      acceptNode: (node) => node.data.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP,
    });
    const text = walk.nextNode();
    const range = document.createRange();
    const start = text.data.search(/\\S/);
    range.setStart(text, start);
    range.setEnd(text, start + 1);
    return range.getBoundingClientRect().left;
  };
  return [...document.querySelectorAll('.jupyter-wrapper .jp-CodeCell[id]')]
    .filter((cell) => cell.querySelector('.jp-OutputArea-output'))
    .map((cell) => {
      const editor = cell.querySelector('.jp-InputArea-editor');
      const output = cell.querySelector('.jp-OutputArea-output');
      return {
        cell: cell.id,
        box: output.getBoundingClientRect().left - editor.getBoundingClientRect().left,
        text: firstCharLeft(output) - firstCharLeft(editor.querySelector('pre')),
      };
    });
}"""


@pytest.mark.parametrize("lang", CODES)
def test_notebook_outputs_line_up_with_their_code(page, site_url, lang):
    """Printed output (no "Out[n]:") and results (with one) start where the code starts."""
    page.route("**/assets/widgets/live-cells.js", lambda route: route.fulfill(body="", content_type="text/javascript"))
    for width in (1200, 600):  # desktop, and a phone, where the prompts are hidden
        page.set_viewport_size({"width": width, "height": 900})
        for name in ("first-steps", "what-matters"):
            page.goto(f"{site_url}/{language(lang).prefix}notebooks/{name}/")
            rows = page.evaluate(_ALIGNMENT)
            assert rows, f"{lang} {name}: no code cell with output"
            off = [row for row in rows if abs(row["box"]) > 0.5 or abs(row["text"]) > 0.5]
            assert not off, f"{lang} {name} at {width}px: output left of code by (box, text) px: {off}"
