"""train_live's editor of the reader's own puzzle: four boxes (people, actions, the two groups
of reasons), one item a line, and the build's checks run on them each time a box is left
(own_puzzle.py): the sentences it would make, or why it cannot be trained, naming the
give-away if there is one. "Train on this puzzle" chooses it (``data: own``)."""

from __future__ import annotations

from typing import Any

from ...kit.controls import button
from ...kit.html import el, esc, to_json
from ...kit.strings import Text
from .own_puzzle import FIELDS, MAX_BOX, OwnPuzzle, Refusal, ready_text, refusal_text

STRINGS = tuple("own_open own_use own_using own_caption".split())  # noqa: SIM905
ROWS = {"people": 4, "actions": 3, "actor": 4, "patient": 4}


def own_editor(state: dict[str, Any], t: Text, texts: dict[str, str], made: OwnPuzzle | Refusal) -> str:
    """The toggle, and when open the boxes (``texts``: what each shows), the check's sentence
    and the button that trains on the puzzle."""
    opened = bool(state["own_open"])
    toggle = el(
        "button",
        {
            "type": "button",
            "class": "apy-button",
            "data-set": to_json({"own_open": not opened}),
            "aria-expanded": "true" if opened else "false",
            "data-focus-key": "own_open",
        },
        t.html("own_open"),
    )
    if not opened:
        return el("div", {"class": "apy-own"}, toggle)
    boxes = "".join(
        el(
            "label",
            {"class": "apy-field apy-own__box"},
            el("span", {"class": "apy-field__label"}, t.html(f"own_field_{name}")),
            el(
                "textarea",
                {
                    "name": f"own_{name}",
                    "rows": str(ROWS[name]),
                    "maxlength": str(MAX_BOX),
                    "data-commit": "change",
                    "data-focus-key": f"own_{name}",
                    "spellcheck": "false",
                },
                esc(texts[name]),
            ),
        )
        for name in FIELDS
    )
    refused = isinstance(made, Refusal)
    check = refusal_text(made, t) if isinstance(made, Refusal) else ready_text(made, t)
    using = state["data"] == "own"
    return el(
        "div",
        {"class": "apy-own"},
        toggle,
        el("p", {"class": "apy-muted"}, t.html("own_caption")),
        el("div", {"class": "apy-own__boxes"}, boxes),
        el(
            "p",
            {"class": "apy-own__check" + (" apy-own__check--refused" if refused else ""), "role": "status"},
            esc(check),
        ),
        button(
            t.html("own_using" if using else "own_use"),
            {"data": "own", "step": 0, "running": False},
            focus_key="own_use",
            disabled=refused or using,
        ),
    )
