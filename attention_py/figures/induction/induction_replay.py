"""Replay of the build's induction run: the plateau, the sudden drop, and the heads forming.

A replay (``kit/replay.py``) over the run's history points, every 20 steps: the curves
(loss and accuracy on the copied tokens, the best prefix-matching score of layer 2, the best
previous-token score of layer 1, and faint the one-layer control's accuracy with the same
budget) with the chosen step marked, and beside them every head's attention on the build's
example sequence at that step, with its score there and, in layer 2, the cells an induction
head attends to ringed. Nothing is trained or computed here: the attention was saved at build
time (``induction_run.induction_record``'s ``replay``), so the replay is there at once.

State (defaults): ``checkpoint: 9999`` (index, clamped to the last = trained)
"""

from __future__ import annotations

from typing import Any

from ..kit.replay import STRINGS, Replay, Shown
from ..kit.strings import Num, Pct, Text
from . import views


def saved_steps(lang: str) -> list[int]:
    return [saved["step"] for saved in views.data()["replay"]]


def show(state: dict[str, Any], t: Text, index: int, step: int) -> Shown:
    """The run's curves with the control's faint, every head's saved attention on the example
    sequence with its score at the step, and the step's scores."""
    data = views.data()
    point = next(p for p in data["history"] if p["step"] == step)
    ids = data["example"]["ids"]
    layers = data["settings"]["layers"]
    saved = data["replay"][index]["attention"]
    maps = [
        views.HeadMap(
            rows,
            views.head_title(t, layer, h),
            views.head_score(t, layer, views.point_score(point, layer, h)),
            induction=layer == 1,
        )
        for layer, heads in enumerate(saved)
        for h, rows in enumerate(heads)
    ]
    faint, faint_label = views.control()["history"], t.html(f"{views.SECTION}.legend_control")
    readout = t.sentence(
        "readout",
        step=step,
        copied=Pct(100 * point["test_copied_accuracy"], 0),
        loss=Num(point["test_copied_loss"], 2),
        prefix=Num(views.best(point, layers - 1, "prefix"), 2),
        previous=Num(views.best(point, 0, "previous"), 2),
    )
    curves = views.curves(data["history"], mark=step, t=t, layers=layers, faint=faint, faint_label=faint_label)
    return Shown(
        curves=views.part("chart", curves),
        maps=views.part("maps", views.attention_maps(maps, views.alphabet(t), ids, len(ids) - 1, t)),
        readout=readout,
    )


FIGURE = Replay(saved_steps, show).figure(
    name="induction_replay",
    strings=STRINGS,
    resource=views.key,
    shared=("training", views.SECTION),
)
