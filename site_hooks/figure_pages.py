"""Hook: tells the ``figure`` fence which page (and so which language) it is drawing for,
checks every figure-strings file before the build starts, and ships the figures' CSS.

A shipped language missing a figure string fails the build, naming the file and the key.
"""

from __future__ import annotations

from importlib import resources

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from attention_py.figures.build import check_strings_dir
from site_hooks import figure_fence

FIGURES_CSS = "assets/figures/figures.css"


def on_config(config: MkDocsConfig) -> None:
    problems = check_strings_dir(figure_fence.STRINGS_DIR)
    if problems:
        raise PluginError("figure strings incomplete:\n  " + "\n  ".join(problems))
    figure_fence.strings_for.cache_clear()  # pick up edits under `mkdocs serve`


def on_page_markdown(markdown: str, page: Page, **kwargs: object) -> str:
    lang = getattr(page.file, "locale", None) or "en"
    figure_fence.set_page(lang, page.file.src_uri)
    return markdown


@event_priority(-200)  # after static-i18n (see DESIGN.md)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    css = resources.files("attention_py.figures").joinpath("figures.css").read_text(encoding="utf-8")
    files.append(File.generated(config, FIGURES_CSS, content=css))
    return files
