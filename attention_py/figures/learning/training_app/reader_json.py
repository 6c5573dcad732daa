"""JSON a reader hands a figure (a run's file), checked before and after a parser reads it.

Before: its length and its nesting. ``json.loads`` recurses in C for every level of brackets;
in Pyodide the browser's stack runs out long before Python notices (``{"format":`` and
400,000 ``[`` in an 800 KB file end the page's Python with a fatal error), and natively it is a
RecursionError at best. So the brackets outside strings are counted first, in a few
passes of the regular-expression engine and no Python loop over the text (a 1 MB file in
tens of milliseconds natively), and a file deeper than ``MAX_DEPTH`` never reaches the parser.
After: every number finite. JSON has no infinity, but Python's parser reads ``Infinity``,
``NaN`` and ``1e999`` as floats; a figure must not draw them (the number formats refuse
to), so the first one is named by its place in the file.

Each refusal is a ``ReaderJsonError`` whose ``reason`` says which check failed, with the
``limit`` it crossed or the ``path`` of the number ("history[3].loss"), never the file's text.
"""

from __future__ import annotations

import json
import re
import sys
from itertools import accumulate
from typing import Any

MAX_DEPTH = 32  # levels of brackets: a run's file has 7 (its weight matrices' rows)
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # a JSON string, escapes and all
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_LARGEST = sys.float_info.max


class ReaderJsonError(ValueError):
    """Why a reader's JSON was refused: ``reason`` is ``too_big``, ``too_deep``, ``not_json``
    or ``not_finite``; ``limit`` the bound crossed (characters, levels); ``path`` where the
    number that is not finite stands."""

    def __init__(self, reason: str, *, limit: int | None = None, path: str = "") -> None:
        super().__init__(f"{reason}: {path or limit}" if path or limit else reason)
        self.reason, self.limit, self.path = reason, limit, path


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether ``text``'s brackets outside strings nest deeper than ``limit`` at some point
    (exactly the nesting ``json.loads`` would recurse through, for valid JSON). Stops at the
    first bracket past the limit."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return any(depth > limit for depth in accumulate(map(_STEP.__getitem__, brackets)))


def read_reader_json(text: Any, max_chars: int, max_depth: int = MAX_DEPTH) -> Any:
    """The value of ``text``, a reader's JSON of at most ``max_chars`` characters and
    ``max_depth`` levels, with every number finite; ``ReaderJsonError`` otherwise."""
    if not isinstance(text, str) or len(text) > max_chars:
        raise ReaderJsonError("too_big", limit=max_chars)
    if too_deep(text, max_depth):
        raise ReaderJsonError("too_deep", limit=max_depth)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ReaderJsonError("not_json") from None
    path = first_not_finite(data)
    if path is not None:
        raise ReaderJsonError("not_finite", path=path)
    return data


def first_not_finite(value: Any) -> str | None:
    """The path ("history[3].loss") of the first number in ``value`` that is not finite
    (infinite, NaN, or an integer too large for a float), in the file's order; None if there
    is none."""
    found = _not_finite(value)
    if found is None:
        return None
    return "".join(part if isinstance(part, str) else f"[{part}]" for part in found).removeprefix(".")


def _not_finite(value: Any) -> list[str | int] | None:
    """The parts of the path to the first number that is not finite (".key", index), or None.
    The path is made only once found: a long key is not copied for every value beneath it.
    Recursive: ``value`` comes from text ``too_deep`` has checked."""
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        bad = isinstance(value, (int, float)) and not isinstance(value, bool) and not -_LARGEST <= value <= _LARGEST
        return [] if bad else None  # NaN fails both comparisons
    for key, item in items:
        found = _not_finite(item)
        if found is not None:
            return [f".{key}" if isinstance(value, dict) else key, *found]
    return None
