"""Train the induction model yourself: the copy task trained from scratch in the page's Python.

Train starts (or resumes) a run, Pause stops it, Reset goes back to step 0; after a run's end
Train again starts a new run of the same recipe. The curves are those of the replay (loss and
accuracy on the copied letters of the 64 test sequences, the best prefix-matching and
previous-token scores), with the run before faint behind them, or, until the reader has
trained, the build's run of the recipe; under them every head's attention on the example
sequence, as the model has it now. At the end, a verdict: formed (at which step, by
``FORMED``), or not.

A running figure (``RunningFigure``, figures/README.md "Running figures"): its work is a
``TrainingWork`` over attention_py.learning's ``CopyTrainer`` for the recipe (``RECIPE``:
seed, layers, heads, learning rate; and ``steps``, how far a run goes), which the figure
host advances between the page's calls; ``draw`` only draws.
"""

from __future__ import annotations

from typing import Any

from ...learning.induction import CopyTrainer, formed
from ...learning.induction_run import EXAMPLE, RUN, attention_rows
from ...learning.tasks.copying import CopyTask
from ..kit.controls import button, segmented
from ..kit.figure import Panel, RunningFigure
from ..kit.html import el, esc
from ..kit.live import Session, TrainingWork
from ..kit.state import Choice, Flag, Integer, StateSpec
from ..kit.strings import Num, Pct, Text
from . import views

MAX_STEPS = 100_000
RECIPE_SPEC = {
    "seed": Choice((0, 1, 2, 3), RUN["seed"]),
    "layers": Choice((1, 2), 2),
    "heads": Choice((1, 2), 2),
    "learning_rate": Choice((0.003, 0.01, 0.03), 0.01),
}
RECIPE = tuple(RECIPE_SPEC)
STEPS = Choice((200, 400, 1000), 400)  # seed 0 forms at step 300; every seed 0-9 by 1,000
STRINGS = tuple(
    """
    title train train_again pause resume reset status_idle status_running status_paused
    status_done seed layers heads learning_rate steps recipe_caption legend_before legend_build
    readout_ready readout verdict_formed verdict_not_formed verdict_one_layer maps_caption caption
    """.split()  # noqa: SIM905
)


def new_run(state: dict[str, Any], lang: str) -> TrainingWork:
    chosen = {k: state[k] for k in RECIPE}
    trainer = CopyTrainer(
        CopyTask(),
        chosen["seed"],
        layers=chosen["layers"],
        heads=chosen["heads"],
        learning_rate=chosen["learning_rate"],
    )
    return TrainingWork(trainer)


def is_build_recipe(state: dict[str, Any]) -> bool:
    """Whether the state's recipe is the one the build trained (the replay's run)."""
    settings = views.data()["settings"]
    return all(state[k] == settings[k] for k in RECIPE)


def recipe_controls(state: dict[str, Any], t: Text) -> str:
    def group(key: str, text: Any, direction: str | None = None) -> str:
        field = {**RECIPE_SPEC, "steps": STEPS}[key]
        return segmented(
            t.plain(key), [(text(v), {key: v}, state[key] == v) for v in field.options], key=key, direction=direction
        )

    def count(v: int) -> str:
        return esc(t.count(v))

    def rate(v: float) -> str:
        decimals = len(repr(v).partition(".")[2])
        return el("span", {"dir": "ltr", "class": "apy-num"}, esc(t.num(v, decimals)))

    return el(
        "div",
        {"class": "apy-row apy-recipe"},
        group("layers", count),
        group("heads", count),
        group("seed", count),
        group("learning_rate", rate, direction="ltr"),
        group("steps", count),
    )


def verdict(history: list[dict[str, Any]], layers: int, t: Text) -> str:
    """The end of a run in words: the step the head formed at, or that it did not."""
    when = next((int(p["step"]) for p in history if formed(p, layers)), None)
    if when is not None:
        return t.sentence("verdict_formed", step=when)
    return t.sentence("verdict_one_layer" if layers == 1 else "verdict_not_formed", steps=int(history[-1]["step"]))


def draw(state: dict[str, Any], t: Text, session: Session) -> Panel:
    end, running, work = state["steps"], state["running"], session.work
    trainer: CopyTrainer = work.training
    step, history, layers = work.step, trainer.history, state["layers"]
    done = step >= end and not running
    if running:
        label, status = t.html("pause"), t.html("status_running")
    elif step == 0 and not work.begun:
        label, status = t.html("train"), t.html("status_idle")
    elif done:
        label, status = t.html("train_again"), t.html("status_done", steps=esc(t.count(step)))
    else:
        label, status = t.html("resume"), t.html("status_paused")
    controls = el(
        "div",
        {"class": "apy-row"},
        button(
            label,
            {"running": True, "step": 0} if done else {"running": not running},
            pressed=running,
            focus_key="train",
        ),
        button(t.html("reset"), {"running": False, "step": 0}, focus_key="reset", disabled=step == 0 and not running),
        el("span", {"class": "apy-status", "role": "status"}, status),
    )
    before = session.previous.training.history if session.previous is not None else []
    if before:
        faint, faint_label = before, t.html("legend_before")
    elif is_build_recipe(state):  # where this recipe goes: the build trained it
        faint = [p for p in views.data()["history"] if p["step"] <= end]
        faint_label = t.html("legend_build")
    else:
        faint, faint_label = [], t.html("legend_before")
    letters = views.alphabet(t)
    heads = [(layer, h) for layer in range(layers) for h in range(state["heads"])]
    titles = [t.plain("training.layer_head_n", layer=t.count(layer + 1), head=t.count(h + 1)) for layer, h in heads]
    body = (
        controls
        + recipe_controls(state, t)
        + el("p", {"class": "apy-muted"}, t.html("recipe_caption"))
        + views.curves(history, mark=step, t=t, layers=layers, last_step=end, faint=faint, faint_label=faint_label)
        + el("p", {"class": "apy-muted"}, t.html("maps_caption", step=esc(t.count(step))))
        + views.attention_maps(
            attention_rows(trainer.model, EXAMPLE.ids),
            [letters[i] for i in EXAMPLE.ids],
            len(EXAMPLE.ids) - 1,
            t,
            titles,
        )
    )
    if not history:
        readout = t.html("readout_ready")
    else:
        point = history[-1]
        readout = t.sentence(
            "readout",
            step=int(point["step"]),
            copied=Pct(100 * point["test_copied_accuracy"], 0),
            loss=Num(point["test_copied_loss"], 2),
            prefix=Num(views.best(point, layers - 1, "prefix"), 2),
        )
        if done:
            readout = t.sentences(readout, verdict(history, layers, t))
    return Panel(body, readout, [t.html("caption")])


FIGURE = RunningFigure(
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
