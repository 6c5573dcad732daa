"""Multi-head attention - several heads look at the same sentence differently.

The example sentence goes through the package's ``MultiHeadAttention`` with 1, 2 or 4
heads (d_model = 8, weights from a fixed seed, not trained). The designed vectors go in
multiplied by ``CONTRAST``, and the caption says so: at their own size they are so short
that these random heads spread almost every row evenly (the pronoun's largest weight
stays under 0.2 with 1, 2 or 4 heads; tests/figures/test_figures_numbers.py checks it), which would
show nothing. Each head's weight matrix is
drawn side by side; they differ because each head has its own W_Q, W_K, W_V. The figure
then follows the shapes: each head outputs n x d_model/h, the heads are concatenated
back to n x d_model, and W_O mixes them into the output.

State (defaults): ``heads: 2``
"""

from __future__ import annotations

from typing import Any

from ... import MultiHeadAttention
from ..kit.controls import formula, segmented
from ..kit.figure import Figure, Panel
from ..kit.html import el, esc
from ..kit.matrix import matrix_table
from ..kit.sentence import D_MODEL, Token, embed, pronoun_index, sentence
from ..kit.state import Choice, StateSpec
from ..kit.strings import Pct, Text

SEED = 5
CONTRAST = 3  # input scale so that random (untrained) heads show visible patterns (see caption)
STRINGS = (
    "title",
    "heads",
    "head",
    "shapes",
    "concat",
    "projection",
    "output",
    "readout_item",
    "separator",
    "readout",
    "caption",
)


def _shape(matrix: list[list[float]]) -> str:
    return f"{len(matrix)}×{len(matrix[0])}"


def draw(state: dict[str, Any], t: Text) -> Panel:
    h = state["heads"]
    tokens = sentence(t, "angry")
    x = [[CONTRAST * v for v in row] for row in embed(tokens)]
    mha = MultiHeadAttention(D_MODEL, h, seed=SEED)  # new per draw: a call leaves its values on the layer
    output, per_head = mha(x)
    concatenated = mha.concat  # the call set it
    assert concatenated is not None
    focus = pronoun_index(tokens)
    words = [esc(tok.word) for tok in tokens]
    chooser = segmented(
        t.plain("heads"), [(formula(str(k)), {"heads": k}, k == h) for k in (1, 2, 4)], key="heads", direction="ltr"
    )
    grids = "".join(head_grid(k, w, words, focus, t) for k, w in enumerate(per_head))
    tables = feature_table(concatenated, words, t.html("concat"), "apy-mini apy-mini--numeric", t) + feature_table(
        output, words, t.html("output"), "apy-mini", t
    )
    body = (
        chooser
        + el("div", {"class": "apy-heads apy-scroll"}, grids)
        + shape_flow(mha, x, concatenated, output, t)
        + el("div", {"class": "apy-tables apy-scroll"}, tables)
        + el("p", {"class": "apy-muted"}, t.html("projection"))
    )
    return Panel(body, readout(per_head, tokens, focus, t), [t.sentence("caption", factor=CONTRAST)])


def head_grid(k: int, weights: list[list[float]], words: list[str], focus: int, t: Text) -> str:
    """Head ``k``'s attention weights as a small map without numbers, the pronoun's row marked."""
    title = el("p", {"class": "apy-head__title"}, esc(t.plain("head", k=t.count(k + 1))), " ", formula(_shape(weights)))
    grid = matrix_table(
        weights,
        t.numbers,
        row_labels=words,
        col_labels=words,
        direction=None,
        show_numbers=False,
        caption="",
        corner="",
        selected=lambda i, j: i == focus,
        cls="apy-mini",
    )
    return el("div", {"class": f"apy-head apy-h{k}"}, title, grid)


def shape_flow(
    mha: MultiHeadAttention, x: list[list[float]], concatenated: list[list[float]], output: list[list[float]], t: Text
) -> str:
    """The shapes from input to output, as the matrices of this very call have them."""
    queries, head_outputs = mha.heads[0].Q, mha.head_outputs  # the call set them
    assert queries is not None
    assert head_outputs is not None
    h = len(mha.heads)
    steps = [
        (f"{CONTRAST}·X", _shape(x)),
        (f"{h} × (Q, K, V)", f"{h} × {_shape(queries)}"),
        (f"{h} × head", f"{h} × {_shape(head_outputs[0])}"),
        ("Concat", _shape(concatenated)),
        ("· W_O", _shape(mha.W_O)),
        ("=", _shape(output)),
    ]
    items = "".join(
        el(
            "li",
            {},
            el("span", {"class": "apy-shapes__name"}, esc(name)),
            el("span", {"class": "apy-shapes__dim"}, esc(dim)),
        )
        for name, dim in steps
    )
    return el("ol", {"class": "apy-shapes", "dir": "ltr", "aria-label": t.plain("shapes")}, items)


def feature_table(matrix: list[list[float]], words: list[str], caption: str, cls: str, t: Text) -> str:
    """A token-by-feature matrix (the heads concatenated, the output) shaded by sign, no numbers."""
    return matrix_table(
        matrix,
        t.numbers,
        row_labels=words,
        col_labels=[formula(str(c + 1)) for c in range(D_MODEL)],
        caption=caption,
        signed=True,
        show_numbers=False,
        cls=cls,
    )


def readout(per_head: list[list[list[float]]], tokens: list[Token], focus: int, t: Text) -> str:
    """For each head, the word the pronoun attends to most and how much."""
    items = []
    for k, w in enumerate(per_head):
        row = w[focus]
        top = max(range(len(tokens)), key=lambda j: row[j])
        items.append(t.sentence("readout_item", k=k + 1, target=esc(tokens[top].word), weight=Pct(100 * row[top], 0)))
    return t.sentence("readout", word=esc(tokens[focus].word), items=esc(t.plain("separator")).join(items))


FIGURE = Figure(
    name="multi_head",
    spec=StateSpec({"heads": Choice((1, 2, 4), 2)}),
    strings=STRINGS,
    draw=draw,
)
