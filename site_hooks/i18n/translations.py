"""MkDocs hook: keeps the translations honest.

Before the build (``on_config``):

- a shipped language must have every page of ``docs/en/`` (Markdown and notebooks);
- every built language's pages must have the same heading anchors as English, in the same
  order (``## Softmax { #softmax }``), so a link to a section works in every language;
- a shipped language's page must not be an unchanged copy of the English one (copied, not
  translated): it would count as translated and hide the note below.

Any of these stops the build, naming the files (the checks: translation_checks.py);
``python -m devtools.translation_status`` gives the same answers (and which translations are
outdated) without building.

While pages are converted, a section heading without an explicit anchor fails the strict
build, naming the page and the heading. Python-Markdown's slugs keep only ASCII, so a
Hebrew or Persian heading would get ``_1``, ``_2``...: links to the section would differ
between languages and break when a paragraph is added.

A language whose entry in mkdocs.yml says ``extra: {translation_in_progress: true}`` may miss
pages: static-i18n then serves the English page in its place (``fallback_to_default``).
Such a page, and a copy of the English page not translated yet, gets, above its content, a short note in the reader's language, the
``untranslated_note`` of the language's ``extra`` (Markdown; ``{translate}`` is the address of
the "Translate this site" page), and its English content is marked ``lang="en" dir="ltr"``,
so it reads correctly inside a right-to-left page.

A translated page may still have sections in English (a language in progress translating a
page a section at a time: ``translation_checks.english_sections``). Each such section gets,
under its heading, a short note in the reader's language, the ``untranslated_section_note``
of the language's ``extra`` (Markdown, ``{translate}`` as above); a page with no English
section, as every page of a shipped language, is left as it is.

The API reference (mkdocstrings) shows the same English docstrings in every language; in the
other languages each documented object is marked ``lang="en" dir="ltr"`` for the same reason.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import markdown
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.utils import get_relative_url

from site_hooks.i18n.languages import i18n_languages
from site_hooks.i18n.translation_checks import (
    SOURCE_LANG,
    anchor_problems,
    copied_pages,
    english_sections,
    is_copy,
    missing_pages,
)

GUIDE_PAGE = "translate.md"
SECTION_NOTE = "untranslated_section_note"  # the text of extra (mkdocs.yml) above an English section


def _in_progress(language: Any) -> bool:
    return bool((language.extra or {}).get("translation_in_progress"))


def translation_problems(docs: Path, languages: list[Any]) -> list[str]:
    """Why the build must stop: pages missing from shipped languages, anchors out of step."""
    problems = []
    for language in languages:
        lang = language.locale
        if language.default or lang == SOURCE_LANG or not language.build:
            continue
        missing = [] if _in_progress(language) else missing_pages(docs, lang)
        if missing:
            problems.append(
                f"{lang}: missing {', '.join(f'docs/{lang}/{page}' for page in missing)}. A shipped language "
                f"needs every page of docs/{SOURCE_LANG}/; to ship it unfinished (English fills the gaps), "
                f"give its entry in mkdocs.yml `extra: {{translation_in_progress: true}}`"
            )
        copied = [] if _in_progress(language) else copied_pages(docs, lang)
        if copied:
            problems.append(
                f"{lang}: copied, not translated: {', '.join(f'docs/{lang}/{page}' for page in copied)} "
                f"(the same text as docs/{SOURCE_LANG}/). Translate them, or delete them: a language marked "
                f"`translation_in_progress: true` shows English with a note in their place"
            )
        problems += anchor_problems(docs, lang)
    return problems


def on_config(config: MkDocsConfig) -> None:
    problems = translation_problems(Path(config.docs_dir), i18n_languages(config))
    if problems:
        raise PluginError(
            "translations out of step with English:\n  "
            + "\n  ".join(problems)
            + "\n(python -m devtools.translation_status shows every language's status)"
        )


def is_fallback(page: Any) -> bool:
    """True for an English page that static-i18n serves in another language's place.

    static-i18n marks every file with ``locale`` (the folder it comes from) and
    ``locale_alternate_of`` (the language being built); they differ only for a fallback.
    """
    source = getattr(page.file, "locale", None)
    built = getattr(page.file, "locale_alternate_of", None)
    return source is not None and built is not None and source != built


def _own_page(page: Any, config: MkDocsConfig) -> tuple[Path, str, str] | None:
    """``(docs, lang, page path in its language folder)`` of a page of another language than
    English that has its own file (not a fallback); ``None`` for any other page."""
    lang = getattr(page.file, "locale", None)
    src = getattr(page.file, "src_uri", "")
    docs = getattr(config, "docs_dir", None)
    if not lang or lang == SOURCE_LANG or not docs or not src.startswith(f"{lang}/"):
        return None
    return Path(docs), lang, src[len(lang) + 1 :]


def is_english_copy(page: Any, config: MkDocsConfig) -> bool:
    """True for a page of another language whose file is still the English text (copied, not
    translated yet): readers get English, so it gets the fallback's note and ``lang="en"``."""
    own = _own_page(page, config)
    return own is not None and is_copy(*own)


def _note(text: str, css_class: str, page: Any, files: Files) -> str:
    """A note's HTML: ``text`` (Markdown, ``{translate}`` the guide's address) in an info box."""
    guide = files.get_file_from_path(GUIDE_PAGE)
    translate = get_relative_url(guide.url, page.url) if guide is not None else "#"
    body = markdown.markdown(text.replace("{translate}", translate))
    return f'<div class="admonition info {css_class}" role="note">\n{body}\n</div>\n'


def fallback_note(page: Any, config: MkDocsConfig, files: Files) -> str:
    """The note's HTML for a fallback page, in the language being built."""
    # the language's own, or the English of the top-level extra (site_hooks/i18n/languages.py
    # checks that mkdocs.yml has it, and warns when a language lacks it)
    return _note(config.extra["untranslated_note"], "translation-fallback", page, files)


_HEADING_TAG = re.compile(r'<h([1-6])\b[^>]*?\bid="([^"]+)"[^>]*>.*?</h\1>', re.DOTALL)


def mark_english_sections(output: str, anchors: list[str | None], note: str) -> str:
    """``output`` with ``note`` under the heading of each section in ``anchors`` (``None``: the
    text before the first heading gets it at the top)."""
    wanted = {anchor for anchor in anchors if anchor is not None}
    marked = _HEADING_TAG.sub(lambda m: m[0] + "\n" + note if m[2] in wanted else m[0], output)
    return note + marked if None in anchors else marked


def section_note(page: Any, config: MkDocsConfig, files: Files) -> tuple[list[str | None], str]:
    """The sections of a translated page still in English, and the note each gets, in the
    language being built (``([], "")`` for a page with none)."""
    own = _own_page(page, config)
    anchors = english_sections(*own) if own is not None else []
    if not anchors:
        return [], ""
    text = config.extra.get(SECTION_NOTE)
    if not isinstance(text, str) or not text.strip():
        raise PluginError(
            f"{page.file.src_uri} has sections still in English, and mkdocs.yml no `extra.{SECTION_NOTE}` "
            "(the note above each, in English at the top level, in the language in its entry)"
        )
    return anchors, _note(text, "translation-section", page, files)


_DOC_OBJECT = '<div class="doc doc-object '
_NUMBERED_ID_HEADING = re.compile(r'<h([2-6]) id="(_\d*)"[^>]*>(.*?)</h\1>', re.DOTALL)
_TAGS = re.compile(r"<[^>]+>")
log = get_plugin_logger("translations")


def warn_about_numbered_ids(output: str, page: Any) -> None:
    """A warning (an error under --strict) for every section heading whose id is a numbered fallback."""
    for match in _NUMBERED_ID_HEADING.finditer(output):
        text = html.unescape(_TAGS.sub("", match.group(3))).replace("¶", "").strip()
        log.warning(
            f"{page.file.src_uri}: heading '{text}' has no explicit anchor (got id '{match.group(2)}'); "
            f"write it as `## {text} {{ #some-id }}` with the same id as in the other languages"
        )


def on_page_content(output: str, page: Any, config: MkDocsConfig, files: Files) -> str:
    warn_about_numbered_ids(output, page)
    built = getattr(page.file, "locale_alternate_of", SOURCE_LANG)
    if built != SOURCE_LANG and _DOC_OBJECT in output:
        output = output.replace(_DOC_OBJECT, f'<div lang="{SOURCE_LANG}" dir="ltr" class="doc doc-object ')
    if is_fallback(page):
        source = page.file.locale
    elif is_english_copy(page, config):
        source = SOURCE_LANG
    else:
        anchors, note = section_note(page, config, files)
        return mark_english_sections(output, anchors, note) if anchors else output
    return f'{fallback_note(page, config, files)}<div lang="{html.escape(source)}" dir="ltr">\n{output}\n</div>'
