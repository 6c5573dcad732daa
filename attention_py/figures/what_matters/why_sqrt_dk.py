"""Why attention divides its scores by sqrt(d_k).

For random q and k whose entries have mean 0 and variance 1, q·k is a sum of d_k products
of variance 1, so its standard deviation is sqrt(d_k). The figure samples many pairs with
the package's ``dot_product_samples`` and draws two histograms: raw dot products (they
spread out as d_k grows) and the same divided by sqrt(d_k) (they keep a spread of about
1). A row of eight such scores then goes through softmax both ways: the raw scores at
large d_k give nearly all the weight to one key.

State (defaults): ``d_k: 64`` (1..512)
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ... import dot_product_samples, softmax
from ..kit.controls import button, formula, slider, tab_stop_index, value
from ..kit.figure import Figure, Panel
from ..kit.format import NumberFormat, percent_shares
from ..kit.html import el, esc
from ..kit.state import Integer, StateSpec
from ..kit.strings import Text
from ..kit.svg import f, svg


def pair_count(d_k: int) -> int:
    """How many pairs to sample: 600, fewer for wide vectors (at least 200).

    Sampling costs about d_k x pairs random numbers; capping it keeps the first draw at
    d_k = 512 to a couple of frames in the browser (later draws are cached).
    """
    return min(600, max(200, 50_000 // d_k))


CHOICES = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]
PRESETS = (1, 16, 64, 512)  # the buttons beside the slider
RAW_LIMIT, SCALED_LIMIT = 60.0, 4.0
BINS = 30
HIST_W, HIST_H, PAD = 300.0, 120.0, 16.0  # a histogram's drawing and its margin
BASE = HIST_H - 22  # the axis's height
KEYS = 8
STRINGS = (
    "title",
    "dk_label",
    "presets",
    "raw",
    "scaled",
    "measured",
    "softmax_raw",
    "softmax_scaled",
    "readout",
    "caption",
    "picture_raw",
    "picture_scaled",
    "largest",
    "overflow",
)


@dataclass(frozen=True)
class Measured:
    """The sampled dot products for one d_k, raw and divided by sqrt(d_k), with their spreads."""

    raw: tuple[float, ...]
    scaled: tuple[float, ...]
    raw_std: float
    scaled_std: float


@lru_cache(maxsize=32)
def measure(d_k: int) -> Measured:
    """Sample and measure once per d_k (cached, immutable: the page revisits the same values)."""
    raw = tuple(dot_product_samples(d_k, pair_count(d_k), seed=2017))
    root = math.sqrt(d_k)
    scaled = tuple(v / root for v in raw)
    return Measured(raw, scaled, statistics.pstdev(raw), statistics.pstdev(scaled))


def histogram(
    values: tuple[float, ...], limit: float, *, label: str, std: float, overflow_text: str, numbers: NumberFormat
) -> str:
    """Bars of counts over [-limit, limit]; values outside are counted in the end bins."""
    counts, outside = bin_counts(values, limit)
    parts = [
        bars(counts),
        el("line", {"class": "apy-axis", "x1": f(PAD), "y1": f(BASE), "x2": f(HIST_W - PAD), "y2": f(BASE)}),
        *(value_tick(tick, limit, numbers) for tick in (-limit, -limit / 2, 0.0, limit / 2, limit)),
        *(spread_line(sign * min(std, limit), limit) for sign in (-1, 1)),
        el(
            "text",
            {"class": "apy-tick", "x": f(HIST_W - PAD), "y": "12", "text-anchor": "end"},
            esc(overflow_text) if outside else "",
        ),
    ]
    return svg("".join(parts), width=HIST_W, height=HIST_H, label=label, cls="apy-hist")


def bin_counts(values: tuple[float, ...], limit: float) -> tuple[list[int], int]:
    """How many values fall in each of ``BINS`` bins over [-limit, limit] (those outside in
    the end bins), and how many fell outside."""
    counts = [0] * BINS
    outside = 0
    for v in values:
        index = int((v + limit) / (2 * limit) * BINS)
        if index < 0 or index >= BINS:
            outside += 1
        counts[min(max(index, 0), BINS - 1)] += 1
    return counts, outside


def bars(counts: list[int]) -> str:
    """A bar per bin, the fullest one as tall as the drawing allows."""
    top = max(counts) or 1
    bar = (HIST_W - 2 * PAD) / BINS
    heights = [(BASE - 8) * c / top for c in counts]
    return "".join(
        el(
            "rect",
            {
                "class": "apy-hist__bar",
                "x": f(PAD + i * bar + 0.5),
                "y": f(BASE - h),
                "width": f(bar - 1),
                "height": f(h),
            },
        )
        for i, h in enumerate(heights)
    )


def _x(value: float, limit: float) -> float:
    """Where ``value`` of [-limit, limit] lies across the histogram."""
    return PAD + (value + limit) / (2 * limit) * (HIST_W - 2 * PAD)


def value_tick(tick: float, limit: float, numbers: NumberFormat) -> str:
    """A tick label under the axis."""
    return el(
        "text",
        {"class": "apy-tick", "x": f(_x(tick, limit)), "y": f(BASE + 14), "text-anchor": "middle"},
        numbers.num(tick, 0),
    )


def spread_line(at: float, limit: float) -> str:
    """A vertical line one standard deviation from 0."""
    x = _x(at, limit)
    return el("line", {"class": "apy-std", "x1": f(x), "y1": "6", "x2": f(x), "y2": f(BASE)})


def mini_bars(probs: list[float]) -> str:
    """A row of weights as small bars, for the eye only: the largest share is said under them."""
    shares = percent_shares(probs)
    return el(
        "div",
        {"class": "apy-minibars", "dir": "ltr", "aria-hidden": "true"},
        "".join(el("span", {"class": "apy-minibar", "style": f"--p:{s / 100:.4f}"}) for s in shares),
    )


def draw(state: dict[str, Any], t: Text) -> Panel:
    d_k = state["d_k"]
    measured = measure(d_k)
    root = math.sqrt(d_k)
    scores = list(measured.raw[:KEYS])
    p_raw, p_scaled = softmax(scores), softmax(scores, scale=1 / root)
    top_raw, top_scaled = max(percent_shares(p_raw)), max(percent_shares(p_scaled))
    controls = el("div", {"class": "apy-row"}, dk_slider(d_k, t), dk_presets(d_k, t))
    effect = el(
        "div",
        {"class": "apy-effect"},
        softmax_effect(t.html("softmax_raw"), "softmax(q·k)", p_raw, top_raw, t),
        softmax_effect(t.html("softmax_scaled"), "softmax(q·k / √dₖ)", p_scaled, top_scaled, t),
    )
    readout = t.html(
        "readout",
        dk=formula(f"dₖ = {d_k}"),
        std=value(t.num(measured.raw_std, 1)),
        root=formula(f"√dₖ = {t.num(root, 1)}"),
        raw=el("span", {"dir": "ltr"}, t.pct(top_raw)),
        scaled=el("span", {"dir": "ltr"}, t.pct(top_scaled)),
    )
    body = controls + histograms(measured, root, t) + effect
    return Panel(body, readout, [t.html("caption", count=esc(t.count(len(measured.raw))))])


def dk_slider(d_k: int, t: Text) -> str:
    """The slider over ``CHOICES``."""
    return slider(
        "d_k",
        d_k,
        lo=1,
        hi=512,
        step=1,
        label=formula("dₖ ="),
        values=CHOICES,
        aria_label=t.plain("dk_label"),
        shown=str(d_k),
        digits=0,
    )


def dk_presets(d_k: int, t: Text) -> str:
    """The buttons of ``PRESETS``: one Tab stop with arrow keys inside, like every group of
    choices (kit.controls.segmented)."""
    stop = tab_stop_index([d == d_k for d in PRESETS])
    buttons = "".join(
        button(
            formula(str(d)),
            {"d_k": d},
            pressed=d == d_k,
            focus_key=f"dk:{d}",
            classes="apy-seg__button",
            tab_stop=i == stop,
        )
        for i, d in enumerate(PRESETS)
    )
    return el("div", {"class": "apy-row", "role": "toolbar", "aria-label": t.plain("presets")}, buttons)


def histograms(measured: Measured, root: float, t: Text) -> str:
    """The raw dot products' histogram beside the scaled ones', each with its spread."""
    outside = sum(1 for v in measured.raw if abs(v) >= RAW_LIMIT)
    raw = histogram(
        measured.raw,
        RAW_LIMIT,
        label=t.plain("picture_raw", std=t.num(measured.raw_std, 1)),
        std=measured.raw_std,
        overflow_text=t.plain("overflow", count=t.count(outside)),
        numbers=t.numbers,
    )
    scaled = histogram(
        measured.scaled,
        SCALED_LIMIT,
        label=t.plain("picture_scaled", std=t.num(measured.scaled_std, 2)),
        std=measured.scaled_std,
        overflow_text="",
        numbers=t.numbers,
    )
    raw_note = t.html("measured", std=value(t.num(measured.raw_std, 2))) + " · " + formula(f"√dₖ = {t.num(root, 2)}")
    scaled_note = t.html("measured", std=value(t.num(measured.scaled_std, 2)))
    return el(
        "div",
        {"class": "apy-hists"},
        histogram_panel(t.html("raw"), "q·k", raw, raw_note),
        histogram_panel(t.html("scaled"), "q·k / √dₖ", scaled, scaled_note),
    )


def histogram_panel(title: str, quantity: str, picture: str, note: str) -> str:
    """One histogram under its title (``title``: the formula ``quantity``), its note under it."""
    return el(
        "div",
        {"class": "apy-hists__one"},
        el("p", {"class": "apy-hists__title"}, title, ": ", formula(quantity)),
        picture,
        el("p", {"class": "apy-muted"}, note),
    )


def softmax_effect(title: str, quantity: str, probs: list[float], top: float, t: Text) -> str:
    """A row of scores through softmax (``quantity``): its weights as bars and the largest share."""
    largest = t.html("largest", share=el("span", {"dir": "ltr"}, t.pct(top)))
    return el(
        "div",
        {},
        el("p", {}, title, " ", formula(quantity)),
        mini_bars(probs),
        el("p", {"class": "apy-muted"}, largest),
    )


FIGURE = Figure(
    name="why_sqrt_dk",
    spec=StateSpec({"d_k": Integer(1, 512, 64)}),
    strings=STRINGS,
    draw=draw,
)
