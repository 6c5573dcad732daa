"""What every figure shares: its declaration and the common frame.

A figure is three things: a ``StateSpec`` (fields, ranges, defaults), the keys of its
translated strings, and a pure ``draw(state, text) -> Panel`` function. ``Figure.render``,
the one way to draw a figure, normalises the state, draws it and wraps it in the frame
below, which is the same for all figures so the page's generic host can treat them alike::

    <div class="apy-fig" data-figure=... data-state=... data-strings=... lang dir role=group>
      <p class="apy-fig__title">...            title
      <div class="apy-fig__body">...           the figure's own controls and drawing
      <p class="apy-fig__readout" aria-live>   one short sentence, announced on change
      <div class="apy-fig__notes">...          captions, honest notes
      <p class="apy-fig__error" role=alert hidden>   filled by the host on bad input
      <p class="apy-fig__static">...           hint shown until the host goes live
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ._html import el, to_json
from ._state import StateSpec
from ._strings import Text

COMMON_STRINGS = ("direction", "digits", "static_hint", "bad_input")


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
        """The figure for ``state`` as one self-contained HTML fragment (see module doc).

        ``strings`` is the parsed strings file of language ``lang`` (or the ``data-strings``
        a drawn figure carries); ``instance`` becomes the root's id. A bad state raises
        ``StateError`` (a ValueError naming the key), a missing translation
        ``MissingStringError`` naming the file and the key.
        """
        clean = self.spec.normalise(state)
        text = Text(strings, lang, self.name)
        return self.frame(clean, text, self.draw(clean, text), instance)

    def frame(self, state: dict[str, Any], text: Text, panel: Panel, instance: str | None) -> str:
        """Wraps a drawn ``panel`` for the normalised ``state`` in the common frame."""
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
