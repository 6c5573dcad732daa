"""Interactive figures: pure functions from a state to an HTML/SVG fragment.

Every number a figure shows is computed by attention_py. The same function runs natively
at build time (the figure is prerendered into the page, readable without scripts) and in
the browser through Pyodide, where one generic host feeds it the reader's input and swaps
the result in (see README.md in this folder for the protocol).

Two ways in, no more: ``FIGURES[name].render(state, lang=..., strings=...)`` draws a figure
(the build's prerendering), and ``update(name, state, changes, lang, strings, instance)`` is
the page's one call (apply the reader's change, draw again, or say what was refused). The
running figures' work between the page's calls is held in ``PAGE_SESSIONS``, the store
``update`` passes down unless it is given another (a test's own).

    >>> from attention_py.figures import FIGURES
    >>> FIGURES["softmax"].name, "train_live" in FIGURES
    ('softmax', True)
    >>> FIGURES["softmax"].default_state()
    {'z': [1.5, 2.0, 3.0]}

Standard library only: it runs in bare Pyodide. YAML (the authors' blocks, the strings
files) is parsed by the site's build, never here.
"""

from __future__ import annotations

from collections.abc import Mapping
from json import dumps as _json_dumps  # bound at import, as in kit/html.py
from typing import Any

from .induction import (
    induction_heads,
    induction_live,
    induction_replay,
)
from .induction import views as _induction_views
from .information_flow import (
    causal_attention,
    information_flow,
    multi_head,
    self_attention_simple,
)
from .kit.figure import ACTION, COMMON_STRINGS, ActionRefused, BaseFigure, Figure, Panel, RunningFigure
from .kit.format import NUMBER_KEYS, NumberFormat
from .kit.live import Sessions
from .kit.state import StateError, apply_changes
from .kit.strings import MissingStringError, Text, check_strings, excerpt
from .learning import (
    train_live,
    trained_reader,
    training_replay,
)
from .learning import views as _learning_views
from .what_matters import (
    attention_sentence,
    dot_product,
    embedding_space,
    qkv,
    softmax_bars,
    weighted_average,
    why_sqrt_dk,
)

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
    training_replay.FIGURE,
    trained_reader.FIGURE,
    train_live.FIGURE,
    induction_replay.FIGURE,
    induction_heads.FIGURE,
    induction_live.FIGURE,
)

FIGURES: dict[str, BaseFigure] = {figure.name: figure for figure in _ORDER}
"""Every figure by name, those of one article together (the gallery shows them in the order
the articles do: site_hooks/content/gallery.py)."""

PAGE_SESSIONS = Sessions()
"""The live work of the running figures of the page this Python serves (``update``'s store):
it lasts as long as this Python (a reload starts a fresh one)."""

# An answer's English detail and key are cut to this many characters: a refusal must not
# repeat a megabyte it was given (its sentence quotes an ``excerpt``).
MAX_DETAIL = 200

# How the language writes numbers (digits, decimal, percent, measured: see kit.format.NUMBER_KEYS), then the sentence.
COMMON_KEYS = tuple(dict.fromkeys((*COMMON_STRINGS, *NUMBER_KEYS, "sentence_angry", "sentence_rude")))


def get(name: str) -> BaseFigure:
    """The figure called ``name``; ValueError listing the known names otherwise."""
    try:
        return FIGURES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown figure {name!r}; known figures: {', '.join(FIGURES)}") from None


def required_strings() -> dict[str, tuple[str, ...]]:
    """Every section and key the figures need in each language's strings file."""
    required: dict[str, tuple[str, ...]] = {"common": COMMON_KEYS}
    required.update({figure.name: figure.strings for figure in _ORDER})
    required[_learning_views.SHARED_SECTION] = _learning_views.SHARED_STRINGS
    required[_induction_views.SECTION] = _induction_views.STRINGS
    return required


def update(
    name: str,
    state: Mapping[str, Any],
    changes: Mapping[str, Any],
    lang: str,
    strings: Mapping[str, Any],
    instance: str | None = None,
    sessions: Sessions | None = None,
) -> dict[str, Any]:
    """The page host's single call: the figure's state with ``changes`` applied, drawn again.

    ``state`` is the root's ``data-state``, ``strings`` its ``data-strings`` (both parsed),
    ``changes`` maps dotted state paths to the values the reader gave (and a running figure's
    actions, ``do.<name>``: README.md, "Actions"). Plain data in, plain data out (the page's
    worker passes them as JSON): ``{"ok": True, "html", "state"}`` (``html`` None while a running
    figure has nothing new to draw: the page keeps its drawing, README.md "Running figures") and the figure's extras
    (``file``, ``stored``), or for a refused value or action ``{"ok": False, "error": <in the reader's language>, "detail":
    <English>, "key": <state path>}``, short whatever the value was (the sentence quotes at most
    ``kit.strings.EXCERPT_MAX_CHARS`` of it, a text too long is named by its limit, the detail and
    key are cut to ``MAX_DETAIL``); the page then keeps its last good drawing. A running figure's
    work is in ``sessions`` (``PAGE_SESSIONS`` unless another store is given). Data a figure
    reads besides its state comes from ``attention_py.resources``; when it cannot be read (the
    site's file is missing), the error is raised, and the page says the figure could not update.
    """
    figure = get(name)
    asked = {k: v for k, v in changes.items() if k.startswith(ACTION)} if isinstance(changes, Mapping) else {}
    values = {k: v for k, v in changes.items() if k not in asked} if asked else changes
    actions = {k.removeprefix(ACTION): v for k, v in asked.items()}
    try:
        clean = figure.normalise(apply_changes(state, values))
        figure.check_actions(actions)
    except StateError as error:
        text = Text(strings, lang, name)
        if error.limit is not None:
            message = text.plain("common.text_too_long", limit=text.count(error.limit))
        else:
            message = text.plain("common.bad_input", value=excerpt(_value_at(changes, error.key)))
        return {"ok": False, "error": message, "detail": _cut(str(error)), "key": _cut(error.key)}
    try:
        store = PAGE_SESSIONS if sessions is None else sessions
        html, shown, extras = figure.drawn(
            clean, lang=lang, strings=strings, instance=instance, actions=actions, sessions=store
        )
    except ActionRefused as refused:
        return {"ok": False, "error": refused.message, "detail": _cut(str(refused)), "key": ACTION + refused.action}
    return {"ok": True, "html": html, "state": shown, **extras}


def _cut(text: str) -> str:
    return text if len(text) <= MAX_DETAIL else text[:MAX_DETAIL] + "…"


def _value_at(changes: Mapping[str, Any], key: str) -> str:
    """The raw value the reader entered for ``key`` (or the nearest enclosing change)."""
    if isinstance(changes, Mapping):
        for path, value in changes.items():
            if key == path or key.startswith(f"{path}."):
                return value if isinstance(value, str) else _json_dumps(value, ensure_ascii=False, default=str)
    return key


__all__ = [
    "FIGURES",
    "PAGE_SESSIONS",
    "BaseFigure",
    "Figure",
    "MissingStringError",
    "NumberFormat",
    "Panel",
    "RunningFigure",
    "Sessions",
    "StateError",
    "Text",
    "check_strings",
    "get",
    "required_strings",
    "update",
]
