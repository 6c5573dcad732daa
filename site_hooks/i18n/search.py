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
Arabic or Persian ی/ک, with or without ZWNJ, with or without a prefix such as ה/ב/ל or ال,
ё or е): each index names the lunr "language" ``normalised``, which this hook publishes where
Material's worker loads lunr languages from (``assets/javascripts/lunr/min/``), and splits
words at the separators of search_text.py too.

Stemming, per language (``index_config``), so that a query word finds the word's other forms:

- A language with a stemmer in the browser (``search_text.stemmer_for``: lunr's own for
  English, and lunr-languages' plugins in Material's bundle generated from Snowball: Russian,
  German, French, Spanish...), written in the script that stemmer reads, is stemmed. Russian's
  index names ``normalised-ru`` (``"lang": ["normalised-ru"]``), a plugin published from
  lunr-languages' ``lunr.ru.min.js`` followed by search_text.js, and keeps only the stemmer
  (``"pipeline": ["stemmer"]``), which runs after the normalisation: «весов» finds «веса».
  Not lunr-languages' trimmer, which strips every letter outside its alphabet (softmax on a
  Russian page), nor its stop word filter (the Russian list holds один, два, три, больше,
  можно: a reader who types one would find nothing). The index does not name
  ``["ru", "normalised"]``: with two languages Material merges their stemmers and stop word
  filters through lunr.multiLanguage and never calls the site's plugin, so nothing would be
  normalised.
- English keeps Material's stop word filter and adds lunr's stemmer (``"lang": ["normalised"]``,
  ``"pipeline": ["stopWordFilter", "stemmer"]``). Measured in Material's worker on the site's
  English pages, every word of them typed as a query: 430 of 1,786 words find more pages
  (masks 1 -> 9, layers 4 -> 10, probabilities 3 -> 6, computing 2 -> 5, attentions 0 -> 12),
  1,304 of the 1,310 pages gained hold a form of the word (the same stem), and no word finds
  fewer (tests/site_hooks/test_search_text.py checks this on the built site).
- Hebrew and Arabic script (he, fa, ar, ur...) keep the site's normalisation and clitic
  splitting only (``"pipeline": []``): lunr's he/ar plugins do less, and none suits Persian.
  So does a language without a stemmer in the browser (Polish, Czech...).

A stemmed index holds each word and its stem, and a query word searches its stem as a whole
word beside the word as typed (search_text.js): a query finds at least what it found without
stemming.

Segmentation, for a language written without spaces (its script in languages.UNSPACED_SCRIPTS:
Chinese, Japanese; ``search_text.segmenter_for``): separators alone made a whole clause one
word, so 注意力 found a page only where it began a run of text. Its index names
``normalised-segmented-<locale>`` (the plugin segments with ``Intl.Segmenter(locale)``), adds
U+200B to its separator, and holds its pages' titles and texts with U+200B between their words
(``search_text.separate_words``: one Node process for the index, the plugin's own function, as
Material's search plugin does with jieba for Chinese). In the page the plugin cuts the query and
each piece of the pages again with the browser's segmenter. Every other index is written byte
for byte as before (tests/site_hooks/test_search_segmentation.py).

Bounded and linear, in every language: the search worker reads a query's first
``search_text.QUERY_LIMIT`` characters (500, longer than any sentence of the site's pages) and
drops the rest before anything cuts it. Material's worker cuts every run of Han characters of a
query at the index's terms by trying every piece of the run, in time that grows faster than the
square of the run's length (5,000 Han characters took 104.5 s), and it does so before the
plugin is called, so the plugin bounds each query where it enters the worker (the message's
data). What the plugin does itself grows with the length of what it reads: the segmenter reads
a text 1,000 characters at a time (ICU's cut of one long run also grows faster than its
length), and a piece is cut at the index's terms through a tree of their characters. Measured
under Node (``./run bench search_query``): 40,000 Han characters answered in about 0.1 s, the
bounded query's time; without the bound, the plugin's own work on 40,000 characters stays
about linear, but Material's cut of one long run does not.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

from site_hooks.i18n import search_text
from site_hooks.i18n.languages import built_entries, script_of

WORD_SEPARATOR = "\\u200b"
"""What a segmented index's separator adds (as a regular expression: the character is
invisible): the zero-width space the build puts between words (search_text.separate_words)."""

# lunr processing kept per stemmer (Material removes the others): English keeps Material's
# default, the stop word filter, and the stemmer; any other stemmed language its stemmer only;
# a language without one no lunr step, since lunr's English trimmer would strip every
# non-ASCII letter. search_text's steps run for all.
PIPELINES = {search_text.LUNR_STEMMER: ["stopWordFilter", "stemmer"]}
STEMMED = ["stemmer"]
UNSTEMMED: list[str] = []

LUNR_LANGUAGE = search_text.PLUGIN_NAME


def plugin_uri(stemmer: str | None = None, segmenter: str | None = None) -> str:
    """Where Material's search worker looks for the plugin of a language named in the index
    (``importScripts("../lunr/min/lunr.<lang>.min.js")``, relative to the worker)."""
    return f"assets/javascripts/lunr/min/lunr.{search_text.plugin_name(stemmer, segmenter)}.min.js"


PLUGIN_URI = plugin_uri()


Reading = tuple[str | None, str | None]
"""How a language's index reads words: its stemmer and its segmenter (search_text's
``stemmer_for`` and ``segmenter_for``; None: none)."""


def readings(config: MkDocsConfig) -> dict[str, Reading]:
    """Each built language's stemmer and segmenter, by the script it is written in."""
    found = {}
    for entry in built_entries(config):
        script = script_of(entry.locale, (entry.extra or {}).get("script"))
        found[entry.locale] = (
            search_text.stemmer_for(entry.locale, script),
            search_text.segmenter_for(entry.locale, script),
        )
    return found


@event_priority(-200)  # after static-i18n has rebuilt the file list (see assets/publish.py)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    for stemmer, segmenter in sorted(set(readings(config).values()) | {(None, None)}, key=str):
        uri = plugin_uri(stemmer, segmenter)
        existing = files.get_file_from_path(uri)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, uri, content=search_text.javascript(stemmer, segmenter)))
    return files


def index_config(merged: dict[str, Any], stemmer: str | None = None, segmenter: str | None = None) -> dict[str, Any]:
    """The ``config`` of one language's index, from the merged index's; ``stemmer`` and
    ``segmenter`` are the language's (``readings``)."""
    separators = search_text.SEPARATORS + (WORD_SEPARATOR if segmenter is not None else "")
    return {
        **merged,
        "lang": [search_text.plugin_name(stemmer, segmenter)],
        "separator": f"{merged['separator']}|[{separators}]",
        "pipeline": UNSTEMMED if stemmer is None else PIPELINES.get(stemmer, STEMMED),
    }


def _places(doc: dict[str, Any], name: str) -> list[tuple[Any, Any]]:
    """Where ``doc``'s field ``name`` holds text: (the dict or list holding a string, its key)."""
    value = doc.get(name)
    if isinstance(value, str):
        return [(doc, name)]
    if isinstance(value, list):
        return [(value, i) for i, item in enumerate(value) if isinstance(item, str)]
    return []


def separated_docs(docs: list[dict[str, Any]], fields: Iterable[str], segmenter: str) -> list[dict[str, Any]]:
    """Copies of ``docs`` with U+200B between the words of each string lunr indexes (the
    index's ``fields``: title, text, each tag), in one Node process (search_text.separate_words)."""
    copies = [{**doc, **{name: list(doc[name]) for name in fields if isinstance(doc.get(name), list)}} for doc in docs]
    places = [place for doc in copies for name in fields for place in _places(doc, name)]
    texts = search_text.separate_words([holder[key] for holder, key in places], segmenter)
    for (holder, key), text in zip(places, texts, strict=True):
        holder[key] = text
    return copies


def language_index(
    merged: dict[str, Any], docs: list[dict[str, Any]], stemmer: str | None = None, segmenter: str | None = None
) -> str:
    """The text of one language's ``search_index.json``: its ``docs`` (from the merged index),
    read with its ``stemmer`` and ``segmenter`` (``readings``); ``merged`` is the merged index's
    config."""
    config = index_config(merged, stemmer, segmenter)
    if segmenter is not None:
        docs = separated_docs(docs, config.get("fields") or ["title", "text"], segmenter)
    return json.dumps({"config": config, "docs": docs}, ensure_ascii=False, separators=(",", ":"))


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
    reading_of = readings(config)
    for lang, docs in docs_by_language.items():
        text = language_index(merged["config"], docs, *reading_of.get(lang, (None, None)))
        target = merged_path if lang == default else Path(config.site_dir) / lang / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
