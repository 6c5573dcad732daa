"""Hook: tells the ``figure`` fence which page (and so which language) it is drawing for,
checks every strings file and has the figures read their data through the build
(``figures.use_build_resources``) before the build starts, ships the figures' CSS, and hands the
template the page's own strings (the ``page`` section: live cells, loading progress, figure
host), which docs/overrides/main.html embeds as JSON for docs/widgets/strings.js.

A shipped language missing a string fails the build, naming the file and the key.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from markupsafe import Markup
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from site_hooks.content import figures
from site_hooks.content.figures import STRINGS_DIR, check_strings_dir

FIGURES_CSS = "assets/figures/figures.css"


def on_config(config: MkDocsConfig) -> None:
    problems = check_strings_dir(STRINGS_DIR)
    if problems:
        raise PluginError("figure strings need fixing:\n  " + "\n  ".join(problems))
    figures.strings_for.cache_clear()  # pick up edits under `mkdocs serve`
    figures.use_build_resources()  # the figures drawn at build time read the models trained here


def _language(page: Page) -> str:
    return getattr(page.file, "locale", None) or "en"


def on_page_markdown(markdown: str, page: Page, **kwargs: object) -> str:
    figures.set_page(_language(page), page.file.src_uri)
    return markdown


def on_page_context(context: dict[str, Any], page: Page, **kwargs: object) -> dict[str, Any]:
    texts = figures.strings_for(_language(page))["page"]
    # Readable UTF-8 (a third the size of \u escapes); "<" escaped so no text can end the script.
    context["page_strings_json"] = Markup(json.dumps(texts, ensure_ascii=False).replace("<", "\\u003c"))
    return context


@event_priority(-200)  # after static-i18n (-100), which crashes on generated files (see assets/publish.py)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    css = resources.files("attention_py.figures").joinpath("figures.css").read_text(encoding="utf-8")
    files.append(File.generated(config, FIGURES_CSS, content=css))
    return files
