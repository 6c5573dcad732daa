"""The copy task the next-token model learns (next_token.py, induction.py): random tokens with
a segment that comes again, so that from its second time on the next token can be known.

    task = CopyTask()                       # 16 tokens from 20, a segment of 3 to 8 repeated
    task.sequences(seed=1, count=4)         # a list of Copied: the ids, where the segment starts
                                            # and where it comes again
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Copied:
    """One sequence: ``ids``, and its segment of ``size`` tokens at ``first``, copied at ``second``.

    Position i *guesses* the token at i + 1. The copied positions are second .. second + size - 2:
    each is a token of the copy whose successor is known, the token after its first occurrence,
    at ``source(i) + 1``."""

    ids: tuple[int, ...]
    first: int
    second: int
    size: int
    end: int  # the copied positions end here (the copy may repeat the segment again and again)

    @property
    def copied(self) -> range:
        """The positions whose next token is a copy of an earlier one."""
        return range(self.second, self.end)

    def source(self, i: int) -> int:
        """For a copied position i, where the same token occurred the time before."""
        return i - (self.second - self.first)


@dataclass(frozen=True)
class CopyTask:
    """Random sequences of ``length`` tokens from ``vocabulary`` holding a segment of
    ``segment[0]`` to ``segment[1]`` different tokens: after a random number of other tokens it
    repeats until the end (``repeat``), or it occurs twice, the second time at a random
    distance after the first (a gap of 0 to ``longest_gap`` tokens between them). The other
    tokens are drawn, with repeats, from the tokens not in the segment."""

    vocabulary: tuple[str, ...] = tuple("abcdefghijklmnopqrst")
    length: int = 16
    segment: tuple[int, int] = (3, 8)
    longest_gap: int | None = None  # the most tokens between the two copies (None: as many as fit)
    repeat: bool = True  # the segment repeats from its first place to the end of the sequence

    def __post_init__(self) -> None:
        low, high = self.segment
        if not 2 <= low <= high:
            raise ValueError(f"a segment has 2 tokens or more, from low to high: got {self.segment}")
        if 2 * high > self.length:
            raise ValueError(f"two segments of {high} do not fit in {self.length} tokens")
        if high >= len(self.vocabulary):
            raise ValueError(f"a segment of {high} different tokens needs a vocabulary of more than {high}")

    def sequence(self, rng: random.Random) -> Copied:
        size = rng.randint(*self.segment)
        if self.repeat:
            first = rng.randint(0, self.length - 2 * size)
            segment = rng.sample(range(len(self.vocabulary)), size)
            others = [t for t in range(len(self.vocabulary)) if t not in segment]
            ids = [rng.choice(others) for _ in range(first)]
            ids += [segment[k % size] for k in range(self.length - first)]
            return Copied(tuple(ids), first, first + size, size, self.length - 1)
        room = self.length - 2 * size  # the tokens outside both copies
        gap = rng.randint(0, room if self.longest_gap is None else min(room, self.longest_gap))
        first = rng.randint(0, room - gap)
        second = first + size + gap
        segment = rng.sample(range(len(self.vocabulary)), size)
        others = [t for t in range(len(self.vocabulary)) if t not in segment]
        ids = [rng.choice(others) for _ in range(self.length)]
        ids[first : first + size] = segment
        ids[second : second + size] = segment
        return Copied(tuple(ids), first, second, size, second + size - 1)

    def sequences(self, seed: int, count: int) -> list[Copied]:
        rng = random.Random(seed)
        return [self.sequence(rng) for _ in range(count)]
