"""Figure 1: an embedding space - words as points, similar meanings close together.

A hand-made 2-D plane (real embeddings have hundreds of dimensions, and their axes have
no names): "happy" lies near "glad", "sad" points the opposite way along the same line,
and "car" sits off in its own direction. Chips add or remove words; for any two shown
words the figure prints their dot product and cosine, computed by the package.

State (defaults): ``words: [happy, glad, sad, car]``, ``first: happy``, ``second: glad``
"""

from __future__ import annotations

import math
from typing import Any

from ... import dot, norm
from ..kit.controls import select, value
from ..kit.figure import Figure, Panel
from ..kit.html import el, esc, to_json
from ..kit.state import Choice, StateSpec, Subset
from ..kit.strings import Text
from ..kit.svg import Plane, arrow_px, f, svg

# Designed coordinates: (x, y). Emotion words on one line through the origin, vehicles
# on a perpendicular one, so the cosines come out as clean as the story.
WORDS: dict[str, tuple[float, float]] = {
    "happy": (2.3, 0.9),
    "glad": (2.0, 1.4),
    "joyful": (2.7, 0.4),
    "sad": (-2.3, -0.9),
    "gloomy": (-2.0, -1.4),
    "car": (-0.9, 2.3),
    "truck": (-1.4, 2.6),
    "bus": (-0.4, 2.8),
}
SLOPE = WORDS["happy"][1] / WORDS["happy"][0]  # the emotion words' line through the origin
PLANE = Plane(width=360, height=320, xlim=(-3.2, 3.2), ylim=(-2.6, 3.2))

STRINGS = (
    "title",
    "chips",
    "first",
    "second",
    "picture",
    "readout",
    "readout_none",
    "caption",
    "emotion_axis",
    *tuple(f"word_{w}" for w in WORDS),
)


def _word(t: Text, key: str) -> str:
    return t.plain(f"word_{key}")


def relate(state: dict[str, Any]) -> dict[str, Any]:
    """Keep the compared pair among the shown words (the first two shown, if it strays)."""
    shown = state["words"]
    for key in ("first", "second"):
        if state[key] not in shown:
            spare = [w for w in shown if w != state["first" if key == "second" else "second"]]
            if spare:
                state[key] = spare[0]
    return state


def draw(state: dict[str, Any], t: Text) -> Panel:
    shown = state["words"]
    first, second = state["first"], state["second"]
    pair = len(shown) >= 2 and first in shown and second in shown
    chips = "".join(
        el(
            "button",
            {
                "type": "button",
                "class": "apy-chip",
                "aria-pressed": "true" if w in shown else "false",
                "data-set": to_json({"words": [x for x in WORDS if (x in shown) != (x == w)]}),
                "data-focus-key": f"chip:{w}",
            },
            esc(_word(t, w)),
        )
        for w in WORDS
    )
    sx, sy = PLANE.px(-2.9, -2.9 * SLOPE)
    ex, ey = PLANE.px(2.4, 2.4 * SLOPE)  # stops short of the label of "happy"
    # The guide's name runs along it, under the line halfway between the origin and "sad",
    # where no word's label can be.
    lx, ly = PLANE.px(-1.15, -1.15 * SLOPE)
    angle = math.degrees(math.atan2(ey - sy, ex - sx))
    parts = [
        PLANE.grid(),
        el("line", {"class": "apy-guide", "x1": f(sx), "y1": f(sy), "x2": f(ex), "y2": f(ey)}),
        el(
            "text",
            {
                "class": "apy-guide-label",
                "x": f(lx),
                "y": f(ly),
                "dy": "14",
                "text-anchor": "middle",
                "transform": f"rotate({f(angle)} {f(lx)} {f(ly)})",
            },
            t.html("emotion_axis"),
        ),
    ]
    if pair:
        parts.append(arrow_px(PLANE.px(0, 0), PLANE.px(*WORDS[first]), cls="apy-c1", width=2))
        parts.append(arrow_px(PLANE.px(0, 0), PLANE.px(*WORDS[second]), cls="apy-c2", width=2))
    for w in WORDS:
        u, v = PLANE.px(*WORDS[w])
        cls = "apy-point" + ("" if w in shown else " apy-point--hidden")
        if pair and w in (first, second):
            cls += " apy-point--picked"
        anchor = "start" if WORDS[w][0] >= 0 else "end"
        dx = 8 if anchor == "start" else -8
        parts.append(
            el(
                "g",
                {"class": cls},
                el("circle", {"cx": f(u), "cy": f(v), "r": "4.5"}),
                el("text", {"x": f(u + dx), "y": f(v + 4), "text-anchor": anchor}, esc(_word(t, w))),
            )
        )
    drawing = svg("".join(parts), width=PLANE.width, height=PLANE.height, label=t.plain("picture"), cls="apy-plane")
    options = [(w, _word(t, w)) for w in shown]
    pickers = el(
        "div",
        {"class": "apy-row"},
        el(
            "label",
            {"class": "apy-pick"},
            el("span", {"class": "apy-swatch apy-c1", "aria-hidden": "true"}),
            t.html("first"),
            " ",
            select("first", first, options=options, aria_label=t.plain("first")),
        ),
        el(
            "label",
            {"class": "apy-pick"},
            el("span", {"class": "apy-swatch apy-c2", "aria-hidden": "true"}),
            t.html("second"),
            " ",
            select("second", second, options=options, aria_label=t.plain("second")),
        ),
    )
    body = el("div", {"class": "apy-chips", "role": "group", "aria-label": t.plain("chips")}, chips) + drawing + pickers
    if pair:
        a, b = WORDS[first], WORDS[second]
        cosine = dot(a, b) / (norm(a) * norm(b))
        readout = t.html(
            "readout",
            first=esc(_word(t, first)),
            second=esc(_word(t, second)),
            dot=value(t.num(dot(a, b))),
            cosine=value(t.num(cosine)),
        )
    else:
        readout = t.html("readout_none")
    return Panel(body, readout, [t.html("caption")])


FIGURE = Figure(
    name="embedding_space",
    spec=StateSpec(
        {
            "words": Subset(tuple(WORDS), ("happy", "glad", "sad", "car")),
            "first": Choice(tuple(WORDS), "happy"),
            "second": Choice(tuple(WORDS), "glad"),
        },
        relate=relate,
    ),
    strings=STRINGS,
    draw=draw,
)
