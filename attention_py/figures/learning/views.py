"""The learning article's shared pieces: what its three training figures (training_replay,
trained_reader, train_live) read and draw alike: the trained data, the example sentences,
the curves of training and the attention maps of the learned model.

The data is the resource ``training/<lang>`` (see ``attention_py/resources.py``): the dict
``attention_py.learning.train_with_checkpoints`` returns for the language's puzzle (the
build trains it and publishes it as ``assets/training/<lang>.json``). Parsed objects (the
puzzle, each checkpoint's model, the list of test mistakes) are cached per provided
value; a figure never changes them. All arithmetic is attention_py.learning's: a model is
only ever asked ``read`` / ``predict`` (and train_live drives a ``Trainer``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ...learning import Model, Puzzle, Sentence
from ...learning.model import Reading
from ...learning.tasks.puzzle import join_words
from ...resources import derived, resource
from ..kit.chart import Curve, Key, StepChart, Ticks
from ..kit.controls import segmented
from ..kit.html import el, esc
from ..kit.matrix import matrix_table
from ..kit.strings import Text

EXAMPLES = 4  # sentences in the menus: the article's pair, then the same pair with the people swapped


def key(lang: str) -> str:
    return f"training/{lang}"


def data(lang: str) -> dict[str, Any]:
    """The parsed JSON of ``assets/training/<lang>.json``."""
    training: dict[str, Any] = resource(key(lang))
    return training


def puzzle(lang: str) -> Puzzle:
    return derived(key(lang), "puzzle", lambda d: Puzzle.from_dict(d["puzzle"]))


def giveaway_key(lang: str) -> str:
    """The resource of the give-away model (the build's, for the lesson on shortcut learning)."""
    return f"training/{lang}-giveaway"


def giveaway_puzzle(lang: str) -> Puzzle:
    """The puzzle with a give-away (attention_py.learning.tasks.cues ``giveaway_puzzle``), as the
    build trained its give-away model on it."""
    return derived(giveaway_key(lang), "puzzle", lambda d: Puzzle.from_dict(d["puzzle"]))


def checkpoints(lang: str) -> list[dict[str, Any]]:
    saved: list[dict[str, Any]] = data(lang)["checkpoints"]
    return saved


def model_at(lang: str, index: int) -> Model:
    """The model saved at checkpoint ``index`` (parsed once)."""
    return derived(key(lang), ("model", index), lambda d: Model.from_dict(d["checkpoints"][index]["model"]))


def final_model(lang: str) -> Model:
    return model_at(lang, len(checkpoints(lang)) - 1)


def examples(lang: str) -> list[Sentence]:
    """The menu's sentences of the language's puzzle (``examples_of``)."""
    return examples_of(puzzle(lang))


def examples_of(p: Puzzle) -> list[Sentence]:
    """The menu's sentences: first person 0 acts on person 1 for the first reason of each
    kind ("angry", "rude"), then the same with the two people swapped."""
    actor, patient = 0, len(p.reasons_actor)
    return [
        p.sentence(0, 0, 1, actor),
        p.sentence(0, 0, 1, patient),
        p.sentence(1, 0, 0, actor),
        p.sentence(1, 0, 0, patient),
    ]


def test_sentences(lang: str) -> list[Sentence]:
    """The test sentences: held out of training, the number the page reports
    (attention_py.learning's split, with the build's seed)."""
    split_seed = data(lang).get("settings", {}).get("split_seed", 0)
    return derived(key(lang), "test", lambda d: puzzle(lang).split(seed=split_seed).test)


def test_size(lang: str) -> int:
    """How many test sentences there are (the build's count, or counted here)."""
    return data(lang).get("test_size") or len(test_sentences(lang))


def final_mistakes(lang: str) -> list[Sentence]:
    """The test sentences the trained model answers wrongly: the build's list (``mistakes``
    of train_with_checkpoints, scored once natively), or scored here for data without one."""

    def make(d: dict[str, Any]) -> list[Sentence]:
        if "mistakes" in d:
            return [puzzle(lang).sentence(*indices) for indices in d["mistakes"]]
        return [s for s in test_sentences(lang) if final_model(lang).predict(s) != s.label]

    return derived(key(lang), "mistakes", make)


def reason_span(s: Sentence) -> range:
    """The token indices of the sentence's reason ("was angry"): the words that decide whom
    the pronoun means. Found as the reason's words after the pronoun (every language's
    template puts the reason after it); empty if a template ever did otherwise."""
    words = tuple(s.reason.split())
    for start in range(s.pronoun + 1, len(s.tokens) - len(words) + 1):
        if s.tokens[start : start + len(words)] == words:
            return range(start, start + len(words))
    return range(0)


def sentence_option(s: Sentence) -> str:
    """An example sentence as its menu names it: the two people and the reason, in sentence
    order, the words between them elided ("teacher … student … was angry"; in a language
    written without spaces "老师…学生…很生气"). The four examples differ only in these, and a
    whole sentence is wider than a phone's menu, which cuts it off at the reason, the word
    that matters; the maps beside it show every word."""
    kept = {*s.people, *reason_span(s)}
    words: list[str] = []
    for i, word in enumerate(s.tokens):
        if i in kept:
            words.append(word)
        elif words and words[-1] != "…":
            words.append("…")
    return join_words(words[:-1] if words and words[-1] == "…" else words, s.spaced)


def example_menu(
    name: str, chosen: int, lang: str, t: Text, label_key: str, sentences: list[Sentence] | None = None
) -> str:
    """A select over the example sentences (the language's, or ``sentences``), their words in
    the page's direction."""
    items = "".join(
        el("option", {"value": str(i), "selected": i == chosen}, esc(sentence_option(s)))
        for i, s in enumerate(sentences if sentences is not None else examples(lang))
    )
    return el(
        "label",
        {"class": "apy-field"},
        el("span", {"class": "apy-field__label"}, t.html(label_key)),
        el("select", {"name": name, "data-focus-key": name}, items),
    )


def layer_name(t: Text, layer: int, head: int, heads: int) -> str:
    if heads == 1:
        return t.plain("training.layer_n", layer=t.count(layer + 1))
    return t.plain("training.layer_head_n", layer=t.count(layer + 1), head=t.count(head + 1))


def attention_maps(reading: Reading, s: Sentence, view: str, t: Text, cls: str) -> str:
    """Every layer's (and head's) attention for sentence ``s``: the pronoun's row alone, or the
    whole map with the pronoun's row highlighted. Tokens follow the page's direction.

    On a phone (figures.css, ``apy-attn--pronoun`` / ``--full``) a map is as wide as the
    screen whatever the sentence: the pronoun's row stands on end, a word and its weight per
    line, and the whole map shows its weights as shades only (the numbers stay for screen
    readers), so every word, the reason that decides the answer too, is in sight."""
    words = [esc(w) for w in s.tokens]
    rows = [s.pronoun] if view == "pronoun" else list(range(len(s.tokens)))

    def pronoun_row(i: int, j: int) -> bool:
        return rows[i] == s.pronoun

    def other_row(i: int, j: int) -> bool:  # dimmed in the full map
        return view != "pronoun" and rows[i] != s.pronoun

    tables = []
    for layer, heads in enumerate(reading.attention):
        for head, weights in enumerate(heads):
            title = layer_name(t, layer, head, len(heads))
            table = matrix_table(
                [weights[i] for i in rows],
                t.numbers,
                row_labels=[words[i] for i in rows],
                col_labels=words,
                direction=None,
                caption=esc(title),
                corner=t.html("training.rows_are"),
                selected=pronoun_row,
                dimmed=other_row,
                cls=f"apy-attn apy-attn--{view} {cls}",
            )
            tables.append(el("div", {"class": "apy-scroll"}, table))
    # Why the last layer's rows all say 1.00 (drawn in both views, hidden in one: one shape)
    why = el("p", {"class": "apy-muted apy-maps__why", "hidden": view != "full"}, t.html("training.full_note"))
    return el("div", {"class": "apy-maps"}, "".join(tables)) + why


def view_menu(view: str, t: Text) -> str:
    return segmented(
        t.plain("training.view"),
        [
            (t.html("training.view_pronoun"), {"view": "pronoun"}, view == "pronoun"),
            (t.html("training.view_full"), {"view": "full"}, view == "full"),
        ],
        key="view",
    )


# The curves of training: loss and accuracy against the step, one drawing, left to right.
RIGHT = 46.0  # the right axis's margin: it holds "100%"


def curves(
    history: list[dict[str, Any]],
    *,
    mark: int | None,
    last_step: int,
    t: Text,
    validation: str | None = None,
    previous: list[dict[str, Any]] | None = None,
    previous_label: str | None = None,
    step_losses: list[float] | None = None,
) -> str:
    """Training loss (left axis) and test accuracy (right axis, 0-100%) against the step,
    with a vertical line at step ``mark``. The loss axis runs from 0 to the largest loss.
    With ``step_losses`` (each step's loss on its batch, step i+1 at i) the loss is drawn
    through every step, from the first history point's, not only at the history points.

    With ``validation`` (the legend's markup) the validation accuracy is drawn too; with
    ``previous_label`` an earlier run's loss and test accuracy (``previous``, may be empty:
    then drawn hidden, so the markup keeps its shape) are drawn faint behind, on the same
    axes (the step axis runs to the longer of the two runs). A loss that is not finite (a
    run that blew up) is drawn at the top of the axis."""
    before = previous or []
    losses = [p["loss"] for p in (*history, *before) if math.isfinite(p["loss"])]
    top_loss = max([*losses, *(v for v in step_losses or () if math.isfinite(v))], default=1.0) or 1.0
    span = max(last_step, max((p["step"] for p in before), default=0), 1)
    loss = LossScale(top_loss)
    lines, keys = [], [Key("loss", t.html("training.legend_loss")), Key("held", t.html("training.legend_held"))]
    keys.append(Key("train", t.html("training.legend_train")))
    if previous_label is not None:
        lines += [
            Curve(loss.points(before), "apy-curve--previous apy-curve--loss", hidden=not before),
            Curve(fractions(before, "test_accuracy"), "apy-curve--previous apy-curve--held", hidden=not before),
        ]
    lines.append(Curve(fractions(history, "train_accuracy"), "apy-curve--train"))
    if validation is not None:
        lines.append(Curve(fractions(history, "validation_accuracy"), "apy-curve--validation"))
        keys.append(Key("validation", validation))
    lines.append(Curve(fractions(history, "test_accuracy"), "apy-curve--held"))
    lines.append(Curve(loss.points(history, step_losses), "apy-curve--loss"))
    if previous_label is not None:
        keys.append(Key("previous", previous_label, hidden=not before))
    percents = (t.pct(0, 0), t.pct(50, 0), t.pct(100, 0))
    ticks = Ticks(t.numbers.count(0), t.num(top_loss, 2), percents, t.numbers.count(span))
    return StepChart(span, RIGHT).plot(ticks, lines, mark, curves_description(history, span, t), keys)


def fractions(history: list[dict[str, Any]], name: str) -> list[tuple[float, float]]:
    """A measure between 0 and 1 (an accuracy) at each history point."""
    return [(p["step"], p[name]) for p in history]


@dataclass(frozen=True)
class LossScale:
    """Losses drawn on the left axis, 0 to ``top``; one that is not finite at the top."""

    top: float

    def __call__(self, value: float) -> float:
        return min(value / self.top, 1.0) if math.isfinite(value) else 1.0

    def points(
        self, history: list[dict[str, Any]], step_losses: list[float] | None = None
    ) -> list[tuple[float, float]]:
        """The loss at each history point, or, with ``step_losses``, from the first point's
        through every step's."""
        points = [(p["step"], self(p["loss"])) for p in history]
        if step_losses and history:
            points = points[:1] + [(i + 1, self(value)) for i, value in enumerate(step_losses)]
        return points


def curves_description(history: list[dict[str, Any]], span: int, t: Text) -> str:
    """The curves' text alternative: what this run's numbers did, from its first point to its
    last (the loss and the test accuracy), in the language's prose numbers."""
    p = t.prose_numbers
    if not history:
        return t.plain("training.curves_empty", steps=p.count(span))
    first, last = history[0], history[-1]

    def loss(point: dict[str, Any]) -> str:
        return p.num(point["loss"], 2) if math.isfinite(point["loss"]) else "∞"

    return t.plain(
        "training.curves_picture",
        steps=p.count(span),
        from_step=p.count(int(first["step"])),
        to_step=p.count(int(last["step"])),
        loss_start=loss(first),
        loss_end=loss(last),
        start=p.pct(100 * first["test_accuracy"], 0),
        end=p.pct(100 * last["test_accuracy"], 0),
    )


def percent(value: float, digits: int = 0, *, t: Text) -> str:
    """A measured fraction (0..1) as a percentage in its left-to-right span, in the format of
    ``t``'s figure (a table's); a sentence passes ``Pct(100 * value, digits)`` to
    ``t.sentence`` instead, the one way that writes all of a sentence's numbers alike."""
    return el("span", {"dir": "ltr", "class": "apy-num"}, t.numbers.pct(100 * value, digits))


SHARED_SECTION = "training"  # strings the three figures share (carried by each in data-strings)
SHARED_STRINGS = (
    "layer_n",
    "layer_head_n",
    "rows_are",
    "view",
    "view_pronoun",
    "view_full",
    "full_note",
    "curves_picture",
    "curves_empty",
    "legend_loss",
    "legend_held",
    "legend_train",
)
