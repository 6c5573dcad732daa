"""Figure 8: attention weights over the example sentence, from a designed two-layer model.

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
from ..kit.sentence import ENDINGS, pronoun_index, read, sentence, token_strip, token_weight
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
    n = len(tokens)
    chosen = pronoun_index(tokens) if state["selected"] < 0 else min(state["selected"], n - 1)
    row = weights[chosen]
    controls = el(
        "div",
        {"class": "apy-row"},
        segmented(
            t.plain("ending"),
            [
                (t.html("ending_angry"), {"ending": "angry"}, state["ending"] == "angry"),
                (t.html("ending_rude"), {"ending": "rude"}, state["ending"] == "rude"),
            ],
            key="ending",
        ),
        segmented(
            t.plain("layer"),
            [
                (t.html("layer_1"), {"layer": 1}, state["layer"] == 1),
                (t.html("layer_2"), {"layer": 2}, state["layer"] == 2),
            ],
            key="layer",
        ),
    )
    strip = token_strip(
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
    words = [esc(tok.word) for tok in tokens]
    table = matrix_table(
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
    others = [j for j in range(n) if j != chosen] or [chosen]
    top = max(others, key=lambda j: row[j])
    readout = t.html(
        "readout",
        word=esc(tokens[chosen].word),
        target=esc(tokens[top].word),
        weight=el("span", {"dir": "ltr"}, token_weight(row[top], t.numbers)),
    )
    note = t.html("layer_1_note" if state["layer"] == 1 else "layer_2_note")
    body = controls + strip + el("div", {"class": "apy-scroll"}, table)
    return Panel(body, readout, [note, t.html("designed_note")])


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
