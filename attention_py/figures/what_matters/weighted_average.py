"""Figure 2: a weighted average y = sum_j alpha_j x_j of three word vectors.

One slider per word (teacher, student, angry) sets a raw weight; the figure normalises
the weights to sum to 1, prints them, and moves the point y, computed by the package's
``weighted_average``. y always stays inside the triangle of the three words: a weighted
average can mix what is there but never leave it.

State (defaults): ``w: [0.5, 0.5, 0.5]`` (0..1 each)
"""

from __future__ import annotations

import math
from typing import Any

from ... import weighted_average
from ..kit.controls import formula, slider, value
from ..kit.figure import Figure, Panel
from ..kit.format import percent_shares
from ..kit.html import el, esc
from ..kit.state import Numbers, StateSpec
from ..kit.strings import Text
from ..kit.svg import Plane, f, svg

WORDS = ("teacher", "student", "angry")
POINTS = ((-2.0, 1.2), (2.2, 1.5), (0.4, -1.9))
PLANE = Plane(width=360, height=300, xlim=(-3.0, 3.2), ylim=(-2.6, 2.4))
STRINGS = (
    "title",
    "weight_label",
    "picture",
    "readout",
    "readout_zero",
    "caption",
    "formula",
    "word_teacher",
    "word_student",
    "word_angry",
)


# The average of the unit vectors e_j is (alpha_1, alpha_2, alpha_3): the normalised weights,
# exactly as the package's weighted_average normalises them.
UNIT_VECTORS = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def draw(state: dict[str, Any], t: Text) -> Panel:
    w = state["w"]
    mixing = any(wj > 0 for wj in w)  # weights are clamped to 0..1: all zero means nothing to mix
    alphas = weighted_average(w, UNIT_VECTORS) if mixing else [0.0] * len(w)
    shares = percent_shares(alphas) if mixing else alphas
    sliders = "".join(
        el(
            "div",
            {"class": "apy-barrow"},
            slider(
                f"w.{j}",
                w[j],
                lo=0.0,
                hi=1.0,
                step=0.01,
                label=el("span", {"class": f"apy-swatch apy-k{j}", "aria-hidden": "true"})
                + esc(t.plain(f"word_{word}")),
                aria_label=t.plain("weight_label", word=t.plain(f"word_{word}")),
                shown=t.num(w[j], 2),
            ),
            el(
                "div",
                {"class": "apy-bar", "aria-hidden": "true"},
                el("span", {"class": f"apy-bar__fill apy-k{j}", "style": f"--p:{shares[j] / 100:.4f}"}),
            ),
            el("span", {"class": "apy-bar__value", "dir": "ltr"}, f"α = {t.pct(shares[j])}"),
        )
        for j, word in enumerate(WORDS)
    )
    corners = [PLANE.px(*p) for p in POINTS]
    parts = [
        PLANE.grid(),
        el("polygon", {"class": "apy-hull", "points": " ".join(f"{f(u)},{f(v)}" for u, v in corners)}),
    ]
    point = weighted_average(w, POINTS) if mixing else None
    if point is not None:
        yu, yv = PLANE.px(*point)
        for j, (u, v) in enumerate(corners):
            parts.append(
                el(
                    "line",
                    {
                        "class": f"apy-pull apy-k{j}",
                        "x1": f(yu),
                        "y1": f(yv),
                        "x2": f(u),
                        "y2": f(v),
                        "stroke-width": f(0.5 + 6 * shares[j] / 100),
                    },
                )
            )
    for j, (u, v) in enumerate(corners):
        anchor = "end" if POINTS[j][0] < 0 else "start"
        parts.append(
            el(
                "g",
                {"class": f"apy-point apy-k{j}"},
                el("circle", {"cx": f(u), "cy": f(v), "r": "6"}),
                el(
                    "text",
                    {"x": f(u + (-10 if anchor == "end" else 10)), "y": f(v + 4), "text-anchor": anchor},
                    esc(t.plain(f"word_{WORDS[j]}")),
                ),
            )
        )
    if point is not None:
        yu, yv = PLANE.px(*point)
        parts.append(
            el(
                "g",
                {"class": "apy-ypoint"},
                el("circle", {"cx": f(yu), "cy": f(yv), "r": "7"}),
                el("text", {"x": f(yu + 10), "y": f(yv - 9)}, "y"),
            )
        )
    drawing = svg("".join(parts), width=PLANE.width, height=PLANE.height, label=t.plain("picture"), cls="apy-plane")
    body = el("p", {"class": "apy-formula"}, t.html("formula"), " ", formula("y = Σⱼ αⱼ xⱼ,   αⱼ = wⱼ / Σₖ wₖ")) + el(
        "div",
        {"class": "apy-split"},
        el("div", {"class": "apy-split__main"}, drawing),
        el("div", {"class": "apy-side apy-bars"}, sliders),
    )
    if point is None:
        readout = t.html("readout_zero")
    else:
        readout = t.html(
            "readout",
            point=el("span", {"dir": "ltr"}, f"y = ({t.numbers.join(t.num(v) for v in point)})"),
            total=value(t.pct(100 * math.fsum(alphas), 1)),
        )
    return Panel(body, readout, [t.html("caption")])


FIGURE = Figure(
    name="weighted_average",
    spec=StateSpec({"w": Numbers(0.0, 1.0, (0.5, 0.5, 0.5), 3, 3, quantum=0.01)}),
    strings=STRINGS,
    draw=draw,
)
