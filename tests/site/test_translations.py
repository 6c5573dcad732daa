"""The built site's translations, as readers meet them: every page exists in every language
(and is a real translation, not the English fallback), its language switcher leads to the
same page in the other languages, each article has the same figures and live cells in every
language, and no internal link or anchor anywhere leads nowhere.

The pages are read as HTML from the served site over HTTP (the language switcher, the
figures and the cells are all in the built markup: no browser needed).
"""

from __future__ import annotations

import html.parser
import urllib.error
import urllib.request
from pathlib import Path
from typing import ClassVar
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest
from bs4 import BeautifulSoup

from devtools.translation_status import DEFAULT_DOCS
from site_hooks.i18n.translation_checks import SOURCE_LANG, is_copy, pages
from tests.languages import DEFAULT, LANGUAGES


def page_url(source: str) -> str:
    """Site path of a page of docs/<lang>/ (directory URLs): index.md -> "", a/b.md -> "a/b/"."""
    stem = source.rsplit(".", 1)[0]
    if stem == "index":
        return ""
    return (stem[: -len("/index")] if stem.endswith("/index") else stem) + "/"


PAGES = [page_url(source) for source in pages(DEFAULT_DOCS / SOURCE_LANG)]


def _soup(url: str) -> BeautifulSoup:
    status, body, kind = _fetch(url)
    assert status == 200, f"{url}: {status}"
    assert kind == "text/html", f"{url}: {kind}"
    return BeautifulSoup(body.decode("utf-8"), "html.parser")


def test_every_english_page_is_listed() -> None:
    assert "" in PAGES
    assert "what-matters/" in PAGES
    assert "notebooks/first-steps/" in PAGES


@pytest.mark.parametrize("path", PAGES, ids=lambda path: path or "home")
def test_page_in_every_language_with_switcher_figures_and_cells(site_dir, site_url, path):
    """For one page: it exists in each built language (mkdocs.yml) as a translation - or, in
    a language still in progress, as the English fallback with its note when the page is not
    translated yet -, its switcher points at the same page in every language, and it has the
    same figures (in the same order) and the same number of live cells in each."""
    source = next(page for page in pages(DEFAULT_DOCS / SOURCE_LANG) if page_url(page) == path)
    seen = {}
    for lang in LANGUAGES:
        prefix = lang.prefix
        url = f"{site_url}/{prefix}{path}"
        page = _soup(url)
        assert page.html.get("lang") == lang.code, f"{prefix}{path}"
        fallback = len(page.select(".translation-fallback"))
        translated = lang.page_path(source).exists() and not is_copy(lang.docs, lang.code, source)
        if lang.default or not lang.in_progress or translated:
            assert fallback == 0, f"{prefix}{path} is the English fallback"
        else:
            assert fallback == 1, f"{prefix}{path}: untranslated in a language in progress, yet no note says so"

        targets = {
            link["hreflang"]: urlsplit(urljoin(url, link["href"])).path
            for link in page.select("a.md-select__link[hreflang]")
        }
        assert targets == {other.code: f"/{other.prefix}{path}" for other in LANGUAGES}, f"switcher of {prefix}{path}"

        seen[lang.code] = {
            "figures": [figure["data-figure"] for figure in page.select("div.apy-fig[data-figure]")],
            "live cells": len(page.select("div.live-cell")),
        }
    for lang in LANGUAGES[1:]:
        assert seen[lang.code] == seen[DEFAULT.code], f"{path}: {lang.name} ({lang.code}) differs from {DEFAULT.name}"


def test_articles_have_figures_and_live_cells(site_url):
    """Guards the comparison above against comparing nothing with nothing."""
    page = _soup(f"{site_url}/{LANGUAGES[-1].prefix}what-matters/")
    assert len(page.select("div.apy-fig[data-figure]")) >= 5
    assert len(page.select("div.live-cell")) >= 3


# --------------------------------------------------------------------------- links


class _Links(html.parser.HTMLParser):
    """The links of a page (href/src of a, link, script, img, source) and its element ids."""

    ATTRIBUTES: ClassVar[dict[str, str]] = {
        "a": "href",
        "link": "href",
        "script": "src",
        "img": "src",
        "source": "src",
        "iframe": "src",
    }

    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str]] = []  # (tag, url)
        self.ids: set[str] = set()
        self.shared: set[str] = set()  # ids of figures whose settings an address may name (data-share)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for key in ("id", "name") if tag == "a" else ("id",):
            if values.get(key):
                self.ids.add(values[key])
        if values.get("id") and values.get("data-share"):
            self.shared.add(values["id"])
        wanted = self.ATTRIBUTES.get(tag)
        if wanted and values.get(wanted):
            self.links.append((tag, values[wanted]))


def _fetch(url: str) -> tuple[int, bytes, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read(), response.headers.get_content_type()
    except urllib.error.HTTPError as error:
        return error.code, b"", ""


def test_no_internal_link_or_anchor_is_broken(site_dir: Path, site_url: str) -> None:
    """Every page of every language, every internal link and every #anchor it points at."""
    base = site_url + "/"
    html_pages = sorted(
        path.relative_to(site_dir).as_posix()
        for path in site_dir.rglob("*.html")
        if path.name != "404.html"  # served at any address, so its links are relative to nothing
    )
    for lang in LANGUAGES[1:]:
        assert any(p.startswith(lang.prefix) for p in html_pages), f"no page of {lang.code} was built"

    parsed: dict[str, _Links] = {}
    status: dict[str, int] = {}

    def load(url: str) -> _Links | None:
        if url not in status:
            code, body, kind = _fetch(url)
            status[url] = code
            if code == 200 and kind == "text/html":
                parser = _Links()
                parser.feed(body.decode("utf-8", "replace"))
                parsed[url] = parser
        return parsed.get(url)

    broken: list[str] = []
    for rel in html_pages:
        url = urljoin(base, rel[: -len("index.html")] if rel.endswith("index.html") else rel)
        source = load(url)
        assert source is not None, f"{url}: {status.get(url)}"
        for tag, link in source.links:
            target = urljoin(url, link)
            if urlsplit(target).scheme not in ("http", "https") or not target.startswith(base):
                continue  # mailto:, data:, and links to other sites (the guard fixture checks requests)
            address, fragment = urldefrag(target)
            address = address.split("?", 1)[0]
            target_page = load(address)
            if status[address] != 200:
                broken.append(f"{rel}: <{tag}> {link} -> {status[address]}")
            elif tag == "a" and "?" in fragment:  # a figure's settings: #train?positions=none
                figure = fragment.partition("?")[0]
                if target_page is None or figure not in target_page.shared:
                    broken.append(f"{rel}: <a> {link} -> no shareable figure with id {figure!r}")
            elif tag == "a" and fragment and (target_page is None or fragment not in target_page.ids):
                broken.append(f"{rel}: <a> {link} -> no element with id {fragment!r}")
    assert not broken, "broken links:\n" + "\n".join(sorted(set(broken)))
