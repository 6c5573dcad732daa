"""Figure 3: the dot product as a measure of how much two vectors point the same way.

Two vectors a and b can be dragged (mouse, touch, or arrow keys on the focused tip) or
typed in. The readout shows a·b, the lengths, cos θ and the angle, all computed with the
package's ``dot`` and ``norm``. The dashed line drops b onto a's direction: a·b is |a|
times that signed shadow, which is why the sign follows the angle.

State (defaults): ``a: [2, 1]``, ``b: [1, 2]`` (each entry −3..3)
"""

from __future__ import annotations

import math
from typing import Any

from ... import dot, norm
from ..kit.controls import button, formula, number_box
from ..kit.figure import Figure, Panel
from ..kit.html import el, esc
from ..kit.state import Numbers, StateSpec
from ..kit.strings import Text
from ..kit.svg import Plane, arrow_px, f, handle, svg

LIMIT = 3.0
STEP = 0.1
PLANE = Plane(width=340, height=340, xlim=(-3.4, 3.4), ylim=(-3.4, 3.4))

STRINGS = (
    "title",
    "same",
    "perpendicular",
    "opposite",
    "handle",
    "handle_role",
    "vector_label",
    "picture",
    "readout",
    "readout_undefined",
    "positive",
    "zero",
    "negative",
    "caption",
    "keys_hint",
    "presets",
)


def _sign_word(product: float, t: Text) -> str:
    if abs(product) < 0.005:
        return t.plain("zero")
    return t.plain("positive") if product > 0 else t.plain("negative")


def angle_arc(a: list[float], b: list[float]) -> str:
    """A small arc from a's direction to b's (the shorter way), centred on the origin."""
    start, end = math.atan2(a[1], a[0]), math.atan2(b[1], b[0])
    sweep = (end - start + math.pi) % (2 * math.pi) - math.pi
    radius = 0.55 * PLANE.unit
    ox, oy = PLANE.origin
    p0 = (ox + radius * math.cos(start), oy - radius * math.sin(start))
    p1 = (ox + radius * math.cos(start + sweep), oy - radius * math.sin(start + sweep))
    flag = 0 if sweep > 0 else 1
    d = f"M{f(p0[0])},{f(p0[1])} A{f(radius)},{f(radius)} 0 0 {flag} {f(p1[0])},{f(p1[1])}"
    return el("path", {"class": "apy-arc", "d": d})


def projection(a: list[float], b: list[float]) -> str:
    """b's shadow on the line through a: a dashed drop and a thick segment along a."""
    length_sq = dot(a, a)
    t = dot(a, b) / length_sq if length_sq > 1e-12 else 0.0
    foot = (t * a[0], t * a[1])
    drop = (PLANE.px(*b), PLANE.px(*foot))
    line = (PLANE.px(0, 0), PLANE.px(*foot))
    return el(
        "line",
        {"class": "apy-drop", "x1": f(drop[0][0]), "y1": f(drop[0][1]), "x2": f(drop[1][0]), "y2": f(drop[1][1])},
    ) + el(
        "line",
        {
            "class": "apy-shadow " + ("apy-shadow--neg" if t < 0 else "apy-shadow--pos"),
            "x1": f(line[0][0]),
            "y1": f(line[0][1]),
            "x2": f(line[1][0]),
            "y2": f(line[1][1]),
        },
    )


def draw(state: dict[str, Any], t: Text) -> Panel:
    a, b = state["a"], state["b"]
    product, len_a, len_b = dot(a, b), norm(a), norm(b)
    defined = len_a > 1e-9 and len_b > 1e-9
    cosine = max(-1.0, min(1.0, product / (len_a * len_b))) if defined else 0.0
    degrees = math.degrees(math.acos(cosine)) if defined else 0.0

    handles = []
    for name, vec, cls in (("a", a, "apy-c1"), ("b", b, "apy-c2")):
        coords = f"({t.numbers.join(t.num(v, 1) for v in vec)})"
        handles.append(
            handle(
                PLANE,
                (vec[0], vec[1]),
                paths=(f"{name}.0", f"{name}.1"),
                label=name,
                aria_label=t.plain("handle", name=name),
                valuetext=f"{name} = {coords}",
                step=STEP,
                lo=-LIMIT,
                hi=LIMIT,
                cls=cls,
                roledescription=t.plain("handle_role"),
            )
        )
    picture = (
        PLANE.grid(numbers=t.numbers)
        + (angle_arc(a, b) if defined else el("path", {"class": "apy-arc", "d": ""}))
        + projection(a, b)
        + arrow_px(PLANE.px(0, 0), PLANE.px(*a), cls="apy-c1")
        + arrow_px(PLANE.px(0, 0), PLANE.px(*b), cls="apy-c2")
        + "".join(handles)
    )
    drawing = svg(
        picture, width=PLANE.width, height=PLANE.height, interactive=True, label=t.plain("picture"), cls="apy-plane"
    )

    boxes = "".join(
        el(
            "div",
            {"class": "apy-vecinput", "dir": "ltr"},
            el("span", {"class": f"apy-swatch {cls}", "aria-hidden": "true"}),
            formula(f"{name} = ("),
            number_box(
                f"{name}.0", vec[0], t.numbers, aria_label=t.plain("vector_label", name=name, axis="x"), digits=1
            ),
            formula(t.numbers.separator),
            number_box(
                f"{name}.1", vec[1], t.numbers, aria_label=t.plain("vector_label", name=name, axis="y"), digits=1
            ),
            formula(")"),
        )
        for name, vec, cls in (("a", a, "apy-c1"), ("b", b, "apy-c2"))
    )
    presets = el(
        "div",
        {"class": "apy-row", "role": "group", "aria-label": t.plain("presets")},
        button(t.html("same"), {"b": [a[0], a[1]]}, focus_key="same"),
        button(t.html("perpendicular"), {"b": [-a[1], a[0]]}, focus_key="perpendicular"),
        button(t.html("opposite"), {"b": [-a[0], -a[1]]}, focus_key="opposite"),
    )
    stats = el(
        "dl",
        {"class": "apy-stats", "dir": "ltr"},
        el("dt", {}, "a · b"),
        el("dd", {"class": "apy-stats__big"}, t.num(product, 2)),
        el("dt", {}, "|a|"),
        el("dd", {}, t.num(len_a, 2)),
        el("dt", {}, "|b|"),
        el("dd", {}, t.num(len_b, 2)),
        el("dt", {}, "cos θ"),
        el("dd", {}, t.num(cosine, 2) if defined else "–"),
        el("dt", {}, "θ"),
        el("dd", {}, (t.num(degrees, 0) + "°") if defined else "–"),
    )
    side = el("div", {"class": "apy-side"}, boxes, presets, stats, el("p", {"class": "apy-muted"}, t.html("keys_hint")))
    body = el("div", {"class": "apy-split"}, el("div", {"class": "apy-split__main"}, drawing), side)

    if defined:
        readout = t.html(
            "readout",
            product=formula(f"a · b = {t.num(product)}"),
            angle=formula(t.num(degrees, 0) + "°"),
            sign=esc(_sign_word(product, t)),
        )
    else:
        readout = t.html("readout_undefined", product=formula(f"a · b = {t.num(product)}"))
    return Panel(body, readout, [t.html("caption")])


FIGURE = Figure(
    name="dot_product",
    spec=StateSpec(
        {
            "a": Numbers(-LIMIT, LIMIT, (2.0, 1.0), 2, 2, quantum=0.01),
            "b": Numbers(-LIMIT, LIMIT, (1.0, 2.0), 2, 2, quantum=0.01),
        }
    ),
    strings=STRINGS,
    draw=draw,
)
