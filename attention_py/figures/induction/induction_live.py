"""Train the induction model yourself: the copy task trained from scratch in the page's Python.

Train starts (or resumes) a run, Pause stops it, Reset goes back to step 0; after a run's end
Train again starts a new run of the same recipe. The curves are those of the replay (loss and
accuracy on the copied letters of the 64 test sequences, the best prefix-matching and
previous-token scores), with the run before faint behind them, or, until the reader has
trained, the build's run of the recipe; beside them every head's attention on the example
sequence, as the model has it now, with its score. While it trains, the step reached and the
time left (at the pace its session measured); the verdict as soon as a history point meets
``FORMED`` (the run goes on to its steps), and at the end, if it never did, that it did not form.

A running figure (``RunningFigure``, figures/README.md "Running figures"): its work is a
``TrainingWork`` over attention_py.learning's ``CopyTrainer`` for the recipe (``RECIPE``:
seed, layers, heads, learning rate; and ``steps``, how far a run goes), which the figure
host advances between the page's calls; ``draw`` only draws.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...learning.induction import CopyTrainer, formed_at
from ...learning.induction_run import EXAMPLE, RUN, attention_rows
from ...learning.tasks.copying import CopyTask
from ..kit.figure import Panel, RunningFigure
from ..kit.html import el, esc
from ..kit.live import Session, TrainingWork
from ..kit.recipe import AGAIN, count_shown, rate_shown, recipe_group, run_controls
from ..kit.state import Choice, Flag, Integer, StateSpec
from ..kit.strings import Num, Pct, Text
from . import views

MAX_STEPS = 100_000
RECIPE_SPEC = {
    "seed": Choice((0, 1, 2, 3), RUN["seed"]),
    "layers": Choice((1, 2), 2),
    "heads": Choice((1, 2), 1),
    "learning_rate": Choice((0.01, 0.02, 0.03), 0.02),
}
RECIPE = tuple(RECIPE_SPEC)
STEPS = Choice((200, 400, 1000), 400)  # seeds 0-19 form by step 280 (bench/README.md)
STRINGS = tuple(
    """
    title train train_again pause resume reset status_idle status_running status_paused
    status_done status_step time_left seed layers heads learning_rate steps recipe_caption
    legend_before legend_build readout_ready readout verdict_formed verdict_not_formed
    verdict_one_layer maps_caption caption
    """.split()  # noqa: SIM905
)


LiveSession = Session[TrainingWork[CopyTrainer], None]
"""induction_live's session: its work trains a ``CopyTrainer``; it keeps nothing across runs."""


def new_run(state: dict[str, Any], lang: str) -> TrainingWork[CopyTrainer]:
    chosen = {k: state[k] for k in RECIPE}
    trainer = CopyTrainer(
        CopyTask(),
        chosen["seed"],
        layers=chosen["layers"],
        heads=chosen["heads"],
        learning_rate=chosen["learning_rate"],
    )
    return TrainingWork(trainer)


def prepared_history(state: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The history of the run the build trained with the state's recipe, if it trained one:
    the replay's run, the one-layer control, or one of the article's other experiments (read
    only when neither of the first two is the recipe)."""

    def records() -> Iterator[dict[str, Any]]:
        yield views.data()
        yield views.control()
        yield from views.experiments()

    for record in records():
        if all(state[k] == record["settings"][k] for k in RECIPE):
            history: list[dict[str, Any]] = record["history"]
            return history
    return None


def recipe_controls(state: dict[str, Any], t: Text) -> str:
    fields = {**RECIPE_SPEC, "steps": STEPS}
    count, rate = count_shown(t), rate_shown(t)
    return el(
        "div",
        {"class": "apy-row apy-recipe"},
        *(recipe_group(t, state, key, fields[key], count) for key in ("layers", "heads", "seed")),
        recipe_group(t, state, "learning_rate", fields["learning_rate"], rate),
        recipe_group(t, state, "steps", fields["steps"], count),
    )


def verdict(history: list[dict[str, Any]], layers: int, t: Text) -> str:
    """The end of a run in words: the step the head formed at, or that it did not."""
    when = formed_at(history, layers)
    if when is not None:
        return t.sentence("verdict_formed", step=when)
    return t.sentence("verdict_one_layer" if layers == 1 else "verdict_not_formed", steps=int(history[-1]["step"]))


def draw(state: dict[str, Any], t: Text, session: LiveSession) -> Panel:
    end, work = state["steps"], session.work
    trainer = work.training
    step, history, layers = work.step, trainer.history, state["layers"]
    curves = views.curves(history, mark=step, t=t, layers=layers, last_step=end, **faint_run(state, t, session))
    body = (
        views.part(
            "controls",
            controls(state, t, work, session.seconds_per_step)
            + recipe_controls(state, t)
            + el("p", {"class": "apy-muted"}, t.html("recipe_caption")),
        )
        + views.part("chart", curves)
        + views.part(
            "maps",
            el("p", {"class": "apy-muted"}, t.html("maps_caption", step=esc(t.count(step))))
            + maps(state, t, trainer, step),
        )
    )
    return Panel(body, readout(state, t, history, done=step >= end and not state["running"]), [t.html("caption")])


def controls(state: dict[str, Any], t: Text, work: TrainingWork[CopyTrainer], pace: float | None = None) -> str:
    """Train / Pause / Resume / Train again, Reset and the run's status: while it trains, the
    step reached and the time left at ``pace`` (seconds a step, as its session measured it)."""
    running, step = state["running"], work.step
    done = step >= state["steps"] and not running
    if running:
        label, status = t.html("pause"), t.sentences(t.html("status_running"), progress(step, state["steps"], pace, t))
    elif step == 0 and not work.begun:
        label, status = t.html("train"), t.html("status_idle")
    elif done:
        label, status = t.html("train_again"), t.html("status_done", steps=esc(t.count(step)))
    else:
        label, status = t.html("resume"), t.html("status_paused")
    return run_controls(
        t, label, status, AGAIN if done else {"running": not running}, running=running, at_start=step == 0
    )


def progress(step: int, steps: int, pace: float | None, t: Text) -> str:
    """The step counter, and the seconds left to the last step at ``pace`` once it is known."""
    counter = t.sentence("status_step", step=step, steps=steps)
    if pace is None:
        return counter
    return t.sentences(counter, t.sentence("time_left", seconds=max(1, round((steps - step) * pace))))


def faint_run(state: dict[str, Any], t: Text, session: LiveSession) -> dict[str, Any]:
    """The run drawn faint behind the curves: the run before, or, until there is one, where
    the build's run of this recipe went (``prepared_history``; none for a recipe the build
    did not train)."""
    before = session.previous.training.history if session.previous is not None else []
    if before:
        return {"faint": before, "faint_label": t.html("legend_before")}
    prepared = prepared_history(state)
    if prepared is not None:  # where this recipe goes: the build trained it
        faint = [p for p in prepared if p["step"] <= state["steps"]]
        return {"faint": faint, "faint_label": t.html("legend_build")}
    return {"faint": [], "faint_label": t.html("legend_before")}


def maps(state: dict[str, Any], t: Text, trainer: CopyTrainer, step: int) -> str:
    """Every head's attention on the example sequence, as the model has it at ``step``, each
    with its score at the last history point (its step said when it is not ``step``); with
    two layers, the cells an induction head attends to ringed in layer 2's."""
    letters = views.alphabet(t)
    heads = [(layer, h) for layer in range(state["layers"]) for h in range(state["heads"])]
    point = trainer.history[-1] if trainer.history else None
    measured = None if point is None or point["step"] == step else int(point["step"])
    attention = attention_rows(trainer.model, EXAMPLE.ids)
    shown = [
        views.HeadMap(
            attention[layer][h],
            t.plain("training.layer_head_n", layer=t.count(layer + 1), head=t.count(h + 1)),
            views.head_score(t, layer, views.point_score(point, layer, h), measured),
            induction=layer == 1,
        )
        for layer, h in heads
    ]
    return views.attention_maps(shown, letters, EXAMPLE.ids, len(EXAMPLE.ids) - 1, t)


def readout(state: dict[str, Any], t: Text, history: list[dict[str, Any]], *, done: bool) -> str:
    """The last history point's scores, and the verdict: as soon as the head has formed (the
    run goes on), or at the end that it did not."""
    if not history:
        return t.html("readout_ready")
    point, layers = history[-1], state["layers"]
    said = t.sentence(
        "readout",
        step=int(point["step"]),
        copied=Pct(100 * point["test_copied_accuracy"], 0),
        loss=Num(point["test_copied_loss"], 2),
        prefix=Num(views.best(point, layers - 1, "prefix"), 2),
    )
    if done or formed_at(history, layers) is not None:
        return t.sentences(said, el("span", {"class": "apy-verdict"}, verdict(history, layers, t)))
    return said


FIGURE: RunningFigure[TrainingWork[CopyTrainer], None] = RunningFigure(
    name="induction_live",
    spec=StateSpec(
        {
            "running": Flag(False),
            "step": Integer(0, MAX_STEPS, 0),
            **RECIPE_SPEC,
            "steps": STEPS,
        }
    ),
    strings=STRINGS,
    draw=draw,
    resource=views.key,
    shared=("training", views.SECTION),
    start=new_run,
    key=RECIPE,
    end="steps",
    shareable=(*RECIPE, "steps"),
)
