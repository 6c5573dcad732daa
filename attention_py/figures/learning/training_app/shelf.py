"""The runs a reader keeps to compare (train_live's shelf), and a run as a file.

A kept run is the same record the build publishes for a prepared run (``run_record``: its
recipe, history, each step's loss, the right answers of its report's sets, its final model),
numbered in the order it was kept. A shelf holds at most ``LIMIT`` runs (the oldest goes) and
lives with the figure's session; the page keeps a copy of its files in the browser's storage,
so a reload brings them back (docs/widgets/figure-files.js).

A file is a record with its format and language, as JSON. Reading one back checks every part
against what this build would have made for that recipe (the keys, the value ranges, the
shape of every weight matrix, the puzzle's words) and refuses anything else with a
``RunFileError`` that names the part; nothing of a refused file is kept.

A file proves nothing about where its numbers came from: anyone can write one. So an
imported run is compared with the site's own run of its recipe, when the build prepared one
(``prepared_run``): the same record is that run, listed like it; any other is kept with an
``origin`` the shelf shows, ``DIFFERS`` (the site has this recipe's run and this is not it: a
forged or edited file, or a run trained elsewhere) or ``IMPORTED`` (nothing to compare it
with). The page stores the origin with the file (``stored_file``), so a reload keeps it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ....learning import Model
from ...kit.state import StateError, StateSpec
from ...kit.strings import excerpt
from .own_puzzle import OwnPuzzle
from .reader_json import ReaderJsonError, read_reader_json
from .run import (
    OWN,
    OWN_SPEC,
    RECIPE_SPEC,
    SHOWN,
    STEPS,
    PreparedRun,
    made_own,
    new_run,
    prepared_run,
    report_sets,
)

FORMAT = "attention_py.figures.train_live.run/1"
LIMIT = 6  # runs on a shelf: a lesson compares two or three; six files are about 120 KB (bench run_files)
MAX_FILE_CHARS = 1_000_000  # a run file is 11-21 KB (bench run_files): room for future recipes, not for 100 MB
RECIPE_FIELDS = StateSpec({**RECIPE_SPEC, "steps": STEPS, **OWN_SPEC})
ACCURACIES = ("train_accuracy", "validation_accuracy", "test_accuracy")
LOSSES = ("loss", "validation_loss", "test_loss")
IMPORTED = "imported"  # an imported run the site has no run of its recipe to compare with
DIFFERS = "differs"  # an imported run of a recipe the site prepared, whose numbers are not the site's
ORIGINS = (IMPORTED, DIFFERS)


class RunFileError(ValueError):
    """A file that is not a run this figure can show: ``key`` names the figure string that
    says why (``file_*``), ``part`` the part of the file at fault (as the file names it: quote
    it with ``kit.strings.excerpt``), ``limit`` the bound the file crossed."""

    def __init__(self, key: str, part: str = "", limit: int | None = None) -> None:
        super().__init__(f"{key}: {excerpt(part)}" if part else key)
        self.key, self.part, self.limit = key, part, limit


@dataclass
class Kept:
    """A run on the shelf: its number (#1, #2, ... in the order kept), its record, the run
    read back from it (what the figure draws), and for an imported run that is not the site's
    own, its ``origin`` (one of ``ORIGINS``)."""

    number: int
    record: dict[str, Any]
    run: PreparedRun
    origin: str | None = None


class Shelf:
    """The kept runs of one figure on a page of ``lang``, oldest first, at most ``limit``.
    ``version`` changes with every change; ``reported`` is the version the page was last given
    to store."""

    def __init__(self, lang: str, limit: int = LIMIT) -> None:
        self.lang, self.limit = lang, limit
        self.runs: list[Kept] = []
        self.version = self.reported = 0
        self._next = 1

    def keep(self, record: dict[str, Any], origin: str | None = None) -> Kept:
        """Puts a run on the shelf (the same run twice is kept once) and returns it; ``origin``
        (one of ``ORIGINS``) for an imported run that is not the site's."""
        kept = self._find(record)
        if kept is not None:
            return kept
        kept = Kept(self._next, record, PreparedRun(record, self.lang), origin)
        self._next += 1
        self.runs.append(kept)
        del self.runs[: max(len(self.runs) - self.limit, 0)]
        self.version += 1
        return kept

    def holds(self, record: dict[str, Any]) -> bool:
        return self._find(record) is not None

    def _find(self, record: dict[str, Any]) -> Kept | None:
        """The kept run with the same record, if any (every part: a forged file with the
        site's history but other weights is another run, not the site's)."""
        return next((k for k in self.runs if k.record == record), None)

    def get(self, number: int) -> Kept | None:
        return next((k for k in self.runs if k.number == number), None)

    def forget(self, number: int | None = None) -> None:
        """Takes run ``number`` off the shelf, or every run (``None``)."""
        before = len(self.runs)
        self.runs = [k for k in self.runs if number is not None and k.number != number]
        if len(self.runs) != before:
            self.version += 1


def run_file(kept: Kept, lang: str) -> str:
    """The file of a kept run: its record with the format and language, as JSON."""
    return json.dumps({"format": FORMAT, "language": lang, **kept.record}, ensure_ascii=False, separators=(",", ":"))


def stored_file(kept: Kept, lang: str) -> str:
    """The file the page stores for a kept run: its file, with its origin if it has one (read
    back by ``read_stored_file``; an imported file's own ``origin`` is never read)."""
    origin = {"origin": kept.origin} if kept.origin is not None else {}
    return json.dumps(
        {"format": FORMAT, "language": lang, **origin, **kept.record}, ensure_ascii=False, separators=(",", ":")
    )


def import_origin(record: dict[str, Any], lang: str) -> str | None:
    """Where an imported run is said to come from: None if it is the site's prepared run of its
    recipe (every part equal), ``DIFFERS`` if the site prepared that recipe and this is not
    its run, ``IMPORTED`` if the site has no run of that recipe to compare with."""
    prepared = prepared_run(lang, record["recipe"])
    if prepared is None:
        return IMPORTED
    return None if prepared.record == record else DIFFERS


def read_stored_file(text: Any, lang: str) -> tuple[dict[str, Any], str | None]:
    """A file the page stored (``stored_file``): its record and its origin."""
    data = _parsed(text)
    record = _record(data, lang)
    origin = data.get("origin")
    return record, origin if origin in ORIGINS else None


def read_run_file(text: Any, lang: str) -> dict[str, Any]:
    """The record in a run's file, checked part by part (``RunFileError`` says which failed).
    The text is measured before it is parsed (reader_json.py: its length, its nesting) and
    every number in it must be finite: the package's training cannot make an infinite or NaN
    loss (a loss is at most ``-log(SMALLEST_P)``), so a file that holds one was not saved by
    this figure, and is refused naming where, rather than drawn."""
    return _record(_parsed(text), lang)


def _parsed(text: Any) -> Any:
    """The JSON of a file, measured before it is parsed, every number finite."""
    try:
        return read_reader_json(text, MAX_FILE_CHARS)
    except ReaderJsonError as error:
        raise RunFileError(f"file_{error.reason}", error.path, error.limit) from None


def _record(data: Any, lang: str) -> dict[str, Any]:
    """The record in a file's JSON, checked part by part."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RunFileError("file_not_run")
    if data.get("language") != lang:
        raise RunFileError("file_language", str(data.get("language")))
    try:
        recipe = RECIPE_FIELDS.normalise(data.get("recipe"))
    except StateError as error:
        raise RunFileError("file_bad_part", f"recipe.{error.key}") from None
    own = recipe["data"] == "own"
    if set(data["recipe"]) != set(SHOWN) | (set(OWN) if own else set()):
        raise RunFileError("file_bad_part", "recipe")
    if own and not isinstance(made_own(recipe, lang), OwnPuzzle):
        raise RunFileError("file_bad_part", "recipe.own")
    recipe = {k: v for k, v in recipe.items() if k in SHOWN or own}
    history = _history(data.get("history"), recipe["steps"])
    losses = data.get("step_losses")
    if not isinstance(losses, list) or len(losses) != recipe["steps"] or not all(_real(x) and x >= 0 for x in losses):
        raise RunFileError("file_bad_part", "step_losses")
    marks = _marks(data.get("marks"), recipe, lang, history[-1]["test_accuracy"])
    model = _model(data.get("model"), recipe, lang)
    return {"recipe": recipe, "history": history, "step_losses": losses, "marks": marks, "model": model}


def _history(points: Any, steps: int) -> list[dict[str, Any]]:
    """Points from step 0 to the recipe's last step, each a loss and three accuracies."""
    if not isinstance(points, list) or not 1 <= len(points) <= steps + 1:
        raise RunFileError("file_bad_part", "history")
    clean, last = [], -1
    for i, point in enumerate(points):
        if not isinstance(point, dict) or set(point) != {"step", *LOSSES, *ACCURACIES}:
            raise RunFileError("file_bad_part", f"history[{i}]")
        step = point["step"]
        ok = isinstance(step, int) and not isinstance(step, bool) and last < step <= steps
        ok = ok and all(_real(point[k]) and point[k] >= 0 for k in LOSSES)
        ok = ok and all(_real(point[k]) and 0 <= point[k] <= 1 for k in ACCURACIES)
        if not ok:
            raise RunFileError("file_bad_part", f"history[{i}]")
        clean.append({k: v if k == "step" else float(v) for k, v in point.items()})  # in the file's order
        last = step
    if clean[0]["step"] != 0 or last != steps:
        raise RunFileError("file_bad_part", "history")
    return clean


def _marks(marks: Any, recipe: dict[str, Any], lang: str, test_accuracy: float) -> dict[str, str]:
    """One "1"/"0" per sentence of each set the report scores; the test set's agree with the
    history's last test accuracy."""
    sets = report_sets(recipe, lang)
    if not isinstance(marks, dict) or set(marks) != set(sets):
        raise RunFileError("file_bad_part", "marks")
    for name, sentences in sets.items():
        written = marks[name]
        if not isinstance(written, str) or len(written) != len(sentences) or set(written) - {"0", "1"}:
            raise RunFileError("file_bad_part", f"marks.{name}")
    if abs(marks["test"].count("1") / len(sets["test"]) - test_accuracy) > 1e-9:
        raise RunFileError("file_bad_part", "marks.test")
    return dict(marks)


def _model(data: Any, recipe: dict[str, Any], lang: str) -> dict[str, Any]:
    """A model of the recipe's shape on the language's puzzle, with finite weights."""
    fresh = new_run(recipe, lang).trainer.model.to_dict()
    if not isinstance(data, dict) or set(data) != set(fresh):
        raise RunFileError("file_bad_part", "model")
    for part in ("format", "settings", "vocabulary", "people", "max_length", "person_tokens"):
        if part in fresh and data[part] != fresh[part]:
            raise RunFileError("file_bad_part", f"model.{part}")
    weights = data["parameters"]
    if not isinstance(weights, dict) or set(weights) != set(fresh["parameters"]):
        raise RunFileError("file_bad_part", "model.parameters")
    for name, matrix in fresh["parameters"].items():
        given = weights[name]
        shaped = isinstance(given, list) and len(given) == len(matrix)
        shaped = shaped and all(isinstance(row, list) and len(row) == len(matrix[0]) for row in given)
        if not shaped or not all(_real(x) for row in given for x in row):  # finite: read_run_file
            raise RunFileError("file_bad_part", f"model.parameters.{name}")
    Model.from_dict(data)  # builds: the shapes were checked above
    return data


def _real(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
