"""The trained induction model reads the reader's letters, with heads switched off at will.

The reader types a sequence in the page's letters (``induction.alphabet``; nothing typed: the
build's example, a segment repeated); capitals, Hebrew final forms and the Arabic forms of
Persian letters are read as the letters they are, and what is none of them is named in a note
(``read_letters``). Every head's attention over the sequence is drawn as a map (the
previous-token stripe one below the diagonal in layer 1, the induction stripe in layer 2, its
expected cells ringed) with the head's score on the build's test sequences, and under each
letter the model's guess of the next one. The head switches remove heads'
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
SKIPPED_SHOWN = 10  # the characters left out that a note names; an ellipsis says there were more
BUILT = CopySettings()  # the build's model has the default sizes (induction_run.RUN: two layers)
SWITCHES = tuple(switch_key(on) for on in product((True, False), repeat=BUILT.layers * BUILT.heads))
STRINGS = tuple(
    """
    title letters letters_hint head_on head_off switches sequence_caption row_letters
    row_guesses readout readout_last readout_heads skipped shortened
    empty maps_caption caption
    """.split()  # noqa: SIM905
)


SAME_LETTER = {
    **dict(zip("םןץףך", "מנצפכ")),  # Hebrew final forms: the same letters at a word's end
    "ي": "ی",  # Arabic yeh, as an Arabic keyboard types it: Persian yeh
    "ى": "ی",  # Arabic alef maksura, Persian yeh without its dots (some keyboards type it)
    "ك": "ک",  # Arabic kaf: Persian keheh
}
"""Characters that are another letter in another form: each is read as that letter."""


def letter_index(c: str, index: dict[str, int]) -> int | None:
    """The token id of the typed character ``c``: the letter itself, its lower case, its
    compatibility form (a presentation form, a full-width letter) or the letter that
    ``SAME_LETTER`` says it is; None when it is none of the page's letters."""
    for form in (c, c.lower(), unicodedata.normalize("NFKC", c).lower()):
        form = SAME_LETTER.get(form, form)
        if form in index:
            return index[form]
    return None


def read_letters(text: str, letters: list[str], limit: int) -> tuple[list[int], list[str], bool]:
    """The token ids of the page's letters in ``text`` (spaces and invisible marks ignored;
    upper case, Hebrew final forms and the Arabic forms of Persian letters read as the
    letters they are: ``letter_index``), the characters that are none of them (each once),
    and whether more than ``limit`` were typed (only the first ``limit`` are read)."""
    index = {c: i for i, c in enumerate(letters)}
    ids: list[int] = []
    skipped: list[str] = []
    for c in text:
        if c.isspace() or unicodedata.category(c) in ("Cf", "Mn"):
            continue
        found = letter_index(c, index)
        if found is not None:
            ids.append(found)
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
    titles = [views.head_title(t, layer, h) for layer, h in heads]
    maps = [
        views.HeadMap(
            [row[: i + 1] for i, row in enumerate(run.attention(layer, h))],
            title,
            views.head_score(t, layer, built_score(layer, h, on)),
            induction=layer == 1,
        )
        for (layer, h), title in zip(heads, titles)
    ]
    body = (
        views.part(
            "controls",
            letters_box(state["letters"], letters, t)
            + el("p", {"class": "apy-muted"}, t.html("letters_hint", letters=esc(" ".join(letters))))
            + switches(on, titles, t),
        )
        + views.part("sequence", sequence(ids, guesses, position, letters, t))
        + views.part(
            "maps",
            el("p", {"class": "apy-muted"}, t.html("maps_caption"))
            + views.attention_maps(maps, letters, ids, position, t),
        )
    )
    guess = guesses[position]
    said = dict(
        letter=esc(letters[ids[position]]),
        position=position,  # counted from 0, as the article counts them
        guess=esc(letters[guess]),
        probability=Pct(100 * run.probabilities[position][guess], 0),
    )
    readout = t.sentence("readout_last" if position == len(ids) - 1 else "readout", **said)
    return Panel(body, t.sentences(readout, heads_readout(state["on"], t)), [*notes, t.html("caption")])


def built_score(layer: int, head: int, on: list[bool]) -> float | None:
    """The head's score (``views.score_kind``) on the test sequences, as the build measured it
    with every head on; None for a head of layer 2 while a head of layer 1 is off: its
    attention then reads another input, which the build did not score. (Switching a head off
    removes its output, not its attention, so a head's own switch changes nothing here.)"""
    first_layer_on = all(kept for (at, _), kept in zip(heads_of(views.final_model()), on) if at == 0)
    if layer > 0 and not first_layer_on:
        return None
    value: float = views.data()["circuit"]["scores"][views.score_kind(layer)][layer][head]
    return value


def sequence_read(text: str, letters: list[str], limit: int, t: Text) -> tuple[list[int], list[str]]:
    """The token ids the model reads (the build's example when fewer than two letters were
    typed) and the notes on what was typed: letters skipped, the sequence cut, none read."""
    ids, skipped, shortened = read_letters(text, letters, limit)
    notes = []
    if skipped:
        shown = " ".join(esc(c) for c in skipped[:SKIPPED_SHOWN]) + (" …" if len(skipped) > SKIPPED_SHOWN else "")
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
