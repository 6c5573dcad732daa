"""Hook: every built language's entry checked before the build (script, face, direction,
texts; site_hooks/i18n/languages.py), its pages' letters against its face
(site_hooks/i18n/script_coverage.py), and the English text for every text an entry leaves out.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from site_hooks.build import Build
from site_hooks.i18n import languages, script_coverage


@event_priority(0)  # before static-i18n (-100) merges the language's entry into `extra`
def on_config(config: MkDocsConfig, build: Build) -> None:
    checked = languages.check(config, build.english)
    drawn = [script_coverage.problem(lang, Path(config.docs_dir) / lang.locale) for lang in checked]
    if any(drawn):
        raise PluginError("languages in mkdocs.yml need fixing:\n  " + "\n  ".join(filter(None, drawn)))


def on_pre_build(config: MkDocsConfig, build: Build) -> None:
    languages.fill_in_english(config, build.english)
