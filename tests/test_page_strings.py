"""The page's own strings (section ``page`` of docs/figure-strings/<lang>.yml) against the
scripts that read them (docs/widgets/*.js): every key a script reads exists, and every key
exists for a reason. (tests/e2e/test_site.py checks that the build embeds them.)
"""

from __future__ import annotations

import re

from tests.test_figures_support import ROOT, strings

WIDGETS = ROOT / "docs" / "widgets"
# `strings.run`, `this.strings.truncated(...)`, `this.ui.figure_starting`
READ = re.compile(r"\b(?:strings|ui)\.([a-z_]+)\b")
NOT_TEXTS = {"number", "dir", "lang", "js"}  # pageStrings() extras, and "./strings.js"


def script_text() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(WIDGETS.glob("*.js")))


def test_every_key_the_scripts_read_is_in_the_english_file():
    read = set(READ.findall(script_text())) - NOT_TEXTS
    assert read, "the pattern found no reads at all"
    assert read - set(strings("en")["page"]) == set()


def test_every_page_key_is_read_by_some_script():
    source = script_text()
    # A key is read as `strings.key`, or picked by name (`strings[busy]` with busy "queued").
    unread = [key for key in strings("en")["page"]
              if f".{key}" not in source and f'"{key}"' not in source]
    assert unread == []
