"""Form cues: ways to tell a puzzle's two groups of reasons apart without reading their meaning.

A model learns whatever tells the answers apart most easily. If every reason that points at
the one acted upon had three words and every other reason two, the model would learn to
count, and a natural sentence with the "wrong" shape would fool it (*shortcut learning*).
So the two groups of reasons must have the same *form*:

- **lengths**: as many reasons of each length on both sides (in proportion to the sides' sizes);
- **shared words**: a word used by more than one reason (such as "was", «بود», "הייתה") is
  form, not meaning; it must occur on both sides, as often (in proportion) and in the same places;
- **shapes**: a classifier that sees only a reason's shape (its shared words in place, every
  other word hidden) must do no better than always guessing the larger side.

Words used by one reason only are its meaning: those are what the model should read.
A reason's words are its tokens, cut at spaces, also in a language written without spaces
(``spaces: false``, where a space marks a boundary that is not shown).

    cues(puzzle)        # [] for a fair puzzle, else one Cue per cue: its kind, words and numbers
    form_cues(puzzle)   # the same cues as English sentences (what the build prints)

``giveaway_puzzle(data)`` builds the version of a puzzle file with a deliberate give-away
(its ``giveaway.patient`` list), for the lesson on shortcut learning.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .puzzle import Puzzle

HIDDEN = "_"


def shared_words(puzzle: Puzzle) -> set[str]:
    """The words that more than one reason uses (the form of the reasons, not their meaning)."""
    uses = Counter(word for reason in puzzle.reasons for word in set(reason.split()))
    return {word for word, n in uses.items() if n > 1}


def shape(reason: str, shared: set[str]) -> str:
    """The reason with every word that is not shared hidden: "was angry" -> "was _"."""
    return " ".join(word if word in shared else HIDDEN for word in reason.split())


def best_guess_accuracy(actor: list[str], patient: list[str]) -> Fraction:
    """The accuracy of the best classifier that sees only these labels of the reasons:
    for each label, the side that has more reasons with it."""
    a, p = Counter(actor), Counter(patient)
    return Fraction(sum(max(a[v], p[v]) for v in a.keys() | p.keys()), len(actor) + len(patient))


LENGTHS = "lengths"  # the kinds of cue (``Cue.kind``)
SHARED_WORD = "shared_word"
SHAPE = "shape"


@dataclass(frozen=True)
class Cue:
    """One form cue, as numbers and words, so that a page can say it in its own language.

    ``n_actor`` and ``n_patient`` are the sizes of the two groups of reasons. By ``kind``:

    - ``LENGTHS``: ``in_actor`` of the actor reasons and ``in_patient`` of the patient ones
      have ``length`` words;
    - ``SHARED_WORD``: the shared word ``words[0]`` is word number ``place`` (from 1) of
      ``in_actor`` actor reasons and ``in_patient`` patient ones;
    - ``SHAPE``: a classifier that sees only the shared words of a reason (``words``, in
      their places) is right ``accuracy`` of the time where always guessing the larger
      group is right ``chance`` of it; ``shapes`` holds each shape with how many reasons of
      each group have it.

    ``english()`` is the sentence the build prints.
    """

    kind: str
    n_actor: int
    n_patient: int
    words: tuple[str, ...] = ()
    length: int = 0
    place: int = 0
    in_actor: int = 0
    in_patient: int = 0
    accuracy: Fraction = Fraction(0)
    chance: Fraction = Fraction(0)
    shapes: tuple[tuple[str, int, int], ...] = ()

    def english(self) -> str:
        """The cue as one English sentence naming what gives it away."""
        groups = (
            f"{self.in_actor} of {self.n_actor} actor reasons, {self.in_patient} of {self.n_patient} patient reasons"
        )
        if self.kind == LENGTHS:
            return f"reasons of {self.length} word(s): {groups}"
        if self.kind == SHARED_WORD:
            return f"the shared word {self.words[0]!r} as word {self.place} of a reason: in {groups}"
        counts = ", ".join(f"'{s}' {a}/{p}" for s, a, p in self.shapes)
        return (
            f"a classifier that sees only the shared words of a reason is right {float(self.accuracy):.0%} of the "
            f"time, chance is {float(self.chance):.0%} (shape: actor/patient reasons {counts})"
        )


def cues(puzzle: Puzzle) -> list[Cue]:
    """Every form cue of ``puzzle``'s reasons: lengths first, then shared words (in sorted
    order, each by place), then the shape; ``[]`` for a fair puzzle."""
    actor, patient = list(puzzle.reasons_actor), list(puzzle.reasons_patient)
    n_a, n_p = len(actor), len(patient)
    found: list[Cue] = []

    def differ(in_actor: int, in_patient: int) -> bool:
        return Fraction(in_actor, n_a) != Fraction(in_patient, n_p)

    lengths_a = Counter(len(r.split()) for r in actor)
    lengths_p = Counter(len(r.split()) for r in patient)
    for length in sorted(lengths_a.keys() | lengths_p.keys()):
        if differ(lengths_a[length], lengths_p[length]):
            found.append(
                Cue(LENGTHS, n_a, n_p, length=length, in_actor=lengths_a[length], in_patient=lengths_p[length])
            )
    shared = shared_words(puzzle)
    for word in sorted(shared):
        places_a = Counter(place for r in actor for place, w in enumerate(r.split()) if w == word)
        places_p = Counter(place for r in patient for place, w in enumerate(r.split()) if w == word)
        for place in sorted(places_a.keys() | places_p.keys()):
            if differ(places_a[place], places_p[place]):
                found.append(
                    Cue(
                        SHARED_WORD,
                        n_a,
                        n_p,
                        words=(word,),
                        place=place + 1,
                        in_actor=places_a[place],
                        in_patient=places_p[place],
                    )
                )
    shapes_a = [shape(r, shared) for r in actor]
    shapes_p = [shape(r, shared) for r in patient]
    accuracy = best_guess_accuracy(shapes_a, shapes_p)
    chance = Fraction(max(n_a, n_p), n_a + n_p)
    if accuracy > chance:
        shapes = tuple((s, shapes_a.count(s), shapes_p.count(s)) for s in sorted(set(shapes_a) | set(shapes_p)))
        named = tuple(sorted({w for s, _, _ in shapes for w in s.split() if w != HIDDEN}))
        found.append(Cue(SHAPE, n_a, n_p, words=named, accuracy=accuracy, chance=chance, shapes=shapes))
    return found


def form_cues(puzzle: Puzzle) -> list[str]:
    """Every form cue of ``puzzle``'s reasons, each as one English sentence naming what gives
    it away (``cues`` has them as numbers and words)."""
    return [cue.english() for cue in cues(puzzle)]


def giveaway_puzzle(data: dict[str, Any]) -> Puzzle:
    """The puzzle of ``data`` (a parsed docs/puzzles/<lang>.yml) with its patient reasons replaced
    by ``data["giveaway"]["patient"]``: each the fair reason with one word added, the same
    word on every one, so the form alone gives the answer away. Every sentence of the fair
    puzzle uses only words of this one, so a model trained here can be asked the fair ones.
    """
    fair = Puzzle.from_dict(data)
    giveaway = data.get("giveaway")
    patient = giveaway.get("patient") if isinstance(giveaway, dict) else None
    if not isinstance(patient, list) or len(patient) != len(fair.reasons_patient):
        raise ValueError(
            f"'giveaway' needs a list 'patient' of {len(fair.reasons_patient)} reasons, one per patient reason"
        )
    added = set()
    for reason, marked in zip(fair.reasons_patient, patient):
        words, extra = reason.split(), str(marked).split()
        rest = list(extra)
        for word in words:  # the fair reason's words, in order, with one word more
            if word not in rest:
                hint = "" if fair.spaced else " (without spaces between words, put a space around the added word)"
                raise ValueError(f"the give-away reason {marked!r} does not contain the reason {reason!r}{hint}")
            rest.remove(word)
        if len(rest) != 1:
            raise ValueError(f"the give-away reason {marked!r} must add exactly one word to {reason!r}")
        added.add(rest[0])
    if len(added) != 1:
        raise ValueError(f"every give-away reason must add the same word, got {sorted(added)}")
    return Puzzle.from_dict({**data, "reasons": {"actor": list(fair.reasons_actor), "patient": patient}})
