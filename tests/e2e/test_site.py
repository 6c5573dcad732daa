"""The built site as a reader meets it, in headless Chromium: languages and direction, the
language switcher, per-language search, notebooks, math in right-to-left pages, fonts, and
no missing resource. The ``page`` fixture (conftest.py) also fails any test whose page asks
another host for anything or logs an error.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest

from tests.languages import CODES, DEFAULT, LANGUAGES, language, language_of_path
from tests.test_figures_support import ROOT, strings

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


def test_languages_are_read_from_mkdocs_yml():
    """Guards every parametrized test below against checking nothing."""
    assert len(CODES) >= 2, CODES
    assert DEFAULT.prefix == "", CODES
    assert RIGHT_TO_LEFT, CODES


@pytest.mark.parametrize("lang", CODES)
def test_home_page_has_its_language_and_direction(site_page, site_url, lang):
    """The direction expected is the one the language's own home page is written in."""
    direction = language(lang).direction
    site_page.goto(f"{site_url}/{language(lang).prefix}")
    assert site_page.evaluate("document.documentElement.lang") == lang
    assert site_page.evaluate("document.body.dir") == direction
    assert site_page.evaluate("getComputedStyle(document.querySelector('.md-content')).direction") == direction


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


def test_python_entries_and_early_boot_are_on_exactly_the_pages_with_a_cell_or_figure(site_dir):
    """docs/overrides/main.html is the one place the entries are listed: each page with a
    live cell or a figure loads its entry once, async, with the early boot in <head>; the
    other pages load no Python code at all."""
    entry = re.compile(r'<script type="module" async src="[^"]*assets/widgets/(live-cells|figures)\.js"></script>')
    counted = {"cells": 0, "figures": 0, "plain": 0}
    for html in sorted(site_dir.rglob("*.html")):
        text = html.read_text(encoding="utf-8")
        cells = 'data-live-cell="' in text
        figures = re.search(r'class="apy-fig[^"]*"[^>]*\sdata-figure="', text) is not None
        loaded = entry.findall(text)
        where = html.relative_to(site_dir)
        assert sorted(loaded) == sorted(["live-cells"] * cells + ["figures"] * figures), (where, loaded)
        assert ("attentionPyBoot" in text) == (cells or figures), where
        assert not re.search(r"<script[^>]*assets/widgets/(live-cells|figures)\.js", entry.sub("", text)), where
        counted["cells"] += cells
        counted["figures"] += figures
        counted["plain"] += not (cells or figures)
    assert all(counted.values()), counted  # the check met each kind of page


def test_the_not_found_page_is_english_and_leads_home_in_every_language(site_page, site_url):
    """One 404.html serves every language folder; static-i18n would leave the last language's
    (Persian) there, right to left around an English message (site_hooks/i18n/not_found.py)."""
    site_page.goto(f"{site_url}/404.html")
    assert site_page.evaluate("document.documentElement.lang") == "en"
    assert site_page.evaluate("document.body.dir") == "ltr"
    for lang in LANGUAGES:
        message = site_page.locator(f".md-content p[lang='{lang.code}']")
        assert message.get_attribute("dir") == lang.direction
        href = message.locator("a").get_attribute("href")
        assert href == f"/{lang.prefix}"
        assert site_page.request.get(f"{site_url}{href}").ok


@pytest.mark.parametrize("lang", CODES)
def test_page_carries_the_strings_of_its_language_for_its_scripts(site_page, site_url, lang):
    """Live cells and figures speak from the ``page`` section of the language's strings file."""
    site_page.goto(f"{site_url}/{language(lang).prefix}")
    embedded = json.loads(site_page.locator("#apy-page-strings").text_content())
    assert embedded == strings(lang)["page"]


def _self_hosted_families(site_dir) -> set[str]:
    css = (site_dir / "assets" / "fonts" / "fonts.css").read_text(encoding="utf-8")
    return set(re.findall(r"font-family:\s*['\"]([^'\"]+)['\"]", css))


@pytest.mark.parametrize("lang", CODES)
def test_text_uses_the_self_hosted_face_of_its_language(site_page, site_url, site_dir, lang):
    """A translation's text is set in a face the site hosts itself (assets/fonts/), and that
    face is loaded; faces of other languages are not downloaded."""
    site_page.goto(f"{site_url}/{language(lang).prefix}", wait_until="networkidle")
    loaded = site_page.evaluate(
        "document.fonts.ready.then(fonts => [...fonts].filter(f => f.status === 'loaded').map(f => f.family))"
    )
    families = {family.strip("'\"") for family in loaded}
    hosted = _self_hosted_families(site_dir)
    first = site_page.evaluate("getComputedStyle(document.querySelector('.md-content p')).fontFamily")
    first = first.split(",")[0].strip().strip("'\"")
    if lang != DEFAULT.code:
        assert first in hosted, (
            f"language {lang!r}: its text is set in {first!r}, not in a self-hosted face "
            f"({', '.join(sorted(hosted))}); give it one (see docs/en/translate.md)"
        )
    if first in hosted:
        assert first in families, f"{first} is declared but was not loaded"
    assert families & hosted <= {first}, f"faces of other languages were loaded: {families & hosted - {first}}"


@pytest.mark.parametrize("lang", CODES)
def test_footer_says_made_with_in_the_language(site_page, site_url, lang):
    """The theme's own footer line speaks the page's language (its entry's extra.made_with)."""
    expected = language(lang).text("made_with")
    site_page.goto(f"{site_url}/{language(lang).prefix}")
    assert site_page.locator(".md-copyright").inner_text().strip().startswith(expected.strip())


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


def _search(page, query: str) -> list[str]:
    field = page.locator("input.md-search__input")
    field.click()  # the default viewport is a desktop one: the field is in the header
    field.fill(query)
    field.press("End")  # Material searches on keyup; typing Hebrew or Persian sends none
    results = page.locator(".md-search-result__list a.md-search-result__link")
    results.first.wait_for(timeout=10_000)
    return [_path(href) for href in results.evaluate_all("links => links.map(a => a.href)")]


# "softmax" is on pages of every language; the other word is the language's own, taken from
# its home page's title (tests/languages.py), so it is found only in its own pages.
SEARCHES = [(code, "softmax") for code in CODES] + [(lang.code, lang.search_word) for lang in LANGUAGES]


@pytest.mark.parametrize(("lang", "query"), SEARCHES)
def test_search_returns_pages_of_the_current_language(site_page, site_url, lang, query):
    site_page.goto(f"{site_url}/{language(lang).prefix}")
    paths = _search(site_page, query)
    assert paths
    others = [path for path in paths if _language_of(path) != lang]
    assert not others, f"results from other languages: {others}"


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
