"""The work of "Train it yourself" (train_live): its recipe, and a run of it in pieces.

A ``Run`` is the figure's live work (``kit.live.Work``): an attention_py.learning ``Trainer``
for the recipe, advanced a piece at a time by the figure host (``Trainer.pieces``), then,
once it has reached its end, the extra sets its report scores (the fair sentences for the
give-away data, the twins without positions), a sentence a piece.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ....learning import Model, Puzzle, PuzzleSettings, Sentence, Trainer
from ....learning.model import POSITIONS
from ....learning.train import POINTING, Tally
from ....resources import MissingResource, derived, resource
from ...kit.state import Choice, Field, Flag, Writing
from .. import views
from .own_puzzle import FIELDS, MAX_BOX, OwnPuzzle, Refusal, own_puzzle, reader_text

DEFAULTS = PuzzleSettings()  # the build's recipe, before the build's own settings

RECIPE_SPEC: dict[str, Field] = {
    "seed": Choice((0, 1, 2, 3), 0),
    "learning_rate": Choice((0.003, 0.01, 0.03, 0.1), DEFAULTS.learning_rate),
    "layers": Choice((1, 2), DEFAULTS.layers),
    "heads": Choice((1, 2), DEFAULTS.heads),
    "d_model": Choice((8, 16), DEFAULTS.d_model),  # 8: half the default's step; 32 would cost 3.8x
    "positions": Choice(POSITIONS, DEFAULTS.positions),
    "data": Choice(("fair", "giveaway", "own"), "fair"),
    "causal": Flag(DEFAULTS.causal),
}
"""The recipe's controls and the values each offers: the keys that make a run (changing one
starts again from step 0)."""
STEPS = Choice((60, 120, 240), 120)  # how far a run goes (the build trains 120)
RECIPE = tuple(RECIPE_SPEC)
OWN_SPEC: dict[str, Field] = {f"own_{name}": Writing(MAX_BOX) for name in FIELDS}
"""The reader's own puzzle (``data: own``), a box of lines each (own_puzzle.py); "" is the
site's text of that box. Longer than ``own_puzzle.MAX_TEXT`` is refused there, in the page's words;
longer than ``MAX_BOX`` (which the page's box does not take) already here."""
OWN = tuple(OWN_SPEC)


class Scored:
    """The right answers of a tally of sentences, by group of reason (``Sentence.points_at``)."""

    def __init__(self, tally: Tally, sentences: Sequence[Sentence]) -> None:
        self.tally, self.sentences = tally, sentences

    def accuracy(self, group: str | None = None) -> float:
        """Accuracy over every sentence (``group`` None) or over one group's."""
        marks = [m for m, s in zip(self.tally.marks, self.sentences) if group is None or s.points_at == group]
        return sum(marks) / max(len(marks), 1)


class Run:
    """One run of a recipe (the figure's ``Work``): a ``Trainer``, and once it has reached its
    end, the ``finals`` (name, sentences) scored for the report, a sentence a piece."""

    def __init__(
        self, trainer: Trainer, finals: tuple[tuple[str, list[Sentence]], ...] = (), refused: Refusal | None = None
    ) -> None:
        self.trainer, self.finals = trainer, finals
        self.final_scores: dict[str, Scored] = {}
        self._final_step = -1  # the step the final sets were scored at
        self._end = 0
        self._pieces: Iterator[None] | None = None
        self.started = False  # whether any piece was taken (paused before step 1 is paused, not new)
        self.kept = False  # whether it is on the figure's shelf (shelf_view.keep_finished)
        self.record: tuple[tuple[int, int], dict[str, Any]] | None = None  # run_record's, once made
        self.refused = refused  # the reader's puzzle cannot be trained: why (no pieces)

    @property
    def step(self) -> int:
        return self.trainer.step

    @property
    def begun(self) -> bool:
        return any(p["step"] > 0 for p in self.trainer.history)

    def pieces(self, end: int) -> Iterator[None]:
        if self.refused is not None:
            return iter(())
        self._end = end
        if self._pieces is None:
            self._pieces = self._work()
        return self._pieces

    def _work(self) -> Iterator[None]:
        trainer = self.trainer
        self.started = True
        try:
            while True:
                if trainer.step < self._end or not trainer.history:
                    yield from trainer.pieces(trainer.step + 1)  # a step and its history point, if due
                elif self._final_step != trainer.step:
                    at, scores = trainer.step, {name: Tally() for name, _ in self.finals}
                    for name, sentences in self.finals:
                        for sentence in sentences:
                            scores[name].count(*POINTING.score(trainer.model, sentence))
                            yield
                    self._final_step = at
                    self.final_scores = {name: Scored(scores[name], s) for name, s in self.finals}
                else:
                    return
        finally:
            self._pieces = None

    def report(self, end: int) -> dict[str, Scored] | None:
        """The scores at the end of a run to step ``end``: ``test`` (the last history point's
        test sentences) and each final set, by name; None until all are scored."""
        trainer = self.trainer
        if trainer.step != end or self._final_step != end or trainer.history[-1]["step"] != end:
            return None
        return {"test": Scored(trainer.scores["test"], trainer.test), **self.final_scores}


def settings(lang: str) -> dict[str, Any]:
    """The build's training settings that ``Trainer`` takes (the seed apart)."""
    saved = views.data(lang).get("settings", {})
    return {k: saved[k] for k in DEFAULTS.as_dict() if k in saved}


def goal(lang: str) -> int:
    """How far the build trained (the default of ``steps``)."""
    return int(views.checkpoints(lang)[-1]["step"])


def recipe_of(state: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(state[k] for k in RECIPE)


def build_recipe(lang: str) -> tuple[Any, ...]:
    """The build's run as a recipe (the figure's defaults)."""
    saved = views.data(lang).get("settings", {})
    build = {**DEFAULTS.as_dict(), **settings(lang), "seed": int(saved.get("seed", 0)), "data": "fair"}
    return tuple(build[k] for k in RECIPE)


def build_defaults(lang: str) -> dict[str, Any]:
    """The figure's defaults on a page of ``lang``: the build's recipe, and its steps when they
    are a value the figure offers (a build always trains so far; a cut-short resource may not)."""
    steps = goal(lang)
    return {**dict(zip(RECIPE, build_recipe(lang))), **({"steps": steps} if steps in STEPS.options else {})}


def own_texts(state: dict[str, Any], lang: str) -> dict[str, str]:
    """The reader's boxes in ``state``, the site's text for each box left empty."""
    site = reader_text(views.puzzle(lang))
    return {name: state.get(f"own_{name}") or site[name] for name in FIELDS}


def made_own(state: dict[str, Any], lang: str) -> OwnPuzzle | Refusal:
    """The reader's puzzle of ``state``, or why it cannot be trained (made once per text)."""
    texts = own_texts(state, lang)
    return derived(views.key(lang), ("own", *texts.values()), lambda _: own_puzzle(views.puzzle(lang), texts))


def _puzzle(chosen: dict[str, Any], lang: str) -> Puzzle:
    """The language's puzzle, its give-away version, or the reader's own (the language's when
    the reader's is refused: the figure then offers no training, and says why)."""
    if chosen["data"] == "giveaway":
        return views.giveaway_puzzle(lang)
    if chosen["data"] == "own":
        made = made_own(chosen, lang)
        if isinstance(made, OwnPuzzle):
            return made.puzzle
    return views.puzzle(lang)


def report_sets(state: dict[str, Any], lang: str) -> dict[str, list[Sentence]]:
    """The sentences the report of the state's run scores, by name, each in its order: the
    test sentences; the fair ones for the give-away data (the give-away word is not there to
    help); without positions each test sentence's twin (its two people swapped)."""
    chosen = {**dict(zip(RECIPE, recipe_of(state))), **{k: state.get(k, "") for k in OWN}}
    puzzle = _puzzle(chosen, lang)
    test = puzzle.split(seed=settings(lang).get("split_seed", DEFAULTS.split_seed)).test
    sets = {"test": test}
    if chosen["data"] == "giveaway":
        sets["fair"] = views.test_sentences(lang)
    if chosen["positions"] == "none":
        sets["twins"] = [puzzle.twin(s) for s in test]
    return sets


def new_run(state: dict[str, Any], lang: str) -> Run:
    """A run of the state's recipe on the language's puzzle (its give-away version, or the
    reader's own: ``refused`` says why a reader's puzzle cannot be trained)."""
    chosen = {**dict(zip(RECIPE, recipe_of(state))), **{k: state.get(k, "") for k in OWN}}
    options = {k: chosen[k] for k in ("learning_rate", "layers", "heads", "d_model", "positions", "causal")}
    trainer = Trainer(_puzzle(chosen, lang), chosen["seed"], **{**settings(lang), **options})
    finals = tuple((name, s) for name, s in report_sets(chosen, lang).items() if name != "test")
    made = made_own(chosen, lang) if chosen["data"] == "own" else None
    return Run(trainer, finals, made if isinstance(made, Refusal) else None)


# --- prepared runs: the build's own runs of the recipes the articles link -------------------

RUNS_FORMAT = "attention_py.figures.train_live.runs/1"
SHOWN = (*RECIPE, "steps")  # what a prepared run is looked up by


def runs_key(lang: str) -> str:
    """The resource of the runs the build trained for ``lang`` (``assets/training/<lang>-runs.json``)."""
    return f"training/{lang}-runs"


def run_record(run: Run, state: dict[str, Any], digits: int = 4) -> dict[str, Any]:
    """A finished run as the build publishes it: its recipe, history, each step's loss, the
    right answers of its report's sets ("1"/"0" per sentence, in their order) and its final
    model (losses and weights to ``digits`` significant digits: what the figure draws of them
    does not need more)."""
    report = run.report(state["steps"])
    if report is None:
        raise ValueError("the run has not reached its end")
    if run.record is not None and run.record[0] == (state["steps"], digits):
        return run.record[1]
    model = run.trainer.model.to_dict()
    model["parameters"] = {
        name: [[float(f"{x:.{digits}g}") for x in row] for row in matrix]
        for name, matrix in model["parameters"].items()
    }
    own = {k: state[k] for k in OWN} if state["data"] == "own" else {}  # the reader's puzzle, when it is theirs
    record = {
        "recipe": {**{k: state[k] for k in SHOWN}, **own},
        "history": run.trainer.history,
        "step_losses": [float(f"{x:.{digits}g}") for x in run.trainer.step_losses],
        "marks": {name: "".join("1" if right else "0" for right in s.tally.marks) for name, s in report.items()},
        "model": model,
    }
    run.record = ((state["steps"], digits), record)
    return record


class PreparedRun:
    """A run the build trained, read back from its record: what the figure shows of it."""

    def __init__(self, record: dict[str, Any], lang: str) -> None:
        self.record = record
        self.recipe: dict[str, Any] = record["recipe"]
        self.step = int(self.recipe["steps"])
        self.history: list[dict[str, Any]] = record["history"]
        self.step_losses: list[float] = record["step_losses"]
        self.model = Model.from_dict(record["model"])
        sets = report_sets(self.recipe, lang)  # the same sets, in the same order, as the run scored
        self.scores: dict[str, Scored] = {}
        for name, marks in record["marks"].items():
            tally = Tally()
            for mark in marks:
                tally.count(0.0, mark == "1")
            self.scores[name] = Scored(tally, sets[name])


def prepared_run(lang: str, state: dict[str, Any]) -> PreparedRun | None:
    """The build's run of the state's recipe and steps, if it trained one (the figure's
    defaults and every experiment the page's article links); None otherwise, or on a site
    built without them."""
    try:
        data = resource(runs_key(lang))
    except MissingResource:
        return None
    wanted = {k: state[k] for k in SHOWN}
    index = next((i for i, record in enumerate(data["runs"]) if record["recipe"] == wanted), None)
    if index is None:
        return None

    def read(d: dict[str, Any]) -> PreparedRun:
        return PreparedRun(d["runs"][index], lang)

    return derived(runs_key(lang), index, read)
