"""Matrices as HTML tables whose cell shading shows the value.

A table (not an SVG picture) because it is what a matrix is: a screen reader can move
through rows and columns and hear the headers, and cells can be real buttons. Shading is
a CSS custom property (``--w``, 0..1) that figures.css turns into a colour mix, so both
colour schemes work and the numbers stay readable on every shade.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .format import NumberFormat
from .html import el, esc, to_json

CellAction = Callable[[int, int], dict[str, Any] | None]
CellTest = Callable[[int, int], bool]


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
    masked: CellTest | None = None,
    masked_text: str = "",
    action: CellAction | None = None,
    cell_label: Callable[[int, int, str], str] | None = None,
    selected: CellTest | None = None,
    pressed: CellTest | None = None,
    dimmed: CellTest | None = None,
    marked: CellTest | None = None,
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
    direction. ``masked(i, j)`` cells are hatched and say ``masked_text`` to screen readers; a
    large map leaves it empty and says it once in its caption instead (each cell's words would
    be half its markup). ``action(i, j)`` turns a cell into a button sending that change;
    ``cell_label(i, j, shown)`` names that button and must begin with ``shown``, the number on
    the cell, so that the name contains what the reader sees (WCAG 2.5.3, label in name) and a
    speech user can say the number to press it. ``pressed(i, j)`` says which button is the
    reader's current choice (``aria-pressed``); it defaults to ``selected``, but a figure that
    highlights the cells a choice came from presses only the chosen one, so that focusing a
    highlighted cell still chooses it. ``marked(i, j)`` cells are ringed: cells the figure
    points out (where a head should attend), told apart from the ``selected`` outline; the
    figure's caption or note says what the rings mean.
    """
    cells = Cells(
        numbers,
        scale=max((abs(v) for row in values for v in row), default=1.0) or 1.0,
        signed=signed,
        masked=masked,
        masked_text=masked_text,
        action=action,
        cell_label=cell_label,
        selected=selected,
        pressed=pressed or selected,
        dimmed=dimmed,
        marked=marked,
        table_cls=cls,
        activate_on_focus=activate_on_focus,
        show_numbers=show_numbers,
    )
    return el(
        "table",
        {"class": f"apy-matrix {cls}".strip(), "dir": direction},
        el("caption", {}, caption) if caption else "",
        el("thead", {}, header_row(corner, col_labels)),
        el("tbody", {}, body_rows(values, row_labels, cells)),
    )


def header_row(corner: str, col_labels: list[str]) -> str:
    """The columns' labels after the corner. A header cell needs text: without a corner
    label the corner is an empty data cell."""
    top_left = (
        el("th", {"class": "apy-matrix__corner", "scope": "col"}, corner)
        if corner
        else el("td", {"class": "apy-matrix__corner"})
    )
    return el("tr", {}, top_left, "".join(el("th", {"scope": "col"}, label) for label in col_labels))


def body_rows(values: list[list[float]], row_labels: list[str], cells: Cells) -> str:
    """Each row of ``values``: its label, then its cells."""
    return "".join(
        el("tr", {}, el("th", {"scope": "row"}, row_labels[i]), "".join(cells.cell(i, j, v) for j, v in enumerate(row)))
        for i, row in enumerate(values)
    )


@dataclass(frozen=True)
class Cells:
    """How one table draws its cells (``matrix_table``'s arguments): ``scale`` is the
    largest |value|, which a signed table's shading divides by."""

    numbers: NumberFormat
    scale: float
    signed: bool
    masked: CellTest | None
    masked_text: str
    action: CellAction | None
    cell_label: Callable[[int, int, str], str] | None
    selected: CellTest | None
    pressed: CellTest | None
    dimmed: CellTest | None
    marked: CellTest | None
    table_cls: str
    activate_on_focus: bool
    show_numbers: bool

    def cell(self, i: int, j: int, v: float) -> str:
        """Cell (i, j) of value ``v``: hatched when masked, else shaded, its number shown (or
        said only), inside a button when it has an action."""
        if self.masked and self.masked(i, j):
            said = el("span", {"class": "apy-sr"}, esc(self.masked_text)) if self.masked_text else ""
            return el("td", {"class": "apy-cell apy-cell--masked"}, said)
        classes, style = self.look(i, j, v)
        shown = self.numbers.num(v)
        text = el("span", {} if self.show_numbers else {"class": "apy-sr"}, shown)
        change = self.action(i, j) if self.action else None
        content = text if change is None else self.button(i, j, change, shown, text)
        return el("td", {"class": " ".join(classes), "style": style}, content)

    def look(self, i: int, j: int, v: float) -> tuple[list[str], str]:
        """The cell's classes (sign, selected, dimmed, marked) and its shade."""
        classes = ["apy-cell"]
        if self.signed:
            classes.append("apy-cell--pos" if v >= 0 else "apy-cell--neg")
            style = shade(abs(v) / self.scale)
        else:
            style = shade(v)
        if self.selected and self.selected(i, j):
            classes.append("apy-cell--selected")
        if self.dimmed and self.dimmed(i, j):
            classes.append("apy-cell--dim")
        if self.marked and self.marked(i, j):
            classes.append("apy-cell--marked")
        return classes, style

    def button(self, i: int, j: int, change: dict[str, Any], shown: str, text: str) -> str:
        """The cell as a button sending ``change``, named by ``cell_label`` (it begins with ``shown``)."""
        return el(
            "button",
            {
                "type": "button",
                "class": "apy-cell__button",
                "data-set": to_json(change),
                "data-set-on": "focus" if self.activate_on_focus else None,
                "aria-pressed": ("true" if self.pressed and self.pressed(i, j) else "false"),
                "aria-label": self.cell_label(i, j, shown) if self.cell_label else None,
                "data-focus-key": f"cell:{self.table_cls}:{i}:{j}",
            },
            text,
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
