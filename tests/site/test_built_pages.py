"""The built pages' own markup, read from site_dir: which pages load the Python entries and
the early boot, and the page strings each page carries for its scripts."""

from __future__ import annotations

import json
import re

import pytest
from bs4 import BeautifulSoup

from tests.languages import CODES, ROOT, language
from tests.figures.support import strings


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


@pytest.mark.parametrize("lang", CODES)
def test_page_carries_the_strings_of_its_language_for_its_scripts(site_dir, lang):
    """Live cells and figures speak from the ``page`` section of the language's strings file,
    and write numbers with its digits and decimal separator (``common``)."""
    from attention_py.figures import Text

    home = BeautifulSoup((site_dir / language(lang).prefix / "index.html").read_text(encoding="utf-8"), "html.parser")
    embedded = json.loads(home.select_one("script#apy-page-strings").string)
    assert embedded == strings(lang)["page"]
    prose = Text(strings(lang), lang, "page").prose_numbers
    assert json.loads(home.select_one("script#apy-page-numbers").string) == {
        "digits": prose.digits,
        "decimal": prose.decimal,
    }


def test_every_formula_is_typeset_when_the_site_is_built(site_dir):
    """site_hooks/content/formulas.py: each formula of each page (notebooks too) is KaTeX's
    markup already, no page loads KaTeX's script, and exactly the pages with math link its
    stylesheet, once."""
    opening = re.compile(r'<(span|div) class="arithmatex">(.{0,30})', re.DOTALL)
    with_math = 0
    for html in sorted(site_dir.rglob("*.html")):
        text = html.read_text(encoding="utf-8")
        where = html.relative_to(site_dir)
        found = opening.findall(text)
        assert all(body.startswith(('<span class="katex">', '<span class="katex-display">')) for _, body in found), (
            where
        )
        assert "katex.min.js" not in text, where
        assert text.count("assets/katex/katex.min.css") == (1 if found else 0), where
        with_math += bool(found)
    assert with_math >= 3 * len(CODES), with_math  # the articles, glossary and notebooks of each language
    assert not (site_dir / "assets" / "katex" / "katex.min.js").exists()


def test_the_served_pyodide_lock_file_lists_no_package(site_dir):
    """The site serves none of Pyodide's packages, so its lock file lists none (26 KB gzipped
    less per first visit); the ABI version Pyodide checks is Pyodide's own."""
    served = json.loads((site_dir / "assets" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    shipped = json.loads((ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    assert served["packages"] == {}
    assert served["info"] == shipped["info"]
    assert not [p.name for p in (site_dir / "assets" / "pyodide").iterdir() if p.suffix in {".whl", ".tar"}]
