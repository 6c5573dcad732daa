"""The trained induction model reads the reader's letters, with heads switched off at will.

The reader types a sequence in the page's letters (``induction.alphabet``; nothing typed: the
build's example, a segment repeated); every head's attention over it is drawn as a map (the
previous-token stripe one below the diagonal in layer 1, the induction stripe in layer 2), and
under each letter the model's guess of the next one. The head switches remove heads'
outputs (``Cut.heads_off``): the maps and guesses are the model run again without them, and
the readout gives the accuracy on the copied tokens of the build's 64 test sequences with
the same heads off (scored at build time for every set of heads: ``induction_run.switched``).

State (defaults): ``letters: ""`` (the example), ``position: -1`` (the last), ``on: "11"`` (a
digit a head, layer by layer)
"""

from __future__ import annotations

import unicodedata
from itertools import product
from typing import Any

from ...learning.induction import CopySettings
from ...learning.induction_run import heads_of, switch_key
from ...learning.next_token import Cut
from ..kit.controls import button
from ..kit.figure import Figure, Panel
from ..kit.html import el, esc, void
from ..kit.state import Choice, Integer, StateSpec, Writing
from ..kit.strings import Num, Pct, Text
from . import views

MAX_TEXT = 200  # characters in the box; the model reads 16 letters
BUILT = CopySettings()  # the build's model has the default sizes (induction_run.RUN: two layers)
SWITCHES = tuple(switch_key(on) for on in product((True, False), repeat=BUILT.layers * BUILT.heads))
STRINGS = tuple(
    """
    title letters letters_hint head_on head_off switches sequence_caption row_letters
    row_guesses readout readout_last readout_heads skipped shortened
    empty maps_caption caption
    """.split()  # noqa: SIM905
)


def read_letters(text: str, letters: list[str], limit: int) -> tuple[list[int], list[str], bool]:
    """The token ids of the page's letters in ``text`` (spaces and invisible marks ignored), the
    characters that are none of them (each once), and whether more than ``limit`` were typed
    (only the first ``limit`` are read)."""
    index = {c: i for i, c in enumerate(letters)}
    ids: list[int] = []
    skipped: list[str] = []
    for c in text:
        if c.isspace() or unicodedata.category(c) in ("Cf", "Mn"):
            continue
        if c in index:
            ids.append(index[c])
        elif c not in skipped:
            skipped.append(c)
    return ids[:limit], skipped, len(ids) > limit


def draw(state: dict[str, Any], t: Text) -> Panel:
    model = views.final_model()
    letters = views.alphabet(t)
    ids, notes = sequence_read(state["letters"], letters, model.max_length, t)
    position = len(ids) - 1 if state["position"] < 0 else min(state["position"], len(ids) - 1)
    heads = heads_of(model)
    on = [c == "1" for c in state["on"]]
    run = model.forward(ids, Cut(heads_off=frozenset(head for head, kept in zip(heads, on) if not kept)))
    guesses = model.guesses(run)
    attention = [
        [[row[: i + 1] for i, row in enumerate(run.attention(layer, h))] for h in range(model.heads)]
        for layer in range(model.layers)
    ]
    titles = [views.head_title(t, layer, h) for layer, h in heads]
    body = (
        letters_box(state["letters"], letters, t)
        + el("p", {"class": "apy-muted"}, t.html("letters_hint", letters=esc(" ".join(letters))))
        + switches(on, titles, t)
        + sequence(ids, guesses, position, letters, t)
        + el("p", {"class": "apy-muted"}, t.html("maps_caption"))
        + views.attention_maps(attention, [letters[i] for i in ids], position, t, titles)
    )
    guess = guesses[position]
    said = dict(
        letter=esc(letters[ids[position]]),
        position=position + 1,
        guess=esc(letters[guess]),
        probability=Pct(100 * run.probabilities[position][guess], 0),
    )
    readout = t.sentence("readout_last" if position == len(ids) - 1 else "readout", **said)
    return Panel(body, t.sentences(readout, heads_readout(state["on"], t)), [*notes, t.html("caption")])


def sequence_read(text: str, letters: list[str], limit: int, t: Text) -> tuple[list[int], list[str]]:
    """The token ids the model reads (the build's example when fewer than two letters were
    typed) and the notes on what was typed: letters skipped, the sequence cut, none read."""
    ids, skipped, shortened = read_letters(text, letters, limit)
    notes = []
    if skipped:
        shown = " ".join(esc(c) for c in skipped[:10])
        notes.append(t.html("skipped", skipped=el("span", {"class": "apy-induction__skipped"}, shown)))
    if shortened:
        notes.append(t.sentence("shortened", count=limit))
    if len(ids) < 2:
        if text.strip():
            notes.append(t.html("empty"))
        ids = list(views.data()["example"]["ids"])
    return ids, notes


def letters_box(text: str, letters: list[str], t: Text) -> str:
    """The box the reader types letters in (committed on Enter or leaving it)."""
    return el(
        "label",
        {"class": "apy-induction__box"},
        el("span", {}, t.html("letters")),
        void(
            "input",
            {
                "type": "text",
                "name": "letters",
                "value": text,
                "maxlength": str(MAX_TEXT),
                "data-commit": "change",
                "data-focus-key": "letters",
                "autocomplete": "off",
                "spellcheck": "false",
                "placeholder": " ".join(letters[i] for i in views.data()["example"]["ids"]),
            },
        ),
    )


def switches(on: list[bool], titles: list[str], t: Text) -> str:
    """A switch per head, pressed while the head is on; each sends the set with it flipped."""
    return el(
        "div",
        {"class": "apy-row apy-induction__switches", "role": "group", "aria-label": t.plain("switches")},
        el("span", {"class": "apy-muted", "aria-hidden": "true"}, t.html("switches")),
        *(
            button(
                t.html("head_on" if on[k] else "head_off", head=esc(titles[k])),
                {"on": switch_key([not v if j == k else v for j, v in enumerate(on)])},
                pressed=on[k],
                focus_key=f"switch:{k}",
            )
            for k in range(len(titles))
        ),
    )


def sequence(ids: list[int], guesses: list[int], position: int, letters: list[str], t: Text) -> str:
    """The letters read, each a button that chooses its position, and under each the model's
    guess of the next one (marked when it is the letter that follows)."""
    row_letters = "".join(
        el(
            "td",
            {},
            button(
                esc(letters[token]),
                {"position": i},
                pressed=i == position,
                focus_key=f"position:{i}",
                classes="apy-button apy-induction__token",
            ),
        )
        for i, token in enumerate(ids)
    )
    right = " apy-induction__guess--right"
    row_guesses = "".join(
        el(
            "td",
            {"class": "apy-induction__guess" + (right if i + 1 < len(ids) and g == ids[i + 1] else "")},
            esc(letters[g]),
        )
        for i, g in enumerate(guesses)
    )
    return el(
        "div",
        {"class": "apy-scroll"},
        el(
            "table",
            {"class": "apy-induction__sequence"},
            el("caption", {"class": "apy-sr"}, t.html("sequence_caption")),
            el("tr", {}, el("th", {"scope": "row"}, t.html("row_letters")), row_letters),
            el("tr", {}, el("th", {"scope": "row"}, t.html("row_guesses")), row_guesses),
        ),
    )


def heads_readout(on: str, t: Text) -> str:
    """The accuracy on the test sequences with these heads on (scored by the build)."""
    scores = views.switch_table()[on]
    return t.sentence(
        "readout_heads",
        copied=Pct(100 * scores["copied_accuracy"], 0),
        other=Pct(100 * scores["other_accuracy"], 0),
        loss=Num(scores["copied_loss"], 2),
    )


FIGURE = Figure(
    name="induction_heads",
    spec=StateSpec(
        {
            "letters": Writing(MAX_TEXT),
            "position": Integer(-1, 15, -1),
            "on": Choice(SWITCHES, SWITCHES[0]),
        }
    ),
    strings=STRINGS,
    draw=draw,
    resource=views.key,
    shared=("training", views.SECTION),
)
