"""A replay: a slider over the points a build saved while it trained a model, both training
articles' (``training_replay``, ``induction_replay``).

A slider (and Previous / Next) runs over the saved points, left to right in every language:
it moves along the curves' step axis, drawn left to right like all the figures' numbers.
Under it, what the article shows at the chosen point (``Shown``): the curves of training with
that step marked, the menus of what to show (if any), a caption and the maps of attention,
and a readout. Nothing is trained here: every point was saved by the build.

An article's replay is a ``Replay``: the steps of its saved points (``steps``, per language)
and what it shows at one of them (``show``); ``figure`` declares it with the state every
replay has (``checkpoint``, the index of the point, clamped to the last: the trained model)
and the article's own fields. The strings every replay reads are ``STRINGS``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .controls import button, slider
from .figure import Figure, Panel
from .html import el
from .state import Field, Integer, StateSpec
from .strings import Text

LAST = 9999  # the default point: clamped to the last one, the trained model
STRINGS = ("title", "checkpoint", "previous", "next", "step_value", "readout", "maps_caption", "caption")
"""The strings every replay reads (an article's may read more)."""


@dataclass(frozen=True)
class Shown:
    """What a replay shows at one saved point, as markup: the ``curves`` (that step marked),
    the ``menus`` of what to show (none: ""), the ``maps`` of attention and the ``readout``."""

    curves: str
    maps: str
    readout: str
    menus: str = ""


@dataclass(frozen=True)
class Replay:
    """An article's replay: ``steps(lang)`` are its saved points' steps, in order;
    ``show(state, text, index, step)`` is what it shows at point ``index`` (step ``step``)."""

    steps: Callable[[str], Sequence[int]]
    show: Callable[[dict[str, Any], Text, int, int], Shown]

    def draw(self, state: dict[str, Any], t: Text) -> Panel:
        saved = self.steps(t.lang)
        index = min(state["checkpoint"], len(saved) - 1)
        shown = self.show(state, t, index, saved[index])
        body = (
            stepper(saved, index, t)
            + shown.curves
            + shown.menus
            + el("p", {"class": "apy-muted"}, t.html("maps_caption"))
            + shown.maps
        )
        return Panel(body, shown.readout, [t.html("caption")])

    def figure(
        self,
        *,
        name: str,
        strings: tuple[str, ...],
        resource: Callable[[str], str],
        shared: tuple[str, ...],
        fields: Mapping[str, Field] | None = None,
    ) -> Figure:
        """The replay as a figure: its state is ``checkpoint`` and the article's ``fields``."""
        missing = [key for key in STRINGS if key not in strings]
        if missing:
            raise ValueError(f"replay {name!r}: its strings lack {missing}")
        spec = StateSpec({"checkpoint": Integer(0, LAST, LAST), **(fields or {})})

        return Figure(name=name, spec=spec, strings=strings, draw=self.draw, resource=resource, shared=shared)


def stepper(saved: Sequence[int], index: int, t: Text) -> str:
    """Previous, the slider over the saved points (showing the step), Next: left to right."""
    step, last = saved[index], len(saved) - 1
    return el(
        "div",
        {"class": "apy-row", "dir": "ltr"},
        button(t.html("previous"), {"checkpoint": max(index - 1, 0)}, disabled=index <= 0, focus_key="previous"),
        slider(
            "checkpoint",
            index,
            lo=0,
            hi=last,
            step=1,
            label=t.html("checkpoint"),
            aria_label=t.plain("checkpoint"),
            shown=f"{step}",
            valuetext=t.plain("step_value", step=t.count(step)),
            digits=0,
        ),
        button(t.html("next"), {"checkpoint": min(index + 1, last)}, disabled=index >= last, focus_key="next"),
    )
