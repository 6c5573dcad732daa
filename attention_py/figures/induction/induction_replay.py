"""Replay of the build's induction run: the plateau, the sudden drop, and the heads forming.

A slider (and Earlier / Later) runs over the run's history points, every 20 steps; the figure
shows the curves (loss and accuracy on the copied tokens, the best prefix-matching score of
layer 2, the best previous-token score of layer 1, and faint the one-layer control's accuracy
with the same budget) with the chosen step marked, and every head's attention on the build's
example sequence at that step. Nothing is trained or computed here: the attention was saved
at build time (``induction_run.induction_record``'s ``replay``), so the replay is there at once.

State (defaults): ``checkpoint: 9999`` (index, clamped to the last = trained)
"""

from __future__ import annotations

from typing import Any

from ..kit.controls import button, slider
from ..kit.figure import Figure, Panel
from ..kit.html import el
from ..kit.state import Integer, StateSpec
from ..kit.strings import Num, Pct, Text
from . import views

LAST = 9999  # the default point: clamped to the last one, the trained model
STRINGS = ("title", "checkpoint", "previous", "next", "step_value", "readout", "maps_caption", "caption")


def draw(state: dict[str, Any], t: Text) -> Panel:
    data = views.data()
    replay, history = data["replay"], data["history"]
    index = min(state["checkpoint"], len(replay) - 1)
    step = replay[index]["step"]
    point = next(p for p in history if p["step"] == step)
    letters = views.alphabet(t)
    ids = data["example"]["ids"]
    layers = data["settings"]["layers"]
    heads = [(layer, h) for layer in range(layers) for h in range(data["settings"]["heads"])]
    controls = el(
        "div",
        {"class": "apy-row", "dir": "ltr"},  # along the curves' step axis, left to right in every language
        button(t.html("previous"), {"checkpoint": max(index - 1, 0)}, disabled=index <= 0, focus_key="previous"),
        slider(
            "checkpoint",
            index,
            lo=0,
            hi=len(replay) - 1,
            step=1,
            label=t.html("checkpoint"),
            aria_label=t.plain("checkpoint"),
            shown=f"{step}",
            valuetext=t.plain("step_value", step=t.count(step)),
            digits=0,
        ),
        button(
            t.html("next"),
            {"checkpoint": min(index + 1, len(replay) - 1)},
            disabled=index >= len(replay) - 1,
            focus_key="next",
        ),
    )
    body = (
        controls
        + views.curves(
            history,
            mark=step,
            t=t,
            layers=layers,
            faint=views.control()["history"],
            faint_label=t.html(f"{views.SECTION}.legend_control"),
        )
        + el("p", {"class": "apy-muted"}, t.html("maps_caption"))
        + views.attention_maps(
            replay[index]["attention"],
            [letters[i] for i in ids],
            len(ids) - 1,
            t,
            [views.head_title(t, layer, h) for layer, h in heads],
        )
    )
    readout = t.sentence(
        "readout",
        step=step,
        copied=Pct(100 * point["test_copied_accuracy"], 0),
        loss=Num(point["test_copied_loss"], 2),
        prefix=Num(views.best(point, layers - 1, "prefix"), 2),
        previous=Num(views.best(point, 0, "previous"), 2),
    )
    return Panel(body, readout, [t.html("caption")])


FIGURE = Figure(
    name="induction_replay",
    spec=StateSpec({"checkpoint": Integer(0, LAST, LAST)}),
    strings=STRINGS,
    draw=draw,
    resource=views.key,
    shared=("training", views.SECTION),
)
