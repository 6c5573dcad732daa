"""Whether a language's face draws the letters its pages are written in.

A language's entry names its face and, where the code does not say it, its script; the build
ships the face's subsets for that script (languages.py). A script that is not the one the
pages are written in (``script: latin`` for Chinese) would pass every other check and leave
readers with boxes, or with the system's face, for every character. So the letters of the
language's own pages (``docs/<lang>/``, outside code, math, HTML tags and link targets) are
checked against the code points the shipped subsets draw (vendored.code_points), before the
build starts.

A few letters the face lacks are normal: a Persian word quoted on a Hebrew page, a name in
its own alphabet. The browser draws those in a system face, glyph by glyph. The build stops
when more than ``MOST_ARE_DRAWN`` of the letters of one of its pages are outside its face: then the
script, or the face, is not the pages' own.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from site_hooks.assets.vendored import code_points
from site_hooks.i18n.translation_checks import fenced_lines

if TYPE_CHECKING:
    from site_hooks.i18n.languages import SiteLanguage

MOST_ARE_DRAWN = 0.05  # the share of a page's letters its face may lack
SHOWN = 12  # the letters a message names, most frequent first

# What is not prose in a Markdown line: inline code, math, HTML tags, a link's target, an
# attribute list ({ #anchor }), and a figure's or cell's options.
_NOT_PROSE = re.compile(r"`[^`]*`|\$\$?[^$]*\$\$?|\\\(.*?\\\)|<[^>]*>|\]\([^)]*\)|\{[^}]*\}")


def prose_letters(markdown: str) -> str:
    """The letters of ``markdown``'s prose (Unicode categories L*), in order."""
    lines = (line for line, fenced in fenced_lines(markdown.splitlines()) if not fenced)
    text = _NOT_PROSE.sub(" ", "\n".join(lines))
    return "".join(char for char in text if unicodedata.category(char).startswith("L"))


def pages_letters(lang_dir: Path) -> dict[str, str]:
    """The prose letters of each Markdown page of one language's folder, by path."""
    return {
        path.relative_to(lang_dir).as_posix(): prose_letters(path.read_text(encoding="utf-8"))
        for path in sorted(lang_dir.rglob("*.md"))
    }


def undrawn(letters: str, spans: Iterable[tuple[int, int]]) -> Counter[str]:
    """How often each letter of ``letters`` falls outside ``spans`` ((first, last) code points)."""
    ordered = sorted(spans)
    starts = [first for first, _ in ordered]

    def drawn(char: str) -> bool:
        at = bisect.bisect_right(starts, ord(char)) - 1
        return at >= 0 and ordered[at][0] <= ord(char) <= ordered[at][1]

    return Counter(char for char in letters if not drawn(char))


def _kind(char: str) -> str:
    """The first word of the character's Unicode name: CJK, HEBREW, CYRILLIC..."""
    return unicodedata.name(char, "UNKNOWN").split()[0]


def problem(lang: SiteLanguage, lang_dir: Path) -> str | None:
    """Why the face and script of ``lang`` cannot draw its pages (in ``lang_dir``), or None.

    Page by page: a language in progress has pages copied from English, whose Latin letters
    would hide a false script if all its letters were counted together."""
    spans = code_points(lang.face, lang.subsets)
    for page, letters in pages_letters(lang_dir).items():
        missing = undrawn(letters, spans)
        share = sum(missing.values()) / len(letters) if letters else 0
        if share > MOST_ARE_DRAWN:
            kinds = [kind for kind, _ in Counter(_kind(char) for char in missing.elements()).most_common(3)]
            sample = "".join(char for char, _ in missing.most_common(SHOWN))
            return (
                f"{lang.locale}: {share:.0%} of the letters of {page} ({', '.join(kinds)}: {sample}...) are not in "
                f"the {lang.script} script its face '{lang.face.name}' is shipped for; say the script its pages "
                "are written in, `extra: {script: ...}`, and choose a face that covers it"
            )
    return None
