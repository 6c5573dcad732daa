"""MkDocs hook: the pages' math typeset by KaTeX when the site is built, not in the browser.

pymdownx.arithmatex (generic mode) leaves each formula as TeX, ``\\( \\)`` in a
``span.arithmatex`` and ``\\[ \\]`` in a ``div.arithmatex``; notebooks' Markdown cells get the
same (site_hooks/content/notebooks.py). This hook hands a page's formulas to the pinned KaTeX
(render_math.mjs, one Node.js run per page) and puts KaTeX's markup in their place: its MathML
for screen readers and its HTML for the eye. A page with math then links KaTeX's stylesheet
(its fonts come with it); no page downloads KaTeX's script (76 KB gzipped), the math is there
with the text's first paint, and a formula KaTeX cannot read fails the build, naming the page.

Why ``on_post_page``: the search index is made from the page's content before this runs, so it
keeps the formulas' TeX, which a reader can type, and not KaTeX's two copies of every symbol.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

from site_hooks import ROOT
from site_hooks.build import Build

RENDERER = Path(__file__).with_name("render_math.mjs")
STYLESHEET = "assets/katex/katex.min.css"  # published by site_hooks/assets/publish.py
_FORMULA = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.DOTALL)
_DELIMITERS = (("\\(", "\\)"), ("\\[", "\\]"), ("$$", "$$"), ("$", "$"))


def formula_source(text: str) -> str:
    """The TeX inside one of arithmatex's delimiters (its markup is HTML-escaped)."""
    tex = html.unescape(text).strip()
    for opening, closing in _DELIMITERS:
        if tex.startswith(opening) and tex.endswith(closing) and len(tex) >= len(opening) + len(closing):
            return tex[len(opening) : len(tex) - len(closing)]
    return tex


def typeset(formulas: list[tuple[str, bool]], where: str, known: dict[tuple[str, bool], str]) -> list[str]:
    """KaTeX's markup for each (tex, display mode) pair, in order; ``known`` holds the markup
    typeset so far (the build's, across its pages and languages), and gets the new."""
    missing = sorted({formula for formula in formulas if formula not in known})
    if missing:
        try:
            result = subprocess.run(
                ["node", str(RENDERER)], input=json.dumps(missing), cwd=ROOT, capture_output=True, text=True
            )
        except FileNotFoundError as error:
            raise PluginError(f"{where}: typesetting its math needs Node.js ({error})") from error
        if result.returncode:
            raise PluginError(f"{where}: KaTeX could not typeset a formula:\n{result.stderr.strip()}")
        known.update(zip(missing, json.loads(result.stdout), strict=True))
    return [known[formula] for formula in formulas]


def typeset_page(output: str, page_url: str, where: str, known: dict[tuple[str, bool], str]) -> str:
    """The page's HTML with its formulas typeset and, if it has any, KaTeX's stylesheet linked."""
    found = list(_FORMULA.finditer(output))
    if not found:
        return output
    markup = iter(typeset([(formula_source(m.group(2)), m.group(1) == "div") for m in found], where, known))
    output = _FORMULA.sub(lambda m: f'<{m.group(1)} class="arithmatex">{next(markup)}</{m.group(1)}>', output)
    return _link_stylesheet(output, get_relative_url(STYLESHEET, page_url))


def _link_stylesheet(output: str, href: str) -> str:
    """Links the stylesheet before the head's first script: after the page's other styles, and
    before the early boot starts Python's big downloads (page-boot.js preloads the wasm), which
    would otherwise share a slow connection with a stylesheet the first paint waits for."""
    head_end = output.find("</head>")
    script = output.find("<script", 0, head_end)
    at = script if script >= 0 else head_end
    return f'{output[:at]}<link rel="stylesheet" href="{href}">\n  {output[at:]}'


def on_post_page(output: str, page: Any, config: MkDocsConfig, build: Build) -> str:
    return typeset_page(output, page.url, page.file.src_uri, build.typeset)
