"""Hook: the site's one 404.html is the default language's, with every language's message.

A static host serves a single /404.html for every missing address, in any language folder.
static-i18n renders it once per language, and the last language built wins: readers got a
right-to-left Persian page around an English message (static-i18n issues #284 and #349).
The default language's rendering is kept (on the build, site_hooks/build.py) and written in
place of each other language's. Its message
(docs/overrides/404.html) is given in every built language: each entry's ``extra.not_found``
in mkdocs.yml (Markdown; ``{home}`` is the address of that language's home page), in the
language's own direction; a language without one gets the English text (and the build warns,
see languages.py).
"""

from __future__ import annotations

import posixpath
from typing import Any

import markdown
from markupsafe import Markup
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError

from site_hooks.build import Build
from site_hooks.i18n.languages import i18n_languages, site_languages

KEY = "not_found"


def _default_language(config: MkDocsConfig) -> str:
    return next((language.locale for language in i18n_languages(config) if language.default), "en")


def _inline(text: str) -> str:
    """One paragraph of Markdown as inline HTML (the template gives the <p>)."""
    rendered = markdown.markdown(text).strip()
    if rendered.startswith("<p>") and rendered.endswith("</p>") and rendered.count("<p>") == 1:
        rendered = rendered[3:-4]
    return rendered


def messages(config: MkDocsConfig, base_url: str, english_texts: dict[str, str]) -> list[dict[str, Any]]:
    """Per built language: its code, direction, and message with the link to its home page;
    ``english_texts`` are the top-level ``extra``'s (``Build.english``)."""
    english = english_texts.get(KEY) or (config.extra or {}).get(KEY)
    if not isinstance(english, str):
        raise PluginError(f"mkdocs.yml: extra.{KEY} (the 404 page's message, in English) is missing")
    entries = {entry.locale: entry for entry in i18n_languages(config)}
    built = site_languages(config)
    default = next((language for language in built if language.default), None)
    result = []
    for language in built:
        own = (entries[language.locale].extra or {}).get(KEY)
        # the English text stands in for a missing one (the build warned), marked as English
        speaker = language if isinstance(own, str) and own.strip() else default or language
        text = own if speaker is language and isinstance(own, str) else english
        home = posixpath.join(base_url, language.home)
        result.append(
            {
                "lang": speaker.locale,
                "dir": speaker.direction,
                "html": Markup(_inline(text.replace("{home}", home))),
            }
        )
    return result


def on_template_context(
    context: dict[str, Any], template_name: str, config: MkDocsConfig, build: Build
) -> dict[str, Any]:
    if template_name == "404.html":
        context["not_found_messages"] = messages(config, context.get("base_url") or "/", build.english)
    return context


def on_post_template(output: str, template_name: str, config: MkDocsConfig, build: Build) -> str:
    if template_name != "404.html":
        return output
    if config.theme["language"] == _default_language(config):
        build.not_found_page = output
        return output
    return build.not_found_page or output
