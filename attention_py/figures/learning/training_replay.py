"""Replay of training: the checkpoints saved while the build trained the puzzle model.

A slider (and Previous / Next) runs over the checkpoints; the figure shows the curves of
training (loss, held-out and training accuracy) with the chosen step marked, and what the
model saved at that step attends to in a chosen sentence, layer by layer: the pronoun's row
alone, or the whole map with that row highlighted. Nothing is trained here: each checkpoint
is a saved model (the resource ``training/<lang>``), and the maps are its ``read``.

State (defaults): ``checkpoint: 9999`` (index, clamped to the last = trained), ``sentence: 0``
(0..3: person 0 → 1 with the first actor / patient reason, then the two swapped), ``view:
pronoun`` (``full``)
"""

from __future__ import annotations

from typing import Any

from ..kit.controls import button, slider
from ..kit.figure import Figure, Panel
from ..kit.html import el, esc
from ..kit.state import Choice, Integer, StateSpec
from ..kit.strings import Num, Pct, Text
from . import views

LAST = 9999  # the default checkpoint: clamped to the last one, the trained model
STRINGS = (
    "title",
    "checkpoint",
    "previous",
    "next",
    "step_value",
    "sentence",
    "readout",
    "answer_right",
    "answer_wrong",
    "caption",
    "maps_caption",
)


def draw(state: dict[str, Any], t: Text) -> Panel:
    lang = t.lang
    saved = views.checkpoints(lang)
    index = min(state["checkpoint"], len(saved) - 1)
    chosen = min(state["sentence"], views.EXAMPLES - 1)
    step = saved[index]["step"]
    data = views.data(lang)
    history = data["history"]
    last_step = saved[-1]["step"]
    s = views.examples(lang)[chosen]
    model = views.model_at(lang, index)
    reading = model.read(s)
    point = min(history, key=lambda p: abs(p["step"] - step))  # the history point of this checkpoint
    shown_step = t.count(step)
    # Left to right in every language: the slider and its buttons move along the curves'
    # step axis, which is drawn left to right like all the figures' numbers.
    controls = el(
        "div",
        {"class": "apy-row", "dir": "ltr"},
        button(t.html("previous"), {"checkpoint": max(index - 1, 0)}, disabled=index <= 0, focus_key="previous"),
        slider(
            "checkpoint",
            index,
            lo=0,
            hi=len(saved) - 1,
            step=1,
            label=t.html("checkpoint"),
            aria_label=t.plain("checkpoint"),
            shown=f"{step}",
            valuetext=t.plain("step_value", step=shown_step),
            digits=0,
        ),
        button(
            t.html("next"),
            {"checkpoint": min(index + 1, len(saved) - 1)},
            disabled=index >= len(saved) - 1,
            focus_key="next",
        ),
    )
    menus = el(
        "div",
        {"class": "apy-row"},
        views.example_menu("sentence", chosen, lang, t, "sentence"),
        views.view_menu(state["view"], t),
    )
    people = model.people
    guess = reading.prediction
    verdict = t.html("answer_right" if guess == s.label else "answer_wrong", truth=esc(s.referent))
    readout = t.sentences(
        t.sentence(
            "readout",
            step=step,
            loss=Num(point["loss"], 2),
            accuracy=Pct(100 * point["test_accuracy"], 0),
            word=esc(people[guess]),
            probability=Pct(100 * reading.probabilities[guess], 0),
        ),
        verdict,
    )
    body = (
        controls
        + views.curves(history, mark=step, last_step=last_step, t=t)
        + menus
        + el("p", {"class": "apy-muted"}, t.html("maps_caption"))
        + views.attention_maps(reading, s, state["view"], t, "apy-replay")
    )
    return Panel(body, readout, [t.html("caption")])


FIGURE = Figure(
    name="training_replay",
    spec=StateSpec(
        {
            "checkpoint": Integer(0, LAST, LAST),
            "sentence": Integer(0, views.EXAMPLES - 1, 0),
            "view": Choice(("pronoun", "full"), "pronoun"),
        }
    ),
    strings=STRINGS,
    draw=draw,
    resource=views.key,
    shared=(views.SHARED_SECTION,),
)
