"""Every language that mkdocs.yml builds, as its readers meet it, read from its entry there
(never a list of codes here): its text in the face its entry declares, drawn from the
self-hosted file rather than a fallback; its code in the site's code face, self-hosted too;
the page and its figures in the direction of its code; its footer; and its message on the
site's one 404 page, leading to its home page.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from mkdocs.config import load_config

from site_hooks.assets.vendored import code_face
from site_hooks.i18n import languages

ROOT = Path(__file__).resolve().parents[2]
PYTHON_STARTERS = ("**/assets/widgets/live-cells.js", "**/assets/widgets/figures.js")
FIGURE_PAGE = "gallery/"  # every figure, prerendered


def _built() -> list[tuple[languages.SiteLanguage, dict]]:
    config = load_config(str(ROOT / "mkdocs.yml"))
    english = languages.texts_of(config.extra)
    entries = {entry.locale: entry for entry in languages.built_entries(config)}
    return [
        (language, {**english, **languages.texts_of(entries[language.locale].extra or {})})
        for language in languages.site_languages(config)
    ]


BUILT = _built()
IDS = [language.locale for language, _ in BUILT]
# One language of each direction: the code face is one for all, so two are enough.
ONE_PER_DIRECTION = list({language.direction: (language, texts) for language, texts in reversed(BUILT)}.values())
CODE_PAGE = "what-matters/"  # live cells, and code blocks that are not live
NOTEBOOK_PAGE = "notebooks/first-steps/"


def test_mkdocs_yml_builds_more_than_one_language():
    """Guards the tests below against checking nothing."""
    assert len(BUILT) >= 2
    assert any(language.direction == "rtl" for language, _ in BUILT)


@pytest.fixture
def quiet_page(page):
    """``page`` without the Python runtime: these tests are about the page around it."""
    for pattern in PYTHON_STARTERS:
        page.route(pattern, lambda route: route.fulfill(body="", content_type="text/javascript"))
    return page


def _first_family(css_value: str) -> str:
    return css_value.split(",")[0].strip().strip("'\"")


def _glyphs_by_font(page, selector: str, *, descendants: bool = False) -> dict[str, int]:
    """Which fonts Chromium actually drew the element's own text with (and, with
    ``descendants``, the text of the elements inside it): family -> glyphs."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    assert node, f"no element {selector}"
    nodes = [node]
    if descendants:
        nodes += cdp.send("DOM.querySelectorAll", {"nodeId": node, "selector": "*"})["nodeIds"]
    drawn: dict[str, int] = {}
    for each in nodes:
        for font in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": each})["fonts"]:
            name = font["familyName"] if font.get("isCustomFont") else f"(system) {font['familyName']}"
            drawn[name] = drawn.get(name, 0) + font["glyphCount"]
    return drawn


def _face_files(fetched: list[tuple[int, str]], face) -> list[tuple[int, str]]:
    """The responses for ``face``'s woff2 files (noto-sans-latin-..., not noto-sans-mono-latin-...)."""
    pattern = re.compile(rf"/assets/fonts/{re.escape(face.name)}-({'|'.join(face.subsets)})-\d+-normal\.woff2$")
    return [(status, url) for status, url in fetched if pattern.search(url)]


@pytest.mark.parametrize(("language", "texts"), BUILT, ids=IDS)
def test_body_text_is_drawn_in_the_declared_face_from_its_self_hosted_file(quiet_page, site_url, language, texts):
    fetched: list[tuple[int, str]] = []
    quiet_page.on("response", lambda r: fetched.append((r.status, r.url)) if "/assets/fonts/" in r.url else None)
    quiet_page.goto(f"{site_url}/{language.home}", wait_until="networkidle")
    quiet_page.evaluate("document.fonts.ready.then(() => true)")
    selector = ".md-content .md-typeset > p"
    family = quiet_page.evaluate(f"getComputedStyle(document.querySelector({json.dumps(selector)})).fontFamily")
    assert _first_family(family) == language.face.family, family
    drawn = _glyphs_by_font(quiet_page, selector)
    assert set(drawn) == {language.face.family}, f"{language.locale}: the paragraph was drawn with {drawn}"
    files = _face_files(fetched, language.face)
    assert files, fetched
    assert all(status == 200 for status, _ in files), fetched
    others = {other.face for other, _ in BUILT if other.face.name != language.face.name}
    assert not [file for face in others for file in _face_files(fetched, face)], (
        f"{language.locale}: faces of other languages were downloaded: {fetched}"
    )


def _code_is_in_the_face(page, selector: str, family: str) -> None:
    """``selector``'s computed font is ``family`` first, and Chromium drew every ASCII letter
    and digit of it in that face: only other scripts (a Hebrew string) may fall back."""
    css = page.evaluate(f"getComputedStyle(document.querySelector({json.dumps(selector)})).fontFamily")
    assert _first_family(css) == family, f"{selector}: {css}"
    text = page.evaluate(f"document.querySelector({json.dumps(selector)}).textContent")
    drawn = _glyphs_by_font(page, selector, descendants=True)
    ascii_glyphs = sum(c.isascii() and c.isalnum() for c in text)
    assert ascii_glyphs, f"{selector} has no code to draw: {text!r}"
    assert drawn.get(family, 0) >= ascii_glyphs, f"{selector} ({text[:60]!r}) was drawn with {drawn}"
    assert sum(n for name, n in drawn.items() if name != family) <= sum(not c.isascii() for c in text), drawn


@pytest.mark.parametrize(("language", "texts"), ONE_PER_DIRECTION, ids=[lang.locale for lang, _ in ONE_PER_DIRECTION])
def test_code_is_drawn_in_the_code_face_from_its_self_hosted_file(page, site_url, language, texts):
    """The live cells' editor and output, a code block and a notebook cell: every monospace
    on the page is the site's code face (assets/fonts/fonts.css), fetched from the site."""
    face = code_face()
    fetched: list[tuple[int, str]] = []
    page.on("response", lambda r: fetched.append((r.status, r.url)) if "/assets/fonts/" in r.url else None)
    page.goto(f"{site_url}/{language.home}{CODE_PAGE}")
    cell = page.locator(".live-cell").first
    cell.locator(".cm-editor .cm-line").first.wait_for()
    cell.locator(".live-cell__run").click()
    cell.locator(".live-cell__output pre:not(:empty)").first.wait_for(timeout=60_000)
    page.evaluate("document.fonts.ready.then(() => true)")
    _code_is_in_the_face(page, ".live-cell .cm-editor .cm-line", face.family)
    _code_is_in_the_face(page, ".live-cell .live-cell__output pre:not(:empty)", face.family)
    _code_is_in_the_face(page, ".md-content .highlight:not(.live-cell__code) pre code", face.family)
    inline = page.evaluate("getComputedStyle(document.querySelector('.md-content p code')).fontFamily")
    assert _first_family(inline) == face.family, inline

    page.goto(f"{site_url}/{language.home}{NOTEBOOK_PAGE}", wait_until="networkidle")
    page.evaluate("document.fonts.ready.then(() => true)")
    _code_is_in_the_face(page, ".jupyter-wrapper .jp-CodeCell .highlight-ipynb pre", face.family)
    for selector in (".jupyter-wrapper .jp-InputPrompt", ".jupyter-wrapper .jp-OutputArea-output pre"):
        family = page.evaluate(f"getComputedStyle(document.querySelector({json.dumps(selector)})).fontFamily")
        assert _first_family(family) == face.family, f"{selector}: {family}"

    files = _face_files(fetched, face)
    assert files, f"the code face was not fetched from the site: {fetched}"
    assert all(status == 200 and url.startswith(site_url) for status, url in files), files


@pytest.mark.parametrize(("language", "texts"), BUILT, ids=IDS)
def test_page_and_figures_take_the_direction_of_the_language_code(quiet_page, site_url, language, texts):
    quiet_page.goto(f"{site_url}/{language.home}{FIGURE_PAGE}")
    assert quiet_page.evaluate("document.documentElement.lang") == language.locale
    assert quiet_page.evaluate("document.body.dir") == language.direction
    assert (
        quiet_page.evaluate("getComputedStyle(document.querySelector('.md-content')).direction") == language.direction
    )
    figures = quiet_page.eval_on_selector_all(
        "div.apy-fig[data-figure]", "els => els.map(e => [e.dir, JSON.parse(e.dataset.strings).common.direction])"
    )
    assert figures, "the gallery shows figures"
    assert {tuple(pair) for pair in figures} == {(language.direction, language.direction)}, (
        "prerendered figures and the strings the live redraw uses follow the page"
    )


@pytest.mark.parametrize(("language", "texts"), BUILT, ids=IDS)
def test_footer_says_made_with_in_the_language(quiet_page, site_url, language, texts):
    quiet_page.goto(f"{site_url}/{language.home}")
    footer = quiet_page.locator(".md-copyright").inner_text().strip()
    assert footer.startswith(texts["made_with"].strip()), footer


def _markdown_text(text: str) -> str:
    """What a reader sees of a one-line Markdown text: links become their words."""
    return re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).strip()


def test_the_not_found_page_leads_every_language_home_in_its_own_words(quiet_page, site_url):
    quiet_page.goto(f"{site_url}/404.html", wait_until="networkidle")
    quiet_page.evaluate("document.fonts.ready.then(() => true)")
    default = next(language for language, _ in BUILT if language.default)
    assert quiet_page.evaluate("document.documentElement.lang") == default.locale
    assert quiet_page.evaluate("document.body.dir") == default.direction
    for language, texts in BUILT:
        message = quiet_page.locator(f".md-content .not-found p[lang='{language.locale}']")
        assert message.count() == 1, f"no message for {language.locale}"
        assert message.get_attribute("dir") == language.direction
        assert message.inner_text().strip() == _markdown_text(texts["not_found"])
        href = message.locator("a").get_attribute("href")
        assert href == f"/{language.home}"
        assert quiet_page.request.get(f"{site_url}{href}").ok
        family = message.evaluate("e => getComputedStyle(e).fontFamily")
        assert _first_family(family) == language.face.family, f"{language.locale}: {family}"
