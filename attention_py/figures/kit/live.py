"""The live work of the page's running figures, and its one owner (figures/README.md, "Running figures").

A running figure (``RunningFigure``) keeps work between the page's calls: ``train_live``, a
model being trained. That work lives here, not in the figure: one ``Session`` per figure
instance and language, in ``SESSIONS``. A session holds the work, the state values it was
started for (``asked``: another value starts new work) and the work it replaced, if that had
begun (a figure may draw it: the run before, faint).

Lifetime: a session lasts until its figure asks for other work (Reset, another recipe: the
old work becomes ``previous``), until ``LIMIT`` other figures were used more recently (the
least recently used goes), or until the Python running it ends (a reload: the page starts a
fresh one). Nothing is written to disk or to the page.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol

LIMIT = 8  # sessions kept at once: a page has one or two running figures, a test run more


class Work(Protocol):
    """What a running figure's work offers the figure host's loop."""

    @property
    def step(self) -> int:
        """How far it has gone: the figure's state says ``step``."""
        ...

    @property
    def begun(self) -> bool:
        """Whether it did anything worth keeping as the run before when it is replaced."""
        ...

    def pieces(self, end: int) -> Iterator[None]:
        """What is left to do to reach ``end``, in short pieces; after a call with another
        ``end`` it goes on from where it stopped."""
        ...


Slot = tuple[str | None, str]  # (the figure's instance id, the page's language)


@dataclass
class Session:
    asked: tuple[Any, ...]  # the state values the work was started for
    work: Any  # a Work: the figure's own type, which its draw reads
    previous: Any = None  # the Work it replaced, if that had begun
    kept: Any = None  # what the figure keeps across works (it makes it on first use)
    drawn: Any = None  # ((shown state, strings, the work's mark), Panel): RunningFigure._drawing


class Sessions:
    """The sessions of running figures by slot, the most recently used last, at most ``limit``."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self._slots: OrderedDict[Slot, Session] = OrderedDict()

    def get(self, slot: Slot) -> Session | None:
        session = self._slots.get(slot)
        if session is not None:
            self._slots.move_to_end(slot)
        return session

    def start(self, slot: Slot, asked: tuple[Any, ...], work: Work) -> Session:
        """A new session for ``work`` in ``slot``; the work it replaces becomes the previous one
        if it had begun (else the previous one stays)."""
        old = self._slots.pop(slot, None)
        previous = None if old is None else (old.work if old.work.begun else old.previous)
        session = self._slots[slot] = Session(asked, work, previous, None if old is None else old.kept)
        while len(self._slots) > self.limit:
            self._slots.popitem(last=False)
        return session

    def clear(self) -> None:
        self._slots.clear()


SESSIONS = Sessions()
"""The live work of this Python's running figures."""


class TrainingWork:
    """A ``Work`` that is an attention_py.learning ``Training`` taking its steps, with nothing
    after the last one: a step (and its history point, when one is due) is a series of pieces
    (``Training.pieces``), so the page answers between them."""

    def __init__(self, training: Any) -> None:
        self.training = training
        self._end = 0
        self._pieces: Iterator[None] | None = None

    @property
    def step(self) -> int:
        step: int = self.training.step
        return step

    @property
    def begun(self) -> bool:
        return any(p["step"] > 0 for p in self.training.history)

    @property
    def mark(self) -> tuple[int, int]:
        """What a figure draws of it changes only with these: the model at each step, the
        history when a point is added (RunningFigure._drawing)."""
        return self.training.step, len(self.training.history)

    def pieces(self, end: int) -> Iterator[None]:
        self._end = end
        if self._pieces is None:
            self._pieces = self._work()
        return self._pieces

    def _work(self) -> Iterator[None]:
        training = self.training
        try:
            while training.step < self._end or not training.history:
                yield from training.pieces(training.step + 1)
        finally:
            self._pieces = None
