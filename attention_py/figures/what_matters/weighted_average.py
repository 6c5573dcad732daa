"""A weighted average y = sum_j alpha_j x_j of three word vectors.

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
from ..kit.controls import formula, slider, swatch, value
from ..kit.figure import Figure, Panel
from ..kit.format import percent_shares
from ..kit.html import el, esc, split
from ..kit.state import Numbers, StateSpec
from ..kit.strings import Text
from ..kit.svg import Plane, f

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
    point = weighted_average(w, POINTS) if mixing else None
    sliders = "".join(weight_row(j, w[j], shares[j], t) for j in range(len(WORDS)))
    formula_line = el("p", {"class": "apy-formula"}, t.html("formula"), " ", formula("y = Σⱼ αⱼ xⱼ,   αⱼ = wⱼ / Σₖ wₖ"))
    body = formula_line + split(plane(point, shares, t), el("div", {"class": "apy-side apy-bars"}, sliders))
    return Panel(body, readout(point, alphas, t), [t.html("caption")])


def weight_row(j: int, weight: float, share: float, t: Text) -> str:
    """Word ``j``'s slider (its raw weight), then a bar and the percentage of its normalised weight."""
    word = t.plain(f"word_{WORDS[j]}")
    control = slider(
        f"w.{j}",
        weight,
        lo=0.0,
        hi=1.0,
        step=0.01,
        label=swatch(f"apy-k{j}") + esc(word),
        aria_label=t.plain("weight_label", word=word),
        shown=t.num(weight, 2),
    )
    return el(
        "div",
        {"class": "apy-barrow"},
        control,
        el(
            "div",
            {"class": "apy-bar", "aria-hidden": "true"},
            el("span", {"class": f"apy-bar__fill apy-k{j}", "style": f"--p:{share / 100:.4f}"}),
        ),
        el("span", {"class": "apy-bar__value", "dir": "ltr"}, f"α = {t.pct(share)}"),
    )


def plane(point: list[float] | None, shares: list[float], t: Text) -> str:
    """The words' triangle, y's pulls towards each word (as thick as its weight), the words and y."""
    corners = [PLANE.px(*p) for p in POINTS]
    hull = el("polygon", {"class": "apy-hull", "points": " ".join(f"{f(u)},{f(v)}" for u, v in corners)})
    words = "".join(
        PLANE.labelled_point(p, t.plain(f"word_{WORDS[j]}"), cls=f"apy-point apy-k{j}", radius="6", gap=10)
        for j, p in enumerate(POINTS)
    )
    lines, average = ("", "") if point is None else (pulls(point, corners, shares), y_point(point))
    return PLANE.drawing(PLANE.grid() + hull + lines + words + average, label=t.plain("picture"))


def pulls(point: list[float], corners: list[tuple[float, float]], shares: list[float]) -> str:
    """A line from y to each word, as thick as that word's share."""
    yu, yv = PLANE.px(*point)
    return "".join(
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
        for j, (u, v) in enumerate(corners)
    )


def y_point(point: list[float]) -> str:
    """The average y, a dot named y."""
    yu, yv = PLANE.px(*point)
    return el(
        "g",
        {"class": "apy-ypoint"},
        el("circle", {"cx": f(yu), "cy": f(yv), "r": "7"}),
        el("text", {"x": f(yu + 10), "y": f(yv - 9)}, "y"),
    )


def readout(point: list[float] | None, alphas: list[float], t: Text) -> str:
    """Where y is and what its weights add up to; or that all-zero weights mix nothing."""
    if point is None:
        return t.html("readout_zero")
    return t.html(
        "readout",
        point=el("span", {"dir": "ltr"}, f"y = {t.numbers.coordinates(point)}"),
        total=value(t.pct(100 * math.fsum(alphas), 1)),
    )


FIGURE = Figure(
    name="weighted_average",
    spec=StateSpec({"w": Numbers(0.0, 1.0, (0.5, 0.5, 0.5), 3, 3, quantum=0.01)}),
    strings=STRINGS,
    draw=draw,
)
