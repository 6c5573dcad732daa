"""The controls both running figures draw (``train_live``, ``induction_live``): Train / Pause
and Reset with the run's status, and the recipe's button groups.

The words are each figure's own strings (``train``, ``pause``, ``reset``, the ``status_*``
sentences, a label per recipe key); what a button sends is the state the figure host then
runs (figures/README.md, "Running figures").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .controls import button, segmented
from .html import el, esc
from .state import Choice, Field
from .strings import Text

RESET = {"running": False, "step": 0}  # Reset: back to step 0, paused
AGAIN = {"running": True, "step": 0}  # Train again after a run's end: a new run of the same recipe


def run_controls(
    t: Text, label: str, status: str, train: dict[str, Any], *, running: bool, at_start: bool, refused: bool = False
) -> str:
    """Train (``label``: Train, Pause, Resume, Train again; sending ``train``), Reset (off at
    step 0 while paused: ``at_start``) and the run's ``status`` in words. Train comes first: it
    is the first stop of the figure's keyboard order."""
    return el(
        "div",
        {"class": "apy-row"},
        button(label, train, pressed=running, focus_key="train", disabled=refused),
        button(t.html("reset"), RESET, focus_key="reset", disabled=at_start and not running),
        el("span", {"class": "apy-status", "role": "status"}, status),
    )


def recipe_group(t: Text, state: Mapping[str, Any], key: str, field: Field, shown: Callable[[Any], str]) -> str:
    """The buttons of one recipe key (a ``Choice``'s values, or off and on for a flag), each
    value written by ``shown``, the state's pressed (``segmented``: a radio group without
    radio's traps), in the page's direction like every group (a value keeps its own)."""
    values = field.options if isinstance(field, Choice) else (False, True)
    return segmented(t.plain(key), [(shown(v), {key: v}, state[key] == v) for v in values], key=key)


def count_shown(t: Text) -> Callable[[int], str]:
    """A count as a button writes it: in the page's digits."""
    return lambda value: esc(t.count(value))


def rate_shown(t: Text) -> Callable[[float], str]:
    """A learning rate as a button writes it: a measured value, 0.003 with three decimals,
    0.1 with one, in the page's digits like the groups' counts beside it, kept left to right."""

    def shown(value: float) -> str:
        decimals = len(repr(value).partition(".")[2])
        return el("span", {"dir": "ltr", "class": "apy-num"}, esc(t.prose_numbers.num(value, decimals)))

    return shown
