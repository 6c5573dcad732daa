"""What every figure shares: its declaration, the common frame, and the page's entry point.

A figure is three things: a ``StateSpec`` (fields, ranges, defaults), the keys of its
translated strings, and a pure ``draw(state, text) -> Panel`` function. ``Figure.render``
normalises the state, draws it and wraps it in the frame below, which is the same for all
figures so the page's generic host can treat them alike::

    <div class="apy-fig" data-figure=... data-state=... data-strings=... lang dir role=group>
      <p class="apy-fig__title">...            title
      <div class="apy-fig__body">...           the figure's own controls and drawing
      <p class="apy-fig__readout" aria-live>   one short sentence, announced on change
      <div class="apy-fig__notes">...          captions, honest notes
      <p class="apy-fig__error" role=alert hidden>   filled by the host on bad input
      <p class="apy-fig__static">...           hint shown until the host goes live
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ._html import el, to_json
from ._state import StateError, StateSpec, apply_changes
from ._strings import Text

COMMON_STRINGS = ("direction", "static_hint", "bad_input")


@dataclass
class Panel:
    """A drawn figure: ``body`` markup, one ``readout`` sentence (markup), note paragraphs."""

    body: str
    readout: str = ""
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Figure:
    """One interactive figure: declared state, declared strings, and its pure draw function."""

    name: str
    spec: StateSpec
    strings: tuple[str, ...]
    draw: Callable[[dict[str, Any], Text], Panel]
    summary: str = ""

    def default_state(self) -> dict[str, Any]:
        return self.spec.normalise({})

    def normalise(self, state: Any) -> dict[str, Any]:
        return self.spec.normalise(state)

    def render(
        self,
        state: Any = None,
        *,
        lang: str,
        strings: Mapping[str, Any],
        instance: str | None = None,
    ) -> str:
        """The figure for ``state`` as one self-contained HTML fragment (see module doc)."""
        clean = self.spec.normalise(state)
        text = Text(strings, lang, self.name)
        return self.frame(clean, text, self.draw(clean, text), instance)

    def frame(self, state: dict[str, Any], text: Text, panel: Panel, instance: str | None) -> str:
        title = text.plain("title")
        notes = "".join(el("p", {}, note) for note in panel.notes)
        return el(
            "div",
            {
                "class": f"apy-fig apy-fig--{self.name}",
                "id": instance,
                "data-figure": self.name,
                "data-state": to_json(state),
                "data-strings": to_json(text.subset()),
                "lang": text.lang,
                "dir": text.direction,
                "role": "group",
                "aria-label": title,
            },
            el("p", {"class": "apy-fig__title"}, text.html("title")),
            el("div", {"class": "apy-fig__body"}, panel.body),
            el("p", {"class": "apy-fig__readout", "aria-live": "polite"}, panel.readout),
            el("div", {"class": "apy-fig__notes"}, notes),
            el("p", {"class": "apy-fig__error", "data-role": "error", "role": "alert", "hidden": True}),
            el("p", {"class": "apy-fig__static", "data-role": "static-hint"}, text.html("common.static_hint")),
        )

    def update(
        self,
        state: Mapping[str, Any],
        changes: Mapping[str, Any],
        *,
        lang: str,
        strings: Mapping[str, Any],
        instance: str | None = None,
    ) -> dict[str, Any]:
        """Apply the page's changes; ``{"ok", "html", "state"}`` or ``{"ok": False, "error", "key"}``.

        A refused value does not raise: the page keeps the last good drawing and shows
        ``error`` (already translated) next to the control named by ``key``.
        """
        try:
            clean = self.spec.normalise(apply_changes(state, changes))
        except StateError as error:
            bad = _value_at(changes, error.key)
            message = Text(strings, lang, self.name).plain("common.bad_input", value=bad)
            return {"ok": False, "error": message, "detail": str(error), "key": error.key}
        text = Text(strings, lang, self.name)
        html = self.frame(clean, text, self.draw(clean, text), instance)
        return {"ok": True, "html": html, "state": clean}


def _value_at(changes: Mapping[str, Any], key: str) -> str:
    """The raw value the reader entered for ``key`` (or the nearest enclosing change)."""
    for path, value in changes.items():
        if key == path or key.startswith(f"{path}."):
            return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return key
