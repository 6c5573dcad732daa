"""How the attention_py site is built: MkDocs hooks and Markdown extensions, by what they do.

mkdocs.yml names one hook file, hooks.py, which runs the modules marked "hook:" below (its
stages) in the order it declares (``STAGES``, with ``RUNS_AFTER``: which orders the site
depends on, and why); fences are wired under ``pymdownx.superfences`` and turn a block an
author writes into HTML. What a build keeps from one MkDocs event to the next is on the
``Build`` (build.py) that hooks.py makes when each build starts (``mkdocs serve`` rebuilds
in one process) and hands to every stage handler and fence that names a ``build``
parameter; no module keeps a build's state of its own.

hooks.py     the hook file: the stages' order, their handlers called by priority then in that
             order, the build in progress handed to them and to the fences
build.py     ``Build``, what one build keeps (every language of it), and ``PageContext``, the
             page being converted: its language, and what its fences drew

Everything the build runs is here or in attention_py/: site_hooks imports attention_py and
itself only, and no module of it imports one that imports it back. devtools/ (command-line
tools), tests/ and bench/ may import the build, never the other way round
(tests/repo/test_import_layers.py checks both).

content/   what authors write, turned into pages
    live_cells.py    fence ``python-live``: a cell the reader edits and runs (code from docs/examples/)
    figures.py       fence ``figure``: a figure drawn at build time; the figures' strings files
    yaml_errors.py   a strings file's YAML mistake in one line, at its true line and column
    figure_pages.py  hook: starts each page's context, checks the strings files, sets the
                     figures' resource loader, embeds the page's own strings, writes the gallery
    gallery.py       the gallery page's sections, one per figure, from the registry and each
                     language's strings (gallery_headings, gallery_lines), in the articles' order
    source.py        fence ``python-source``: the package's own code, read at build time
    doctests.py      mkdocstrings extension: doctest examples in docstrings shown as code
    notebooks.py     hook: the companion notebooks as pages in every language, self-hosted,
                     each offered for download with the wheel that runs it
    training.py      hook: the pronoun-puzzle model trained per language (docs/puzzles/), cached,
                     published as assets/training/<lang>.json, and the prepared runs of "Train it
                     yourself"; ``use_build_resources()``: the figures read them natively
i18n/      languages
    languages.py     what a language is from its code and its entry in mkdocs.yml: its script,
                     face (extra.font) and direction (Material's), and the texts its entry gives;
                     the i18n plugin's entries (``i18n_languages``)
    language_checks.py  hook: stops the build on a language without a face covering its script
                     or whose pages' letters the face does not draw, warns about a missing text,
                     fills in English for it
    script_coverage.py  the letters of a language's pages against the code points of its face
    line_breaks.py   hook: a source line break between two Chinese or Japanese characters
                     joins them with no space
    translations.py  hook: every page in every language with the same anchors; the note on
                     an untranslated page and under a section still in English; explicit
                     heading ids
    translation_checks.py  a translation against English: missing pages, pages and sections
                     still the English text, heading anchors (python -m devtools.translation_status
                     reports them too)
    language_links.py  hook: a language switcher that works under any base path
    search.py        hook: one search index per language, each read through search_text
    search_text.py   how index and query words are normalised (marks, letter variants, ZWNJ,
                     clitic prefixes), with search_text.js, its browser half for lunr; Chinese
                     and Japanese cut into words by Intl.Segmenter (separate_words.mjs at build)
    not_found.py     hook: one 404 page for the whole site, with every language's message
assets/    what the pages load, all from this repository
    publish.py       hook: the wheel, Pyodide, the widget bundle, KaTeX and fonts under assets/,
                     each language's font rule and the code font's; a CJK face in slices, with
                     a stylesheet of its own
    products.py      the wheel and the widget bundle, made once per change of their inputs
    wheels.py        builds the attention_py wheel (``python -m build`` on a copy of its files)
    snapshot.py      the page's Python as a gzipped Pyodide memory image (made under Node.js
                     by make_snapshot.mjs), named by a digest of what it was made from
    stdlib_core.py   the part of Pyodide's standard library a normal boot starts with (the
                     files the image's maker saw Python read)
    vendored.py      the pinned npm packages' files the site ships; the faces offered (@fontsource)
                     and the one code face (CODE_FACE)
guards/    checks on every written page
    self_hosted.py   hook: fails the build if a page would load anything from another host
    accessibility.py hook: fixes to Material's markup found by axe-core
    script_policy.py hook: each page's Content-Security-Policy allows its own inline scripts
                     by their SHA-256 (no 'unsafe-inline', no 'unsafe-eval'); refuses inline
                     event handlers and javascript: addresses
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The repository: where docs/, attention_py/ and node_modules/ are."""
