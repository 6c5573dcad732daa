"""One word, three roles - its query, key and value vectors.

Pick a word of the example sentence; the figure shows the vector entering the designed
second layer (see ``kit.sentence``) and its projections q = x W_Q, k = x W_K, v = x W_V as
rows of cells whose shading shows each number. Beside each, a human gloss of the role -
with the honest note that vectors of a trained model cannot be read like that.

State (defaults): ``word: -1`` (token index; −1 = the pronoun)
"""

from __future__ import annotations

from typing import Any

from ..kit.controls import formula
from ..kit.figure import Figure, Panel
from ..kit.html import el, esc
from ..kit.matrix import vector_cells
from ..kit.sentence import pronoun_index, read, sentence, token_strip
from ..kit.state import Integer, StateSpec
from ..kit.strings import Text

MAX_TOKENS = 30
GLOSS_GROUPS = ("teacher", "student", "she", "angry", "other")
ROLE_NAMES = ("query", "key", "value")
STRINGS = (
    "title",
    "sentence",
    "token_label",
    "input",
    "input_label",
    "query",
    "key",
    "value",
    "vector_label",
    "readout",
    "honest_note",
    "analogy",
    *tuple(f"gloss_{r}_{g}" for g in GLOSS_GROUPS for r in ROLE_NAMES),
)


def _group(role: str) -> str:
    return role if role in GLOSS_GROUPS else ("angry" if role == "rude" else "other")


def draw(state: dict[str, Any], t: Text) -> Panel:
    tokens = sentence(t, "angry")
    reading = read(tokens)
    chosen = pronoun_index(tokens) if state["word"] < 0 else min(state["word"], len(tokens) - 1)
    word = tokens[chosen].word
    group = _group(tokens[chosen].role)
    strip = token_strip(
        tokens,
        selected=chosen,
        weights=None,
        numbers=t.numbers,
        label=t.plain("sentence"),
        changes=lambda i: {"word": i},
        token_label=lambda i: t.plain("token_label", word=tokens[i].word),
    )
    # One shared scale for q, k, v so their shading can be compared.
    vectors = {"query": reading.q[chosen], "key": reading.k[chosen], "value": reading.v[chosen]}
    top = max(abs(v) for vec in vectors.values() for v in vec) or 1.0
    x_row = el(
        "div",
        {"class": "apy-qkv__input"},
        el("p", {"class": "apy-qkv__role"}, t.html("input"), " ", formula("x")),
        vector_cells(
            reading.x1[chosen],
            t.numbers,
            aria_label=t.plain(
                "input_label", word=word, values=t.numbers.join(t.numbers.plain(v) for v in reading.x1[chosen])
            ),
        ),
    )
    cards = []
    for role, symbol, matrix in (("query", "q", "W_Q"), ("key", "k", "W_K"), ("value", "v", "W_V")):
        vec = vectors[role]
        cards.append(
            el(
                "div",
                {"class": f"apy-qkv__card apy-qkv--{role}"},
                el("p", {"class": "apy-qkv__role"}, esc(t.plain(role)), " ", formula(f"{symbol} = x {matrix}")),
                vector_cells(
                    vec,
                    t.numbers,
                    scale=top,
                    aria_label=t.plain(
                        "vector_label",
                        role=t.plain(role),
                        word=word,
                        values=t.numbers.join(t.numbers.plain(v) for v in vec),
                    ),
                ),
                el("p", {"class": "apy-qkv__gloss"}, t.html(f"gloss_{role}_{group}")),
            )
        )
    body = strip + x_row + el("div", {"class": "apy-qkv"}, "".join(cards))
    readout = t.html("readout", word=esc(word))
    return Panel(body, readout, [t.html("honest_note"), t.html("analogy")])


FIGURE = Figure(
    name="qkv",
    spec=StateSpec({"word": Integer(-1, MAX_TOKENS - 1, -1)}),
    strings=STRINGS,
    draw=draw,
)
