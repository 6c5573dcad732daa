"""Hook: starts each page's context (the build's ``PageContext``, site_hooks/build.py: which
page, and so which language, the ``figure`` and ``python-live`` fences draw for, and what they
drew),
checks every strings file and has the figures read their data through the build
(``training.use_build_resources``) before the build starts, ships the figures' CSS, and hands the
template the page's own strings (the ``page`` section: live cells, loading progress, figure
host), which docs/overrides/main.html embeds as JSON for docs/widgets/shared/strings.js.

It also tells the template what the page runs: ``page_live_cells`` and ``page_figures``, how
many cells and figures the fences drew on it (counted as they draw: the template loads Python
only where there are some), and ``page_boot_script``, the page's early boot
(docs/widgets/boot/page-boot.js as scripts/build-widgets.mjs bundles it), which main.html writes
inline in <head>.

A shipped language missing a string fails the build, naming the file and the key.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from markupsafe import Markup
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from site_hooks.assets import products
from site_hooks.build import Build
from site_hooks.content import figures, gallery, induction, training
from site_hooks.content.figures import STRINGS_DIR, check_strings_dir

FIGURES_CSS = "assets/figures/figures.css"
BOOT_SCRIPT = "page-boot.js"  # in the widget bundle


def on_config(config: MkDocsConfig) -> None:
    problems = check_strings_dir(STRINGS_DIR)
    if problems:
        raise PluginError("figure strings need fixing:\n  " + "\n  ".join(problems))
    # what the pages and figures read from files, read afresh by each build (`mkdocs serve`
    # rebuilds in this process): the strings, the early boot, the gallery's figure ids, the
    # induction article's records (trained again when their code changes)
    figures.strings_for.cache_clear()
    _boot_script.cache_clear()
    gallery.clear()
    induction.record.cache_clear()
    training.use_build_resources()  # the figures drawn at build time read the models trained here


def _language(page: Page) -> str:
    return getattr(page.file, "locale", None) or "en"


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, build: Build, **kwargs: object) -> str:
    build.start_page(_language(page), page.file.src_uri)
    return gallery.expand(markdown, figures.strings_for(_language(page)), page.file.src_uri, config.nav)


def on_page_content(html: str, page: Page, build: Build, **kwargs: object) -> str:
    build.drawn[page.file.dest_uri] = (build.page.cells, build.page.figures)
    _accept_figure_addresses(page, build)
    return html


def _accept_figure_addresses(page: Page, build: Build) -> None:
    """mkdocs checks each link's #fragment against the ids of the page it points at, and
    "#train?positions=none" (the settings of the shareable figure with id "train") is no id:
    it logged an INFO line per link. The page's own links of that form, to a shareable figure
    this page has, are taken as anchors of it; tests/site/test_translations.py checks them."""
    shared = figures.shareable_ids(build.page)
    own = (page.links_to_anchors or {}).get(page.file, {})
    if shared and page.present_anchor_ids is not None:
        page.present_anchor_ids.update(anchor for anchor in own if anchor.partition("?")[0] in shared)


def on_page_context(context: dict[str, Any], page: Page, build: Build, **kwargs: object) -> dict[str, Any]:
    texts = figures.strings_for(_language(page))["page"]
    # Readable UTF-8 (a third the size of \u escapes); "<" escaped so no text can end the script.
    context["page_strings_json"] = Markup(json.dumps(texts, ensure_ascii=False).replace("<", "\\u003c"))
    # How those scripts write a number: the language's digits and decimal separator (strings.js, writeNumber).
    context["page_numbers_json"] = Markup(json.dumps(figures.page_numbers(_language(page)), ensure_ascii=False))
    cells, drawn = build.drawn.get(page.file.dest_uri, (0, 0))
    context["page_live_cells"] = cells
    context["page_figures"] = drawn
    if cells or drawn:
        context["page_boot_script"] = _boot_script()
    return context


@cache
def _boot_script() -> Markup:
    """The early boot's bundled code, for an inline <script> (no request, runs before anything else)."""
    text = products.widget_files()[BOOT_SCRIPT].read_text(encoding="utf-8").strip()
    if "</script" in text.lower():  # would end the inline script early (esbuild escapes it in strings)
        raise PluginError(f"the bundled {BOOT_SCRIPT} contains '</script', so it cannot be written inline")
    return Markup(text)


@event_priority(-200)  # after static-i18n (-100), which crashes on generated files (see assets/publish.py)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    css = resources.files("attention_py.figures").joinpath("figures.css").read_text(encoding="utf-8")
    files.append(File.generated(config, FIGURES_CSS, content=css))
    return files
