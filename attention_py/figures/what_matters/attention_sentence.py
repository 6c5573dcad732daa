"""Attention weights over the example sentence, from a designed two-layer model.

Changing the last word (angry / rude) flips which noun the pronoun attends to. The
matrix is not painted: the sentence goes through two ``SelfAttention`` layers whose
numbers were designed by hand (see ``kit.sentence``), and the page says so. Selecting a token
isolates its row. Token axes follow the reading direction of the page.

State (defaults): ``ending: angry`` (``rude``), ``layer: 2`` (1), ``selected: -1``
"""

from __future__ import annotations

from typing import Any

from ..kit.controls import segmented
from ..kit.figure import Figure, Panel
from ..kit.html import el, esc
from ..kit.matrix import matrix_table
from ..kit.sentence import ENDINGS, Token, pronoun_index, read, sentence, token_strip, token_weight
from ..kit.state import Choice, Integer, StateSpec
from ..kit.strings import Text

MAX_TOKENS = 30
STRINGS = (
    "title",
    "ending",
    "ending_angry",
    "ending_rude",
    "layer",
    "layer_1",
    "layer_2",
    "sentence",
    "token_label",
    "cell_label",
    "matrix_caption",
    "rows_are",
    "readout",
    "layer_1_note",
    "layer_2_note",
    "designed_note",
)


def draw(state: dict[str, Any], t: Text) -> Panel:
    tokens = sentence(t, state["ending"])
    reading = read(tokens)
    weights = reading.weights1 if state["layer"] == 1 else reading.weights2
    chosen = pronoun_index(tokens) if state["selected"] < 0 else min(state["selected"], len(tokens) - 1)
    controls = el(
        "div",
        {"class": "apy-row"},
        choice("ending", [("angry", "ending_angry"), ("rude", "ending_rude")], state["ending"], t),
        choice("layer", [(1, "layer_1"), (2, "layer_2")], state["layer"], t),
    )
    strip = sentence_strip(tokens, weights[chosen], chosen, t)
    body = controls + strip + el("div", {"class": "apy-scroll"}, attention_table(tokens, weights, chosen, t))
    note = t.html("layer_1_note" if state["layer"] == 1 else "layer_2_note")
    return Panel(body, readout(tokens, weights[chosen], chosen, t), [note, t.html("designed_note")])


def choice(key: str, options: list[tuple[Any, str]], current: Any, t: Text) -> str:
    """The buttons choosing state ``key`` among ``options`` (value, the key of its label)."""
    buttons = [(t.html(label), {key: option}, current == option) for option, label in options]
    return segmented(t.plain(key), buttons, key=key)


def sentence_strip(tokens: list[Token], row: list[float], chosen: int, t: Text) -> str:
    """The sentence as buttons choosing a token, each with the weight the chosen one gives it."""
    return token_strip(
        tokens,
        selected=chosen,
        weights=row,
        numbers=t.numbers,
        label=t.plain("sentence"),
        changes=lambda i: {"selected": i},
        token_label=lambda i: t.plain(
            "token_label", word=tokens[i].word, weight=token_weight(row[i], t.numbers), selected=tokens[chosen].word
        ),
    )


def attention_table(tokens: list[Token], weights: list[list[float]], chosen: int, t: Text) -> str:
    """The layer's weights, token by token: every cell chooses its row, the chosen row stands out."""
    words = [esc(tok.word) for tok in tokens]
    return matrix_table(
        weights,
        t.numbers,
        row_labels=words,
        col_labels=words,
        direction=None,
        caption=t.html("matrix_caption"),
        corner=t.html("rows_are"),
        action=lambda i, j: {"selected": i},
        cell_label=lambda i, j, shown: t.plain(
            "cell_label", source=tokens[i].word, target=tokens[j].word, weight=shown
        ),
        selected=lambda i, j: i == chosen,
        dimmed=lambda i, j: i != chosen,
        cls="apy-attn",
    )


def readout(tokens: list[Token], row: list[float], chosen: int, t: Text) -> str:
    """The other token the chosen one attends to most, and how much."""
    others = [j for j in range(len(tokens)) if j != chosen] or [chosen]
    top = max(others, key=lambda j: row[j])
    return t.html(
        "readout",
        word=esc(tokens[chosen].word),
        target=esc(tokens[top].word),
        weight=el("span", {"dir": "ltr"}, token_weight(row[top], t.numbers)),
    )


FIGURE = Figure(
    name="attention_sentence",
    spec=StateSpec(
        {
            "ending": Choice(ENDINGS, "angry"),
            "layer": Choice((1, 2), 2),
            "selected": Integer(-1, MAX_TOKENS - 1, -1),
        }
    ),
    strings=STRINGS,
    draw=draw,
)
