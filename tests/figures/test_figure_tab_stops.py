"""Each group of choices in a figure is one Tab stop, written so by Python.

A reader going through a figure by keyboard meets each group of pressable buttons
(``kit.controls.segmented``: train_live has nine) once: ``role="toolbar"``, one button with
``tabindex="0"`` (the pressed one, the first when none is) and the others ``-1``; the arrow
keys move between them in the page (docs/widgets/figures/figure-roving.js, checked in Chromium by
tests/e2e/test_keyboard.py). The build's markup is the page's before any script runs, so
the rule is checked here on what the figures draw, in every state shape the allow-list
tool draws them in.
"""

from __future__ import annotations

import itertools

import pytest

from attention_py.figures import FIGURES
from attention_py.figures.kit.controls import segmented
from devtools.figure_allowlist import states
from tests.figures.support import Element, parse, strings

STATES_PER_FIGURE = 60  # enough for every shape of every group; train_live has hundreds


def groups(root: Element) -> list[Element]:
    return root.find_all(lambda e: e.attrs.get("role") == "toolbar")


def buttons(group: Element) -> list[Element]:
    return group.find_all(lambda e: e.tag == "button")


def check_one_stop(group: Element) -> None:
    """One button of ``group`` has tabindex 0, the pressed one (or the first); the rest -1."""
    row = buttons(group)
    assert row, "a group of choices without buttons"
    stops = [b for b in row if b.attrs.get("tabindex") == "0"]
    assert len(stops) == 1, f"{group.attrs.get('aria-label')}: {len(stops)} Tab stops, not one"
    assert all(b.attrs.get("tabindex") == "-1" for b in row if b is not stops[0])
    pressed = [b for b in row if b.attrs.get("aria-pressed") == "true"]
    assert stops[0] is (pressed[0] if pressed else row[0]), "the Tab stop is the choice in force"


@pytest.mark.parametrize("name", list(FIGURES))
def test_every_group_of_choices_is_one_tab_stop(name):
    drawn = 0
    for state in itertools.islice(states(name), STATES_PER_FIGURE):
        root = parse(FIGURES[name].render(state, lang="en", strings=strings("en")))
        for group in groups(root):
            check_one_stop(group)
            drawn += 1
        # a segmented button outside a toolbar would be a Tab stop of its own, and arrowless
        loose = [b for b in root.by_class("apy-seg__button") if not _in_toolbar(b)]
        assert not loose, f"{len(loose)} choice buttons outside a group"
    if name in {"train_live", "attention_sentence", "multi_head", "self_attention_simple", "why_sqrt_dk"}:
        assert drawn, f"{name} draws groups of choices: none was found"


def _in_toolbar(element: Element) -> bool:
    node = element.parent
    while node is not None:
        if node.attrs.get("role") == "toolbar":
            return True
        node = node.parent
    return False


def test_train_live_has_nine_groups_each_one_stop():
    root = parse(FIGURES["train_live"].render(None, lang="he", strings=strings("he")))
    found = groups(root)
    assert len(found) >= 9
    for group in found:
        check_one_stop(group)


@pytest.mark.parametrize(
    ("pressed", "stop"),
    [((False, True, False), 1), ((False, False, False), 0), ((True, False, False), 0), ((False, False, True), 2)],
)
def test_segmented_puts_the_stop_on_the_pressed_button_or_the_first(pressed, stop):
    markup = segmented("Size", [(str(i), {"n": i}, p) for i, p in enumerate(pressed)], key="n", direction="ltr")
    group = parse(markup)
    assert group.attrs["role"] == "toolbar"
    assert group.attrs["aria-label"] == "Size"
    check_one_stop(group)
    assert [b.attrs["tabindex"] for b in buttons(group)] == ["0" if i == stop else "-1" for i in range(3)]
