"""Figure 7: why attention divides its scores by sqrt(d_k).

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
    width, height, pad = 300.0, 120.0, 16.0
    counts = [0] * BINS
    outside = 0
    for v in values:
        index = int((v + limit) / (2 * limit) * BINS)
        if index < 0 or index >= BINS:
            outside += 1
        counts[min(max(index, 0), BINS - 1)] += 1
    top = max(counts) or 1
    bar = (width - 2 * pad) / BINS
    base = height - 22
    parts = []
    for i, c in enumerate(counts):
        h = (base - 8) * c / top
        parts.append(
            el(
                "rect",
                {
                    "class": "apy-hist__bar",
                    "x": f(pad + i * bar + 0.5),
                    "y": f(base - h),
                    "width": f(bar - 1),
                    "height": f(h),
                },
            )
        )
    parts.append(el("line", {"class": "apy-axis", "x1": f(pad), "y1": f(base), "x2": f(width - pad), "y2": f(base)}))
    for tick in (-limit, -limit / 2, 0.0, limit / 2, limit):
        x = pad + (tick + limit) / (2 * limit) * (width - 2 * pad)
        parts.append(
            el(
                "text",
                {"class": "apy-tick", "x": f(x), "y": f(base + 14), "text-anchor": "middle"},
                numbers.num(tick, 0),
            )
        )
    for sign in (-1, 1):
        s = sign * min(std, limit)
        x = pad + (s + limit) / (2 * limit) * (width - 2 * pad)
        parts.append(el("line", {"class": "apy-std", "x1": f(x), "y1": "6", "x2": f(x), "y2": f(base)}))
    parts.append(
        el(
            "text",
            {"class": "apy-tick", "x": f(width - pad), "y": "12", "text-anchor": "end"},
            esc(overflow_text) if outside else "",
        )
    )
    return svg("".join(parts), width=width, height=height, label=label, cls="apy-hist")


def mini_bars(probs: list[float]) -> str:
    shares = percent_shares(probs)
    return el(
        "div",
        {"class": "apy-minibars", "dir": "ltr", "aria-hidden": "true"},
        "".join(el("span", {"class": "apy-minibar", "style": f"--p:{s / 100:.4f}"}) for s in shares),
    )


def draw(state: dict[str, Any], t: Text) -> Panel:
    d_k = state["d_k"]
    measured = measure(d_k)
    raw, scaled = measured.raw, measured.scaled
    raw_std, scaled_std = measured.raw_std, measured.scaled_std
    root = math.sqrt(d_k)
    outside = sum(1 for v in raw if abs(v) >= RAW_LIMIT)
    # one Tab stop with arrow keys inside, like every group of choices (kit.controls.segmented)
    stop = tab_stop_index([d == d_k for d in PRESETS])
    presets = el(
        "div",
        {"class": "apy-row", "role": "toolbar", "aria-label": t.plain("presets")},
        "".join(
            button(
                formula(str(d)),
                {"d_k": d},
                pressed=d == d_k,
                focus_key=f"dk:{d}",
                classes="apy-seg__button",
                tab_stop=i == stop,
            )
            for i, d in enumerate(PRESETS)
        ),
    )
    control = slider(
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
    panels = el(
        "div",
        {"class": "apy-hists"},
        el(
            "div",
            {"class": "apy-hists__one"},
            el("p", {"class": "apy-hists__title"}, t.html("raw"), ": ", formula("q·k")),
            histogram(
                raw,
                RAW_LIMIT,
                label=t.plain("picture_raw", std=t.num(raw_std, 1)),
                std=raw_std,
                overflow_text=t.plain("overflow", count=t.count(outside)),
                numbers=t.numbers,
            ),
            el(
                "p",
                {"class": "apy-muted"},
                t.html("measured", std=value(t.num(raw_std, 2))),
                " · ",
                formula(f"√dₖ = {t.num(root, 2)}"),
            ),
        ),
        el(
            "div",
            {"class": "apy-hists__one"},
            el("p", {"class": "apy-hists__title"}, t.html("scaled"), ": ", formula("q·k / √dₖ")),
            histogram(
                scaled,
                SCALED_LIMIT,
                label=t.plain("picture_scaled", std=t.num(scaled_std, 2)),
                std=scaled_std,
                overflow_text="",
                numbers=t.numbers,
            ),
            el("p", {"class": "apy-muted"}, t.html("measured", std=value(t.num(scaled_std, 2)))),
        ),
    )
    scores = list(raw[:KEYS])
    p_raw, p_scaled = softmax(scores), softmax(scores, scale=1 / root)
    top_raw, top_scaled = max(percent_shares(p_raw)), max(percent_shares(p_scaled))
    effect = el(
        "div",
        {"class": "apy-effect"},
        el(
            "div",
            {},
            el("p", {}, t.html("softmax_raw"), " ", formula("softmax(q·k)")),
            mini_bars(p_raw),
            el("p", {"class": "apy-muted"}, t.html("largest", share=el("span", {"dir": "ltr"}, t.pct(top_raw)))),
        ),
        el(
            "div",
            {},
            el("p", {}, t.html("softmax_scaled"), " ", formula("softmax(q·k / √dₖ)")),
            mini_bars(p_scaled),
            el("p", {"class": "apy-muted"}, t.html("largest", share=el("span", {"dir": "ltr"}, t.pct(top_scaled)))),
        ),
    )
    body = el("div", {"class": "apy-row"}, control, presets) + panels + effect
    readout = t.html(
        "readout",
        dk=formula(f"dₖ = {d_k}"),
        std=value(t.num(raw_std, 1)),
        root=formula(f"√dₖ = {t.num(root, 1)}"),
        raw=el("span", {"dir": "ltr"}, t.pct(top_raw)),
        scaled=el("span", {"dir": "ltr"}, t.pct(top_scaled)),
    )
    return Panel(body, readout, [t.html("caption", count=esc(t.count(len(raw))))])


FIGURE = Figure(
    name="why_sqrt_dk",
    spec=StateSpec({"d_k": Integer(1, 512, 64)}),
    strings=STRINGS,
    draw=draw,
)
