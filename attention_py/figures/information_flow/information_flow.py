"""Information flow through one attention head, every number traceable.

Three tokens pass through a ``SelfAttention`` head (weights from a fixed seed). The
figure lays out Q, K and V, the scores Q Kᵀ / √dₖ, the softmax rows (each sums to 1) and
the output rows, each a mix of the rows of V. Focusing or clicking any cell shows how it
was computed, with the actual numbers, and highlights the cells it came from: a cell of
Q, K or V is a token's input row dotted with a column of W_Q, W_K or W_V.

State (defaults): ``seed: 1``, ``table: weights`` (``Q``, ``K``, ``V``, ``scores``, ``output``),
``row: 0``, ``col: 1``
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ... import SelfAttention
from ..kit.controls import button, formula
from ..kit.figure import Figure, Panel
from ..kit.format import subscript
from ..kit.html import el, esc
from ..kit.matrix import matrix_table
from ..kit.state import Choice, Integer, StateSpec
from ..kit.strings import Text

X = [[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 2.0], [1.0, 1.0, 1.0, 1.0]]
D_K = 3
PROJECTIONS = ("Q", "K", "V")
TABLES = (*PROJECTIONS, "scores", "weights", "output")
CAPTIONS = {
    "Q": "q_caption",
    "K": "k_caption",
    "V": "v_caption",
    "scores": "s_caption",
    "weights": "a_caption",
    "output": "o_caption",
}
STRINGS = (
    "title",
    "q_caption",
    "k_caption",
    "v_caption",
    "s_caption",
    "a_caption",
    "o_caption",
    "tokens",
    "reseed",
    "cell_label",
    "explain_q",
    "explain_k",
    "explain_v",
    "explain_scores",
    "explain_weights",
    "explain_output",
    "readout",
    "caption",
    "row_sum",
)


def _x(i: int) -> str:
    return f"x{subscript(i + 1)}"


def compute(seed: int) -> dict[str, list[list[float]]]:
    """Every matrix of one call of a head with the weights of ``seed``, as the head computed them."""
    head = SelfAttention(len(X[0]), D_K, seed=seed)
    out, weights = head(X)
    Q, K, V, scores = head.Q, head.K, head.V, head.scores  # the call set them
    assert Q is not None
    assert K is not None
    assert V is not None
    assert scores is not None
    return {
        "X": X,
        "W_Q": head.W_Q,
        "W_K": head.W_K,
        "W_V": head.W_V,
        "Q": Q,
        "K": K,
        "V": V,
        "scores": scores,
        "weights": weights,
        "output": out,
    }


def explain(m: dict[str, list[list[float]]], table: str, i: int, j: int, t: Text) -> str:
    """The selected cell's computation written out with its numbers (left to right)."""
    if table in PROJECTIONS:
        # Row i of X dotted with column j of W_Q (W_K, W_V); the result as the head computed it.
        x, column = m["X"][i], [row[j] for row in m[f"W_{table}"]]
        # Weights with three decimals, like the result, so the shown terms add up to it.
        terms = " + ".join(f"{t.num(a)}·{t.num(b, 3)}" for a, b in zip(x, column))
        name = table.lower()
        text = (
            f"{name}{i + 1},{j + 1} = x{i + 1} · W_{table}[:, {j + 1}] = ({t.numbers.join(t.num(a) for a in x)})"
            f" · ({t.numbers.join(t.num(b, 3) for b in column)}) = {terms} = {t.num(m[table][i][j], 3)}"
        )
        # The entry's number is a whole number of the sentence (Persian writes ۳), as in cell_label;
        # in a plain span, where the other explanations have x₂, so the markup keeps its structure.
        lead = t.html(f"explain_{name}", i=formula(_x(i)), j=el("span", {}, esc(t.count(j + 1))))
    elif table == "scores":
        terms = " + ".join(f"{t.num(a)}·{t.num(b)}" for a, b in zip(m["Q"][i], m["K"][j]))
        root = t.num(math.sqrt(D_K), 3)
        text = f"s{i + 1}{j + 1} = (q{i + 1}·k{j + 1}) / √{D_K} = ({terms}) / {root} = {t.num(m['scores'][i][j], 3)}"
        lead = t.html("explain_scores", i=formula(_x(i)), j=formula(_x(j)))
    elif table == "weights":
        row = m["scores"][i]
        denom = " + ".join(f"e^{t.num(s)}" for s in row)
        text = f"α{i + 1}{j + 1} = e^{t.num(row[j])} / ({denom}) = {t.num(m['weights'][i][j], 3)}"
        lead = t.html("explain_weights", i=formula(_x(i)), j=formula(_x(j)))
    else:
        terms = " + ".join(f"{t.num(a)}·{t.num(v[j])}" for a, v in zip(m["weights"][i], m["V"]))
        text = f"o{i + 1},{j + 1} = Σₖ α{i + 1}ₖ·Vₖ,{j + 1} = {terms} = {t.num(m['output'][i][j], 3)}"
        lead = t.html("explain_output", i=formula(_x(i)), j=el("span", {}, esc(t.count(j + 1))))
    return el("div", {"class": "apy-explain"}, el("p", {}, lead), el("p", {"class": "apy-formula"}, formula(text)))


def draw(state: dict[str, Any], t: Text) -> Panel:
    m = compute(state["seed"])
    table, i, j = state["table"], state["row"], state["col"]
    reseed = button(t.html("reseed"), {"seed": (state["seed"] + 1) % 1000}, focus_key="reseed")
    body = (
        projection_tables(m, state, t)
        + attention_tables(m, state, t)
        + explain(m, table, i, j, t)
        + el("div", {"class": "apy-row"}, reseed)
    )
    readout = t.html(
        "readout", table=esc(t.plain(CAPTIONS[table])), row=formula(_x(i)), value=formula(t.num(m[table][i][j], 3))
    )
    return Panel(body, readout, [t.html("caption")])


def projection_tables(m: dict[str, list[list[float]]], state: dict[str, Any], t: Text) -> str:
    """Q, K and V side by side, each with the product that made it."""
    return el(
        "div",
        {"class": "apy-tables"},
        *(
            clickable(m, name, t.html(CAPTIONS[name]) + " " + formula(f"{name} = X W_{name}"), _dims(), state, t)
            for name in PROJECTIONS
        ),
    )


def attention_tables(m: dict[str, list[list[float]]], state: dict[str, Any], t: Text) -> str:
    """The scores, the weights (with each row's sum under them) and the output, side by side."""
    sums = el(
        "p",
        {"class": "apy-muted"},
        t.html("row_sum", sums=formula(t.numbers.join(t.num(sum(row), 2) for row in m["weights"]))),
    )
    weights = clickable(m, "weights", t.html("a_caption") + " " + formula("softmax"), _tokens(), state, t, signed=False)
    return el(
        "div",
        {"class": "apy-tables"},
        clickable(m, "scores", t.html("s_caption") + " " + formula("Q Kᵀ / √dₖ"), _tokens(), state, t),
        el("div", {}, weights, sums),
        clickable(m, "output", t.html("o_caption") + " " + formula("A V"), _dims(), state, t),
    )


def _tokens() -> list[str]:
    """The tokens' labels, x₁ x₂ x₃: every table's rows, and the columns of those token by token."""
    return [formula(_x(k)) for k in range(3)]


def _dims() -> list[str]:
    """The columns of a table of ``D_K`` features: 1, 2, 3."""
    return [formula(str(k + 1)) for k in range(D_K)]


def clickable(
    m: dict[str, list[list[float]]],
    name: str,
    caption: str,
    cols: list[str],
    state: dict[str, Any],
    t: Text,
    *,
    signed: bool = True,
) -> str:
    """Matrix ``name`` with every cell a button that explains itself. Only the chosen cell is
    pressed, so focusing a cell that is merely highlighted (one it came from) still chooses it."""
    table, i, j = state["table"], state["row"], state["col"]
    return matrix_table(
        m[name],
        t.numbers,
        row_labels=_tokens(),
        col_labels=cols,
        caption=caption,
        signed=signed,
        corner=t.html("tokens"),
        selected=came_from(name, table, i, j),
        cls=f"apy-t-{name}",
        pressed=lambda r, c: name == table and (r, c) == (i, j),
        action=lambda r, c: {"table": name, "row": r, "col": c},
        activate_on_focus=True,
        cell_label=lambda r, c, shown: t.plain(
            "cell_label", table=t.plain(CAPTIONS[name]), row=t.count(r + 1), col=t.count(c + 1), value=shown
        ),
    )


def came_from(name: str, table: str, i: int, j: int) -> Callable[[int, int], bool]:
    """Which cells of matrix ``name`` to highlight for the chosen cell (``table``, i, j): the
    cell itself, and the rows and columns it was computed from."""

    def chosen(r: int, c: int) -> bool:
        if name == table:
            return (r, c) == (i, j)
        if table == "scores":
            return (name == "Q" and r == i) or (name == "K" and r == j)
        if table == "weights":
            return name == "scores" and r == i
        if table == "output":
            return (name == "weights" and r == i) or (name == "V" and c == j)
        return False

    return chosen


FIGURE = Figure(
    name="information_flow",
    spec=StateSpec(
        {
            "seed": Integer(0, 999, 1),
            "table": Choice(TABLES, "weights"),
            "row": Integer(0, 2, 0),
            "col": Integer(0, 2, 1),
        }
    ),
    strings=STRINGS,
    draw=draw,
)
