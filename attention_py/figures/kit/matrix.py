"""Matrices as HTML tables whose cell shading shows the value.

A table (not an SVG picture) because it is what a matrix is: a screen reader can move
through rows and columns and hear the headers, and cells can be real buttons. Shading is
a CSS custom property (``--w``, 0..1) that figures.css turns into a colour mix, so both
colour schemes work and the numbers stay readable on every shade.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .format import NumberFormat
from .html import el, esc, to_json

CellAction = Callable[[int, int], dict[str, Any] | None]


def shade(weight: float) -> str:
    """The ``--w`` value for a cell: a 0..1 weight, three decimals."""
    return f"--w:{min(max(weight, 0.0), 1.0):.3f}"


def matrix_table(
    values: list[list[float]],
    numbers: NumberFormat,
    *,
    row_labels: list[str],
    col_labels: list[str],
    caption: str = "",
    signed: bool = False,
    direction: str | None = "ltr",
    masked: Callable[[int, int], bool] | None = None,
    masked_text: str = "",
    action: CellAction | None = None,
    cell_label: Callable[[int, int, str], str] | None = None,
    selected: Callable[[int, int], bool] | None = None,
    pressed: Callable[[int, int], bool] | None = None,
    dimmed: Callable[[int, int], bool] | None = None,
    corner: str = "",
    cls: str = "",
    activate_on_focus: bool = False,
    show_numbers: bool = True,
) -> str:
    """A matrix with labelled rows and columns (labels are markup), its numbers written in
    the figure's format ``numbers``.

    ``signed`` shades by |value| / max|value| in two colours (positive, negative);
    otherwise values are weights in 0..1. ``direction`` "ltr" keeps numeric matrices
    mathematical inside right-to-left pages; ``None`` lets token axes follow the reading
    direction. ``masked(i, j)`` cells are hatched and say ``masked_text`` to screen
    readers; a large map leaves it empty and says it once in its caption instead (each
    cell's words would be half its markup). ``action(i, j)`` turns a cell into a button sending that change;
    ``cell_label(i, j, shown)`` names that button and must begin with ``shown``, the number
    on the cell, so that the name contains what the reader sees (WCAG 2.5.3, label in name)
    and a speech user can say the number to press it. ``pressed(i, j)`` says which button
    is the reader's current choice (``aria-pressed``); it defaults to ``selected``, but a
    figure that highlights the cells a choice came from presses only the chosen one, so
    that focusing a highlighted cell still chooses it.
    """
    scale = max((abs(v) for row in values for v in row), default=1.0) or 1.0
    pressed = pressed or selected
    # A header cell needs text; without a corner label the corner is an empty data cell.
    top_left = (
        el("th", {"class": "apy-matrix__corner", "scope": "col"}, corner)
        if corner
        else el("td", {"class": "apy-matrix__corner"})
    )
    head = el("tr", {}, top_left, "".join(el("th", {"scope": "col"}, label) for label in col_labels))
    rows = []
    for i, row in enumerate(values):
        cells = []
        for j, v in enumerate(row):
            classes = ["apy-cell"]
            if masked and masked(i, j):
                classes.append("apy-cell--masked")
                said = el("span", {"class": "apy-sr"}, esc(masked_text)) if masked_text else ""
                cells.append(el("td", {"class": " ".join(classes)}, said))
                continue
            if signed:
                classes.append("apy-cell--pos" if v >= 0 else "apy-cell--neg")
                style = shade(abs(v) / scale)
            else:
                style = shade(v)
            if selected and selected(i, j):
                classes.append("apy-cell--selected")
            if dimmed and dimmed(i, j):
                classes.append("apy-cell--dim")
            shown = numbers.num(v)
            text = el("span", {} if show_numbers else {"class": "apy-sr"}, shown)
            change = action(i, j) if action else None
            if change is not None:
                content = el(
                    "button",
                    {
                        "type": "button",
                        "class": "apy-cell__button",
                        "data-set": to_json(change),
                        "data-set-on": "focus" if activate_on_focus else None,
                        "aria-pressed": ("true" if pressed and pressed(i, j) else "false"),
                        "aria-label": cell_label(i, j, shown) if cell_label else None,
                        "data-focus-key": f"cell:{cls}:{i}:{j}",
                    },
                    text,
                )
            else:
                content = text
            cells.append(el("td", {"class": " ".join(classes), "style": style}, content))
        rows.append(el("tr", {}, el("th", {"scope": "row"}, row_labels[i]), "".join(cells)))
    return el(
        "table",
        {"class": f"apy-matrix {cls}".strip(), "dir": direction},
        el("caption", {}, caption) if caption else "",
        el("thead", {}, head),
        el("tbody", {}, "".join(rows)),
    )


def vector_cells(values: list[float], numbers: NumberFormat, *, aria_label: str, scale: float | None = None) -> str:
    """One vector as a row of shaded cells (a 1 x n matrix without headers)."""
    top = scale or max((abs(v) for v in values), default=1.0) or 1.0
    cells = "".join(
        el(
            "span",
            {"class": f"apy-vcell {'apy-cell--pos' if v >= 0 else 'apy-cell--neg'}", "style": shade(abs(v) / top)},
            numbers.num(v),
        )
        for v in values
    )
    return el(
        "div",
        {"class": "apy-vector", "role": "img", "aria-label": aria_label},
        el("span", {"class": "apy-vector__cells", "dir": "ltr", "aria-hidden": "true"}, cells),
    )
