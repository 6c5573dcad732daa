"""Train it yourself: the puzzle model trained from scratch in the page's Python.

Train starts (or resumes) training, Pause stops it, Reset starts again from the first step.
While the state says ``running: true`` the page's host calls the figure again after each
answer (README.md, "Running figures"); each call runs a short chunk of training (about
``BUDGET`` seconds, ``LiveTraining.work``: optimiser steps, and the held-out scoring of each
history point one sentence at a time) and draws the curves so far, the accuracy and what
the model attends to in one sentence. Between chunks the host yields, so the page stays
responsive and the other figures' calls take their turn in Python's queue.

The trainer is attention_py.learning's ``Trainer`` with the settings the build trained
with (from the resource ``training/<lang>``), kept between calls per figure instance. Its
step must match the state's: a state that does not match (a Reset sets ``step: 0``, a fresh
Python after a reload has no trainer) starts a new trainer, paused at step 0.
"""

from __future__ import annotations

import time
from typing import Any

from ..learning import DEFAULTS, Puzzle, Trainer
from ..learning.train import HistoryPoint, Tally
from . import _learning_views as views
from ._controls import button
from ._figure import Figure, Panel
from ._html import el, esc
from ._state import Choice, Flag, Integer, StateSpec
from ._strings import Text

BUDGET = 0.1  # seconds of training per call (at least one step)
MAX_STEPS = 100_000
STRINGS = (
    "title",
    "train",
    "pause",
    "resume",
    "reset",
    "sentence",
    "status_idle",
    "status_running",
    "status_paused",
    "status_done",
    "readout",
    "readout_start",
    "caption",
    "maps_caption",
)


class LiveTraining:
    """A ``Trainer`` driven in pieces short enough for a page: each piece is one optimiser
    step or one held-out sentence scored.

    A history point's held-out sentences are scored one a piece, and training waits until
    the point is complete, so every point measures the model of its own step: the same steps
    and history as ``Trainer.run`` (tests/test_figures_learning.py).
    """

    def __init__(self, puzzle: Puzzle, seed: int, **settings: Any) -> None:
        """A new trainer (``Trainer(puzzle, seed, **settings)``), quick to make: the held-out
        scores of its step-0 history point are left to ``work``."""
        self.trainer = Trainer(puzzle, seed, record_start=False, **settings)
        self._point: HistoryPoint | None = self.trainer.start_point()  # the point being scored
        self._scored: dict[str, Tally] = {}  # its held-out sets' scores so far, by name
        self._step_seconds = 0.0  # how long an optimiser step takes here (``work`` plans with it)

    @property
    def scoring(self) -> bool:
        """Whether a history point still waits for held-out scores."""
        return self._point is not None

    def work(self, until: int, seconds: float) -> list[HistoryPoint]:
        """Train towards step ``until`` for about ``seconds``.

        Returns once ``seconds`` have passed or the next step would pass them (after one
        piece at least), or when step ``until`` is reached and its history point, if one is
        due, is complete; returns the history points completed meanwhile.
        """
        trainer = self.trainer
        deadline = time.perf_counter() + seconds
        new: list[HistoryPoint] = []
        done = False
        while self._point is not None or trainer.step < until:
            now = time.perf_counter()
            if done and self._point is None and now + self._step_seconds > deadline:
                break  # a step would overrun the time left (it is the longest piece)
            done = True
            if self._point is not None:
                point = self._score(self._point, deadline)
                if point is not None:
                    new.append(point)
            else:
                trainer.train_step()
                took = time.perf_counter() - now
                self._step_seconds = took if not self._step_seconds else 0.8 * self._step_seconds + 0.2 * took
                if trainer.point_due:
                    self._point = trainer.start_point()
            if time.perf_counter() >= deadline:
                break
        return new

    def _score(self, point: HistoryPoint, deadline: float) -> HistoryPoint | None:
        """Scores held-out sentences for ``point`` until ``deadline`` (one at least); the point,
        recorded in the trainer's history, once every sentence is scored, else None."""
        trainer = self.trainer
        for part, (name, sentences) in enumerate(trainer.held_out):
            tally = self._scored.setdefault(name, Tally())
            if tally.seen == len(sentences):
                continue
            while tally.seen < len(sentences):
                tally.add(trainer.model, sentences[tally.seen])
                if time.perf_counter() >= deadline:
                    break
            if tally.seen < len(sentences):
                return None
            if time.perf_counter() >= deadline and part < len(trainer.held_out) - 1:
                return None
        scored, self._point, self._scored = self._scored, None, {}
        return trainer.record(point, scored)


_TRAINERS: dict[tuple[str | None, str], LiveTraining] = {}


def settings(lang: str) -> dict[str, Any]:
    """The build's training settings that ``Trainer`` takes (the seed apart)."""
    saved = views.data(lang).get("settings", {})
    return {k: saved[k] for k in DEFAULTS if k in saved}


def seed(lang: str) -> int:
    return int(views.data(lang).get("settings", {}).get("seed", 0))


def goal(lang: str) -> int:
    """How far a run goes: as far as the build trained."""
    return int(views.checkpoints(lang)[-1]["step"])


def trainer_for(instance: str | None, lang: str, step: int, running: bool) -> LiveTraining | None:
    """This figure's training at ``step``. Without one at that step: a new one if training
    starts now, else none (the figure shows step 0 from the build's first checkpoint, which
    is the same model: same puzzle, settings and seed)."""
    slot = (instance, lang)
    live = _TRAINERS.get(slot)
    if live is not None and live.trainer.step == step and (step > 0 or running):
        return live  # (at step 0 only while running: the first history point may still be scoring)
    _TRAINERS.pop(slot, None)
    if not running:
        return None
    live = _TRAINERS[slot] = LiveTraining(views.puzzle(lang), seed(lang), **settings(lang))
    return live


def unfinished(live: LiveTraining, until: int) -> bool:
    """Whether training towards step ``until`` has work left (steps, or held-out scores of a
    history point being measured)."""
    return live.trainer.step < until or live.scoring


def draw(state: dict[str, Any], t: Text, instance: str | None) -> Panel:
    lang = t.lang
    end = goal(lang)
    before = _TRAINERS.get((instance, lang))
    live = trainer_for(instance, lang, state["step"], state["running"])
    fresh = live is not None and live is not before  # just set up: that was this call's work
    if live is None:  # step 0, paused: the build's first checkpoint is this model
        running, step, model, history = False, 0, views.model_at(lang, 0), views.data(lang)["history"][:1]
    else:
        running = state["running"] and unfinished(live, end)
        if running and not fresh:
            # about BUDGET seconds: optimiser steps, and each history point's held-out scores
            # a sentence at a time, so no call holds Python for long
            live.work(end, BUDGET)
            running = unfinished(live, end)
        # until the first history point is scored, the build's (the same untrained model)
        trainer = live.trainer
        step, model, history = trainer.step, trainer.model, trainer.history or views.data(lang)["history"][:1]
    chosen = min(state["sentence"], views.EXAMPLES - 1)
    s = views.examples(lang)[chosen]
    reading = model.read(s)
    point = history[-1]
    if running:
        label, status = t.html("pause"), t.html("status_running")
    elif step == 0:
        label, status = t.html("train"), t.html("status_idle")
    elif step >= end:
        label, status = t.html("train"), t.html("status_done")
    else:
        label, status = t.html("resume"), t.html("status_paused")
    controls = el(
        "div",
        {"class": "apy-row"},
        button(
            label, {"running": not running}, pressed=running, focus_key="train", disabled=step >= end and not running
        ),
        button(t.html("reset"), {"running": False, "step": 0}, focus_key="reset", disabled=step == 0 and not running),
        el("span", {"class": "apy-status", "role": "status"}, status),
    )
    menus = el(
        "div",
        {"class": "apy-row"},
        views.example_menu("sentence", chosen, lang, t, "sentence"),
        views.view_menu(state["view"], t),
    )
    if point["step"] == 0:
        readout = t.html("readout_start", accuracy=views.percent(point["test_accuracy"]))
    else:
        readout = t.html(
            "readout",
            step=esc(t.count(point["step"])),
            loss=views.measured(point["loss"]),
            accuracy=views.percent(point["test_accuracy"]),
        )
    body = (
        controls
        + views.curves(history, mark=step, last_step=end, t=t)
        + menus
        + el("p", {"class": "apy-muted"}, t.html("maps_caption", step=esc(t.count(step))))
        + views.attention_maps(reading, s, state["view"], t, "apy-live")
    )
    shown = {**state, "running": running, "step": step, "sentence": chosen}
    return Panel(body, readout, [t.html("caption")], state=shown)


FIGURE = Figure(
    name="train_live",
    spec=StateSpec(
        {
            "running": Flag(False),
            "step": Integer(0, MAX_STEPS, 0),
            "sentence": Integer(0, views.EXAMPLES - 1, 0),
            "view": Choice(("pronoun", "full"), "pronoun"),
        }
    ),
    strings=STRINGS,
    draw=draw,
    resource=views.key,
    instanced=True,
    shared=(views.SHARED_SECTION,),
)
