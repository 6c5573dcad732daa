"""Causal attention - a token sees only itself and the tokens before it.

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
    step = min(state["step"], len(tokens))
    causal = state["causal"]
    weights = masked_rows(tokens, step) if causal else full_rows(tokens)
    body = (
        step_controls(tokens, step, causal, t)
        + el("div", {"class": "apy-scroll"}, weight_table(tokens, weights, step, causal, t))
        + el("p", {"class": "apy-muted"}, stability(tokens, weights, step, causal, t))
    )
    return Panel(body, readout(tokens, weights, step, causal, t), [t.html("caption"), t.html("designed_note")])


def step_controls(tokens: list[Token], step: int, causal: bool, t: Text) -> str:
    """The mask's switch, then the step: previous, a slider naming the current word, next."""
    n = len(tokens)
    return el(
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
            valuetext=tokens[step - 1].word,
            digits=0,
        ),
        button(t.html("next"), {"step": min(step + 1, n)}, disabled=step >= n, focus_key="next"),
    )


def weight_table(tokens: list[Token], weights: list[list[float]], step: int, causal: bool, t: Text) -> str:
    """The whole sentence's map: with the mask, the words not yet read and the future masked;
    the current word's row marked."""
    n = len(tokens)
    seen = step if causal else n
    values = [[weights[i][j] if i < seen and j < seen else 0.0 for j in range(n)] for i in range(n)]
    words = [esc(tok.word) for tok in tokens]
    return matrix_table(
        values,
        t.numbers,
        row_labels=words,
        col_labels=words,
        direction=None,
        corner=t.html("rows_are"),
        caption=t.html("matrix_caption"),
        masked=(lambda i, j: i >= step or j > i) if causal else (lambda i, j: False),
        masked_text=t.plain("masked"),
        selected=lambda i, j: i == step - 1,
        cls="apy-causal",
    )


def stability(tokens: list[Token], weights: list[list[float]], step: int, causal: bool, t: Text) -> str:
    """With the mask, how little the rows already read moved with this word; without it, how far
    the current word's row is from its row with the mask: what reading ahead changed."""
    current = step - 1
    if not causal:
        masked_row = masked_rows(tokens, step)[current] + [0.0] * (len(tokens) - step)
        drift = max(abs(a - b) for a, b in zip(weights[current], masked_row))
        return t.sentence("full_note", word=esc(tokens[current].word), drift=Num(drift, 3))
    if step > 1:
        before = masked_rows(tokens, step - 1)
        drift = max(abs(before[i][j] - weights[i][j]) for i in range(step - 1) for j in range(step - 1))
        return t.sentence("unchanged", drift=Num(drift, 3))
    return t.html("first")  # its one weight is named by the readout, once


def readout(tokens: list[Token], weights: list[list[float]], step: int, causal: bool, t: Text) -> str:
    """The current word, how many words it sees, and the ones it attends to most."""
    seen = step if causal else len(tokens)
    word = esc(tokens[step - 1].word)
    top = _top(weights[step - 1][:seen], tokens, t)
    if seen == 1:  # only the first word read: it sees one word, itself (singular, no count)
        return t.sentence("readout_first", word=word, top=top)
    return t.sentence("readout_causal" if causal else "readout_full", word=word, count=seen, top=top)


FIGURE = Figure(
    name="causal_attention",
    spec=StateSpec({"causal": Flag(True), "step": Integer(1, MAX_TOKENS, MAX_TOKENS)}),
    strings=STRINGS,
    draw=draw,
)
