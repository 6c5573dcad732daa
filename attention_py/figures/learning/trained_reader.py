"""The trained model on the reader's own sentence.

Menus choose the one who acts, the action, the one acted upon and the reason; the model the
build trained (the last checkpoint of the resource ``training/<lang>``) reads the sentence.
The figure shows, for each layer, how the pronoun's attention spreads over the words, the
person the model names with its probability, and whether that is right: the reason's group
(it points at the one who acts, or at the one acted upon) gives the true answer. A note
lists the held-out sentences the model gets wrong, each a button that loads it.

State (defaults): ``first: 0``, ``action: 0``, ``second: 1``, ``reason: 0`` (indices into the
puzzle's ``people``, ``actions``, ``reasons`` = actor then patient; clamped; a second person
equal to the first moves to the next)
"""

from __future__ import annotations

from typing import Any

from ...learning import Puzzle, Sentence
from ...learning.model import Reading
from ..kit.controls import button
from ..kit.figure import Figure, Panel
from ..kit.html import el, esc
from ..kit.matrix import shade
from ..kit.state import Integer, StateSpec
from ..kit.strings import Pct, Text
from . import views

MAX = 63  # menu positions; each is clamped to the language's own list
SHOWN_MISTAKES = 6
STRINGS = (
    "title",
    "first",
    "action",
    "second",
    "reason",
    "sentence",
    "bars_label",
    "readout",
    "right",
    "wrong",
    "points_actor",
    "points_patient",
    "others",
    "probabilities",
    "mistakes_none",
    "mistakes",
    "mistakes_more",
    "load_label",
    "caption",
    "same_person",
)


def choice(state: dict[str, Any], name: str, options: tuple[str, ...]) -> int:
    chosen: int = state[name]  # a menu position (an Integer of the state)
    return min(chosen, len(options) - 1)


def menu(name: str, chosen: int, options: tuple[str, ...], label: str) -> str:
    items = "".join(
        el("option", {"value": str(i), "selected": i == chosen}, esc(text)) for i, text in enumerate(options)
    )
    return el(
        "label",
        {"class": "apy-field"},
        el("span", {"class": "apy-field__label"}, label),
        el("select", {"name": name, "data-focus-key": name}, items),
    )


def action_text(action: str, puzzle: Puzzle) -> str:
    """An action as the menu shows it: a language whose action goes around the one acted upon
    (Persian "سر {second} داد زد") shows an ellipsis in that place; a language written
    without spaces shows none (``Puzzle.shown``)."""
    gap = "…" if puzzle.spaced else " … "  # unspaced: a word of its own, shown without spaces
    return puzzle.shown(action.replace("{second}", gap))


def picked(state: dict[str, Any], lang: str) -> tuple[int, int, int, int, bool]:
    """The menus' choices, clamped to the puzzle; a second person equal to the first moves to
    the next person (the puzzle needs two different people)."""
    p = views.puzzle(lang)
    first, second = choice(state, "first", p.people), choice(state, "second", p.people)
    same = first == second
    if same:
        second = (first + 1) % len(p.people)
    return first, choice(state, "action", p.actions), second, choice(state, "reason", p.reasons), same


def bars(tokens: tuple[str, ...], weights: list[float], pronoun: int, label: str, t: Text) -> str:
    """The pronoun's attention over the sentence: each word with a bar and its share."""
    items = []
    for i, (word, w) in enumerate(zip(tokens, weights)):
        items.append(
            el(
                "span",
                {
                    "class": "apy-token apy-token--static" + (" apy-token--self" if i == pronoun else ""),
                    "role": "listitem",
                },
                el("span", {"class": "apy-token__word"}, esc(word)),
                " ",
                el("span", {"class": "apy-token__bar", "style": f"--w:{w:.3f}", "aria-hidden": "true"}),
                el("span", {"class": "apy-token__weight", "dir": "ltr"}, t.pct(100 * w, 0)),
            )
        )
    return el("div", {"class": "apy-sentence", "role": "list", "aria-label": label}, "".join(items))


def draw(state: dict[str, Any], t: Text) -> Panel:
    lang = t.lang
    p = views.puzzle(lang)
    first, action, second, reason, same = picked(state, lang)
    s = p.sentence(first, action, second, reason)
    reading = views.final_model(lang).read(s)
    menus = el(
        "div",
        {"class": "apy-row"},
        menu("first", first, p.people, t.html("first")),
        menu("action", action, tuple(action_text(a, p) for a in p.actions), t.html("action")),
        menu("second", second, p.people, t.html("second")),
        menu("reason", reason, tuple(map(p.shown, p.reasons)), t.html("reason")),
    )
    points = t.html(
        "points_actor" if s.points_at == "actor" else "points_patient",
        reason=esc(p.shown(s.reason)),
        truth=esc(s.referent),
    )
    body = (
        menus
        + el("p", {"class": "apy-reader__sentence"}, t.html("sentence"), " ", el("q", {}, esc(s.text)))
        + el("p", {"class": "apy-muted", "hidden": not same}, t.html("same_person"))
        + layer_bars(reading, s, t)
        + probabilities(reading, s, p, t)
        + el("p", {}, points)
        + el("div", {"class": "apy-failures"}, failures(p, t))
    )
    guess = reading.prediction
    readout = t.sentences(
        t.sentence("readout", word=esc(p.people[guess]), probability=Pct(100 * reading.probabilities[guess], 1)),
        t.html("right" if guess == s.label else "wrong", truth=esc(s.referent)),
    )
    return Panel(body, readout, [t.html("caption")])


def layer_bars(reading: Reading, s: Sentence, t: Text) -> str:
    """Each layer's (and head's) attention from the pronoun, as bars over the words."""
    layers = []
    for layer, heads in enumerate(reading.attention):
        for head, weights in enumerate(heads):
            name = views.layer_name(t, layer, head, len(heads))
            label = t.plain("bars_label", layer=name, pronoun=s.tokens[s.pronoun])
            layers.append(
                el(
                    "div",
                    {"class": "apy-layer"},
                    el("p", {"class": "apy-layer__name"}, esc(name)),
                    bars(s.tokens, weights[s.pronoun], s.pronoun, label, t),
                )
            )
    return el("div", {"class": "apy-layers"}, "".join(layers))


def probabilities(reading: Reading, s: Sentence, p: Puzzle, t: Text) -> str:
    """The probability of each of the two people and of everyone else, the guess marked."""
    probs, guess = reading.probabilities, reading.prediction
    first, second = s.first, s.second
    others = 1.0 - probs[first] - probs[second]
    rows = "".join(
        el(
            "tr",
            {"class": "apy-probs__row" + (" apy-probs__row--guess" if i == guess else "")},
            el("th", {"scope": "row"}, word),
            el("td", {"class": "apy-cell", "style": shade(value)}, views.percent(value, 1, t=t)),
        )
        for i, word, value in (
            (first, esc(p.people[first]), probs[first]),
            (second, esc(p.people[second]), probs[second]),
            (-1, t.html("others"), max(others, 0.0)),
        )
    )
    return el("table", {"class": "apy-probs"}, el("caption", {}, t.html("probabilities")), el("tbody", {}, rows))


def failures(p: Puzzle, t: Text) -> str:
    """The held-out sentences the trained model gets wrong, each a button that loads it (the
    first ``SHOWN_MISTAKES``), or that it gets none wrong."""
    mistakes = views.final_mistakes(t.lang)
    total = views.test_size(t.lang)
    if not mistakes:
        return el("p", {}, t.sentence("mistakes_none", total=total))
    loads = "".join(
        el(
            "li",
            {},
            button(
                esc(m.text),
                {
                    "first": m.first,
                    "second": m.second,
                    "action": p.actions.index(m.action),
                    "reason": p.reasons.index(m.reason),
                },
                focus_key=f"mistake:{k}",
            ),
        )
        for k, m in enumerate(mistakes[:SHOWN_MISTAKES])
    )
    more = t.sentence("mistakes_more", count=len(mistakes) - SHOWN_MISTAKES) if len(mistakes) > SHOWN_MISTAKES else ""
    return (
        el("p", {}, t.sentence("mistakes", wrong=len(mistakes), total=total))
        + el("ul", {"class": "apy-mistakes", "aria-label": t.plain("load_label")}, loads)
        + (el("p", {}, more) if more else "")
    )


FIGURE = Figure(
    name="trained_reader",
    spec=StateSpec(
        {
            "first": Integer(0, MAX, 0),
            "action": Integer(0, MAX, 0),
            "second": Integer(0, MAX, 1),
            "reason": Integer(0, MAX, 0),
        }
    ),
    strings=STRINGS,
    draw=draw,
    resource=views.key,
    shared=(views.SHARED_SECTION,),
)
