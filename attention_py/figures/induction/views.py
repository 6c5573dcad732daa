"""The induction article's shared pieces: what its figures (induction_heads, induction_replay)
read and draw alike: the build's run, the page's letters, the curves and the attention maps.

The data is the resource ``induction/run`` (one for every language: the tokens are labels):
the record of ``attention_py.learning.induction_run.induction_record``, which the build trains
and publishes as ``assets/induction/run.json``; ``induction/control`` is the same for a model
of one layer. A page shows token i as the i-th letter of
its own alphabet (the strings' ``induction.alphabet``). All arithmetic is attention_py.learning's.
"""

from __future__ import annotations

from typing import Any

from ...learning.induction_run import heads_of, switch_key
from ...learning.next_token import NextTokenModel
from ...resources import derived, resource
from ..kit.chart import Curve, Key, StepChart, Ticks
from ..kit.html import el, esc
from ..kit.matrix import matrix_table
from ..kit.strings import Text, strings_file

KEY = "induction/run"
CONTROL = "induction/control"
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
)


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


def attention_maps(
    attention: list[list[list[list[float]]]], letters: list[str], selected: int, t: Text, titles: list[str]
) -> str:
    """Every head's attention (rows up to their own position, as ``attention_rows`` gives
    them) as shaded maps over the letters, position ``selected``'s row highlighted. The
    letters follow the page's direction; the weights are shades, the numbers are there for
    screen readers, and the caption says once what the empty (masked) cells are."""
    n = len(letters)
    masked_note = t.html(f"{SECTION}.masked")
    labels = [esc(c) for c in letters]
    tables = []
    heads = [(layer, h) for layer, row in enumerate(attention) for h in range(len(row))]
    for (layer, head), title in zip(heads, titles):
        rows = attention[layer][head]
        full = [row + [0.0] * (n - len(row)) for row in rows]
        table = matrix_table(
            full,
            t.numbers,
            row_labels=labels,
            col_labels=labels,
            direction=None,
            caption=esc(title) + el("span", {"class": "apy-sr"}, ". " + masked_note),
            corner=t.html("training.rows_are"),
            masked=lambda i, j: j > i,
            selected=lambda i, j: i == selected,
            cls="apy-attn apy-induction__map",
            show_numbers=False,
        )
        tables.append(el("div", {"class": "apy-scroll"}, table))
    return el("div", {"class": "apy-maps apy-induction__maps"}, "".join(tables))


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
    count = t.numbers.count
    ticks = Ticks(count(0), t.num(top, 1), (count(0), t.num(0.5, 1), count(1)), count(span))
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
