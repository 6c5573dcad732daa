"""The gallery page: every figure's section, written by the build from the registry and the strings.

``docs/<lang>/gallery.md`` holds its introduction and ``MARKER``; in the page's Markdown the
marker becomes one section per figure of ``attention_py.figures.FIGURES``, in the order a
reader meets them in the site's navigation (``reading_order``; a figure no page shows yet, a
new one, comes last):

    ## <gallery_headings.NAME> { #NAME-with-dashes }

    <gallery_lines.NAME>

    ```figure name="NAME" id="..."
    ```

The heading and the line come from the language's strings file (``docs/figure-strings/<lang>.yml``,
sections ``gallery_headings`` and ``gallery_lines``, one key per figure: the strings check
requires them), so a new figure is in every language's gallery as soon as it is registered,
and a translator translates its two lines where its other words are. The anchor is the
figure's name, the same in every language; the fence takes the ``id`` the English articles
give the figure (``train`` for train_live: its shareable address ``#train?...`` works on the
gallery too).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

from attention_py.figures import FIGURES
from site_hooks import ROOT
from site_hooks.content import figures

MARKER = "<!-- gallery: the build writes every figure's section here (site_hooks/content/gallery.py) -->"
SOURCE_DOCS = ROOT / "docs" / "en"  # the articles whose fences give a figure its id

_FENCE = re.compile(r'^```figure name="(?P<name>\w+)"(?: id="(?P<id>[a-z][a-z0-9-]*)")?', re.MULTILINE)


def anchor_of(name: str) -> str:
    """The gallery section's anchor for figure ``name`` ("attention-heatmap")."""
    return name.replace("_", "-")


@cache
def article_ids() -> dict[str, str]:
    """The id each figure's first fence with one has in the English articles: figure -> id."""
    ids: dict[str, str] = {}
    for page in sorted(SOURCE_DOCS.glob("*.md")):
        if page.name != "gallery.md":
            for fence in _FENCE.finditer(page.read_text(encoding="utf-8")):
                if fence["id"]:
                    ids.setdefault(fence["name"], fence["id"])
    return ids


def nav_pages(nav: Any) -> list[str]:
    """The pages of mkdocs.yml's ``nav`` in order: "index.md", "what-matters.md", ..."""
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in nav_pages(value)]
    if isinstance(nav, list):
        return [page for item in nav for page in nav_pages(item)]
    return []


def reading_order(nav: Any) -> list[str]:
    """Every figure, in the order a reader meets its first fence in the English pages of ``nav``
    (the gallery's own aside), then those no page shows yet in the registry's order."""
    met = []
    for page in nav_pages(nav):
        path = SOURCE_DOCS / page
        if page != "gallery.md" and path.suffix == ".md" and path.is_file():
            met += [fence["name"] for fence in _FENCE.finditer(path.read_text(encoding="utf-8"))]
    return list(dict.fromkeys(name for name in (*met, *FIGURES) if name in FIGURES))


def section(name: str, strings: Mapping[str, Any]) -> str:
    """The Markdown of figure ``name``'s section, in the language of ``strings`` (a string it
    lacks is empty: the build's strings check has stopped on it already)."""
    heading, line = ((strings.get(part) or {}).get(name, "") for part in figures.GALLERY_SECTIONS)
    given = article_ids().get(name)
    fence = f'```figure name="{name}"' + (f' id="{given}"' if given else "")
    return f"## {heading} {{ #{anchor_of(name)} }}\n\n{line}\n\n{fence}\n```\n"


def expand(markdown: str, strings: Mapping[str, Any], src: str, nav: Any = None) -> str:
    """``markdown`` with the gallery marker, if it has one, replaced by every figure's section
    in the language of ``strings``, in the reading order of ``nav`` (``reading_order``; without
    one, the registry's). Only the gallery page pays for reading the articles."""
    if MARKER not in markdown:
        return markdown
    if markdown.count(MARKER) > 1:
        raise PluginError(f"{src}: the gallery marker stands more than once")
    order = FIGURES if nav is None else reading_order(nav)
    return markdown.replace(MARKER, "\n".join(section(name, strings) for name in order))


def expand_file(path: Path, text: str) -> str:
    """The text of the page ``docs/<lang>/<page>`` at ``path`` as the build makes it, the gallery
    written from the strings file of the same docs folder, in the registry's order (the
    translation checks compare these sections with English's, whatever their order). A strings file that does not parse leaves the marker."""
    if MARKER not in text:
        return text
    try:
        strings = figures.load_strings(path.parents[1] / "figure-strings" / f"{path.parent.name}.yml")
    except (OSError, figures.StringsFileError):
        return text
    return expand(text, strings, str(path))


def clear() -> None:
    """Forget the articles' ids (``mkdocs serve``: an article may have changed)."""
    article_ids.cache_clear()
