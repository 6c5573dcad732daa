"""A training chart: curves against the step, drawn by both training articles.

A ``StepChart`` maps a step (0 to ``span``) and a fraction (0 to 1) into a drawing
``W`` by ``H``; it draws the axes, the grid at 0.5 and 1, the ticks (the left axis's top,
the right axis's three, the step axis's ends), a curve through ``(step, fraction)`` points
and the vertical mark of the step shown; ``plot`` draws all of a chart: its curves (``Curve``)
and under it the legend's keys (``Key``). Which curves, their ticks and the text alternative are each
article's (``learning/views.py``, ``induction/views.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .html import el, void
from .svg import f, svg

# A drawing scales with its box, its text too: on a 360 px phone the box is about 286 px
# wide, so a drawing 340 units wide with labels of 15 units (figures.css, .apy-curves; 9 on a
# wide screen) writes them at 12.6 px; the margins hold "0.73" and "100%" at that size.

W, H = 340.0, 170.0
LEFT, TOP, BOTTOM = 40.0, 12.0, 26.0
TICK = 15.0  # the labels' size in drawing units: figures.css says the same (.apy-curves .apy-tick)


@dataclass(frozen=True)
class Curve:
    """One line of a chart through ``(step, fraction)`` points, its class (``apy-curve--held``);
    ``hidden`` keeps it in the markup unseen (a faint run that is not there yet)."""

    points: list[tuple[float, float]]
    cls: str
    hidden: bool = False


@dataclass(frozen=True)
class Key:
    """One entry of a chart's legend: its swatch's class (``apy-key--<cls>``), its label
    (markup); ``hidden`` while its curve is."""

    cls: str
    label: str
    hidden: bool = False


class Ticks(NamedTuple):
    """The labels of a chart's axes (``StepChart.frame``)."""

    zero: str
    top: str
    right: tuple[str, str, str]
    last: str


def legend(keys: Sequence[Key]) -> str:
    """The keys of a chart's curves, one line under it."""
    spans = (el("span", {"class": f"apy-key apy-key--{key.cls}", "hidden": key.hidden}, key.label) for key in keys)
    return el("p", {"class": "apy-legend"}, " ".join(spans))


@dataclass(frozen=True)
class StepChart:
    """Steps 0..``span`` across, fractions 0..1 up; ``right`` is the margin the right axis's
    labels need (a percentage needs more than a fraction)."""

    span: int
    right: float

    def x(self, step: float) -> float:
        return LEFT + (W - LEFT - self.right) * step / self.span

    def y(self, fraction: float) -> float:
        return H - BOTTOM - (H - TOP - BOTTOM) * fraction

    def line(self, values: list[tuple[float, float]], cls: str, *, hidden: bool = False) -> str:
        """A curve through ``(step, fraction)`` points (one point at the origin when there are
        none, so the markup keeps its shape), hidden when asked."""
        points = " ".join(f"{f(self.x(s))},{f(self.y(v))}" for s, v in values) or f"{f(self.x(0))},{f(self.y(0))}"
        return void(
            "polyline", {"class": f"apy-curve {cls}", "points": points, "visibility": "hidden" if hidden else None}
        )

    def tick(self, x: float, y: float, text: str, anchor: str | None = None) -> str:
        return el("text", {"class": "apy-tick", "x": f(x), "y": f(y), "text-anchor": anchor}, text)

    def frame(self, zero: str, top: str, right: tuple[str, str, str], last: str) -> list[str]:
        """The axes, the grid and the ticks: ``zero`` at the left axis's foot and the step
        axis's start, ``top`` at the left axis's top, ``right`` at the right axis's 0, 0.5 and
        1, ``last`` at the step axis's end (``span``)."""
        x, y, end = self.x, self.y, W - self.right
        return [
            void("line", {"class": "apy-axis", "x1": f(LEFT), "y1": f(y(0)), "x2": f(end), "y2": f(y(0))}),
            void("line", {"class": "apy-axis", "x1": f(LEFT), "y1": f(y(0)), "x2": f(LEFT), "y2": f(y(1))}),
            void("line", {"class": "apy-axis", "x1": f(end), "y1": f(y(0)), "x2": f(end), "y2": f(y(1))}),
            void("line", {"class": "apy-grid", "x1": f(LEFT), "y1": f(y(1)), "x2": f(end), "y2": f(y(1))}),
            void("line", {"class": "apy-grid", "x1": f(LEFT), "y1": f(y(0.5)), "x2": f(end), "y2": f(y(0.5))}),
            self.tick(LEFT - 4, y(0) + TICK / 3, zero, "end"),
            self.tick(LEFT - 4, y(1) + TICK / 3, top, "end"),
            *(self.tick(end + 4, y(at) + TICK / 3, text) for at, text in zip((0, 0.5, 1), right)),
            self.tick(x(0), H - 6, zero, "middle"),
            self.tick(x(self.span), H - 6, last, "middle"),
        ]

    def mark(self, step: int | None) -> str:
        """The vertical line at ``step`` (hidden while there is none, so the markup keeps its shape)."""
        at = 0 if step is None else step
        x, y = self.x, self.y
        return void(
            "line",
            {
                "class": "apy-mark",
                "x1": f(x(at)),
                "y1": f(y(0)),
                "x2": f(x(at)),
                "y2": f(y(1)),
                "visibility": None if step is not None else "hidden",
            },
        )

    def drawing(self, parts: list[str], label: str) -> str:
        """The chart's SVG, ``label`` its text alternative."""
        return svg("".join(parts), width=W, height=H, label=label, cls="apy-curves")

    def plot(self, ticks: Ticks, curves: Sequence[Curve], mark: int | None, label: str, keys: Sequence[Key]) -> str:
        """The whole chart: its frame, the ``curves`` (the first drawn first, underneath the
        others), the mark of step ``mark``, ``label`` its text alternative, and its legend."""
        lines = [self.line(curve.points, curve.cls, hidden=curve.hidden) for curve in curves]
        return self.drawing([*self.frame(*ticks), *lines, self.mark(mark)], label) + legend(keys)
