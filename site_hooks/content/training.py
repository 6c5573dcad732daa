"""MkDocs hook: train the pronoun-puzzle model of each language at build time, and publish it.

For every built language the build reads ``docs/puzzles/<lang>.yml`` (a language without
one uses English's, and says so in an info line; but a language whose learning page is
translated must have its own: ``missing_puzzle`` stops the build, naming the file), trains ``attention_py.learning`` on it
natively with fixed seeds and settings (``SETTINGS``), and publishes the result as
``assets/training/<lang>.json``: ``train_with_checkpoints``'s dict, i.e. the settings, the
puzzle, the history of loss and accuracy, the model every ``checkpoint_every`` steps and the
final model, so a page can replay training without computing it. A puzzle file with a
``giveaway`` version also gets ``assets/training/<lang>-giveaway.json``: the same training on
that version, for the article's lesson on shortcut learning. A puzzle whose two groups of
reasons differ in form is refused (``checked_puzzle``), naming the words.

Training runs once per change of its inputs: the result is cached like the wheel
(site_hooks/assets/products.py), keyed by the learning code, the puzzle file and the
settings; static-i18n runs this hook once per language, and every run after the first finds
the cache. The first run trains the languages side by side, one process per core. ``trained(lang)`` gives the same dict to build-time code (the figures are
prerendered from it).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files

from attention_py.resources import set_loader
from site_hooks import ROOT
from site_hooks.assets.products import cached_product, cached_product_folder, digest

log = get_plugin_logger("training")

PUZZLES = ROOT / "docs" / "puzzles"
FALLBACK = "en"
# What the training depends on besides the puzzle file: the learning code and the parts of
# attention_py it is built on.
CODE = tuple(
    ROOT / "attention_py" / name
    for name in ("learning", "attention.py", "linalg.py", "softmax.py", "rng.py", "pieces.py")
)
SETTINGS: dict[str, Any] = {
    "seed": 0,
    "steps": 120,  # past the first 95% held-out (70-80 steps), so the final model is settled
    "checkpoint_every": 20,
    "eval_every": 20,
    "checkpoint_digits": 4,  # the replayed checkpoints, 4 significant digits: a third of the bytes
}
"""Keyword arguments of ``train_with_checkpoints`` for the build (its other settings: PuzzleSettings' defaults).
A puzzle file may set ``training: {steps: ..., learning_rate: ...}`` for its language
(``training_settings``)."""


LEARNING_PAGE = "learning.md"  # the page whose sentences, cells and figures are the puzzle's


def missing_puzzle(lang: str, docs: Path = ROOT / "docs") -> str | None:
    """Why the build cannot go on for ``lang``, or None: its learning page is translated
    (``docs/<lang>/learning.md`` exists) but it has no puzzle file, so that page's sentences,
    cells and figures would be English."""
    if lang == FALLBACK or (docs / "puzzles" / f"{lang}.yml").is_file() or not (docs / lang / LEARNING_PAGE).is_file():
        return None
    return (
        f"docs/{lang}/{LEARNING_PAGE} is translated, but docs/puzzles/{lang}.yml does not exist, so its "
        f"sentences and figures would be English: copy docs/puzzles/{FALLBACK}.yml to docs/puzzles/{lang}.yml "
        "and write the puzzle in the language (the translators' guide, docs/en/translate.md, "
        '"The puzzle of the learning article")'
    )


def puzzle_file(lang: str) -> Path:
    """The puzzle file of ``lang``, or English's when the language has none."""
    own = PUZZLES / f"{lang}.yml"
    return own if own.is_file() else PUZZLES / f"{FALLBACK}.yml"


def puzzle_data(lang: str) -> dict[str, Any]:
    path = puzzle_file(lang)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise PluginError(f"{path.relative_to(ROOT)}: {error}") from error
    if not isinstance(data, dict):
        raise PluginError(
            f"{path.relative_to(ROOT)}: expected a mapping of sentence, pronoun, people, actions, reasons"
        )
    return data


GIVEAWAY = "-giveaway"  # the suffix of the give-away model's name: "fa-giveaway"


def language_of(name: str) -> str:
    """The language of a model's name: "fa" for "fa" and for "fa-giveaway"."""
    return name.removesuffix(GIVEAWAY)


def key(name: str) -> str:
    """Digest of everything the training of model ``name`` depends on."""
    inputs = digest([*CODE, puzzle_file(language_of(name))])
    return hashlib.sha256((inputs + name + json.dumps(SETTINGS, sort_keys=True)).encode()).hexdigest()


def training_settings(lang: str) -> dict[str, Any]:
    """The build's settings for ``lang``: SETTINGS, with the puzzle file's ``training``
    (steps, learning rate) when it has one; refused with a PluginError naming the file when a
    key or a value is not one "Train it yourself" offers (train_live's STEPS and RATES), so
    the figure can start from the language's own recipe."""
    from attention_py.figures.learning.train_live import RECIPE_SPEC, STEPS

    own = puzzle_data(lang).get("training") or {}
    where = puzzle_file(lang).relative_to(ROOT)
    allowed = {"steps": STEPS.options, "learning_rate": RECIPE_SPEC["learning_rate"].options}
    if not isinstance(own, dict) or not set(own) <= set(allowed):
        raise PluginError(f"{where}: `training` may set {', '.join(allowed)} only, got {own!r}")
    for name, value in own.items():
        if isinstance(value, bool) or value not in allowed[name]:
            choices = ", ".join(str(v) for v in allowed[name])
            raise PluginError(
                f"{where}: training.{name} must be one of {choices} (what the page offers), got {value!r}"
            )
    return {**SETTINGS, **own}


def checked_puzzle(lang: str) -> Any:
    """The puzzle of ``lang`` (an ``attention_py.learning.Puzzle``), refused with a PluginError
    when it is malformed or when its two groups of reasons differ in form (a give-away that
    lets the model answer without reading the meaning: attention_py/learning/tasks/cues.py)."""
    from attention_py.learning import Puzzle
    from attention_py.learning.tasks.cues import form_cues

    where = puzzle_file(lang).relative_to(ROOT)
    try:
        puzzle = Puzzle.from_dict(puzzle_data(lang))
    except (TypeError, ValueError) as error:
        raise PluginError(f"{where}: {error}") from error
    cues = form_cues(puzzle)
    if cues:
        raise PluginError(
            f"{where}: the two groups of reasons can be told apart by their form, so a model could "
            "answer without reading what they mean. Give both groups the same shapes (lengths, and "
            "words used by several reasons in the same places on both sides):\n  - " + "\n  - ".join(cues)
        )
    return puzzle


def _train(name: str, folder: Path) -> None:
    from attention_py.learning import train_with_checkpoints
    from attention_py.learning.tasks.cues import giveaway_puzzle

    lang = language_of(name)
    puzzle = giveaway_puzzle(puzzle_data(lang)) if name.endswith(GIVEAWAY) else checked_puzzle(lang)
    result = train_with_checkpoints(puzzle, **training_settings(lang))
    last = result["history"][-1]
    log.info(
        f"trained the {name} puzzle model: {result['steps']} steps, validation accuracy "
        f"{last['validation_accuracy']:.1%}, test accuracy {last['test_accuracy']:.1%}"
    )
    (folder / "training.json").write_text(
        json.dumps(result, ensure_ascii=False, separators=(",", ":")), encoding="utf-8"
    )


def trained_file(name: str) -> Path:
    """The cached training result of model ``name`` (trained now if absent): a language ("fa"),
    English's for a language without a puzzle file, or a language's give-away model
    ("fa-giveaway": trained on its puzzle file's ``giveaway`` version, for the lesson on
    shortcut learning)."""
    lang = language_of(name)
    if not (PUZZLES / f"{lang}.yml").is_file():
        if lang != FALLBACK:
            _say_fallback(lang)
            return trained_file(FALLBACK + name[len(lang) :])
        raise PluginError(f"docs/puzzles/{FALLBACK}.yml is missing: the build trains its model from it")
    folder = cached_product(f"training-{name}", key(name), lambda folder: _train(name, folder))
    return folder / "training.json"


def model_names(lang: str) -> list[str]:
    """The models the build trains for ``lang``: its own, and its give-away model when its
    puzzle file has a ``giveaway`` version (or English's, for a language without a file)."""
    own = PUZZLES / f"{lang}.yml"
    has_giveaway = "giveaway" in puzzle_data(lang if own.is_file() else FALLBACK)
    return [lang, lang + GIVEAWAY] if has_giveaway else [lang]


@cache
def _say_fallback(lang: str) -> None:
    log.info(f"docs/puzzles/{lang}.yml does not exist: the {lang} pages use the model trained on the {FALLBACK} puzzle")


@cache
def _read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def trained(name: str) -> dict[str, Any]:
    """``train_with_checkpoints``'s result for model ``name`` (a language, or "<lang>-giveaway";
    a JSON-able dict), trained once and cached.

    Do not change the dict: it is shared by every caller.
    """
    return _read(trained_file(name))


def _built_languages(config: MkDocsConfig) -> list[str]:
    from site_hooks.i18n.languages import built_entries

    return [entry.locale for entry in built_entries(config)] or [FALLBACK]


def train_missing(names: list[str]) -> None:
    """Train every model whose result is not cached yet, side by side on the machine's cores."""
    missing = sorted(
        name
        for name in set(names)
        if (PUZZLES / f"{language_of(name)}.yml").is_file()
        and not cached_product_folder(f"training-{name}", key(name)).is_dir()
    )
    _side_by_side(trained_file, missing)


def _side_by_side(function: Callable[[str], Any], names: list[str]) -> None:
    """Calls ``function`` (one of this module's, which the worker processes import) on each of
    ``names`` in processes side by side, one per core (with one name or one core, nothing: the
    callers then train as they need)."""
    workers = min(len(names), os.cpu_count() or 1)
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            list(pool.map(function, names))


# --- the figures' data, natively


def load_resource(key: str) -> Any:
    """The data of a figure resource, natively (attention_py/resources.py): the same
    dict the page fetches as ``assets/<key>.json``. ``training/<lang>``: the model trained at
    build time (this module, which also publishes the file); ``training/<lang>-runs``: the
    prepared runs of "Train it yourself"; ``induction/run``, ``induction/control`` and
    ``induction/experiments``: the induction article's runs of two layers and of one, and the
    histories of its other experiments (site_hooks/content/induction.py)."""
    kind, _, lang = key.partition("/")
    if kind == "training" and lang:
        return prepared_runs(lang.removesuffix(RUNS)) if lang.endswith(RUNS) else trained(lang)
    if kind == "induction":
        from site_hooks.content.induction import PUBLISHED, record

        if lang in PUBLISHED:
            return record(lang)
    raise ValueError(
        f"no figure resource {key!r}: the build knows training/<lang> and induction/<{'|'.join(PUBLISHED)}>"
    )


def use_build_resources() -> None:
    """Has ``attention_py.resources`` read its data through the build (``load_resource``).

    Set by the figures' hook before any page is converted (figure_pages.py, ``on_config``), by
    the processes that train the prepared runs,
    by whatever draws figures natively outside a build (the tests, devtools), never by an import.
    """
    set_loader(load_resource)


# --- the prepared runs of "Train it yourself" ------------------------------------------------

RUNS = "-runs"  # the suffix of a language's prepared runs: "fa-runs"
EXPERIMENT_LINK = re.compile(r"\]\(#train\?([^)\s]+)\)")
# what a prepared run's numbers depend on besides CODE: the recipe and the run (train_live.py
# only draws them, so a change to how it draws trains nothing again)
RUN_CODE = (ROOT / "attention_py" / "figures" / "learning" / "training_app" / "run.py",)


def prepared_states(lang: str) -> list[dict[str, Any]]:
    """The states of "Train it yourself" the build runs for ``lang``: its defaults, and every
    experiment its learning page links (``[...](#train?positions=none)``: docs/<lang>/learning.md,
    or English's where the page is not translated), so such a link opens with its result."""
    from urllib.parse import parse_qsl

    from attention_py.figures import FIGURES

    use_build_resources()  # the figure's defaults are the build's model of the language
    figure = FIGURES["train_live"]
    page = ROOT / "docs" / lang / LEARNING_PAGE
    text = (page if page.is_file() else ROOT / "docs" / FALLBACK / LEARNING_PAGE).read_text(encoding="utf-8")
    defaults = figure.default_state(lang)
    states = [defaults]
    for query in EXPERIMENT_LINK.findall(text):
        state = figure.normalise({**defaults, **dict(parse_qsl(query))})
        if state not in states:
            states.append(state)
    return states


def runs_key(lang: str) -> str:
    """Digest of what the prepared runs of ``lang`` depend on: the models they start from, the
    figure's recipe and run code, and the page whose links they are."""
    page = ROOT / "docs" / lang / LEARNING_PAGE
    inputs = digest(
        [*CODE, *RUN_CODE, puzzle_file(lang), page if page.is_file() else ROOT / "docs" / FALLBACK / LEARNING_PAGE]
    )
    return hashlib.sha256((inputs + key(lang) + lang).encode()).hexdigest()


def _train_runs(lang: str, folder: Path) -> None:
    from attention_py.figures.learning.training_app.run import RUNS_FORMAT, new_run, run_record
    from attention_py.pieces import drain

    records = []
    for state in prepared_states(lang):
        run = new_run(state, lang)
        drain(run.pieces(state["steps"]))
        records.append(run_record(run, state))
    log.info(f"trained the {len(records)} prepared runs of 'Train it yourself' in {lang}")
    (folder / "runs.json").write_text(
        json.dumps({"format": RUNS_FORMAT, "runs": records}, ensure_ascii=False, separators=(",", ":")),
        encoding="utf-8",
    )


def runs_file(lang: str) -> Path:
    """The cached prepared runs of ``lang`` (trained now if absent), for the resource
    ``training/<lang>-runs`` (attention_py/figures/learning/training_app/run.py reads them)."""
    if not (PUZZLES / f"{lang}.yml").is_file() and lang != FALLBACK:
        return runs_file(FALLBACK)
    folder = cached_product(f"training-{lang}{RUNS}", runs_key(lang), lambda folder: _train_runs(lang, folder))
    return folder / "runs.json"


def prepared_runs(lang: str) -> dict[str, Any]:
    """``runs_file``'s JSON (do not change it: it is shared by every caller)."""
    return _read(runs_file(lang))


def train_missing_runs(languages: list[str]) -> None:
    """Train the prepared runs of every language not cached yet, side by side."""
    missing = [
        lang
        for lang in sorted(set(languages))
        if (PUZZLES / f"{lang}.yml").is_file()
        and not cached_product_folder(f"training-{lang}{RUNS}", runs_key(lang)).is_dir()
    ]
    _side_by_side(runs_file, missing)


@event_priority(-200)  # after static-i18n (-100), which crashes on generated files (see assets/publish.py)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    for source in [f for f in files if f.src_uri.startswith("puzzles/")]:
        files.remove(source)  # the puzzle files are data for this hook, not pages or assets
    built = _built_languages(config)
    for lang in built:
        problem = missing_puzzle(lang, Path(config.docs_dir))
        if problem:
            raise PluginError(problem)
        checked_puzzle(lang)  # refused before any training, cached or not
        training_settings(lang)
    names = [name for lang in built for name in model_names(lang)]
    train_missing(names)
    train_missing_runs(built)
    published = [(name, trained_file(name)) for name in names] + [(lang + RUNS, runs_file(lang)) for lang in built]
    for name, path in published:
        dest_uri = f"assets/training/{name}.json"
        existing = files.get_file_from_path(dest_uri)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, dest_uri, abs_src_path=str(path)))
    return files
