"""Train it yourself: the puzzle model trained from scratch in the page's Python, with the
recipe in the reader's hands.

Train starts (or resumes) a run, Pause stops it, Reset goes back to step 0; after a run's end
Train again starts a new run of the same recipe (the old one stays on the shelf, and faint
behind the curves). The shelf keeps finished runs to compare, save and import
(training_app/shelf_view.py). This is a running figure (``RunningFigure``, figures/README.md "Running
figures"): its work is a ``Run`` (training_app/run.py: an attention_py.learning ``Trainer`` for
the recipe, then the extra sets its report scores), which the figure host advances between
the page's calls; ``draw`` only draws the state, the run, the run before it (faint behind the
curves) and the shelf.

The recipe is in the state (``RECIPE``: seed, learning rate, layers, heads, d_model,
positions, the data, the causal mask; and ``steps``, how far a run goes), declared once in
``RECIPE_SPEC`` and ``STEPS``: the build's settings are checked against them
(site_hooks/content/training.py) and the tests read them. Its defaults on a page are the build's run of the page's language
(the resource ``training/<lang>``), so the default figure retraces the site's own training;
until that run has begun, the figure shows the build's first checkpoint, the same model.

At the end of a run the figure reports the test accuracy per group of reason (from the last
history point's own scoring) and a verdict in words (``verdict``); for the give-away data it
also scores the fair puzzle's test sentences (the article's shortcut section measures the
same), and without positions each test sentence's twin (the same words with the two people
swapped).

State (defaults): ``running: false``, ``step: 0``, ``sentence: 0``, ``view: pronoun``, the
recipe (defaults: the build's run): ``seed: 0`` (0..3), ``learning_rate: 0.01`` (0.003, 0.03,
0.1), ``steps: 120`` (60, 240), ``layers: 2`` (1), ``heads: 1`` (2), ``d_model: 16`` (8),
``positions: learned`` (``sinusoidal``, ``none``), ``data: fair`` (``giveaway``, ``own``),
``causal: false``; changing one of these but ``steps`` starts again from step 0; the reader's
own puzzle: ``own_open: false``, ``own_people``, ``own_actions``, ``own_actor``, ``own_patient``
(text, one item a line; ``""`` is the site's box; editing one starts again too). Its actions:
the shelf of kept runs ("Actions")
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...learning import Model
from ..kit.figure import Panel, RunningFigure
from ..kit.html import el, esc
from ..kit.recipe import AGAIN, count_shown, rate_shown, recipe_group, run_controls
from ..kit.state import Choice, Flag, Integer, StateSpec
from ..kit.strings import Num, Pct, Text
from . import views
from .training_app.own_puzzle import STRINGS as PUZZLE_STRINGS
from .training_app.own_puzzle import refusal_text
from .training_app.own_view import STRINGS as EDITOR_STRINGS
from .training_app.own_view import own_editor
from .training_app.run import (
    OWN,
    OWN_SPEC,
    RECIPE,
    RECIPE_SPEC,
    STEPS,
    PreparedRun,
    Run,
    Scored,
    build_defaults,
    build_recipe,
    made_own,
    new_run,
    own_texts,
    prepared_run,
    recipe_of,
    run_record,
)
from .training_app.shelf import Shelf
from .training_app.shelf_view import STRINGS as SHELF_STRINGS
from .training_app.shelf_view import LiveSession, ShelfActions, keep_finished, shelf_panel

MAX_STEPS = 100_000
GOOD = 0.9  # test accuracy from which a run has learned (the verdict's threshold)

# The keys of its strings, as one block of words (shorter to read than a key a line).
STRINGS = (
    tuple(
        """
    title train train_again pause resume reset sentence status_idle status_prepared status_running
    status_paused status_done readout readout_start readout_ready maps_caption answer
    answer_right answer_wrong caption recipe_caption seed learning_rate steps layers heads
    d_model positions positions_learned positions_sinusoidal positions_none data data_fair
    data_giveaway data_own causal causal_off causal_on legend_validation legend_previous
    report_caption report_test report_fair group_actor group_patient group_all twins
    verdict_learned verdict_form verdict_order verdict_ahead verdict_layers verdict_failed
    """.split()  # noqa: SIM905
    )
    + SHELF_STRINGS
    + PUZZLE_STRINGS
    + EDITOR_STRINGS
)


def verdict(recipe: tuple[Any, ...], test: float, fair: float | None) -> str:
    """The key of the verdict on a finished run: its test accuracy ``test`` and, for the
    give-away data, its accuracy on the fair test sentences ``fair``."""
    chosen = dict(zip(RECIPE, recipe))
    if test >= GOOD:
        if chosen["data"] == "giveaway" and fair is not None and fair < GOOD:
            return "verdict_form"
        return "verdict_learned"
    if chosen["positions"] == "none":
        return "verdict_order"
    if chosen["causal"]:
        return "verdict_ahead"
    if chosen["layers"] == 1:  # exactly half right in every run we tried: seeds 0-3, 240 steps, en/he/fa
        return "verdict_layers"
    return "verdict_failed"


def verdict_html(key: str, t: Text, scores: dict[str, Scored], end: int) -> str:
    """The verdict's sentence, its numbers filled in."""
    test = scores["test"].accuracy()
    fair = scores.get("fair")
    return t.sentence(
        key,
        accuracy=Pct(100 * test, 0),
        fair=Pct(100 * (fair.accuracy("patient") if fair is not None else 0.0), 0),
        steps=end,
    )


def report(recipe: tuple[Any, ...], scores: dict[str, Scored] | None, t: Text, end: int) -> tuple[str, str]:
    """The end of a run: a table of test accuracy per group of reason (and on the fair
    sentences, for the give-away data), the twins' accuracy without positions, the verdict.
    Hidden, with dashes, until the run has ended (the same elements either way). Returns the
    markup and the verdict's sentence ("" before the end)."""
    chosen = dict(zip(RECIPE, recipe))
    columns = ["test", *(["fair"] if chosen["data"] == "giveaway" else [])]

    def cell(name: str, group: str | None) -> str:
        tally = scores.get(name) if scores else None
        shown = views.percent(tally.accuracy(group), t=t) if tally is not None else "–"
        return el("td", {}, shown)

    head = el(
        "tr",
        {},
        el("td", {}),
        *(el("th", {"scope": "col"}, t.html(f"report_{name}")) for name in columns),
    )
    rows = "".join(
        el("tr", {}, el("th", {"scope": "row"}, t.html(label)), *(cell(name, group) for name in columns))
        for label, group in (("group_actor", "actor"), ("group_patient", "patient"), ("group_all", None))
    )
    table = el(
        "table",
        {"class": "apy-probs apy-groups"},
        el("caption", {}, t.html("report_caption")),
        el("thead", {}, head),
        el("tbody", {}, rows),
    )
    parts = [table]
    if chosen["positions"] == "none":
        twins = scores.get("twins") if scores else None
        both: Pct | str = "–"
        if scores is not None and twins is not None:  # the test sentences and their twins together
            test = scores["test"]
            right, seen = test.tally.right + twins.tally.right, test.tally.seen + twins.tally.seen
            both = Pct(100 * right / max(seen, 1), 0)
        parts.append(el("p", {"class": "apy-twins"}, t.sentence("twins", accuracy=both)))
    said = ""
    if scores is not None:
        fair = scores.get("fair")
        key = verdict(recipe, scores["test"].accuracy(), fair.accuracy() if fair is not None else None)
        said = verdict_html(key, t, scores, end)
    parts.append(el("p", {"class": "apy-verdict"}, said))
    return el("div", {"class": "apy-report", "hidden": scores is None}, "".join(parts)), said


def recipe_controls(state: dict[str, Any], t: Text) -> str:
    """Button groups for the recipe, in one row that wraps: the big lessons first (positions,
    the causal mask, the data), then the model's size, then the training's own settings."""
    fields = {**RECIPE_SPEC, "steps": STEPS}
    count, rate = count_shown(t), rate_shown(t)

    def group(key: str, shown: Callable[[Any], str]) -> str:
        return recipe_group(t, state, key, fields[key], shown)

    return el(
        "div",
        {"class": "apy-row apy-recipe"},
        group("positions", lambda v: t.html(f"positions_{v}")),
        group("causal", lambda v: t.html("causal_on" if v else "causal_off")),
        group("data", lambda v: t.html(f"data_{v}")),
        *(group(key, count) for key in ("layers", "heads", "d_model", "seed")),
        group("learning_rate", rate),
        group("steps", count),
    )


@dataclass(frozen=True)
class Showing:
    """What the figure draws of its run: the step, model, history and each step's loss, and
    the report's scores when they are known already (a prepared run's); ``prepared`` is the
    build's run of the recipe, shown until the reader trains."""

    step: int
    model: Model
    history: list[dict[str, Any]]
    step_losses: list[float]
    scores: dict[str, Scored] | None = None
    prepared: PreparedRun | None = None


def showing(state: dict[str, Any], lang: str, run: Run) -> Showing:
    """The build's run of the recipe until the reader trains (or, for the build's recipe
    without one, its first checkpoint: the same model), else the run itself (with the build's
    first history point until its own is scored, for the build's recipe)."""
    own = recipe_of(state) != build_recipe(lang)
    untouched = run.step == 0 and not state["running"] and not run.started
    prepared = prepared_run(lang, state) if untouched else None
    if prepared is not None:
        return Showing(prepared.step, prepared.model, prepared.history, prepared.step_losses, prepared.scores, prepared)
    if not own and untouched:
        return Showing(run.step, views.model_at(lang, 0), views.data(lang)["history"][:1], [])
    trainer = run.trainer
    history = trainer.history or ([] if own else views.data(lang)["history"][:1])
    return Showing(run.step, trainer.model, history, trainer.step_losses)


def draw(state: dict[str, Any], t: Text, session: LiveSession) -> Panel:
    lang, end, run = t.lang, state["steps"], session.work
    shown = showing(state, lang, run)
    done = shown.step >= end and not state["running"]
    scores = shown.scores
    if done and scores is None:
        scores = run.report(end)
        keep_finished(session, state, lang)
    the_report, said = report(recipe_of(state), scores if done else None, t, end)
    previous = session.previous.trainer.history if session.previous is not None else []
    body = (
        controls(state, t, run, shown, done=done)
        + recipe_controls(state, t)
        + el("p", {"class": "apy-muted"}, t.html("recipe_caption"))
        + own_editor(
            state, t, {k: state[f"own_{k}"] or v for k, v in own_texts(state, lang).items()}, made_own(state, lang)
        )
        + views.curves(
            shown.history,
            mark=shown.step,
            last_step=end,
            t=t,
            validation=t.html("legend_validation"),
            previous=previous,
            previous_label=t.html("legend_previous"),
            step_losses=shown.step_losses,
        )
        + the_report
        + shelf_panel(session.kept, t, can_keep(session, state, lang))
        + sentence_views(state, t, run, shown)
    )
    return Panel(body, readout(shown.history, said, t), [t.html("caption")])


def controls(state: dict[str, Any], t: Text, run: Run, shown: Showing, *, done: bool) -> str:
    """Train / Pause / Resume / Train again (a new run of the same recipe, the old one faint),
    Reset, and the run's status: why the reader's puzzle cannot be trained, if it cannot."""
    running, prepared = state["running"], shown.prepared is not None
    if run.refused is not None:  # the reader's puzzle: nothing to train until it is fixed
        label, status = t.html("train"), esc(refusal_text(run.refused, t))
    elif running:
        label, status = t.html("pause"), t.html("status_running")
    elif prepared:
        label, status = t.html("train"), t.html("status_prepared")
    elif shown.step == 0 and not run.started:
        label, status = t.html("train"), t.html("status_idle")
    elif done:
        label, status = t.html("train_again"), t.html("status_done", steps=esc(t.count(shown.step)))
    else:
        label, status = t.html("resume"), t.html("status_paused")
    train = AGAIN if done and not prepared else {"running": not running}
    refused = run.refused is not None
    return run_controls(t, label, status, train, running=running, at_start=run.step == 0, refused=refused)


def sentence_views(state: dict[str, Any], t: Text, run: Run, shown: Showing) -> str:
    """The sentence and view menus, the model's attention on that sentence, and its answer."""
    sentences = views.examples_of(run.trainer.puzzle) if state["data"] == "own" else views.examples(t.lang)
    s = sentences[state["sentence"]]
    reading = shown.model.read(s)
    guess = reading.prediction
    answer = t.sentences(
        t.sentence(
            "answer", word=esc(shown.model.people[guess]), probability=Pct(100 * reading.probabilities[guess], 1)
        ),
        t.html("answer_right" if guess == s.label else "answer_wrong", truth=esc(s.referent)),
    )
    menus = el(
        "div",
        {"class": "apy-row"},
        views.example_menu("sentence", state["sentence"], t.lang, t, "sentence", sentences),
        views.view_menu(state["view"], t),
    )
    return (
        menus
        + el("p", {"class": "apy-muted"}, t.html("maps_caption", step=esc(t.count(shown.step))))
        + views.attention_maps(reading, s, state["view"], t, "apy-live")
        + el("p", {"class": "apy-answer"}, answer)
    )


def readout(history: list[dict[str, Any]], said: str, t: Text) -> str:
    """The last history point's loss and test accuracy, and the verdict (``said``) at the end."""
    if not history:
        return t.html("readout_ready")
    point = history[-1]
    if point["step"] == 0:
        return t.sentence("readout_start", accuracy=Pct(100 * point["test_accuracy"], 0))
    loss = point["loss"]
    measured = t.sentence(
        "readout",
        step=int(point["step"]),
        loss=Num(loss, 2) if math.isfinite(loss) else el("span", {"dir": "ltr", "class": "apy-num"}, "∞"),
        accuracy=Pct(100 * point["test_accuracy"], 0),
    )
    return t.sentences(measured, said) if said else measured


def can_keep(session: LiveSession, state: dict[str, Any], lang: str) -> bool:
    """Whether the finished run shown can be kept: there is one, and the shelf lacks it."""
    shown = shown_record(session, state, lang)
    return shown is not None and not (session.kept is not None and session.kept.holds(shown))


def shown_record(session: LiveSession, state: dict[str, Any], lang: str) -> dict[str, Any] | None:
    """The record of the finished run the figure shows (the build's, or the reader's), if any."""
    run = session.work
    if run.step == 0 and not state["running"] and not run.started:
        prepared = prepared_run(lang, state)
        return prepared.record if prepared is not None else None
    if run.report(state["steps"]) is not None and not state["running"]:
        return run_record(run, state)
    return None


FIGURE: RunningFigure[Run, Shelf] = RunningFigure(
    name="train_live",
    spec=StateSpec(
        {
            "running": Flag(False),
            "step": Integer(0, MAX_STEPS, 0),
            "sentence": Integer(0, views.EXAMPLES - 1, 0),
            "view": Choice(("pronoun", "full"), "pronoun"),
            **{k: RECIPE_SPEC[k] for k in ("seed", "learning_rate")},
            "steps": STEPS,
            **{k: f for k, f in RECIPE_SPEC.items() if k not in ("seed", "learning_rate")},
            "own_open": Flag(False),
            **OWN_SPEC,
        }
    ),
    strings=STRINGS,
    draw=draw,
    resource=views.key,
    shared=(views.SHARED_SECTION,),
    start=new_run,
    key=(*RECIPE, *OWN),  # a recipe control, or an edit of the reader's puzzle, starts again
    end="steps",
    shareable=(*RECIPE, "steps"),  # a teacher's link opens an experiment: #train?positions=none
    language_defaults=build_defaults,
    actions=ShelfActions(shown_record),
)
