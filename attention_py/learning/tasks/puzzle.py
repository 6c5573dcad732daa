"""The pronoun puzzle as data: every sentence a language's templates can make, with its answer.

"The teacher yelled at the student because she was angry": she is the teacher. "... because
she was rude": she is the student. A puzzle is read from a plain dict (the parsed
``docs/puzzles/<lang>.yml``) holding a sentence template, the people, the actions, the
pronoun, and the reasons that point at the one who acts (``actor``) or at the one acted upon
(``patient``). Each sentence's label is the person the pronoun refers to, so a model that
answers must find that person in the sentence and pass on who it is.

Tokens are the words between spaces. Every pair of different people occurs in both orders,
so the same words can mean either answer: the position of a word matters.

Languages written without spaces between words (Chinese, Japanese, Thai) say so with
``spaces: false``. A slot is then a token boundary wherever it stands
(``{first}{action}{second}，因为{pronoun}{reason}``), a space in the file still marks a
boundary (``很 生气`` is two tokens) but is not shown, and ``Sentence.text`` joins the
tokens with nothing between them: 老师骂了学生，因为她很生气. ``Puzzle.shown`` writes an
action or a reason the same way.

Grammar: a person may have a form per role (``{first: учительница, second: учительницу}``,
nominative and accusative), and punctuation may be attached to a slot (``{second},``). Each
distinct word is one token, so a person written two ways is two tokens, and a comma attached
to a person makes a third (``учительницу,``): the model must learn that they name the same
person, from the sentences alone. ``person_tokens`` lists each person's tokens; the answer
may point at any of them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

SLOTS = ("{first}", "{second}", "{pronoun}", "{reason}")
ROLES = ("first", "second")  # the roles a person's forms are given for
# A word of the template that is a slot, with punctuation attached before or after it.
SLOT_WORD = re.compile(r"^([^\w{}]*)(\{(?:first|second|pronoun|reason)\})([^\w{}]*)$")
# Any slot, kept by ``re.split``: where an unspaced language's words are cut.
SLOT = re.compile(r"(\{(?:first|action|second|pronoun|reason)\})")
BRACED = re.compile(r"\{[^{}]*\}")  # anything in braces, a slot or a misspelt one
WHO = {  # what a slot stands for, to say where to write it
    "{first}": "the one who acts",
    "{second}": "the one acted upon",
    "{pronoun}": "the pronoun",
    "{reason}": "the reason",
}


def split_words(text: str, spaced: bool = True) -> list[str]:
    """The words (tokens) of ``text``: a template, an action or a reason.

    Words are cut at spaces; in a language written without spaces (``spaced`` false) also
    on both sides of every slot, wherever it stands, so ``{first}骂了{second}`` is three words.
    """
    words = text.split()
    if spaced:
        return words
    return [piece for word in words for piece in SLOT.split(word) if piece]


def join_words(words: Iterable[str], spaced: bool = True) -> str:
    """Words as a reader sees them: one space between them, or none in an unspaced language."""
    return (" " if spaced else "").join(words)


@dataclass(frozen=True)
class Sentence:
    """One sentence of the puzzle and its answer.

    ``tokens`` are its words; ``pronoun`` is the pronoun's token index; ``people`` the token
    indices of the one who acts and the one acted upon; ``label`` the index (in the puzzle's
    ``people``) of the person the pronoun means, whose word is ``referent``.
    """

    tokens: tuple[str, ...]
    pronoun: int
    people: tuple[int, int]
    label: int
    referent: str
    first: int  # index in puzzle.people of the one who acts
    second: int  # ... and of the one acted upon
    action: str
    reason: str
    points_at: str  # "actor" or "patient": whom the reason points at
    spaced: bool = True  # False: the language writes no spaces between words

    @property
    def text(self) -> str:
        """The sentence as a reader writes it: its tokens with a space between them, or with
        nothing between them in a language written without spaces."""
        return join_words(self.tokens, self.spaced)


def _people(data: dict[str, Any], minimum: int) -> tuple[tuple[str, ...], tuple[dict[str, str], ...]]:
    """The people's names and their forms per role: an entry is one word (the same in every
    role) or a mapping ``{first: <word>, second: <word>}``; its name is its ``first`` form."""
    value = data.get("people")
    if not isinstance(value, (list, tuple)) or len(value) < minimum:
        raise ValueError(f"the puzzle needs a list 'people' of at least {minimum} entries, got {value!r}")
    forms: list[dict[str, str]] = []
    for entry in value:
        if isinstance(entry, dict):
            if set(entry) != set(ROLES):
                raise ValueError(f"a person's forms are given for exactly {', '.join(ROLES)}, got {entry!r}")
            forms.append({role: " ".join(str(entry[role]).split()) for role in ROLES})
        else:
            word = " ".join(str(entry).split())
            forms.append(dict.fromkeys(ROLES, word))
    names = tuple(f["first"] for f in forms)
    if len(set(names)) != len(names):
        raise ValueError(f"'people' lists the same entry twice: {names}")
    return names, tuple(forms)


def _words(data: dict[str, Any], key: str, minimum: int) -> tuple[str, ...]:
    value = data.get(key)
    if not isinstance(value, (list, tuple)) or len(value) < minimum:
        raise ValueError(f"the puzzle needs a list '{key}' of at least {minimum} entries, got {value!r}")
    words = tuple(" ".join(str(item).split()) for item in value)
    if len(set(words)) != len(words):
        raise ValueError(f"'{key}' lists the same entry twice: {words}")
    return words


class Puzzle:
    """The sentences of one language, built from its template (see ``from_dict``)."""

    def __init__(
        self,
        template: str,
        pronoun: str,
        people: tuple[str, ...],
        actions: tuple[str, ...],
        reasons_actor: tuple[str, ...],
        reasons_patient: tuple[str, ...],
        forms: tuple[dict[str, str], ...] | None = None,
        *,
        spaced: bool = True,
    ) -> None:
        """``forms``: each person's word per role (``{"first": ..., "second": ...}``); by
        default its name in both. ``spaced``: False for a language written without spaces
        between words (``split_words``)."""
        self.template = " ".join(template.split())
        self.pronoun = pronoun
        self.people = people
        self.forms = forms if forms is not None else tuple(dict.fromkeys(ROLES, p) for p in people)
        self.actions = actions
        self.reasons_actor = reasons_actor
        self.reasons_patient = reasons_patient
        self.spaced = spaced
        if len(self.forms) != len(people) or any(f["first"] != p for f, p in zip(self.forms, people)):
            raise ValueError("each person's name must be its form in the first role")
        owner: dict[str, int] = {}
        for k, person_forms in enumerate(self.forms):
            for word in person_forms.values():
                if len(word.split()) != 1:
                    raise ValueError(f"each person must be one word (one token) in each role, got {word!r}")
                if owner.setdefault(word, k) != k:
                    raise ValueError(f"{word!r} is a form of two people; a word must name one person")
        if len(pronoun.split()) != 1:
            raise ValueError(f"the pronoun must be one word, got {pronoun!r}")
        if pronoun in owner:
            raise ValueError(f"the pronoun {pronoun!r} is also a person's word")
        if set(reasons_actor) & set(reasons_patient):
            raise ValueError(f"a reason cannot point at both people: {set(reasons_actor) & set(reasons_patient)}")
        for text in (self.template, *actions):
            unknown = [b for b in BRACED.findall(text) if not SLOT.fullmatch(b)]
            if unknown:
                raise ValueError(
                    f"{text!r} has {unknown[0]}, which is not a slot: the slots are "
                    "{first}, {action}, {second}, {pronoun} and {reason}"
                )
        for action in actions:  # every action must give a sentence with each slot exactly once
            words = self._template_words(action)
            slots = [m.group(2) for m in map(SLOT_WORD.match, words) if m]
            for slot in SLOTS:
                if slots.count(slot) != 1:
                    raise ValueError(self._slot_problem(slot, slots.count(slot), words, action))

    def _template_words(self, action: str) -> list[str]:
        """The template's words with ``action`` in its place (a boundary on both sides of it
        in an unspaced language, as every slot is)."""
        return split_words(self.template.replace("{action}", action if self.spaced else f" {action} "), self.spaced)

    def _slot_problem(self, slot: str, count: int, words: list[str], action: str) -> str:
        """Why ``slot``, found ``count`` times as a word of its own in ``words``, is not
        there exactly once: what was found, and what to write instead."""
        sentence = f"with the action {action!r} the sentence {join_words(words)!r}"
        if count > 1:
            return f"{sentence} has {count} {slot} slots; it needs exactly one"
        glued = [word for word in words if slot in word]
        if glued:  # only in a spaced language: an unspaced one cuts every slot out
            apart = " ".join(glued[0].replace(slot, f" {slot} ").split())
            return (
                f"{sentence} has 0 {slot} slots as a word of its own: it is glued to letters in "
                f"{glued[0]!r}. Write a space between them ({apart!r}; punctuation may stay attached, "
                "as in '{second},'), or, if your language writes no spaces between words, "
                "declare it with 'spaces: false'"
            )
        where = " (in the sentence, or in every action when the verb goes around it)" if slot == "{second}" else ""
        return f"{sentence} has no {slot} slot; write {slot} where {WHO[slot]} stands{where}"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Puzzle:
        """A puzzle from the parsed YAML of ``docs/puzzles/<lang>.yml`` (a plain dict)."""
        if not isinstance(data, dict):
            raise TypeError(f"a puzzle is read from a dict, got {type(data).__name__}")
        reasons = data.get("reasons")
        if not isinstance(reasons, dict):
            raise ValueError("the puzzle needs 'reasons' with two lists, 'actor' and 'patient'")
        template, pronoun = data.get("sentence"), data.get("pronoun")
        if not isinstance(template, str) or not isinstance(pronoun, str):
            raise ValueError("the puzzle needs a 'sentence' template and a 'pronoun' (strings)")
        spaces = data.get("spaces", True)
        if not isinstance(spaces, bool):
            raise ValueError(
                f"'spaces' is true (words are written apart, the default) or false (the language "
                f"writes no spaces between words), got {spaces!r}"
            )
        names, forms = _people(data, 2)
        return cls(
            template,
            pronoun.strip(),
            names,
            _words(data, "actions", 1),
            _words(reasons, "actor", 1),
            _words(reasons, "patient", 1),
            forms,
            spaced=spaces,
        )

    def to_dict(self) -> dict[str, Any]:
        """The dict ``from_dict`` reads (what docs/puzzles/<lang>.yml holds, without comments)."""
        data: dict[str, Any] = {
            "sentence": self.template,
            "pronoun": self.pronoun,
            "people": [f["first"] if f["first"] == f["second"] else dict(f) for f in self.forms],
            "actions": list(self.actions),
            "reasons": {"actor": list(self.reasons_actor), "patient": list(self.reasons_patient)},
        }
        if not self.spaced:  # said only when not the default, so older files read the same
            data["spaces"] = False
        return data

    def shown(self, text: str) -> str:
        """An action or a reason as a reader sees it: without the spaces that only mark token
        boundaries in a language written without spaces, as it is otherwise."""
        return join_words(text.split(), self.spaced)

    @property
    def reasons(self) -> tuple[str, ...]:
        return self.reasons_actor + self.reasons_patient

    def twin(self, sentence: Sentence) -> Sentence:
        """``sentence`` with its two people swapped: the same words in another order, the
        other answer (what a model without positions cannot tell apart)."""
        return self.sentence(sentence.second, sentence.action, sentence.first, sentence.reason)

    def sentence(self, first: int | str, action: int | str, second: int | str, reason: int | str) -> Sentence:
        """The sentence in which ``first`` does ``action`` to ``second`` for ``reason``.

        Each argument is an entry of ``people`` / ``actions`` / ``reasons`` (its text or its
        index; a reason's index counts through ``reasons_actor`` then ``reasons_patient``).
        """
        first_i, second_i = self._index(self.people, first, "person"), self._index(self.people, second, "person")
        if first_i == second_i:
            raise ValueError(f"the two people must differ, got {self.people[first_i]!r} twice")
        action_text = self.actions[self._index(self.actions, action, "action")]
        reason_text = self.reasons[self._index(self.reasons, reason, "reason")]
        words = self._template_words(action_text)
        tokens: list[str] = []
        where: dict[str, int] = {}
        fill = {
            "{first}": self.forms[first_i]["first"],
            "{second}": self.forms[second_i]["second"],
            "{pronoun}": self.pronoun,
        }
        for word in words:
            slot = SLOT_WORD.match(word)
            if slot is None:
                tokens.append(word)
                continue
            before, name, after = slot.groups()
            if name == "{reason}":  # punctuation goes to its first and last words
                reason_words = reason_text.split()
                reason_words[0] = before + reason_words[0]
                reason_words[-1] += after
                tokens.extend(reason_words)
            else:
                where[name] = len(tokens)
                tokens.append(before + fill[name] + after)
        points_at = "actor" if reason_text in self.reasons_actor else "patient"
        label = first_i if points_at == "actor" else second_i
        return Sentence(
            tokens=tuple(tokens),
            pronoun=where["{pronoun}"],
            people=(where["{first}"], where["{second}"]),
            label=label,
            referent=self.people[label],
            first=first_i,
            second=second_i,
            action=action_text,
            reason=reason_text,
            points_at=points_at,
            spaced=self.spaced,
        )

    @staticmethod
    def _index(options: tuple[str, ...], value: int | str, what: str) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            if not 0 <= value < len(options):
                raise IndexError(f"{what} index {value} is out of range 0..{len(options) - 1}")
            return value
        text = " ".join(str(value).split())
        if text not in options:
            raise ValueError(f"{value!r} is not a {what} of this puzzle: {', '.join(options)}")
        return options.index(text)

    def sentences(self) -> list[Sentence]:
        """Every sentence: each ordered pair of different people, each action, each reason."""
        return list(self._all_sentences)

    # Built once per puzzle (a puzzle does not change once made): the split, the vocabulary
    # and the longest sentence all read them, and in the page that matters.
    @cached_property
    def _all_sentences(self) -> tuple[Sentence, ...]:
        n = len(self.people)
        return tuple(
            self.sentence(first, action, second, reason)
            for first in range(n)
            for second in range(n)
            if first != second
            for action in range(len(self.actions))
            for reason in range(len(self.reasons))
        )

    @cached_property
    def vocabulary(self) -> tuple[str, ...]:
        """Every token the sentences use, in order of first appearance."""
        seen: dict[str, None] = {}
        for s in self._all_sentences:
            for token in s.tokens:
                seen.setdefault(token, None)
        return tuple(seen)

    @cached_property
    def person_tokens(self) -> tuple[tuple[str, ...], ...]:
        """Each person's tokens in the sentences (its forms, with any punctuation attached),
        its name first when it is one of them."""
        found: list[dict[str, None]] = [{} for _ in self.people]
        for s in self._all_sentences:
            found[s.first].setdefault(s.tokens[s.people[0]], None)
            found[s.second].setdefault(s.tokens[s.people[1]], None)
        return tuple(tuple(sorted(f, key=lambda token: token != name)) for f, name in zip(found, self.people))

    @cached_property
    def max_length(self) -> int:
        return max(len(s.tokens) for s in self._all_sentences)

    def held_out_pairs(self, seed: int = 0) -> dict[str, set[tuple[int, int]]]:
        """The (person, reason) pairs kept out of training: ``{"validation": ..., "test": ...}``.

        For each person, two reasons of each side are held out: one for the validation set
        (used to choose the training settings) and one for the test set (never looked at
        while choosing them). The reasons of a side are dealt round the people in a shuffled
        order, so every reason is still seen in training pointing at most people, and every
        person is seen in training as the answer for both kinds of reason.
        """
        rng = random.Random(seed)
        pairs: dict[str, set[tuple[int, int]]] = {"validation": set(), "test": set()}
        offset = len(self.reasons_actor)
        for side, start in ((self.reasons_actor, 0), (self.reasons_patient, offset)):
            if len(side) < 3:
                raise ValueError(f"each side needs at least 3 reasons to hold out two per person, got {len(side)}")
            order = list(range(len(side)))
            rng.shuffle(order)
            for person in range(len(self.people)):
                pairs["validation"].add((person, start + order[(2 * person) % len(side)]))
                pairs["test"].add((person, start + order[(2 * person + 1) % len(side)]))
        return pairs

    def split(self, seed: int = 0) -> Split:
        """``Split(train, validation, test)``: a sentence is held out (validation or test) when
        its (referent, reason) pair is, i.e. when training never shows that reason pointing at
        that person. The person and the reason still occur in training, each with others, and
        together in the other role (the reason pointing at the other person of the sentence).
        """
        held = self.held_out_pairs(seed)
        parts: dict[str, list[Sentence]] = {"train": [], "validation": [], "test": []}
        index = {reason: i for i, reason in enumerate(self.reasons)}
        for s in self._all_sentences:
            pair = (s.label, index[s.reason])
            part = "validation" if pair in held["validation"] else "test" if pair in held["test"] else "train"
            parts[part].append(s)
        return Split(parts["train"], parts["validation"], parts["test"])


class Split(NamedTuple):
    """The puzzle's sentences in three parts (see ``Puzzle.split``)."""

    train: list[Sentence]
    validation: list[Sentence]  # for choosing settings (learning rate, steps, ...)
    test: list[Sentence]  # for reporting: never looked at while choosing
