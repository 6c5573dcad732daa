"""The page being converted: what its fences share.

MkDocs converts one page at a time, and superfences hands a fence nothing of the page but a
Markdown object, so the page hook (figure_pages.py) starts a ``PageContext`` before each
page's Markdown is converted; the ``figure`` and ``python-live`` fences read the page's
language from it and count into it what they draw (the numbers give unnamed figures their
ids, ``figure-1``, ``figure-2``, ...), and the hook reads the counts once the page is
converted: the template loads Python only where a fence drew something.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class PageContext:
    lang: str = "en"
    src: str = "?"  # the page's source, for error messages: "en/learning.md"
    figures: int = 0  # figure fences drawn so far
    cells: int = 0  # live cells drawn so far
    named: dict[str, str] = field(default_factory=dict)  # a figure fence's id -> the figure it names


_pages = [PageContext()]  # the one being converted: the last started


def start(lang: str, src: str) -> PageContext:
    """A fresh context for the page ``src`` of language ``lang``, now the current one."""
    _pages[:] = [PageContext(lang, src)]
    return _pages[0]


def current() -> PageContext:
    return _pages[0]
