"""The dot product as a measure of how much two vectors point the same way.

Two vectors a and b can be dragged (mouse, touch, or arrow keys on the focused tip) or
typed in. The readout shows a·b, the lengths, cos θ and the angle, all computed with the
package's ``dot`` and ``norm``. The dashed line drops b onto a's direction: a·b is |a|
times that signed shadow, which is why the sign follows the angle.

State (defaults): ``a: [2, 1]``, ``b: [1, 2]`` (each entry −3..3)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ... import dot, norm
from ..kit.controls import button, formula, vector_input
from ..kit.figure import Figure, Panel
from ..kit.html import el, esc, split
from ..kit.state import Numbers, StateSpec
from ..kit.strings import Text
from ..kit.svg import Plane, f, handle

LIMIT = 3.0
STEP = 0.1
VECTORS = (("a", "apy-c1"), ("b", "apy-c2"))  # each vector's name and colour
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


@dataclass(frozen=True)
class Measures:
    """What the figure says of a and b: a·b, both lengths, and (when both have a length) the
    cosine and angle between them."""

    product: float
    len_a: float
    len_b: float
    defined: bool
    cosine: float
    degrees: float


def measure(a: list[float], b: list[float]) -> Measures:
    """a and b measured by the package's ``dot`` and ``norm``."""
    product, len_a, len_b = dot(a, b), norm(a), norm(b)
    defined = len_a > 1e-9 and len_b > 1e-9
    cosine = max(-1.0, min(1.0, product / (len_a * len_b))) if defined else 0.0
    degrees = math.degrees(math.acos(cosine)) if defined else 0.0
    return Measures(product, len_a, len_b, defined, cosine, degrees)


def draw(state: dict[str, Any], t: Text) -> Panel:
    a, b = state["a"], state["b"]
    m = measure(a, b)
    boxes = "".join(vector_box(name, state[name], cls, t) for name, cls in VECTORS)
    side = el(
        "div",
        {"class": "apy-side"},
        boxes,
        presets(a, t),
        stats(m, t),
        el("p", {"class": "apy-muted"}, t.html("keys_hint")),
    )
    return Panel(split(plane(a, b, m.defined, t), side), readout(m, t), [t.html("caption")])


def plane(a: list[float], b: list[float], defined: bool, t: Text) -> str:
    """The grid, the angle, b's shadow on a, both arrows and their draggable tips."""
    picture = (
        PLANE.grid(numbers=t.numbers)
        + (angle_arc(a, b) if defined else el("path", {"class": "apy-arc", "d": ""}))
        + projection(a, b)
        + PLANE.arrow((0, 0), (a[0], a[1]), cls="apy-c1")
        + PLANE.arrow((0, 0), (b[0], b[1]), cls="apy-c2")
        + "".join(tip(name, vector, cls, t) for (name, cls), vector in zip(VECTORS, (a, b)))
    )
    return PLANE.drawing(picture, label=t.plain("picture"), interactive=True)


def tip(name: str, vector: list[float], cls: str, t: Text) -> str:
    """A vector's tip as a handle: dragged, or moved by the arrow keys in steps of ``STEP``."""
    return handle(
        PLANE,
        (vector[0], vector[1]),
        paths=(f"{name}.0", f"{name}.1"),
        label=name,
        aria_label=t.plain("handle", name=name),
        valuetext=f"{name} = {t.numbers.coordinates(vector, 1)}",
        step=STEP,
        lo=-LIMIT,
        hi=LIMIT,
        cls=cls,
        roledescription=t.plain("handle_role"),
    )


def vector_box(name: str, vector: list[float], cls: str, t: Text) -> str:
    """The vector typed in, with its colour."""
    labels = (t.plain("vector_label", name=name, axis="x"), t.plain("vector_label", name=name, axis="y"))
    return vector_input(name, name, vector, t.numbers, aria_labels=labels, swatch_cls=cls)


def presets(a: list[float], t: Text) -> str:
    """Buttons that set b the same way as a, perpendicular to it, or opposite."""
    return el(
        "div",
        {"class": "apy-row", "role": "group", "aria-label": t.plain("presets")},
        button(t.html("same"), {"b": [a[0], a[1]]}, focus_key="same"),
        button(t.html("perpendicular"), {"b": [-a[1], a[0]]}, focus_key="perpendicular"),
        button(t.html("opposite"), {"b": [-a[0], -a[1]]}, focus_key="opposite"),
    )


def stats(m: Measures, t: Text) -> str:
    """a·b, |a|, |b|, cos θ and θ as a list of terms and values (a dash where θ has no meaning)."""
    rows = (
        ("a · b", t.num(m.product, 2)),
        ("|a|", t.num(m.len_a, 2)),
        ("|b|", t.num(m.len_b, 2)),
        ("cos θ", t.num(m.cosine, 2) if m.defined else "–"),
        ("θ", (t.num(m.degrees, 0) + "°") if m.defined else "–"),
    )
    items = "".join(
        el("dt", {}, term) + el("dd", {"class": "apy-stats__big"} if i == 0 else {}, shown)
        for i, (term, shown) in enumerate(rows)
    )
    return el("dl", {"class": "apy-stats", "dir": "ltr"}, items)


def readout(m: Measures, t: Text) -> str:
    """a·b, the angle and the sign it gives; only a·b when a vector has no length."""
    product = formula(f"a · b = {t.num(m.product)}")
    if not m.defined:
        return t.html("readout_undefined", product=product)
    return t.html(
        "readout", product=product, angle=formula(t.num(m.degrees, 0) + "°"), sign=esc(_sign_word(m.product, t))
    )


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
