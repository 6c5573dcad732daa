"""MkDocs hook: every section heading needs an id that survives translation.

Python-Markdown's slugs keep only ASCII, so a Hebrew or Persian heading gets ``_1``,
``_2``...: links to a section would differ between languages and break when a paragraph is
added. Headings are written with an explicit anchor shared by all languages
(``## Softmax { #softmax }``); this hook fails a strict build on any section heading whose
id is such a numbered fallback, naming the page and the heading.
"""

from __future__ import annotations

import html
import re
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import get_plugin_logger

log = get_plugin_logger("heading_ids")
_FALLBACK_ID_HEADING = re.compile(r'<h([2-6]) id="(_\d*)"[^>]*>(.*?)</h\1>', re.DOTALL)
_TAGS = re.compile(r"<[^>]+>")


def on_page_content(output: str, page: Any, config: MkDocsConfig, files: Any) -> str:
    for match in _FALLBACK_ID_HEADING.finditer(output):
        text = html.unescape(_TAGS.sub("", match.group(3))).replace("¶", "").strip()
        log.warning(
            f"{page.file.src_uri}: heading '{text}' has no explicit anchor (got id '{match.group(2)}'); "
            f"write it as `## {text} {{ #some-id }}` with the same id as in the other languages"
        )
    return output
