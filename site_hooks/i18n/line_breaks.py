"""Hook: a line break in the Markdown source between two characters of a script written
without spaces (Chinese, Japanese) joins them with nothing.

A source line break inside a paragraph becomes a space in the page, and browsers draw that
space between two Han characters too («注意力机制。 这个包»). Authors wrap their source the way
the English source is wrapped, so every wrapped line of a Chinese page would show a stray
space. CSS Text's segment-break rule says to drop it; browsers do not implement it, so the
build does, before Markdown sees the page: a newline (and the indentation after it) between
a Han, kana or CJK punctuation character and another goes. Nothing else changes, so pages in
every other script are byte for byte what they were; fenced code is left alone. Hangul is
written with spaces and is not joined.
"""

from __future__ import annotations

import re
from typing import Any

from site_hooks.i18n.translation_checks import fenced_lines

# Characters of scripts written without spaces between words, and their punctuation: CJK
# symbols and punctuation, Hiragana, Katakana, Bopomofo, CJK ideographs (with extension A and
# the compatibility block), halfwidth and fullwidth forms, and the supplementary ideograph
# planes.
_UNSPACED = (
    "\u3000-\u303f\u3040-\u309f\u30a0-\u30ff\u3100-\u312f\u31a0-\u31bf\u31f0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
    "\U00020000-\U0003134f"
)
_JOIN = re.compile(f"(?<=[{_UNSPACED}])[ \\t]*\\n[ \\t]*(?=[{_UNSPACED}])")


def join_unspaced_lines(markdown: str) -> str:
    """``markdown`` with each line break between two unspaced-script characters removed,
    outside fenced code blocks."""
    if not re.search(f"[{_UNSPACED}]", markdown):
        return markdown  # the common case: nothing to join, the text is returned as it is
    parts: list[str] = []
    prose: list[str] = []
    for line, code in fenced_lines(markdown.splitlines(keepends=True)):
        if code:
            parts += [_JOIN.sub("", "".join(prose)), line]
            prose = []
        else:
            prose.append(line)
    parts.append(_JOIN.sub("", "".join(prose)))
    return "".join(parts)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    return join_unspaced_lines(markdown)
