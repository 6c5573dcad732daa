"""Simplified self-attention - one token looks at every token, itself included.

Three tokens x1, x2, x3 are small 2-D vectors (type new values to change them). For the
chosen token x_i the scores are the dot products x_i·x_j, softmax turns them into
weights, and the arrows' thickness shows those weights. The output y_i is the mix
sum_j alpha_ij x_j. No learned matrices yet: that is the next figure's step.

State (defaults): ``x: [[1, .5], [.8, 1], [-.6, .6]]``, ``focus: 0``
"""

from __future__ import annotations

from typing import Any

from ... import dot, scaled_dot_product_attention
from ..kit.controls import formula, segmented, vector_input
from ..kit.figure import Figure, Panel
from ..kit.format import NumberFormat, percent_shares, subscript
from ..kit.html import el
from ..kit.state import Integer, StateSpec, Vectors
from ..kit.strings import Text
from ..kit.svg import f, svg

WIDTH, HEIGHT = 420.0, 210.0
BOX_Y, BOX_W, BOX_H = 150.0, 84.0, 40.0
STRINGS = ("title", "focus", "vector_label", "picture", "readout", "table_score", "table_weight", "caption", "token")


def _name(j: int) -> str:
    return f"x{subscript(j + 1)}"


def _centre(j: int) -> float:
    return WIDTH * (j + 0.5) / 3


def arcs(focus: int, shares: list[float], numbers: NumberFormat) -> str:
    """Curved arrows from the focused token to each token; a loop for itself."""
    parts = []
    x0 = _centre(focus)
    for j, share in enumerate(shares):
        w = 1.2 + 9.0 * share / 100
        x1 = _centre(j)
        if j == focus:
            d = (
                f"M{f(x0 - 14)},{f(BOX_Y)} C{f(x0 - 48)},{f(BOX_Y - 78)} {f(x0 + 48)},{f(BOX_Y - 78)} "
                f"{f(x0 + 14)},{f(BOX_Y - 4)}"
            )
            label_x, label_y = x0, BOX_Y - 64
            tip = (x0 + 14, BOX_Y - 2)
        else:
            lift = 70 + 25 * abs(j - focus)
            d = f"M{f(x0 + (8 if x1 > x0 else -8))},{f(BOX_Y)} Q{f((x0 + x1) / 2)},{f(BOX_Y - 2 * lift)} {f(x1)},{f(BOX_Y - 4)}"
            label_x, label_y = (x0 + x1) / 2, BOX_Y - lift - 4
            tip = (x1, BOX_Y - 2)
        parts.append(el("path", {"class": "apy-flow", "d": d, "stroke-width": f(w)}))
        left, right, top = tip[0] - 5 - w / 2, tip[0] + 5 + w / 2, tip[1] - 9 - w
        points = f"{f(left)},{f(top)} {f(right)},{f(top)} {f(tip[0])},{f(tip[1])}"
        parts.append(el("polygon", {"class": "apy-flow__tip", "points": points}))
        parts.append(
            el(
                "text",
                {"class": "apy-flow__label", "x": f(label_x), "y": f(label_y), "text-anchor": "middle"},
                numbers.pct(share, 0),
            )
        )
    return "".join(parts)


def boxes(xs: list[list[float]], focus: int, numbers: NumberFormat) -> str:
    parts = []
    for j, x in enumerate(xs):
        cx = _centre(j)
        cls = "apy-tokbox" + (" apy-tokbox--focus" if j == focus else "")
        parts.append(
            el(
                "g",
                {"class": cls},
                el("rect", {"x": f(cx - BOX_W / 2), "y": f(BOX_Y), "width": f(BOX_W), "height": f(BOX_H), "rx": "8"}),
                el(
                    "text",
                    {"x": f(cx), "y": f(BOX_Y + 17), "text-anchor": "middle", "class": "apy-tokbox__name"},
                    _name(j),
                ),
                el(
                    "text",
                    {"x": f(cx), "y": f(BOX_Y + 33), "text-anchor": "middle", "class": "apy-tokbox__vec"},
                    numbers.coordinates(x, 1),
                ),
            )
        )
    return "".join(parts)


def draw(state: dict[str, Any], t: Text) -> Panel:
    xs, focus = state["x"], state["focus"]
    # Q = K = V = X and no 1/sqrt(d) yet: y_i = sum_j softmax_j(x_i . x_j) x_j.
    outputs, weights = scaled_dot_product_attention(xs, xs, xs, scale=1.0)
    scores = [dot(xs[focus], xj) for xj in xs]
    alphas, output = weights[focus], outputs[focus]
    shares = percent_shares(alphas)
    picture = svg(
        arcs(focus, shares, t.numbers) + boxes(xs, focus, t.numbers),
        width=WIDTH,
        height=HEIGHT,
        label=t.plain("picture", token=_name(focus)),
        cls="apy-flowpic",
    )
    chooser = segmented(
        t.plain("focus"),
        [(formula(_name(j)), {"focus": j}, j == focus) for j in range(3)],
        key="focus",
        direction="ltr",
    )
    inputs = el(
        "div", {"class": "apy-row apy-vecinputs", "dir": "ltr"}, "".join(token_input(j, xs[j], t) for j in range(3))
    )
    body = chooser + picture + score_table(scores, alphas, focus, t) + mix(alphas, output, focus, t) + inputs
    return Panel(body, readout(alphas, shares, output, focus, t), [t.html("caption")])


def readout(alphas: list[float], shares: list[float], output: list[float], focus: int, t: Text) -> str:
    """The token the focused one takes most from, its share, and the output."""
    top = max(range(3), key=lambda j: alphas[j])
    return t.html(
        "readout",
        token=formula(_name(focus)),
        target=formula(_name(top)),
        share=el("span", {"dir": "ltr"}, t.pct(shares[top], 0)),
        output=formula(t.numbers.coordinates(output)),
    )


def token_input(j: int, x: list[float], t: Text) -> str:
    """Token ``j``'s vector typed in."""
    labels = tuple(t.plain("vector_label", token=_name(j), axis=t.count(axis)) for axis in (1, 2))
    return vector_input(_name(j), f"x.{j}", x, t.numbers, aria_labels=(labels[0], labels[1]))


def score_table(scores: list[float], alphas: list[float], focus: int, t: Text) -> str:
    """The focused token's score with each token and the weight softmax makes of it."""
    head = el(
        "tr",
        {},
        el("th", {"scope": "col"}, t.html("token")),
        "".join(el("th", {"scope": "col"}, formula(_name(j))) for j in range(3)),
    )
    score_row = el(
        "tr",
        {},
        el("th", {"scope": "row"}, t.html("table_score"), " ", formula(f"{_name(focus)}·xⱼ")),
        "".join(el("td", {}, t.num(s, 2)) for s in scores),
    )
    weight_row = el(
        "tr",
        {},
        el("th", {"scope": "row"}, t.html("table_weight"), " ", formula("αⱼ")),
        "".join(el("td", {"class": "apy-cell", "style": f"--w:{a:.3f}"}, t.num(a, 2)) for a in alphas),
    )
    return el(
        "table",
        {"class": "apy-matrix apy-small", "dir": "ltr"},
        el("thead", {}, head),
        el("tbody", {}, score_row + weight_row),
    )


def mix(alphas: list[float], output: list[float], focus: int, t: Text) -> str:
    """The output written as the weighted sum it is, and its value."""
    terms = " + ".join(f"{t.num(a, 2)}·{_name(j)}" for j, a in enumerate(alphas))
    y_name = f"y{subscript(focus + 1)}"
    return el("p", {"class": "apy-formula"}, formula(f"{y_name} = {terms} = {t.numbers.coordinates(output)}"))


FIGURE = Figure(
    name="self_attention_simple",
    spec=StateSpec(
        {
            "x": Vectors(-3.0, 3.0, ((1.0, 0.5), (0.8, 1.0), (-0.6, 0.6)), quantum=0.01),
            "focus": Integer(0, 2, 0),
        }
    ),
    strings=STRINGS,
    draw=draw,
)
