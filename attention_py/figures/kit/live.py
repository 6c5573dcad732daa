"""The live work of the page's running figures, held in a store its caller owns
(figures/README.md, "Running figures").

A running figure (``RunningFigure``) keeps work between the page's calls: ``train_live``, a
model being trained. That work lives here, not in the figure: one ``Session`` per figure,
instance and language, in a ``Sessions`` store that whoever draws passes in (the registry's
``update`` keeps one for the page's Python; a test makes its own; a drawing without one, the
build's, gets a fresh store of its own). A session holds the work, the state values it was
started for (``asked``: another value starts new work), the work it replaced, if that had
begun (a figure may draw it: the run before, faint), what the figure keeps across works (its
``kept``: train_live's shelf) and its last drawing.

Lifetime: a session lasts until its figure asks for other work (Reset, another recipe: the
old work becomes ``previous``), until ``LIMIT`` other figures were used more recently (the
least recently used goes), or until its store goes (the page's: when the Python running it
ends, a reload). Nothing is written to disk or to the page.

Time: the store's ``clock`` (``time.perf_counter`` unless a test gives another) is the only
clock the running figures read, and only their sessions read it: how long a call works
(``Session.advance``: pieces for a budget), when a drawing is due again (``Session.due``: a
few drawings a second, whatever the step rate) and the pace of a run (``seconds_per_step``,
which a figure may show as the time left). Figures' draw functions read no clock: they read
what the session measured.
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ...pieces import take

if TYPE_CHECKING:
    from .figure import Panel

LIMIT = 8  # sessions kept at once: a page has one or two running figures, a test run more
PACE_WINDOW = 5.0  # seconds of running the pace is measured over: recent enough to follow the load
Clock = Callable[[], float]


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

    def pieces(self, end: int, /) -> Iterator[None]:
        """What is left to do to reach ``end``, in short pieces; after a call with another
        ``end`` it goes on from where it stopped."""
        ...


Slot = tuple[str, str | None, str]  # (the figure's name, its instance id, the page's language)
type Drawn = tuple[tuple[dict[str, Any], Mapping[str, Any], object], Panel]
"""A session's last drawing: (the state shown, the strings, the work's mark) and the panel
(``RunningFigure._drawing``)."""


@dataclass
class Session[W: Work, K]:
    """A running figure's work of type ``W`` and what it keeps across works, of type ``K``,
    and the times its store's clock measured of it (see the module's docstring)."""

    asked: tuple[Any, ...]  # the state values the work was started for (the figure's ``key``)
    work: W
    previous: W | None = None  # the work it replaced, if that had begun
    kept: K | None = None  # what the figure keeps across works (it makes it on first use)
    drawn: Drawn | None = None
    clock: Clock = time.perf_counter
    drawn_at: float = float("-inf")  # the clock when ``drawn`` was made
    # (clock, step) after each call that worked, while the run goes on without a pause
    paces: deque[tuple[float, int]] = field(default_factory=deque)
    worked: float = 0.0  # seconds spent taking the work's pieces: the arithmetic, without the page's calls

    def advance(self, end: int, budget: float) -> bool:
        """Takes the work's pieces towards ``end`` for about ``budget`` seconds (``take``); True
        while pieces are left. Each call's time and step go into the pace."""
        began = self.clock()
        if not self.paces:
            self.paces.append((began, self.work.step))  # where this stretch of running began
        left = take(self.work.pieces(end), budget, self.clock)
        now = self.clock()
        self.worked += now - began
        self.paces.append((now, self.work.step))
        while len(self.paces) > 2 and now - self.paces[1][0] > PACE_WINDOW:
            self.paces.popleft()
        if not left:
            self.paces.clear()
        return left

    def still(self) -> None:
        """The run is not going on (paused, ended, new): the pause does not count in the pace."""
        self.paces.clear()

    @property
    def seconds_per_step(self) -> float | None:
        """Seconds a step took over the last ``PACE_WINDOW`` seconds of running, calls and
        drawings included (the reader's time, not the arithmetic's); None before a step."""
        if len(self.paces) < 2:
            return None
        (start, first), (now, last) = self.paces[0], self.paces[-1]
        return (now - start) / (last - first) if last > first else None

    def due(self, every: float) -> bool:
        """Whether ``every`` seconds have passed since the last drawing."""
        return self.clock() - self.drawn_at >= every

    def keep_drawing(self, drawn: Drawn) -> None:
        self.drawn, self.drawn_at = drawn, self.clock()


class Sessions:
    """The sessions of running figures by slot, the most recently used last, at most ``limit``.
    Each figure finds its own under its name, so a slot's session holds that figure's work."""

    def __init__(self, limit: int = LIMIT, clock: Clock = time.perf_counter) -> None:
        self.limit, self.clock = limit, clock
        self._slots: OrderedDict[Slot, Session[Any, Any]] = OrderedDict()

    def get(self, slot: Slot) -> Session[Any, Any] | None:
        session = self._slots.get(slot)
        if session is not None:
            self._slots.move_to_end(slot)
        return session

    def start[W: Work](self, slot: Slot, asked: tuple[Any, ...], work: W) -> Session[W, Any]:
        """A new session for ``work`` in ``slot``; the work it replaces becomes the previous one
        if it had begun (else the previous one stays), and what the old one kept stays."""
        old = self._slots.pop(slot, None)
        previous = None if old is None else (old.work if old.work.begun else old.previous)
        session: Session[W, Any] = Session(asked, work, previous, None if old is None else old.kept, clock=self.clock)
        self._slots[slot] = session
        while len(self._slots) > self.limit:
            self._slots.popitem(last=False)
        return session

    def clear(self) -> None:
        self._slots.clear()


class Trains(Protocol):
    """A training that ``TrainingWork`` runs: attention_py.learning's ``Training`` (its step,
    its history of scored points, its pieces), read without the kit importing learning."""

    @property
    def step(self) -> int: ...

    @property
    def history(self) -> Sequence[Mapping[str, float]]: ...

    def pieces(self, until: int, /) -> Iterator[None]: ...


class TrainingWork[T: Trains]:
    """A ``Work`` that is an attention_py.learning ``Training`` taking its steps, with nothing
    after the last one: a step (and its history point, when one is due) is a series of pieces
    (``Training.pieces``), so the page answers between them."""

    def __init__(self, training: T) -> None:
        self.training = training
        self._end = 0
        self._pieces: Iterator[None] | None = None

    @property
    def step(self) -> int:
        return self.training.step

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
