"""The built site as a reader meets it, in headless Chromium: languages and direction, the
language switcher, per-language search, notebooks, math in right-to-left pages, fonts, and
no missing resource. The ``page`` fixture (conftest.py) also fails any test whose page asks
another host for anything or logs an error.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest

from tests.test_figures_support import ROOT, strings

LANGUAGES = {"en": ("", "ltr"), "he": ("he/", "rtl"), "fa": ("fa/", "rtl")}
FONTS = {"en": None, "he": "Heebo", "fa": "Vazirmatn"}
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


def _language_of(path: str) -> str:
    first = path.lstrip("/").split("/", 1)[0]
    return first if first in ("he", "fa") else "en"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_home_page_has_its_language_and_direction(site_page, site_url, lang):
    prefix, direction = LANGUAGES[lang]
    site_page.goto(f"{site_url}/{prefix}")
    assert site_page.evaluate("document.documentElement.lang") == lang
    assert site_page.evaluate("document.body.dir") == direction
    assert site_page.evaluate("getComputedStyle(document.querySelector('.md-content')).direction") == direction
    footer = site_page.locator(".md-copyright").inner_text()
    assert footer.startswith("Made with") is (lang == "en"), footer  # the theme's own line too


def test_home_pages_load_no_missing_resource(page, site_url):
    """Everything the home pages load, live cells and their Python runtime included, exists.

    One page visits the three languages, so the runtime is fetched once (browser cache).
    """
    failed: list[str] = []
    page.on("response", lambda response: failed.append(f"{response.status} {response.url}") if response.status >= 400 else None)
    for prefix, _ in LANGUAGES.values():
        page.goto(f"{site_url}/{prefix}", wait_until="networkidle")
        page.wait_for_timeout(500)  # late requests of scripts that ran after network idle
    assert not failed


def test_the_not_found_page_is_english_and_leads_home_in_every_language(site_page, site_url):
    """One 404.html serves every language folder; static-i18n would leave the last language's
    (Persian) there, right to left around an English message (site_hooks/i18n/not_found.py)."""
    site_page.goto(f"{site_url}/404.html")
    assert site_page.evaluate("document.documentElement.lang") == "en"
    assert site_page.evaluate("document.body.dir") == "ltr"
    for lang, (prefix, direction) in LANGUAGES.items():
        message = site_page.locator(f".md-content p[lang='{lang}']")
        assert message.get_attribute("dir") == direction
        href = message.locator("a").get_attribute("href")
        assert href == f"/{prefix}"
        assert site_page.request.get(f"{site_url}{href}").ok


@pytest.mark.parametrize("lang", LANGUAGES)
def test_page_carries_the_strings_of_its_language_for_its_scripts(site_page, site_url, lang):
    """Live cells and figures speak from the ``page`` section of the language's strings file."""
    site_page.goto(f"{site_url}/{LANGUAGES[lang][0]}")
    embedded = json.loads(site_page.locator("#apy-page-strings").text_content())
    assert embedded == strings(lang)["page"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_text_uses_the_self_hosted_face_of_its_language(site_page, site_url, lang):
    site_page.goto(f"{site_url}/{LANGUAGES[lang][0]}", wait_until="networkidle")
    loaded = site_page.evaluate(
        "document.fonts.ready.then(fonts => [...fonts].filter(f => f.status === 'loaded').map(f => f.family))"
    )
    families = {family.strip("'\"") for family in loaded}
    expected = FONTS[lang]
    if expected is None:
        assert not families & {"Heebo", "Vazirmatn"}
    else:
        assert expected in families
        assert expected in site_page.evaluate("getComputedStyle(document.querySelector('.md-content p')).fontFamily")


@pytest.mark.parametrize(
    ("start", "target"),
    [("", "he/"), ("he/", "fa/"), ("fa/", ""), (f"he/{NOTEBOOK}", f"fa/{NOTEBOOK}"), (f"fa/{NOTEBOOK}", NOTEBOOK)],
)
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


@pytest.mark.parametrize(
    ("lang", "query"),
    [("en", "softmax"), ("he", "softmax"), ("fa", "softmax"), ("he", "מחברת"), ("fa", "سازوکار"), ("en", "notebook")],
)
def test_search_returns_pages_of_the_current_language(site_page, site_url, lang, query):
    site_page.goto(f"{site_url}/{LANGUAGES[lang][0]}")
    paths = _search(site_page, query)
    assert paths
    others = [path for path in paths if _language_of(path) != lang]
    assert not others, f"results from other languages: {others}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_notebook_is_rendered_as_a_page_with_its_outputs(site_page, site_url, lang):
    response = site_page.goto(f"{site_url}/{LANGUAGES[lang][0]}{NOTEBOOK}")
    assert response is not None and response.ok
    assert response.headers["content-type"].startswith("text/html")
    assert site_page.evaluate("document.documentElement.lang") == lang
    assert site_page.locator(".jupyter-wrapper .jp-CodeCell").count() >= 2
    # computed by a Jupyter kernel at build time, with this attention_py: what the example prints
    printed = (ROOT / "docs" / "examples" / "index" / "softmax.out").read_text(encoding="utf-8").strip()
    assert printed in site_page.locator(".jupyter-wrapper .jp-OutputArea").first.inner_text()
    assert site_page.locator("#weights-add-up-to-one").count() == 1  # the anchor shared by all languages


@pytest.mark.parametrize("lang", ["he", "fa"])
def test_math_and_code_stay_left_to_right_in_rtl_pages(site_page, site_url, lang):
    site_page.goto(f"{site_url}/{LANGUAGES[lang][0]}")
    site_page.locator(".arithmatex .katex").first.wait_for(timeout=10_000)
    directions = site_page.evaluate(
        """() => ({
            text: getComputedStyle(document.querySelector('.md-content p')).direction,
            math: [...document.querySelectorAll('.katex')].map(e => getComputedStyle(e).direction),
            code: [...document.querySelectorAll('.md-content pre')].map(e => getComputedStyle(e).direction),
        })"""
    )
    assert directions["text"] == "rtl"
    assert directions["math"] and set(directions["math"]) == {"ltr"}
    assert directions["code"] and set(directions["code"]) == {"ltr"}
    # the display formula reads left to right: the fraction comes after "softmax(z)_i ="
    formula = site_page.locator("div.arithmatex").first
    equals = formula.locator(".mrel").first.bounding_box()
    fraction = formula.locator(".mfrac").first.bounding_box()
    assert equals["x"] < fraction["x"]


def test_math_in_notebooks_is_typeset_by_katex(site_page, site_url):
    site_page.goto(f"{site_url}/he/{NOTEBOOK}")
    site_page.locator(".jupyter-wrapper .arithmatex .katex").first.wait_for(timeout=10_000)
