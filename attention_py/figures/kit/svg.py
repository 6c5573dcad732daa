"""SVG drawing for the geometric figures: a 2-D plane with axes, arrows and draggable points.

The plane has y pointing up (as in mathematics) and equal units on both axes so that angles
look like angles. Drawings are always left to right, also inside Hebrew and Persian pages.
Colours come from CSS classes (see figures.css), never from hard-coded fills, so the dark
scheme and high-contrast modes work.

Draggable points carry everything the page's host needs to move them without knowing the
figure: ``data-drag`` says which state paths x and y are and how screen (SVG user)
coordinates map to them; ``data-keys`` lists, for each arrow key, the exact change to send.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .format import NumberFormat, plain_num
from .html import el, esc, to_json, void
from .state import clamp, snap


def f(value: float) -> str:
    """A coordinate for SVG markup: two decimals are plenty at this size."""
    return plain_num(value, 2)


@dataclass(frozen=True)
class Plane:
    """Maps the rectangle xlim x ylim of the plane onto a width x height drawing."""

    width: float
    height: float
    xlim: tuple[float, float]
    ylim: tuple[float, float]
    margin: float = 18

    @property
    def unit(self) -> float:
        """Pixels per unit, the same on both axes."""
        sx = (self.width - 2 * self.margin) / (self.xlim[1] - self.xlim[0])
        sy = (self.height - 2 * self.margin) / (self.ylim[1] - self.ylim[0])
        return min(sx, sy)

    @property
    def origin(self) -> tuple[float, float]:
        """Where (0, 0) lands, centring the plane in the drawing."""
        u = self.unit
        cx = self.width / 2 - u * (self.xlim[0] + self.xlim[1]) / 2
        cy = self.height / 2 + u * (self.ylim[0] + self.ylim[1]) / 2
        return cx, cy

    def px(self, x: float, y: float) -> tuple[float, float]:
        ox, oy = self.origin
        return ox + self.unit * x, oy - self.unit * y

    def grid(self, *, step: float = 1.0, numbers: NumberFormat | None = None) -> str:
        """Faint grid lines at every ``step``, the two axes darker, and with ``numbers`` (the
        figure's format) a few tick labels."""
        parts = []
        (x0, x1), (y0, y1) = self.xlim, self.ylim
        k = math.ceil(x0 / step)
        while k * step <= x1 + 1e-9:
            x = k * step
            a, b = self.px(x, y0), self.px(x, y1)
            parts.append(_grid_line(a, b, axis=k == 0))
            if numbers is not None and k != 0 and k % 2 == 0:
                tx, ty = self.px(x, 0)
                parts.append(
                    el(
                        "text",
                        {"class": "apy-tick", "x": f(tx), "y": f(ty + 13), "text-anchor": "middle"},
                        numbers.num(x, 0),
                    )
                )
            k += 1
        k = math.ceil(y0 / step)
        while k * step <= y1 + 1e-9:
            y = k * step
            a, b = self.px(x0, y), self.px(x1, y)
            parts.append(_grid_line(a, b, axis=k == 0))
            if numbers is not None and k != 0 and k % 2 == 0:
                tx, ty = self.px(0, y)
                parts.append(
                    el(
                        "text",
                        {"class": "apy-tick", "x": f(tx - 5), "y": f(ty + 4), "text-anchor": "end"},
                        numbers.num(y, 0),
                    )
                )
            k += 1
        return el("g", {"class": "apy-grid-layer", "aria-hidden": "true"}, "".join(parts))

    def arrow(self, start: tuple[float, float], end: tuple[float, float], *, cls: str, width: float = 2.5) -> str:
        """A straight arrow from ``start`` to ``end`` (plane coordinates) with a filled head."""
        return arrow_px(self.px(*start), self.px(*end), cls=cls, width=width)

    def labelled_point(self, point: tuple[float, float], label: str, *, cls: str, radius: str, gap: float) -> str:
        """A dot of ``radius`` (as the markup writes it) at ``point`` with its ``label`` (text)
        ``gap`` pixels off on the outer side: to the right of a point right of the y axis, to
        the left of one left of it."""
        u, v = self.px(*point)
        anchor = "start" if point[0] >= 0 else "end"
        return el(
            "g",
            {"class": cls},
            el("circle", {"cx": f(u), "cy": f(v), "r": radius}),
            el(
                "text",
                {"x": f(u + (gap if anchor == "start" else -gap)), "y": f(v + 4), "text-anchor": anchor},
                esc(label),
            ),
        )

    def drawing(self, content: str, *, label: str, interactive: bool = False) -> str:
        """The plane's SVG (``svg``) holding ``content``, ``label`` its accessible name."""
        return svg(content, width=self.width, height=self.height, label=label, interactive=interactive, cls="apy-plane")

    def drag(self, x_path: str, y_path: str) -> str:
        """The ``data-drag`` value: state = (svg - origin) / scale on each axis."""
        ox, oy = self.origin
        return to_json(
            {
                "x": x_path,
                "y": y_path,
                "origin": [round(ox, 4), round(oy, 4)],
                "scale": [round(self.unit, 4), round(-self.unit, 4)],
            }
        )


def arrow_px(a: tuple[float, float], b: tuple[float, float], *, cls: str, width: float = 2.5) -> str:
    """An arrow between two points in drawing pixels; nothing but a dot if they coincide."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    head = min(4 + 2.6 * width, 0.6 * length)
    if length < 1e-6:
        return void("circle", {"class": f"apy-arrow {cls}", "cx": f(a[0]), "cy": f(a[1]), "r": f(width)})
    ux, uy = dx / length, dy / length
    base = (b[0] - ux * head, b[1] - uy * head)
    half = max(head * 0.55, width)
    left = (base[0] - uy * half, base[1] + ux * half)
    right = (base[0] + uy * half, base[1] - ux * half)
    line = void("line", {"x1": f(a[0]), "y1": f(a[1]), "x2": f(base[0]), "y2": f(base[1]), "stroke-width": f(width)})
    tip = void("polygon", {"points": " ".join(f"{f(p[0])},{f(p[1])}" for p in (b, left, right))})
    return el("g", {"class": f"apy-arrow {cls}"}, line, tip)


def handle(
    plane: Plane,
    point: tuple[float, float],
    *,
    paths: tuple[str, str],
    label: str,
    aria_label: str,
    valuetext: str,
    step: float,
    lo: float,
    hi: float,
    cls: str,
    roledescription: str,
) -> str:
    """A draggable, focusable point: pointer drag, touch drag and arrow keys all move it.

    Arrow keys move by ``step`` (Shift: five steps) in the plane's own directions, so
    ArrowUp always means "y grows", whatever the page's writing direction.
    """
    x, y = point
    keys = {}
    for big, factor in (("", 1), ("Shift+", 5)):
        for key, dx, dy in (("ArrowRight", 1, 0), ("ArrowLeft", -1, 0), ("ArrowUp", 0, 1), ("ArrowDown", 0, -1)):
            nx = clamp(snap(x + dx * step * factor, step), lo, hi)
            ny = clamp(snap(y + dy * step * factor, step), lo, hi)
            change = {}
            if dx:
                change[paths[0]] = nx
            if dy:
                change[paths[1]] = ny
            keys[big + key] = change
    u, v = plane.px(x, y)
    return el(
        "g",
        {
            "class": f"apy-handle {cls}",
            "tabindex": "0",
            "role": "slider",
            "aria-roledescription": roledescription,
            "aria-label": aria_label,
            "aria-valuenow": plain_num(x, 2),
            "aria-valuemin": plain_num(lo, 2),
            "aria-valuemax": plain_num(hi, 2),
            "aria-valuetext": valuetext,
            "data-drag": plane.drag(*paths),
            "data-keys": to_json(keys),
            "data-focus-key": f"handle:{paths[0]}",
        },
        void("circle", {"class": "apy-handle__hit", "cx": f(u), "cy": f(v), "r": "20"}),
        void("circle", {"class": "apy-handle__ring", "cx": f(u), "cy": f(v), "r": "9"}),
        void("circle", {"class": "apy-handle__dot", "cx": f(u), "cy": f(v), "r": "5.5"}),
        el("text", {"class": "apy-handle__label", "x": f(u + 11), "y": f(v - 10)}, esc(label)),
    )


def svg(content: str, *, width: float, height: float, label: str, interactive: bool = False, cls: str = "") -> str:
    """An SVG root that scales with its container; ``label`` is its accessible name.

    Static drawings are a single image to assistive technology (role="img"); drawings
    holding focusable handles are a group, so the handles stay reachable.
    """
    return el(
        "svg",
        {
            "class": f"apy-svg {cls}".strip(),
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {f(width)} {f(height)}",
            "width": f(width),
            "height": f(height),
            "dir": "ltr",
            "direction": "ltr",
            "role": "group" if interactive else "img",
            "aria-label": label,
        },
        content,
    )


def _grid_line(a: tuple[float, float], b: tuple[float, float], *, axis: bool) -> str:
    """One line of the grid from pixel ``a`` to ``b``: the axis itself, or a faint grid line."""
    return void(
        "line",
        {"class": "apy-axis" if axis else "apy-grid", "x1": f(a[0]), "y1": f(a[1]), "x2": f(b[0]), "y2": f(b[1])},
    )
