"""The induction article's shared pieces: what its figures (induction_heads, induction_replay,
induction_live) read and draw alike: the build's run, the page's letters, the curves and the
attention maps, each map with its head's score and the cells an induction head should attend to.

The figures lay out alike (figures.css, "The induction figures"): the controls with the
readout and notes beside them, the curves with the maps beside them; each wraps its parts in
the classes ``LAYOUT`` names. Their numbers (axes, scores) are all in the page's digits, like
their sentences: a Persian reader sees one set of digits in the figure.

The data is the resource ``induction/run`` (one for every language: the tokens are labels):
the record of ``attention_py.learning.induction_run.induction_record``, which the build trains
and publishes as ``assets/induction/run.json``; ``induction/control`` is the same for a model
of one layer. A page shows token i as the i-th letter of
its own alphabet (the strings' ``induction.alphabet``). All arithmetic is attention_py.learning's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...learning.induction_run import heads_of, switch_key
from ...learning.next_token import NextTokenModel
from ...resources import derived, resource
from ..kit.chart import Curve, Key, StepChart, Ticks
from ..kit.html import el, esc
from ..kit.matrix import matrix_table
from ..kit.strings import Num, Text, strings_file

KEY = "induction/run"
CONTROL = "induction/control"
EXPERIMENTS = "induction/experiments"
SECTION = "induction"  # the strings the induction figures share (carried by each in data-strings)
STRINGS = (
    "alphabet",
    "previous_head",
    "induction_head",
    "other_head",
    "masked",
    "legend_loss",
    "legend_copied",
    "legend_prefix",
    "legend_previous",
    "legend_control",
    "curves_picture",
    "score_previous",
    "score_prefix",
    "score_at",
    "expected",
)
LAYOUT = {
    "controls": "apy-induction__controls",  # the controls, beside the readout
    "chart": "apy-induction__chart",  # the curves and their legend, beside the maps
    "sequence": "apy-induction__read",  # induction_heads: the letters read and the guesses
    "maps": "apy-induction__heads",  # the maps, their scores and what the rings mean
}
"""The parts of an induction figure that figures.css places, by their wrappers' classes."""


def part(name: str, markup: str) -> str:
    """``markup`` wrapped as the figure's part ``name`` (a key of ``LAYOUT``)."""
    return el("div", {"class": LAYOUT[name]}, markup)


def key(lang: str) -> str:
    return KEY


def data() -> dict[str, Any]:
    """The parsed JSON of ``assets/induction/run.json``."""
    record: dict[str, Any] = resource(KEY)
    return record


def control() -> dict[str, Any]:
    """The one-layer run's record (``assets/induction/control.json``)."""
    record: dict[str, Any] = resource(CONTROL)
    return record


def experiments() -> list[dict[str, Any]]:
    """The histories of the article's other recipes (``assets/induction/experiments.json``:
    ``induction_run.EXPERIMENTS``), each with its ``settings``."""
    runs: list[dict[str, Any]] = resource(EXPERIMENTS)["runs"]
    return runs


def final_model() -> NextTokenModel:
    """The build's trained model (parsed once)."""
    return derived(KEY, "model", lambda d: NextTokenModel.from_dict(d["model"]))


def alphabet(t: Text) -> list[str]:
    """The page's letters, one per token id (``induction.alphabet``, separated by spaces):
    as many as the model has tokens, each one character, all different (else a ValueError
    naming the strings file)."""
    letters = t.plain(f"{SECTION}.alphabet").split()
    size = data()["task"]["vocabulary"]
    if len(letters) != size or len(set(letters)) != size or any(len(c) != 1 for c in letters):
        raise ValueError(
            f"{strings_file(t.lang)}: {SECTION}.alphabet must be {size} different letters separated by spaces, "
            f"got {letters!r}"
        )
    return letters


def head_role(t: Text, layer: int, head: int) -> str:
    """What the build's circuit named this head (``Circuit.previous`` / ``induction``), as text."""
    found = data()["circuit"]
    if layer == 0 and head in found["previous"]:
        return t.plain(f"{SECTION}.previous_head")
    if layer == 1 and head in found["induction"]:
        return t.plain(f"{SECTION}.induction_head")
    return t.plain(f"{SECTION}.other_head")


def head_title(t: Text, layer: int, head: int) -> str:
    """ "Layer 1, head 2: previous-token head"."""
    return f"{t.plain('training.layer_head_n', layer=t.count(layer + 1), head=t.count(head + 1))}: {head_role(t, layer, head)}"


def switch_table() -> dict[str, dict[str, float]]:
    """Accuracy on the test sequences for every set of heads switched on (by ``switch_key``)."""
    table: dict[str, dict[str, float]] = data()["switched"]
    return table


def all_on(model: NextTokenModel) -> str:
    return switch_key([True] * len(heads_of(model)))


@dataclass(frozen=True)
class HeadMap:
    """One head's map: its attention ``rows`` (each up to its own position), its ``title``
    (text), its ``score`` beside it (markup; "" for none) and whether it is a head of the
    layer where an induction head is expected (``induction``: its expected cells are ringed)."""

    rows: list[list[float]]
    title: str
    score: str
    induction: bool


def expected_cells(ids: Sequence[int]) -> dict[int, list[int]]:
    """Where an induction head attends, position by position: for each position whose letter
    occurred before, the positions just after its earlier occurrences (the letters that
    followed it then, one of which the head copies as its guess; in a repeated segment they
    are all the same letter). Positions whose letter is new have none."""
    seen: dict[int, list[int]] = {}
    cells = {}
    for i, token in enumerate(ids):
        if token in seen:
            cells[i] = [j + 1 for j in seen[token]]
        seen.setdefault(token, []).append(i)
    return cells


def score_kind(layer: int) -> str:
    """The score that says whether a head of ``layer`` does its job in the circuit: the
    previous-token score in layer 1, the prefix-matching score in layer 2."""
    return "previous" if layer == 0 else "prefix"


def head_score(t: Text, layer: int, value: float | None, step: int | None = None) -> str:
    """A head's score as written beside its map ("prefix-matching score 0.62"), and the
    step it was measured at when that is not the step its map shows; "" without a value."""
    if value is None:
        return ""
    said = t.sentence(f"{SECTION}.score_{score_kind(layer)}", score=Num(value, 2))
    return said if step is None else t.sentence(f"{SECTION}.score_at", score=said, step=step)


def point_score(point: dict[str, Any] | None, layer: int, head: int) -> float | None:
    """Head (``layer``, ``head``)'s score (``score_kind``) in a history point (None without one)."""
    return None if point is None else float(point[f"test_layer{layer}.head{head}_{score_kind(layer)}"])


def attention_maps(maps: list[HeadMap], letters: list[str], ids: Sequence[int], selected: int, t: Text) -> str:
    """Every head's attention on the sequence ``ids`` (written in ``letters``, one per token
    id) as a shaded map, position ``selected``'s row outlined, its score beside its title; in
    the maps of the induction layer the cell each position should attend to is ringed
    (``expected_cells``), and a note under the maps says so. The letters follow the page's
    direction; the weights are shades, the numbers are there for screen readers, and each
    caption says once what the empty (masked) cells are."""
    n = len(ids)
    masked_note = t.html(f"{SECTION}.masked")
    labels = [esc(letters[i]) for i in ids]
    expected = expected_cells(ids)
    tables = []
    for head in maps:
        full = [row + [0.0] * (n - len(row)) for row in head.rows]
        score = el("span", {"class": "apy-induction__score"}, head.score)
        table = matrix_table(
            full,
            t.numbers,
            row_labels=labels,
            col_labels=labels,
            direction=None,
            caption=esc(head.title) + score + el("span", {"class": "apy-sr"}, ". " + masked_note),
            corner=t.html("training.rows_are"),
            masked=lambda i, j: j > i,
            selected=lambda i, j: i == selected,
            marked=(lambda i, j: j in expected.get(i, ())) if head.induction else None,
            cls="apy-attn apy-induction__map",
            show_numbers=False,
        )
        tables.append(el("div", {"class": "apy-scroll"}, table))
    many = " apy-induction__maps--many" if len(maps) > 2 else ""
    ringed = any(head.induction for head in maps) and bool(expected)
    note = el("p", {"class": "apy-muted apy-induction__expected", "hidden": not ringed}, t.html(f"{SECTION}.expected"))
    return el("div", {"class": "apy-maps apy-induction__maps" + many}, "".join(tables)) + note


# The curves: against the step, the loss on the copied tokens (left axis, 0 to its largest),
# and on the right axis (0 to 1) the accuracy on the copied tokens, the best prefix-matching
# score of the last layer and the best previous-token score of the first.

RIGHT = 36.0  # the right axis's margin: it holds "0.5"


def best(point: dict[str, Any], layer: int, score: str) -> float:
    """The best head's ``score`` ("prefix", "previous") of ``layer`` in a history point."""
    values = [v for k, v in point.items() if k.startswith(f"test_layer{layer}.") and k.endswith(f"_{score}")]
    return max(values, default=0.0)


def series(history: list[dict[str, Any]], layers: int) -> dict[str, list[tuple[float, float]]]:
    """The curves' values by name: (step, value) pairs, the loss not yet scaled."""
    return {
        "loss": [(p["step"], p["test_copied_loss"]) for p in history],
        "copied": [(p["step"], p["test_copied_accuracy"]) for p in history],
        "prefix": [(p["step"], best(p, layers - 1, "prefix")) for p in history] if layers > 1 else [],
        "previous": [(p["step"], best(p, 0, "previous")) for p in history],
    }


def curves(
    history: list[dict[str, Any]],
    *,
    mark: int | None,
    t: Text,
    layers: int,
    last_step: int = 0,
    faint: list[dict[str, Any]] | None = None,
    faint_label: str = "",
) -> str:
    """The run's curves with a vertical line at step ``mark``, the step axis to ``last_step``
    at least; with ``faint_label`` (markup) another run's accuracy on the copied tokens too,
    faint (``faint``: drawn hidden while empty, so the markup keeps its shape)."""
    control = faint if faint_label else None
    span: int = max([p["step"] for p in (*history, *(control or ()))] + [last_step, 1])
    shown = series(history, layers)
    top: float = max((v for _, v in shown["loss"]), default=1.0) or 1.0
    lines = []
    if faint_label:
        copied = [(p["step"], p["test_copied_accuracy"]) for p in control or ()]
        lines.append(Curve(copied, "apy-curve--previous apy-curve--held", hidden=not control))
    lines += [
        Curve(shown["previous"], "apy-curve--train"),
        Curve(shown["prefix"], "apy-curve--validation"),
        Curve(shown["copied"], "apy-curve--held"),
        Curve([(s, min(v / top, 1.0)) for s, v in shown["loss"]], "apy-curve--loss"),
    ]
    keys = [
        Key(cls, t.html(f"{SECTION}.{name}"))
        for cls, name in (
            ("loss", "legend_loss"),
            ("held", "legend_copied"),
            ("validation", "legend_prefix"),
            ("train", "legend_previous"),
        )
    ]
    if faint_label:
        keys.append(Key("previous", faint_label, hidden=not control))
    page = t.prose_numbers  # the page's digits, as in the figure's sentences and buttons
    count = page.count
    ticks = Ticks(count(0), page.num(top, 1), (count(0), page.num(0.5, 1), count(1)), count(span))
    return StepChart(span, RIGHT).plot(ticks, lines, mark, curves_description(history, span, layers, t), keys)


def curves_description(history: list[dict[str, Any]], span: int, layers: int, t: Text) -> str:
    """The curves' text alternative, in the language's prose numbers."""
    p = t.prose_numbers
    if not history:
        return t.plain("training.curves_empty", steps=p.count(span))
    first, last = history[0], history[-1]
    return t.plain(
        f"{SECTION}.curves_picture",
        steps=p.count(span),
        start=p.pct(100 * first["test_copied_accuracy"], 0),
        end=p.pct(100 * last["test_copied_accuracy"], 0),
        prefix_start=p.num(best(first, layers - 1, "prefix"), 2),
        prefix_end=p.num(best(last, layers - 1, "prefix"), 2),
    )
