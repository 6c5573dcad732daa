"""Hook: every built language's entry checked before the build (script, face, direction,
texts), and the English text for every text an entry leaves out (site_hooks/i18n/languages.py).
"""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority

from site_hooks.i18n import languages


@event_priority(0)  # before static-i18n (-100) merges the language's entry into `extra`
def on_config(config: MkDocsConfig) -> None:
    languages.check(config)


def on_pre_build(config: MkDocsConfig) -> None:
    languages.fill_in_english(config)
