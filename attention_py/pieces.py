"""Work in pieces: a generator that yields after each short piece of its work, taken all at
once or for a time budget.

The package's long work comes as such a generator (``learning.train.Training.pieces``: a
yield after each example's forward and backward pass, each gradient, each update, each
held-out example scored), so that the same operations in the same order run in one go (a
build, a test: ``drain``) or a few milliseconds at a time between the answers of a page
(a running figure: ``take``), the same numbers either way. Neither knows what the work is.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator


def drain(pieces: Iterator[None]) -> None:
    """Takes every one of ``pieces``: the work done in one go (a build, a test, ``run``)."""
    deque(pieces, maxlen=0)


def take(pieces: Iterator[None], seconds: float, clock: Callable[[], float] = time.perf_counter) -> bool:
    """Takes ``pieces`` for about ``seconds`` of ``clock`` (one at least; the last may overrun):
    True when it stopped at the deadline, so pieces may be left; False once there are none.

    >>> take(iter([None, None]), 60.0), take(iter(()), 60.0), take(iter([None, None]), 0.0)
    (False, False, True)
    """
    deadline = clock() + seconds
    return any(clock() >= deadline for _ in pieces)  # each piece runs, then the clock is read
