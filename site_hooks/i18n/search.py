"""MkDocs hook: one search index per language, so a Hebrew page finds Hebrew pages.

static-i18n merges every language into the root ``search/search_index.json``, and Material
always loads that one: a search on a Persian page returned English hits, and lunr has no
Hebrew/Persian pipeline that suits both. After the last language is built, this hook splits
the merged index by location into ``search/`` (default language) and ``<lang>/search/``,
each with a pipeline that suits its language. Pages of other languages get the context
variable ``language_search_index``; docs/overrides/main.html turns it into a small script,
placed before Material's bundle, that points Material's index request at that language's
file. Untranslated pages, published in /he/ in English, stay in the Hebrew index.

Every index is searched the way readers type (search_text.py: niqqud and harakat optional,
Arabic or Persian ی/ک, with or without ZWNJ, with or without a prefix such as ה/ב/ل or ال):
each index names the lunr "language" ``normalised``, which this hook publishes where
Material's worker loads lunr languages from (``assets/javascripts/lunr/min/``), and splits
words at the separators of search_text.py too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

from site_hooks.i18n import search_text

# lunr processing kept per language (Material removes the others). The English default is
# Material's; for scripts lunr has no stemmer for, no lunr step is kept, since lunr's
# English trimmer would strip every non-ASCII letter. search_text's steps run for all.
PIPELINES = {"en": ["stopWordFilter"]}
UNSTEMMED: list[str] = []

LUNR_LANGUAGE = "normalised"
PLUGIN_URI = f"assets/javascripts/lunr/min/lunr.{LUNR_LANGUAGE}.min.js"
"""Where Material's search worker looks for the plugin of a language named in the index
(``importScripts("../lunr/min/lunr.<lang>.min.js")``, relative to the worker)."""


@event_priority(-200)  # after static-i18n has rebuilt the file list (see assets/publish.py)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    existing = files.get_file_from_path(PLUGIN_URI)
    if existing is not None:
        files.remove(existing)
    files.append(File.generated(config, PLUGIN_URI, content=search_text.javascript()))
    return files


def index_config(merged: dict[str, Any], lang: str) -> dict[str, Any]:
    """The ``config`` of one language's index, from the merged index's."""
    return {
        **merged,
        "lang": [LUNR_LANGUAGE],
        "separator": f"{merged['separator']}|[{search_text.SEPARATORS}]",
        "pipeline": PIPELINES.get(lang, UNSTEMMED),
    }


def _i18n(config: MkDocsConfig) -> Any:
    return config.plugins.get("i18n")


def _index_for(config: MkDocsConfig) -> str | None:
    i18n = _i18n(config)
    if i18n is None or i18n.current_language == i18n.default_language:
        return None
    return f"{i18n.current_language}/search/search_index.json"


def on_page_context(context: dict[str, Any], page: Any, config: MkDocsConfig, nav: Any) -> dict[str, Any]:
    context["language_search_index"] = _index_for(config)
    return context


def on_template_context(context: dict[str, Any], template_name: str, config: MkDocsConfig) -> dict[str, Any]:
    context["language_search_index"] = _index_for(config)
    return context


def _language_of(location: str, languages: list[str], default: str) -> str:
    first = location.split("/", 1)[0]
    return first if first in languages and first != default else default


@event_priority(-200)  # after static-i18n (-100) has written the merged index
def on_post_build(config: MkDocsConfig) -> None:
    i18n = _i18n(config)
    merged_path = Path(config.site_dir) / "search" / "search_index.json"
    if i18n is None or i18n.building or not merged_path.is_file():
        return  # a language build inside static-i18n's loop: the merged index comes later
    merged = json.loads(merged_path.read_text(encoding="utf-8"))
    languages, default = list(i18n.build_languages), i18n.default_language
    docs_by_language: dict[str, list[dict[str, Any]]] = {lang: [] for lang in languages}
    for doc in merged["docs"]:
        docs_by_language.setdefault(_language_of(doc["location"], languages, default), []).append(doc)
    for lang, docs in docs_by_language.items():
        index = {
            "config": index_config(merged["config"], lang),
            "docs": docs,
        }
        target = merged_path if lang == default else Path(config.site_dir) / lang / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
