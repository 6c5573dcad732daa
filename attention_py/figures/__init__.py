"""Interactive figures: pure functions from a state to an HTML/SVG fragment.

Every number a figure shows is computed by attention_py. The same function runs natively
at build time (the figure is prerendered into the page, readable without scripts) and in
the browser through Pyodide, where one generic host feeds it the reader's input and swaps
the result in (see README.md in this folder for the protocol).

    >>> from attention_py.figures import FIGURES, render
    >>> sorted(FIGURES)[:3]
    ['attention_sentence', 'causal_attention', 'dot_product']
    >>> FIGURES["softmax"].default_state()
    {'z': [1.5, 2.0, 3.0]}

Standard library only; YAML is parsed by the build, never here (see ``build``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from . import (
    attention_sentence,
    causal_attention,
    dot_product,
    embedding_space,
    information_flow,
    multi_head,
    qkv,
    self_attention_simple,
    softmax_bars,
    weighted_average,
    why_sqrt_dk,
)
from ._figure import COMMON_STRINGS, Figure, Panel
from ._state import StateError
from ._strings import MissingStringError, Text, check_strings

_ORDER = (
    embedding_space.FIGURE,
    weighted_average.FIGURE,
    dot_product.FIGURE,
    qkv.FIGURE,
    softmax_bars.SOFTMAX,
    softmax_bars.SOFTMAX_SCALE,
    why_sqrt_dk.FIGURE,
    attention_sentence.FIGURE,
    self_attention_simple.FIGURE,
    information_flow.FIGURE,
    causal_attention.FIGURE,
    multi_head.FIGURE,
)

FIGURES: dict[str, Figure] = {figure.name: figure for figure in _ORDER}
"""Every figure by name, in the order the articles introduce them."""

COMMON_KEYS = COMMON_STRINGS + ("sentence_angry", "sentence_rude")


def get(name: str) -> Figure:
    """The figure called ``name``; ValueError listing the known names otherwise."""
    try:
        return FIGURES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown figure {name!r}; known figures: {', '.join(FIGURES)}") from None


def render(
    name: str,
    state: Mapping[str, Any] | None = None,
    *,
    lang: str,
    strings: Mapping[str, Any],
    instance: str | None = None,
) -> str:
    """The figure ``name`` drawn for ``state`` in language ``lang``, as an HTML fragment.

    ``strings`` is the parsed strings file of that language (or the ``data-strings`` a
    rendered figure carries). ``instance`` becomes the root element's id, if given.
    Raises ``StateError`` (a ValueError naming the key) for a bad state and
    ``MissingStringError`` naming the file and key for a missing translation.
    """
    return get(name).render(state, lang=lang, strings=strings, instance=instance)


def figure_from_block(
    name: str,
    state: Any,
    lang: str,
    strings: Mapping[str, Any],
    *,
    instance: str | None = None,
) -> str:
    """Render an author's figure block: ``name`` from the fence, ``state`` its parsed YAML body.

    An empty body (None) means the default state. Every problem - unknown name, unknown
    key, a value that is not a number - is a ValueError whose message says which figure
    and which key, so the site can stop the build with it.
    """
    figure = get(name)
    try:
        return figure.render(state, lang=lang, strings=strings, instance=instance)
    except StateError as error:
        raise ValueError(f"figure {name!r}: {error}") from None


def required_strings() -> dict[str, tuple[str, ...]]:
    """Every section and key the figures need in each language's strings file."""
    required = {"common": COMMON_KEYS}
    required.update({figure.name: figure.strings for figure in _ORDER})
    return required


def host_update(
    name: str,
    state_json: str,
    changes_json: str,
    lang: str,
    strings_json: str,
    instance: str | None = None,
) -> str:
    """The page host's single call: JSON in, JSON out (no Python objects cross over).

    Returns ``{"ok": true, "html": ..., "state": ...}`` or, for a refused value,
    ``{"ok": false, "error": <translated message>, "detail": ..., "key": <state path>}``.
    """
    figure = get(name)
    result = figure.update(json.loads(state_json), json.loads(changes_json), lang=lang,
                           strings=json.loads(strings_json), instance=instance)
    return json.dumps(result, ensure_ascii=False, allow_nan=False)


__all__ = [
    "FIGURES",
    "Figure",
    "MissingStringError",
    "Panel",
    "StateError",
    "Text",
    "check_strings",
    "figure_from_block",
    "get",
    "host_update",
    "render",
    "required_strings",
]
