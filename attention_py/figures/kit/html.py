"""Tiny HTML/SVG string builders with escaping done in exactly one place.

Every figure is a string of markup built in Python (it must run in bare Pyodide, so no
template engine). Text and attribute values pass through ``esc`` here and nowhere else;
a translated string can therefore never inject markup into a page.
"""

from __future__ import annotations

import re
from html import escape as _escape
from json import dumps as _json_dumps  # bound at import: a live cell's `json.dumps = None` must not break figures
from typing import Any

_NEEDS_ESCAPE = re.compile(r"[&<>\"']").search

Attrs = dict[str, Any]


def esc(text: Any) -> str:
    """Text escaped for use as element content or a double-quoted attribute value."""
    text = str(text)
    # Most values (numbers, class names) need nothing: one regex scan instead of five replaces.
    return _escape(text, quote=True) if _NEEDS_ESCAPE(text) else text


def attrs(values: Attrs | None) -> str:
    """' name="value"' pairs; ``True`` gives a bare attribute, ``None``/``False`` omit it.

    Order follows the mapping, so the same state always gives byte-identical markup
    (the host's DOM morph and the tests rely on that).
    """
    if not values:
        return ""
    parts = []
    for name, value in values.items():
        if value is None or value is False:
            continue
        if value is True:
            parts.append(f" {name}")
        else:
            parts.append(f' {name}="{esc(value)}"')
    return "".join(parts)


def el(tag: str, attributes: Attrs | None = None, *children: str) -> str:
    """An element whose children are already markup (escape text with ``esc`` first)."""
    return f"<{tag}{attrs(attributes)}>{''.join(children)}</{tag}>"


def void(tag: str, attributes: Attrs | None = None) -> str:
    """An element without content: ``<input>`` in HTML, ``<circle/>`` in SVG."""
    return f"<{tag}{attrs(attributes)}/>" if tag not in _HTML_VOID else f"<{tag}{attrs(attributes)}>"


_HTML_VOID = {"input", "br", "hr", "img", "meta", "link", "wbr"}


def split(main: str, side: str) -> str:
    """A drawing (``main``) with its side panel beside it, below it on a narrow screen."""
    return el("div", {"class": "apy-split"}, el("div", {"class": "apy-split__main"}, main), side)


def to_json(value: Any) -> str:
    """Compact JSON for ``data-*`` attributes; refuses NaN/Infinity (they must never leak)."""
    return _json_dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
