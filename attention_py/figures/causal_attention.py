"""Figure 11: causal attention - a token sees only itself and the tokens before it.

The example sentence goes through the designed model of figure 8 with the causal mask on
or off. The upper triangle of the weight matrix is masked and each row renormalises over
what is left. Stepping through the sentence one token at a time shows the point of it:
with the mask, reading a new token never changes the rows already computed.
"""

from __future__ import annotations

from typing import Any

from ._controls import button, checkbox, slider
from ._figure import Figure, Panel
from ._format import num
from ._html import el, esc
from ._matrix import matrix_table
from ._sentence import read_causal, sentence
from ._state import Flag, Integer, StateSpec
from ._strings import Text

MAX_TOKENS = 30
STRINGS = ("title", "causal", "step", "previous", "next", "masked", "matrix_caption", "rows_are",
           "readout_causal", "readout_full", "unchanged", "changed", "first", "caption", "designed_note")


def draw(state: dict[str, Any], t: Text) -> Panel:
    tokens = sentence(t, "angry")
    n = len(tokens)
    step = min(state["step"], n)
    causal = state["causal"]
    current = read_causal(tokens[:step], causal).weights2
    values = [[current[i][j] if i < step and j < step else 0.0 for j in range(n)] for i in range(n)]
    words = [esc(tok.word) for tok in tokens]
    table = matrix_table(
        values, row_labels=words, col_labels=words, direction=None, corner=t.html("rows_are"),
        caption=t.html("matrix_caption"),
        masked=lambda i, j: i >= step or j >= step or (causal and j > i),
        masked_text=t.plain("masked"),
        selected=lambda i, j: i == step - 1, cls="apy-causal",
    )
    controls = el(
        "div", {"class": "apy-row"},
        checkbox("causal", causal, label=t.plain("causal")),
        button(t.html("previous"), {"step": max(step - 1, 1)}, disabled=step <= 1, focus_key="previous"),
        slider("step", step, lo=1, hi=n, step=1, label=t.html("step"),
               aria_label=t.plain("step"), shown=f"{step} / {n}", valuetext=tokens[step - 1].word, digits=0),
        button(t.html("next"), {"step": min(step + 1, n)}, disabled=step >= n, focus_key="next"),
    )
    if step > 1:
        before = read_causal(tokens[: step - 1], causal).weights2
        drift = max(abs(before[i][j] - current[i][j]) for i in range(step - 1) for j in range(step - 1))
        stability = t.html("unchanged" if drift < 1e-12 else "changed",
                           drift=el("span", {"dir": "ltr"}, num(drift, 3)))
    else:
        stability = t.html("first")
    word = esc(tokens[step - 1].word)
    readout = t.html("readout_causal" if causal else "readout_full", word=word, count=str(step))
    body = controls + el("div", {"class": "apy-scroll"}, table) + el("p", {"class": "apy-muted"}, stability)
    return Panel(body, readout, [t.html("caption"), t.html("designed_note")])


FIGURE = Figure(
    name="causal_attention",
    spec=StateSpec({"causal": Flag(True), "step": Integer(1, MAX_TOKENS, MAX_TOKENS)}),
    strings=STRINGS,
    draw=draw,
)
