"""What one build of the site keeps between MkDocs events: a ``Build``, and its ``PageContext``.

MkDocs calls hooks as module functions, static-i18n runs one MkDocs build per language inside
the first one's ``on_post_build``, and ``mkdocs serve`` rebuilds in the same process. So
everything the hooks and fences remember lives on one ``Build``, which the hook file
(site_hooks/hooks.py) makes afresh when a build starts and hands to each stage handler and
fence that names a ``build`` parameter; no module of site_hooks keeps state of its own
(what the ``@cache`` functions keep is read from files each build clears or keys by content).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class PageContext:
    """The page being converted: superfences hands a fence nothing of the page but a Markdown
    object, so the page hook (content/figure_pages.py) starts one before each page's Markdown
    is converted; the ``figure`` and ``python-live`` fences read the page's language from it
    and count into it what they draw (the numbers give unnamed figures their ids,
    ``figure-1``, ``figure-2``, ...), and the hook reads the counts once the page is
    converted: the template loads Python only where a fence drew something."""

    lang: str = "en"
    src: str = "?"  # the page's source, for error messages: "en/learning.md"
    figures: int = 0  # figure fences drawn so far
    cells: int = 0  # live cells drawn so far
    named: dict[str, str] = field(default_factory=dict)  # a figure fence's id -> the figure it names


@dataclass
class Build:
    """One build, every language of it: each field says which stage writes it and who reads it."""

    # `mkdocs serve`: the pages' policy allows inline scripts for its live reload
    # (set from the command by hooks.py; read by guards/script_policy.py)
    serving: bool = False
    # the top-level `extra`'s texts, in English, as mkdocs.yml gives them: static-i18n merges
    # each language's entry into `extra` in place (i18n/language_checks.py keeps them before
    # it does; languages.fill_in_english and i18n/not_found.py read them)
    english: dict[str, str] = field(default_factory=dict)
    # the page being converted (content/figure_pages.py starts it; the fences count into it)
    page: PageContext = field(default_factory=PageContext)
    # per page (its dest_uri): (live cells, figures) the fences drew, from its conversion to its
    # template: MkDocs converts every page before it renders any (content/figure_pages.py)
    drawn: dict[str, tuple[int, int]] = field(default_factory=dict)
    # (tex, display) -> KaTeX's markup, across the build's pages and languages (content/formulas.py)
    typeset: dict[tuple[str, bool], str] = field(default_factory=dict)
    # the default language's 404.html, written again in place of every other language's
    # (i18n/not_found.py)
    not_found_page: str | None = None
    # the hashes of the site's files the pages' policy also allows inline: its sandboxed frame's
    # script (guards/script_policy.py, from the build's files in on_env)
    also_inline: tuple[str, ...] = ()

    def start_page(self, lang: str, src: str) -> PageContext:
        """A fresh context for the page ``src`` of language ``lang``, now the current one."""
        self.page = PageContext(lang, src)
        return self.page
