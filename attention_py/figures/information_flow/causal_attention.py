"""Figure 11: causal attention - a token sees only itself and the tokens before it.

The example sentence goes through the designed model of figure 8 with the causal mask on
or off, and the reader steps through it one word at a time. With the mask on, the figure
holds only the words read so far: the upper triangle is masked, each row renormalises over
what is left, and reading a new word never changes the rows already computed. With the
mask off, every word attends to every word of the whole sentence, later ones included, so
at the same step the reader can compare the two rows of the current word: the pronoun
that cannot yet see "angry" against the pronoun that can.

State (defaults): ``causal: true``, ``step: 30`` (clamped to the sentence)
"""

from __future__ import annotations

from typing import Any

from ..kit.controls import button, checkbox, slider
from ..kit.figure import Figure, Panel
from ..kit.html import el, esc
from ..kit.matrix import matrix_table
from ..kit.sentence import Token, read_causal, sentence
from ..kit.state import Flag, Integer, StateSpec
from ..kit.strings import Num, Pct, Text

MAX_TOKENS = 30
TOP = 2  # the readout names the current word's two largest weights (its only one at step 1)
STRINGS = (
    "title",
    "causal",
    "step",
    "previous",
    "next",
    "masked",
    "matrix_caption",
    "rows_are",
    "readout_causal",
    "readout_first",
    "readout_full",
    "top_item",
    "separator",
    "unchanged",
    "first",
    "full_note",
    "caption",
    "designed_note",
)


def masked_rows(tokens: list[Token], step: int) -> list[list[float]]:
    """The weights with the mask, for the first ``step`` words: all a causal model has read."""
    return read_causal(tokens[:step], True).weights2


def full_rows(tokens: list[Token]) -> list[list[float]]:
    """The weights without the mask: the whole sentence, every word attending to every word."""
    return read_causal(tokens, False).weights2


def _top(row: list[float], tokens: list[Token], t: Text) -> str:
    """The row's ``TOP`` largest weights as "“word” 70%" items (earlier word first on a tie);
    fewer when the row is shorter: with one word read, its one weight, named once."""
    order = sorted(range(len(row)), key=lambda j: (-row[j], j))[:TOP]
    return esc(t.plain("separator")).join(
        t.sentence("top_item", word=esc(tokens[j].word), weight=Pct(100 * row[j], 0)) for j in order
    )


def draw(state: dict[str, Any], t: Text) -> Panel:
    tokens = sentence(t, "angry")
    n = len(tokens)
    step = min(state["step"], n)
    causal = state["causal"]
    current = step - 1
    weights = masked_rows(tokens, step) if causal else full_rows(tokens)
    seen = step if causal else n
    values = [[weights[i][j] if i < seen and j < seen else 0.0 for j in range(n)] for i in range(n)]
    words = [esc(tok.word) for tok in tokens]
    table = matrix_table(
        values,
        t.numbers,
        row_labels=words,
        col_labels=words,
        direction=None,
        corner=t.html("rows_are"),
        caption=t.html("matrix_caption"),
        masked=(lambda i, j: i >= step or j > i) if causal else (lambda i, j: False),
        masked_text=t.plain("masked"),
        selected=lambda i, j: i == current,
        cls="apy-causal",
    )
    controls = el(
        "div",
        {"class": "apy-row"},
        checkbox("causal", causal, label=t.plain("causal")),
        button(t.html("previous"), {"step": max(step - 1, 1)}, disabled=step <= 1, focus_key="previous"),
        slider(
            "step",
            step,
            lo=1,
            hi=n,
            step=1,
            label=t.html("step"),
            aria_label=t.plain("step"),
            shown=f"{step} / {n}",
            valuetext=tokens[current].word,
            digits=0,
        ),
        button(t.html("next"), {"step": min(step + 1, n)}, disabled=step >= n, focus_key="next"),
    )
    word = esc(tokens[current].word)
    if not causal:
        # The same word's row with the mask, at this step: what reading ahead changed.
        masked_row = masked_rows(tokens, step)[current] + [0.0] * (n - step)
        drift = max(abs(a - b) for a, b in zip(weights[current], masked_row))
        stability = t.sentence("full_note", word=word, drift=Num(drift, 3))
    elif step > 1:
        before = masked_rows(tokens, step - 1)
        drift = max(abs(before[i][j] - weights[i][j]) for i in range(step - 1) for j in range(step - 1))
        stability = t.sentence("unchanged", drift=Num(drift, 3))
    else:
        stability = t.html("first")  # its one weight is named by the readout, once
    top = _top(weights[current][:seen], tokens, t)
    if seen == 1:  # only the first word read: it sees one word, itself (singular, no count)
        readout = t.sentence("readout_first", word=word, top=top)
    else:
        readout = t.sentence("readout_causal" if causal else "readout_full", word=word, count=seen, top=top)
    body = controls + el("div", {"class": "apy-scroll"}, table) + el("p", {"class": "apy-muted"}, stability)
    return Panel(body, readout, [t.html("caption"), t.html("designed_note")])


FIGURE = Figure(
    name="causal_attention",
    spec=StateSpec({"causal": Flag(True), "step": Integer(1, MAX_TOKENS, MAX_TOKENS)}),
    strings=STRINGS,
    draw=draw,
)
