"""Hook: the site's one 404.html is the default language's.

A static host serves a single /404.html for every missing address, in any language folder.
static-i18n renders it once per language, and the last language built (Persian) wins:
readers got a right-to-left Persian page around an English message (static-i18n issues
#284 and #349). The default language's rendering is kept and written each time instead; its
message (docs/overrides/404.html) speaks all three languages.
"""

from __future__ import annotations

from typing import Any

from mkdocs.config.defaults import MkDocsConfig

from site_hooks.i18n.translations import i18n_languages

_default_rendering: dict[str, str] = {}  # "404.html" -> the default language's page


def _default_language(config: MkDocsConfig) -> str:
    return next((language.locale for language in i18n_languages(config) if language.default), "en")


def on_pre_build(config: MkDocsConfig) -> None:
    if config.theme["language"] == _default_language(config):
        _default_rendering.clear()  # a new build (`mkdocs serve` rebuilds): render it afresh


def on_post_template(output: str, template_name: str, config: MkDocsConfig, **kwargs: Any) -> str:
    if template_name != "404.html":
        return output
    if config.theme["language"] == _default_language(config):
        _default_rendering[template_name] = output
        return output
    return _default_rendering.get(template_name, output)
