"""Replay of training: the checkpoints saved while the build trained the puzzle model.

A replay (``kit/replay.py``) over the checkpoints: the curves of training (loss, held-out
and training accuracy) with the chosen step marked, and what the model saved at that step
attends to in a chosen sentence, layer by layer: the pronoun's row alone, or the whole map
with that row highlighted. Nothing is trained here: each checkpoint is a saved model (the
resource ``training/<lang>``), and the maps are its ``read``.

State (defaults): ``checkpoint: 9999`` (index, clamped to the last = trained), ``sentence: 0``
(0..3: person 0 → 1 with the first actor / patient reason, then the two swapped), ``view:
pronoun`` (``full``)
"""

from __future__ import annotations

from typing import Any

from ...learning import Sentence
from ...learning.model import Reading
from ..kit.html import el, esc
from ..kit.replay import Replay, Shown
from ..kit.state import Choice, Integer
from ..kit.strings import Num, Pct, Text
from . import views

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


def saved_steps(lang: str) -> list[int]:
    return [saved["step"] for saved in views.checkpoints(lang)]


def show(state: dict[str, Any], t: Text, index: int, step: int) -> Shown:
    """The curves to the build's last checkpoint, the sentence and view menus, the maps of
    the checkpoint's model on the chosen sentence, and what it answers."""
    lang = t.lang
    chosen = min(state["sentence"], views.EXAMPLES - 1)
    s = views.examples(lang)[chosen]
    model = views.model_at(lang, index)
    reading = model.read(s)
    history = views.data(lang)["history"]
    menus = el(
        "div",
        {"class": "apy-row"},
        views.example_menu("sentence", chosen, lang, t, "sentence"),
        views.view_menu(state["view"], t),
    )
    return Shown(
        curves=views.curves(history, mark=step, last_step=saved_steps(lang)[-1], t=t),
        menus=menus,
        maps=views.attention_maps(reading, s, state["view"], t, "apy-replay"),
        readout=readout(history, step, reading, s, model.people, t),
    )


def readout(
    history: list[dict[str, Any]], step: int, reading: Reading, s: Sentence, people: tuple[str, ...], t: Text
) -> str:
    """The step's loss and test accuracy (its history point's), whom the model names, and
    whether that is right."""
    point = min(history, key=lambda p: abs(p["step"] - step))  # the history point of this checkpoint
    guess = reading.prediction
    said = t.sentence(
        "readout",
        step=step,
        loss=Num(point["loss"], 2),
        accuracy=Pct(100 * point["test_accuracy"], 0),
        word=esc(people[guess]),
        probability=Pct(100 * reading.probabilities[guess], 0),
    )
    return t.sentences(said, t.html("answer_right" if guess == s.label else "answer_wrong", truth=esc(s.referent)))


FIGURE = Replay(saved_steps, show).figure(
    name="training_replay",
    strings=STRINGS,
    resource=views.key,
    shared=(views.SHARED_SECTION,),
    fields={
        "sentence": Integer(0, views.EXAMPLES - 1, 0),
        "view": Choice(("pronoun", "full"), "pronoun"),
    },
)
