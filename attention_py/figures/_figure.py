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
from typing import Any, cast
from urllib.parse import urlencode

from ._html import el, to_json
from ._state import StateSpec
from ._strings import Text

COMMON_STRINGS = ("direction", "digits", "static_hint", "bad_input")

Draw = Callable[[dict[str, Any], "Text"], "Panel"]
"""A figure's draw: (normalised state, its strings) -> Panel."""
InstancedDraw = Callable[[dict[str, Any], "Text", str | None], "Panel"]
"""An instanced figure's draw: it also gets the root's instance id."""


@dataclass
class Panel:
    """A drawn figure: ``body`` markup, one ``readout`` sentence (markup), note paragraphs."""

    body: str
    readout: str = ""
    notes: list[str] = field(default_factory=list)
    # An instanced figure's state after its draw (a training chunk advanced the step).
    state: dict[str, Any] | None = None


@dataclass(frozen=True)
class Figure:
    """One interactive figure: declared state, declared strings, and its pure draw function."""

    name: str
    spec: StateSpec
    strings: tuple[str, ...]
    draw: Draw | InstancedDraw  # an InstancedDraw exactly when ``instanced``
    # The key of the data the figure reads besides its state (see attention_py/resources.py), per
    # language: ``lambda lang: f"training/{lang}"``. The root carries it as data-resource.
    resource: Callable[[str], str] | None = None
    # A figure whose draw also takes the root's instance id: it keeps work between calls
    # (a model being trained), one per figure on the page. Its state may say running: true.
    instanced: bool = False
    # Sections of the strings file shared by several figures that this one reads too.
    shared: tuple[str, ...] = ()
    # State keys the page's address may set (README.md, "Addresses"): a link such as
    # ``#train?positions=none`` opens the figure with those values (on a page, with its
    # instance id). The root carries them (data-share) and the address of what it shows
    # (data-address).
    shareable: tuple[str, ...] = ()
    # Defaults that depend on the page's language, over the spec's (train_live: the recipe the
    # build trained that language with, read from its resource): ``lambda lang: {...}``.
    language_defaults: Callable[[str], dict[str, Any]] | None = None

    def __post_init__(self) -> None:
        unknown = [k for k in self.shareable if k not in self.spec.fields]
        if unknown:
            raise ValueError(f"figure {self.name!r}: shareable keys {unknown} are not in its state")

    def default_state(self, lang: str | None = None) -> dict[str, Any]:
        """The state a block without YAML shows (on a page of ``lang``, if its defaults depend on it)."""
        own = self.language_defaults(lang) if lang is not None and self.language_defaults is not None else {}
        return self.spec.normalise(own)

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
        if self.language_defaults is not None and (state is None or isinstance(state, Mapping)):
            state = {**self.language_defaults(lang), **(state or {})}
        return self.drawn(self.spec.normalise(state), lang=lang, strings=strings, instance=instance)[0]

    def drawn(
        self, clean: dict[str, Any], *, lang: str, strings: Mapping[str, Any], instance: str | None
    ) -> tuple[str, dict[str, Any]]:
        """The markup for a normalised state, and the state it shows (an instanced figure's
        draw may move it on: a training chunk advances the step)."""
        text = Text(strings, lang, self.name, self.shared)
        if self.instanced:
            panel = cast(InstancedDraw, self.draw)(clean, text, instance)
        else:
            panel = cast(Draw, self.draw)(clean, text)
        shown = panel.state if panel.state is not None else clean
        return self.frame(shown, text, panel, instance), shown

    def frame(self, state: dict[str, Any], text: Text, panel: Panel, instance: str | None) -> str:
        """Wraps a drawn ``panel`` for the normalised ``state`` in the common frame."""
        title = text.plain("title")
        notes = "".join(el("p", {}, note) for note in panel.notes)
        share = address = None
        if self.shareable and instance:  # the defaults once: the address is made against them
            defaults = self.default_state(text.lang)
            share = to_json({k: defaults[k] for k in self.shareable})
            address = self._address(state, instance, defaults)
        return el(
            "div",
            {
                "class": f"apy-fig apy-fig--{self.name}",
                "id": instance,
                "data-figure": self.name,
                "data-state": to_json(state),
                "data-resource": self.resource(text.lang) if self.resource else None,
                "data-share": share,
                "data-address": address,
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

    def address(self, state: Mapping[str, Any], instance: str | None, lang: str | None = None) -> str:
        """The link that opens this figure with ``state``'s shareable values: ``#<instance>``,
        then ``?key=value&...`` for each one that differs from its default (on a page of
        ``lang``; README.md, "Addresses"). The page's host sends those values back as text,
        like a control's."""
        return self._address(state, instance, self.default_state(lang))

    def _address(self, state: Mapping[str, Any], instance: str | None, defaults: Mapping[str, Any]) -> str:
        pairs = [(k, address_value(state[k])) for k in self.shareable if state[k] != defaults[k]]
        return f"#{instance}" + (f"?{urlencode(pairs)}" if pairs else "")


def address_value(value: Any) -> str:
    """A state value as text in an address: ``true``/``false``, ``0.01``, ``none``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)
