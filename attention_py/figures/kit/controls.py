"""Form controls in the shape the page's generic host understands (see figures/README.md).

* A control with ``name`` sends ``{name: value}`` (a dotted state path) on ``input``, or on
  ``change`` when it says ``data-commit="change"`` (text boxes: no error while typing).
* A button with ``data-set`` sends that JSON mapping of paths to values when activated.
* ``data-focus-key`` lets the host put focus back if an element had to be replaced.

Radio buttons are deliberately absent: radios group by ``name`` across the whole page, so
two figures on one page would steal each other's selection. Segmented buttons with
``aria-pressed`` do the same job without that trap.
"""

from __future__ import annotations

from typing import Any

from .format import NumberFormat, plain_num
from .html import el, esc, to_json, void


def slider(
    name: str,
    value: float,
    *,
    lo: float,
    hi: float,
    step: float,
    label: str,
    aria_label: str,
    shown: str,
    valuetext: str | None = None,
    values: list[Any] | None = None,
    digits: int = 2,
) -> str:
    """A labelled range input with its value printed beside it.

    ``label`` is markup (it may hold a formula in a left-to-right span); ``aria_label`` is
    the plain accessible name. With ``values`` the range runs over indexes 0..n-1 and the
    host sends ``values[index]`` (a log-like scale such as 1, 2, 4, ..., 512).
    """
    if values is not None:
        position = min(range(len(values)), key=lambda i: abs(values[i] - value))
        bounds = {"min": "0", "max": str(len(values) - 1), "step": "1", "value": str(position)}
    else:
        bounds = {
            "min": plain_num(lo, digits),
            "max": plain_num(hi, digits),
            "step": plain_num(step, digits),
            "value": plain_num(value, digits),
        }
    return el(
        "label",
        {"class": "apy-slider"},
        el("span", {"class": "apy-slider__label"}, label),
        void(
            "input",
            {
                "type": "range",
                "name": name,
                **bounds,
                "data-values": to_json(values) if values is not None else None,
                "aria-label": aria_label,
                "aria-valuetext": valuetext or shown,
                "data-focus-key": name,
            },
        ),
        el("output", {"class": "apy-slider__value", "dir": "ltr"}, esc(shown)),
    )


def number_box(name: str, value: float, numbers: NumberFormat, *, aria_label: str, digits: int = 2) -> str:
    """A small text box for one number, written in the figure's format ``numbers`` (the
    reader may type it back in any: see ``parse_number``); sent on ``change`` so half-typed
    text is no error."""
    return void(
        "input",
        {
            "type": "text",
            "inputmode": "decimal",
            "class": "apy-number",
            "name": name,
            "value": numbers.plain(value, digits),
            "size": "5",
            "dir": "ltr",
            "autocomplete": "off",
            "spellcheck": "false",
            "data-commit": "change",
            "aria-label": aria_label,
            "data-focus-key": name,
        },
    )


def button(
    label: str,
    changes: dict[str, Any],
    *,
    pressed: bool | None = None,
    focus_key: str | None = None,
    classes: str = "apy-button",
    disabled: bool = False,
    tab_stop: bool | None = None,
) -> str:
    """A button that sends ``changes`` (state paths to values); ``label`` is markup.

    ``tab_stop`` is for a button inside a group that is one Tab stop (``segmented``):
    true gives ``tabindex="0"``, false ``tabindex="-1"``, None leaves the button's own.
    """
    return el(
        "button",
        {
            "type": "button",
            "class": classes,
            "data-set": to_json(changes),
            "aria-pressed": None if pressed is None else ("true" if pressed else "false"),
            "data-focus-key": focus_key or to_json(changes),
            "tabindex": None if tab_stop is None else ("0" if tab_stop else "-1"),
            "disabled": disabled,
        },
        label,
    )


def tab_stop_index(pressed: list[bool]) -> int:
    """Which button of a group is its one Tab stop: the pressed one, else the first.

    Tabbing into a group of choices lands on the choice in force (as in a radio group);
    the arrow keys then move within it (docs/widgets/figure-roving.js).
    """
    return pressed.index(True) if True in pressed else 0


def segmented(
    label: str, options: list[tuple[str, dict[str, Any], bool]], *, key: str, direction: str | None = None
) -> str:
    """A group of pressable buttons, one of them pressed: a radio group without radio's traps.

    The group is one Tab stop, a toolbar in the WAI-ARIA sense: only the pressed button
    (the first when none is) has ``tabindex="0"``; the page moves focus between the
    buttons with the arrow keys, Home and End, without pressing (a press changes the
    figure, and a running figure's recipe restarts its run), and Enter or Space presses.
    ``role="toolbar"`` says so to assistive technology, where ``group`` promises no arrow
    keys. ``direction="ltr"`` keeps mathematical choices (x₁ x₂ x₃) in the order of the
    drawing; the arrows follow the order on screen.
    """
    stop = tab_stop_index([pressed for _, _, pressed in options])
    buttons = "".join(
        button(text, changes, pressed=pressed, focus_key=f"{key}:{i}", classes="apy-seg__button", tab_stop=i == stop)
        for i, (text, changes, pressed) in enumerate(options)
    )
    return el(
        "div",
        {"class": "apy-seg", "role": "toolbar", "aria-label": label},
        el("span", {"class": "apy-seg__label", "aria-hidden": "true"}, esc(label)),
        el("span", {"class": "apy-seg__buttons", "dir": direction}, buttons),
    )


def vector_input(
    name: str,
    path: str,
    vector: list[float],
    numbers: NumberFormat,
    *,
    aria_labels: tuple[str, str],
    swatch_cls: str = "",
) -> str:
    """A 2-D vector typed in two boxes, ``name = (x, y)``, left to right: the boxes send
    ``path.0`` and ``path.1``, one decimal. With ``swatch_cls`` its colour comes first."""
    return el(
        "div",
        {"class": "apy-vecinput", "dir": "ltr"},
        swatch(swatch_cls) if swatch_cls else "",
        formula(f"{name} = ("),
        number_box(f"{path}.0", vector[0], numbers, aria_label=aria_labels[0], digits=1),
        formula(numbers.separator),
        number_box(f"{path}.1", vector[1], numbers, aria_label=aria_labels[1], digits=1),
        formula(")"),
    )


def swatch(cls: str) -> str:
    """A dot of the colour class ``cls``: what ties a control or a legend to its drawing."""
    return el("span", {"class": f"apy-swatch {cls}", "aria-hidden": "true"})


def checkbox(name: str, checked: bool, *, label: str) -> str:
    """A labelled checkbox; the host sends its ``checked`` state as true/false."""
    return el(
        "label",
        {"class": "apy-check"},
        void("input", {"type": "checkbox", "name": name, "checked": checked, "data-focus-key": name}),
        el("span", {}, esc(label)),
    )


def select(name: str, value: str, *, options: list[tuple[str, str]], aria_label: str) -> str:
    """A drop-down of ``(value, visible text)`` pairs."""
    items = "".join(el("option", {"value": v, "selected": v == value}, esc(text)) for v, text in options)
    return el("select", {"name": name, "aria-label": aria_label, "data-focus-key": name}, items)


def formula(text: str) -> str:
    """Inline mathematics: always left to right, isolated from the surrounding sentence."""
    return el("span", {"class": "apy-math", "dir": "ltr"}, esc(text))


def value(written: str) -> str:
    """A number inside running text, written by the figure's format (``t.num``, ``t.pct``),
    isolated left to right with its signs, so they stay in place in a right-to-left sentence."""
    return el("span", {"class": "apy-num", "dir": "ltr"}, written)
