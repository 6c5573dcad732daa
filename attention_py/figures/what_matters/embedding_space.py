"""An embedding space - words as points, similar meanings close together.

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
from ..kit.controls import select, swatch, value
from ..kit.figure import Figure, Panel
from ..kit.html import el, esc, to_json
from ..kit.state import Choice, StateSpec, Subset
from ..kit.strings import Text
from ..kit.svg import Plane, f

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
    pair = (first, second) if len(shown) >= 2 and first in shown and second in shown else None
    body = word_chips(shown, t) + plane(shown, pair, t) + pickers(shown, first, second, t)
    return Panel(body, readout(pair, t), [t.html("caption")])


def word_chips(shown: list[str], t: Text) -> str:
    """A chip per word, pressed while the word is shown: pressing one shows or hides it."""
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
    return el("div", {"class": "apy-chips", "role": "group", "aria-label": t.plain("chips")}, chips)


def plane(shown: list[str], pair: tuple[str, str] | None, t: Text) -> str:
    """The plane: the grid, the emotion words' line, the compared pair's arrows, every word's point."""
    arrows = ""
    if pair is not None:
        arrows = PLANE.arrow((0, 0), WORDS[pair[0]], cls="apy-c1", width=2) + PLANE.arrow(
            (0, 0), WORDS[pair[1]], cls="apy-c2", width=2
        )
    points = "".join(word_point(w, shown, pair, t) for w in WORDS)
    return PLANE.drawing(PLANE.grid() + emotion_guide(t) + arrows + points, label=t.plain("picture"))


def emotion_guide(t: Text) -> str:
    """The line the emotion words lie on, with its name along it."""
    sx, sy = PLANE.px(-2.9, -2.9 * SLOPE)
    ex, ey = PLANE.px(2.4, 2.4 * SLOPE)  # stops short of the label of "happy"
    # The guide's name runs along it, under the line halfway between the origin and "sad",
    # where no word's label can be.
    lx, ly = PLANE.px(-1.15, -1.15 * SLOPE)
    angle = math.degrees(math.atan2(ey - sy, ex - sx))
    return el("line", {"class": "apy-guide", "x1": f(sx), "y1": f(sy), "x2": f(ex), "y2": f(ey)}) + el(
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
    )


def word_point(w: str, shown: list[str], pair: tuple[str, str] | None, t: Text) -> str:
    """A word's point and name: hidden when the word is not shown, marked when it is compared."""
    cls = "apy-point" + ("" if w in shown else " apy-point--hidden")
    if pair is not None and w in pair:
        cls += " apy-point--picked"
    return PLANE.labelled_point(WORDS[w], _word(t, w), cls=cls, radius="4.5", gap=8)


def pickers(shown: list[str], first: str, second: str, t: Text) -> str:
    """The two menus choosing the compared words among those shown, each with its arrow's colour."""
    options = [(w, _word(t, w)) for w in shown]

    def picker(key: str, chosen: str, colour: str) -> str:
        menu = select(key, chosen, options=options, aria_label=t.plain(key))
        return el("label", {"class": "apy-pick"}, swatch(colour), t.html(key), " ", menu)

    return el("div", {"class": "apy-row"}, picker("first", first, "apy-c1"), picker("second", second, "apy-c2"))


def readout(pair: tuple[str, str] | None, t: Text) -> str:
    """The compared words' dot product and cosine, computed by the package."""
    if pair is None:
        return t.html("readout_none")
    a, b = WORDS[pair[0]], WORDS[pair[1]]
    cosine = dot(a, b) / (norm(a) * norm(b))
    return t.html(
        "readout",
        first=esc(_word(t, pair[0])),
        second=esc(_word(t, pair[1])),
        dot=value(t.num(dot(a, b))),
        cosine=value(t.num(cosine)),
    )


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
