"""Softmax turns scores into shares that add up to 100%.

``softmax``: one slider per score z_i (two to six of them) and the resulting bars.
``softmax_scale``: the same with a scale (inverse temperature) that multiplies every score
before softmax; large scales sharpen the distribution towards the largest score, small
ones flatten it towards uniform - the reason attention divides by sqrt(d_k).

State of ``softmax`` (defaults): ``z: [1.5, 2.0, 3.0]`` (2–6 entries, −5..5)

State of ``softmax_scale`` (defaults): ``z``, ``scale: 1.0`` (0..10)
"""

from __future__ import annotations

from math import fsum
from typing import Any

from ... import softmax
from ..kit.controls import button, formula, slider
from ..kit.figure import Figure, Panel
from ..kit.format import percent_shares, subscript
from ..kit.html import el, esc
from ..kit.state import Number, Numbers, StateSpec
from ..kit.strings import Text

Z_RANGE = (-5.0, 5.0)
MAX_ENTRIES = 6

STRINGS = ("title", "formula_label", "score_label", "add", "remove", "readout", "caption")
SCALE_STRINGS = (*STRINGS, "scale_label", "scale_caption", "scaled_scores")


def bars(z: list[float], probs: list[float], t: Text) -> str:
    """One row per score: its slider, then the bar of its probability."""
    shares = percent_shares(probs)
    rows = []
    for i, (zi, share) in enumerate(zip(z, shares)):
        name = f"z{subscript(i)}"
        rows.append(
            el(
                "div",
                {"class": "apy-barrow"},
                slider(
                    f"z.{i}",
                    zi,
                    lo=Z_RANGE[0],
                    hi=Z_RANGE[1],
                    step=0.1,
                    label=formula(name),
                    aria_label=t.plain("score_label", name=name),
                    shown=t.num(zi, 1),
                    digits=1,
                ),
                el(
                    "div",
                    {"class": "apy-bar", "aria-hidden": "true"},
                    el("span", {"class": "apy-bar__fill", "style": f"--p:{share / 100:.4f}"}),
                ),
                el("span", {"class": "apy-bar__value", "dir": "ltr"}, f"p{subscript(i)} {t.pct(share)}"),
            )
        )
    return el("div", {"class": "apy-bars"}, "".join(rows))


def entry_buttons(z: list[float], t: Text) -> str:
    """Add a score (starting at 0) or remove the last one, within 2..6 entries."""
    return el(
        "div",
        {"class": "apy-row"},
        button(t.html("add"), {"z": [*z, 0.0]}, disabled=len(z) >= MAX_ENTRIES, focus_key="add"),
        button(t.html("remove"), {"z": z[:-1]}, disabled=len(z) <= 2, focus_key="remove"),
    )


def readout(probs: list[float], t: Text) -> str:
    """The shares as listed, and the total of softmax's own output (not of the rounded shares)."""
    shares = percent_shares(probs)
    listing = t.numbers.join(f"p{subscript(i)} = {t.pct(s)}" for i, s in enumerate(shares))
    return t.html(
        "readout",
        values=el("span", {"dir": "ltr"}, esc(listing)),
        total=el("span", {"class": "apy-num", "dir": "ltr"}, esc(t.pct(100 * fsum(probs)))),
    )


def draw_plain(state: dict[str, Any], t: Text) -> Panel:
    z = state["z"]
    probs = softmax(z)
    body = (
        el("p", {"class": "apy-formula"}, t.html("formula_label"), " ", formula("softmax(z)ᵢ = exp(zᵢ) / Σⱼ exp(zⱼ)"))
        + bars(z, probs, t)
        + entry_buttons(z, t)
    )
    return Panel(body, readout(probs, t), [t.html("caption")])


def draw_scaled(state: dict[str, Any], t: Text) -> Panel:
    z, scale = state["z"], state["scale"]
    probs = softmax(z, scale=scale)
    scaled = t.numbers.join(t.num(scale * zi, 2) for zi in z)
    body = (
        el("p", {"class": "apy-formula"}, t.html("formula_label"), " ", formula("pᵢ = exp(s·zᵢ) / Σⱼ exp(s·zⱼ)"))
        + el(
            "div",
            {"class": "apy-scale"},
            slider(
                "scale",
                scale,
                lo=0.0,
                hi=10.0,
                step=0.1,
                label=formula("s ="),
                aria_label=t.plain("scale_label"),
                shown=f"× {t.num(scale, 1)}",
                digits=1,
            ),
            el(
                "p",
                {"class": "apy-muted"},
                t.sentences(t.html("scale_caption"), t.html("scaled_scores", values=formula(f"s·z = [{scaled}]"))),
            ),
        )
        + bars(z, probs, t)
        + entry_buttons(z, t)
    )
    return Panel(body, readout(probs, t), [t.html("caption")])


Z_FIELD = Numbers(Z_RANGE[0], Z_RANGE[1], (1.5, 2.0, 3.0), 2, MAX_ENTRIES, quantum=0.01)

SOFTMAX = Figure(
    name="softmax",
    spec=StateSpec({"z": Z_FIELD}),
    strings=STRINGS,
    draw=draw_plain,
)

SOFTMAX_SCALE = Figure(
    name="softmax_scale",
    spec=StateSpec({"z": Z_FIELD, "scale": Number(0.0, 10.0, 1.0, quantum=0.01)}),
    strings=SCALE_STRINGS,
    draw=draw_scaled,
)
