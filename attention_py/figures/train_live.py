"""Train it yourself: the puzzle model trained from scratch in the page's Python, with the
recipe in the reader's hands (issue 21).

Train starts (or resumes) training, Pause stops it, Reset starts again from the first step.
While the state says ``running: true`` the page's host calls the figure again after each
answer (README.md, "Running figures"); each call runs a short chunk of training (about
``BUDGET`` seconds, ``LiveTraining.work``: training a sentence at a time, steps spanning
calls, and the held-out scoring of each history point one sentence at a time) and draws the curves so far, the accuracy and what
the model attends to in one sentence. Between chunks the host yields, so the page stays
responsive and the other figures' calls take their turn in Python's queue.

The recipe is in the state (``RECIPE``: seed, learning rate, layers, heads, d_model,
positions, the data, the causal mask; and ``steps``, how far a run goes). Its defaults are
the build's run of the page's language (the resource ``training/<lang>``; a puzzle file may
set its language's steps and learning rate: site_hooks/content/training.py), so the default
figure retraces the site's own training. The trainer is attention_py.learning's ``Trainer`` with that recipe,
kept between calls per figure instance and language, together with the recipe it was made
for. A state that does not match it (another recipe: a control was changed; another step:
Reset sets ``step: 0``, a fresh Python after a reload has no trainer; or a step past
``steps``) starts a new trainer at step 0, paused, like Reset.

The run before (its history) is kept in this module per instance and language, not in the
state: it is drawn faint behind the curves so that two recipes compare at a glance, and it
is gone after a reload (the state stays small and shareable).

At the end of a run the figure reports the test accuracy per group of reason (from the last
history point's own scoring) and a verdict in words (``verdict``); for the give-away data it
also scores the fair puzzle's test sentences (the article's shortcut section measures the
same), and without positions each test sentence's twin (the same words with the two people
swapped), a sentence at a time like the history points.
"""

from __future__ import annotations

import math
import time
from typing import Any

from ..learning import DEFAULTS, Model, Puzzle, Sentence, Trainer
from ..learning.backward import BatchGradients
from ..learning.train import HistoryPoint, Tally
from . import _learning_views as views
from ._controls import button, segmented
from ._figure import Figure, Panel
from ._html import el, esc
from ._state import Choice, Flag, Integer, StateSpec
from ._strings import Text

BUDGET = 0.02  # seconds of training per call (a piece at least; bench/figure_latency.py --training)
MAX_STEPS = 100_000

# The recipe's controls (defaults: the build's run, site_hooks/content/training.py SETTINGS
# and attention_py.learning DEFAULTS; tests/test_figures_learning.py checks they agree).
SEEDS = (0, 1, 2, 3)
RATES = (0.003, 0.01, 0.03, 0.1)
STEPS = (60, 120, 240)
LAYERS = (1, 2)
HEADS = (1, 2)
WIDTHS = (8, 16)  # d_model: 8 costs about half the default's step, 32 up to 3.8x (bench/README.md)
POSITIONS = ("learned", "sinusoidal", "none")
DATA = ("fair", "giveaway")
RECIPE = ("seed", "learning_rate", "layers", "heads", "d_model", "positions", "data", "causal")
"""The state's keys that make a trainer: changing one starts again from step 0."""
GOOD = 0.9  # test accuracy from which a run has learned (the verdict's threshold)

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
    "readout_ready",
    "maps_caption",
    "answer",
    "answer_right",
    "answer_wrong",
    "caption",
    "recipe_caption",
    "seed",
    "learning_rate",
    "steps",
    "layers",
    "heads",
    "d_model",
    "positions",
    "positions_learned",
    "positions_sinusoidal",
    "positions_none",
    "data",
    "data_fair",
    "data_giveaway",
    "causal",
    "causal_off",
    "causal_on",
    "legend_validation",
    "legend_previous",
    "report_caption",
    "report_test",
    "report_fair",
    "group_actor",
    "group_patient",
    "group_all",
    "twins",
    "verdict_learned",
    "verdict_form",
    "verdict_order",
    "verdict_ahead",
    "verdict_layers",
    "verdict_failed",
)


class GroupTally(Tally):
    """A ``Tally`` that also counts right answers per group of reason (``Sentence.points_at``)."""

    def __init__(self) -> None:
        super().__init__()
        self.groups: dict[str, list[int]] = {}  # group -> [right, seen]

    def add(self, model: Model, sentence: Sentence) -> None:
        right = self.right
        super().add(model, sentence)
        counts = self.groups.setdefault(sentence.points_at, [0, 0])
        counts[0] += self.right - right
        counts[1] += 1

    def accuracy(self, group: str | None = None) -> float:
        """Accuracy over every sentence (``group`` None) or over one group's."""
        if group is None:
            return self.means()[1]
        right, seen = self.groups.get(group, [0, 0])
        return right / max(seen, 1)


class LiveTraining:
    """A ``Trainer`` driven in pieces short enough for a page: each piece is one training
    sentence's forward and backward pass, the gradient of one weight matrix, the optimiser's
    update (``Trainer.start_step``, ``BatchGradients.advance``, ``Trainer.finish_step``), or
    one held-out sentence scored. A step may span calls; the page shows the last complete one.

    A history point's held-out sentences are scored one a piece, and training waits until
    the point is complete, so every point measures the model of its own step: the same steps
    and history as ``Trainer.run`` (tests/test_figures_learning.py). ``finals`` are more
    sets of sentences (name, sentences) scored the same way once the run has reached its
    last step (``work``'s ``until``), for the report at the end.
    """

    def __init__(
        self,
        puzzle: Puzzle,
        seed: int,
        *,
        recipe: tuple[Any, ...] = (),
        finals: tuple[tuple[str, list[Sentence]], ...] = (),
        **settings: Any,
    ) -> None:
        """A new trainer (``Trainer(puzzle, seed, **settings)``), quick to make: the held-out
        scores of its step-0 history point are left to ``work``."""
        self.trainer = Trainer(puzzle, seed, record_start=False, **settings)
        self.recipe = recipe  # the figure's recipe this trainer was made for
        self.finals = finals
        self._point: HistoryPoint | None = self.trainer.start_point()  # the point being scored
        self._scored: dict[str, Tally] = {}  # its held-out sets' scores so far, by name
        self._step: BatchGradients | None = None  # the step being computed
        self.test_groups: tuple[int, GroupTally] | None = None  # the last point's test scores, by group
        self._final_step = -1  # the step ``final_scores`` were scored at
        self.final_scores: dict[str, GroupTally] = {}

    @property
    def scoring(self) -> bool:
        """Whether a history point still waits for held-out scores."""
        return self._point is not None

    def finishing(self, until: int) -> bool:
        """Whether the run is at step ``until`` with its final sets not all scored yet."""
        if self._point is not None or self.trainer.step != until or not self.finals:
            return False
        return self._final_step != until or any(
            self.final_scores[name].seen < len(sentences) for name, sentences in self.finals
        )

    def work(self, until: int, seconds: float) -> list[HistoryPoint]:
        """Train towards step ``until`` for about ``seconds``.

        Returns once ``seconds`` have passed (after one piece at least: a call overruns by
        one piece at most), or when step ``until`` is reached and its history point, if one
        is due, is complete (and the final sets scored); returns the history points completed
        meanwhile.
        """
        trainer = self.trainer
        deadline = time.perf_counter() + seconds
        new: list[HistoryPoint] = []
        while self._point is not None or self._step is not None or trainer.step < until or self.finishing(until):
            if self._point is not None:
                point = self._score(self._point, deadline)
                if point is not None:
                    new.append(point)
            elif self._step is not None and self._step.complete:
                trainer.finish_step(self._step)
                self._step = None
                if trainer.point_due:
                    self._point = trainer.start_point()
            elif self._step is not None:
                self._step.advance()
            elif trainer.step >= until:
                self._score_finals(until, deadline)
            else:
                self._step = trainer.start_step()
                continue  # no work yet
            if time.perf_counter() >= deadline:
                break
        return new

    def _score(self, point: HistoryPoint, deadline: float) -> HistoryPoint | None:
        """Scores held-out sentences for ``point`` until ``deadline`` (one at least); the point,
        recorded in the trainer's history, once every sentence is scored, else None."""
        trainer = self.trainer
        for part, (name, sentences) in enumerate(trainer.held_out):
            tally = self._scored.setdefault(name, GroupTally())
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
        test = scored.get("test")
        if isinstance(test, GroupTally):
            self.test_groups = (int(point["step"]), test)
        return trainer.record(point, scored)

    def _score_finals(self, until: int, deadline: float) -> None:
        """Scores the final sets' sentences at step ``until`` until ``deadline`` (one at least)."""
        if self._final_step != until:
            self._final_step, self.final_scores = until, {name: GroupTally() for name, _ in self.finals}
        for name, sentences in self.finals:
            tally = self.final_scores[name]
            while tally.seen < len(sentences):
                tally.add(self.trainer.model, sentences[tally.seen])
                if time.perf_counter() >= deadline:
                    return

    def report(self, until: int) -> dict[str, GroupTally] | None:
        """The scores at the end of a run to step ``until``: ``test`` (the last history point's
        test sentences) and each final set, by name; None until all are scored."""
        if self.trainer.step != until or self._point is not None or self.finishing(until):
            return None
        if self.test_groups is None or self.test_groups[0] != until:
            return None
        return {"test": self.test_groups[1], **(self.final_scores if self.finals else {})}


_TRAINERS: dict[tuple[str | None, str], LiveTraining] = {}
_PREVIOUS: dict[tuple[str | None, str], list[HistoryPoint]] = {}  # the run before, per instance and language


def settings(lang: str) -> dict[str, Any]:
    """The build's training settings that ``Trainer`` takes (the seed apart)."""
    saved = views.data(lang).get("settings", {})
    return {k: saved[k] for k in DEFAULTS if k in saved}


def seed(lang: str) -> int:
    return int(views.data(lang).get("settings", {}).get("seed", 0))


def goal(lang: str) -> int:
    """How far the build trained (the default of ``steps``)."""
    return int(views.checkpoints(lang)[-1]["step"])


def recipe_of(state: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(state[k] for k in RECIPE)


def build_recipe(lang: str) -> tuple[Any, ...]:
    """The build's run as a recipe (the figure's defaults)."""
    s = {**DEFAULTS, **settings(lang)}
    build = {**s, "seed": seed(lang), "data": "fair"}
    return tuple(build[k] for k in RECIPE)


def build_defaults(lang: str) -> dict[str, Any]:
    """The figure's defaults on a page of ``lang``: the build's recipe, and its steps when they
    are a value the figure offers (a build always trains so far; a cut-short resource may not)."""
    steps = goal(lang)
    return {**dict(zip(RECIPE, build_recipe(lang))), **({"steps": steps} if steps in STEPS else {})}


def new_training(lang: str, recipe: tuple[Any, ...]) -> LiveTraining:
    """A trainer for ``recipe`` on the language's puzzle (or its give-away version)."""
    chosen = dict(zip(RECIPE, recipe))
    giveaway = chosen["data"] == "giveaway"
    puzzle = views.giveaway_puzzle(lang) if giveaway else views.puzzle(lang)
    finals: list[tuple[str, list[Sentence]]] = []
    if giveaway:  # the fair sentences: the give-away word is not there to help
        finals.append(("fair", views.test_sentences(lang)))
    if chosen["positions"] == "none":
        split_seed = settings(lang).get("split_seed", DEFAULTS["split_seed"])
        test = puzzle.split(seed=split_seed).test
        finals.append(("twins", [twin(puzzle, s) for s in test]))
    options = {k: chosen[k] for k in ("learning_rate", "layers", "heads", "d_model", "positions", "causal")}
    return LiveTraining(puzzle, chosen["seed"], recipe=recipe, finals=tuple(finals), **{**settings(lang), **options})


def twin(puzzle: Puzzle, s: Sentence) -> Sentence:
    """``s`` with its two people swapped: the same words in another order, the other answer."""
    return puzzle.sentence(s.second, s.action, s.first, s.reason)


def trainer_for(
    instance: str | None, lang: str, recipe: tuple[Any, ...], step: int, running: bool, end: int, own: bool
) -> LiveTraining | None:
    """This figure's training of ``recipe`` at ``step``. Without one at that step: a new one
    (at step 0) if training starts now or the recipe is not the build's (``own``); else none
    (the figure shows step 0 from the build's first checkpoint, which is the same model: same
    puzzle, settings and seed). A dropped run that had begun becomes the previous run."""
    slot = (instance, lang)
    live = _TRAINERS.get(slot)
    # (the build's recipe at step 0: only while running, the first history point may still be scoring)
    kept = live is not None and live.recipe == recipe and live.trainer.step == step and step <= end
    if live is not None and kept and (step > 0 or running or own):
        return live
    if live is not None:
        _TRAINERS.pop(slot)
        if any(p["step"] > 0 for p in live.trainer.history):
            _PREVIOUS[slot] = list(live.trainer.history)
    if not running and not own:
        return None
    live = _TRAINERS[slot] = new_training(lang, recipe)
    return live


def unfinished(live: LiveTraining, until: int) -> bool:
    """Whether training towards step ``until`` has work left (steps, held-out scores of a
    history point being measured, or the final sets at the end)."""
    return live.trainer.step < until or live.scoring or live.finishing(until)


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


def verdict_html(key: str, t: Text, scores: dict[str, GroupTally], end: int) -> str:
    """The verdict's sentence, its numbers filled in."""
    test = scores["test"].accuracy()
    fair = scores.get("fair")
    return t.html(
        key,
        accuracy=views.percent(test, t=t),
        fair=views.percent(fair.accuracy("patient") if fair is not None else 0.0, t=t),
        steps=esc(t.count(end)),
    )


def report(recipe: tuple[Any, ...], scores: dict[str, GroupTally] | None, t: Text, end: int) -> tuple[str, str]:
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
        both = "–"
        if scores is not None and twins is not None:  # the test sentences and their twins together
            test = scores["test"]
            both = views.percent((test.right + twins.right) / max(test.seen + twins.seen, 1), t=t)
        parts.append(el("p", {"class": "apy-twins"}, t.html("twins", accuracy=both)))
    said = ""
    if scores is not None:
        fair = scores.get("fair")
        key = verdict(recipe, scores["test"].accuracy(), fair.accuracy() if fair is not None else None)
        said = verdict_html(key, t, scores, end)
    parts.append(el("p", {"class": "apy-verdict"}, said))
    return el("div", {"class": "apy-report", "hidden": scores is None}, "".join(parts)), said


def recipe_controls(state: dict[str, Any], t: Text) -> str:
    """Button groups for the recipe (segmented: a radio group without radio's traps)."""

    def group(key: str, values: tuple[Any, ...], text: Any, direction: str | None = None) -> str:
        return segmented(
            t.plain(key),
            [(text(v), {key: v}, state[key] == v) for v in values],
            key=key,
            direction=direction,
        )

    def count(v: int) -> str:
        return esc(t.count(v))

    def rate(v: float) -> str:
        decimals = len(repr(v).partition(".")[2])  # 0.003 as three decimals, 0.1 as one
        return el("span", {"dir": "ltr", "class": "apy-num"}, esc(t.num(v, decimals)))

    # one row that wraps: the big lessons first (positions, the causal mask, the data), then
    # the model's size, then the training's own settings
    return el(
        "div",
        {"class": "apy-row apy-recipe"},
        group("positions", POSITIONS, lambda v: t.html(f"positions_{v}")),
        group("causal", (False, True), lambda v: t.html("causal_on" if v else "causal_off")),
        group("data", DATA, lambda v: t.html(f"data_{v}")),
        group("layers", LAYERS, count),
        group("heads", HEADS, count),
        group("d_model", WIDTHS, count),
        group("seed", SEEDS, count),
        group("learning_rate", RATES, rate, direction="ltr"),
        group("steps", STEPS, count),
    )


def draw(state: dict[str, Any], t: Text, instance: str | None) -> Panel:
    lang = t.lang
    end = state["steps"]
    recipe = recipe_of(state)
    slot = (instance, lang)
    before = _TRAINERS.get(slot)
    changed = before is not None and before.recipe != recipe  # a recipe control: start again
    wanted_running = state["running"] and not changed
    own = recipe != build_recipe(lang)
    live = trainer_for(instance, lang, recipe, 0 if changed else state["step"], wanted_running, end, own)
    fresh = live is not None and live is not before  # just set up: that was this call's work
    if live is None:  # step 0, paused, the build's recipe: the build's first checkpoint is this model
        running, step, model, history = False, 0, views.model_at(lang, 0), views.data(lang)["history"][:1]
        scores = None
    else:
        running = wanted_running and unfinished(live, end)
        if running and not fresh:
            # about BUDGET seconds of pieces a sentence long, so no call holds Python for long
            live.work(end, BUDGET)
            running = unfinished(live, end)
        # until the first history point is scored: the build's (the same untrained model), or
        # none for another recipe
        trainer = live.trainer
        step, model = trainer.step, trainer.model
        history = trainer.history or ([] if own else views.data(lang)["history"][:1])
        scores = live.report(end)
    chosen = min(state["sentence"], views.EXAMPLES - 1)
    s = views.examples(lang)[chosen]
    reading = model.read(s)
    done = step >= end and not running
    guess = reading.prediction
    answer = (
        t.html("answer", word=esc(model.people[guess]), probability=views.percent(reading.probabilities[guess], 1, t=t))
        + " "
        + t.html("answer_right" if guess == s.label else "answer_wrong", truth=esc(s.referent))
    )
    if running:
        label, status = t.html("pause"), t.html("status_running")
    elif step == 0:
        label, status = t.html("train"), t.html("status_idle")
    elif done:
        label, status = t.html("train"), t.html("status_done", steps=esc(t.count(step)))
    else:
        label, status = t.html("resume"), t.html("status_paused")
    controls = el(
        "div",
        {"class": "apy-row"},
        button(label, {"running": not running}, pressed=running, focus_key="train", disabled=done),
        button(t.html("reset"), {"running": False, "step": 0}, focus_key="reset", disabled=step == 0 and not running),
        el("span", {"class": "apy-status", "role": "status"}, status),
    )
    menus = el(
        "div",
        {"class": "apy-row"},
        views.example_menu("sentence", chosen, lang, t, "sentence"),
        views.view_menu(state["view"], t),
    )
    the_report, said = report(recipe, scores if done else None, t, end)
    if not history:
        readout = t.html("readout_ready")
    elif history[-1]["step"] == 0:
        readout = t.html("readout_start", accuracy=views.percent(history[-1]["test_accuracy"], t=t))
    else:
        point = history[-1]
        loss = point["loss"]
        readout = t.html(
            "readout",
            step=esc(t.count(int(point["step"]))),
            loss=views.measured(loss, t=t)
            if math.isfinite(loss)
            else el("span", {"dir": "ltr", "class": "apy-num"}, "∞"),
            accuracy=views.percent(point["test_accuracy"], t=t),
        )
        if said:
            readout += " " + said
    body = (
        recipe_controls(state, t)
        + el("p", {"class": "apy-muted"}, t.html("recipe_caption"))
        + controls
        + views.curves(
            history,
            mark=step,
            last_step=end,
            t=t,
            validation=t.html("legend_validation"),
            previous=_PREVIOUS.get(slot, []),
            previous_label=t.html("legend_previous"),
        )
        + the_report
        + menus
        + el("p", {"class": "apy-muted"}, t.html("maps_caption", step=esc(t.count(step))))
        + views.attention_maps(reading, s, state["view"], t, "apy-live")
        + el("p", {"class": "apy-answer"}, answer)
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
            "seed": Choice(SEEDS, 0),
            "learning_rate": Choice(RATES, 0.01),
            "steps": Choice(STEPS, 120),
            "layers": Choice(LAYERS, 2),
            "heads": Choice(HEADS, 1),
            "d_model": Choice(WIDTHS, 16),
            "positions": Choice(POSITIONS, "learned"),
            "data": Choice(DATA, "fair"),
            "causal": Flag(False),
        }
    ),
    strings=STRINGS,
    draw=draw,
    resource=views.key,
    instanced=True,
    shared=(views.SHARED_SECTION,),
    shareable=(*RECIPE, "steps"),  # a teacher's link opens an experiment: #train?positions=none
    language_defaults=build_defaults,
)
