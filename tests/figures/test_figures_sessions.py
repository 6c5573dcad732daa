"""The running figures' work is held in a store of sessions its caller owns (kit/live.py):
the page's ``update`` keeps one for its Python, a test or a build passes its own."""

from __future__ import annotations

import pytest

from attention_py.figures import FIGURES, PAGE_SESSIONS, Sessions, update
from attention_py.figures.kit.live import Session
from attention_py.figures.learning.training_app.run import Run
from attention_py.pieces import drain, take
from tests.figures.support import strings


def test_the_work_is_in_the_store_the_caller_passes_and_nowhere_else():
    store = Sessions()
    answer = update("induction_live", {}, {"seed": 2}, "en", strings("en"), "own-store", sessions=store)
    assert answer["ok"], answer
    assert isinstance(store.get(("induction_live", "own-store", "en")), Session)
    assert PAGE_SESSIONS.get(("induction_live", "own-store", "en")) is None
    update("induction_live", {}, {"seed": 2}, "en", strings("en"), "page-store")
    assert PAGE_SESSIONS.get(("induction_live", "page-store", "en")) is not None, "update's own store: the page's"
    assert store.get(("induction_live", "page-store", "en")) is None


def test_another_store_is_another_python_a_run_there_is_gone():
    first, second = Sessions(), Sessions()
    state = {**FIGURES["train_live"].default_state("en"), "steps": 60, "layers": 1}
    update("train_live", state, {}, "en", strings("en"), "two-stores", sessions=first)
    work = first.get(("train_live", "two-stores", "en")).work
    for _ in work.pieces(60):  # up to step 1
        if work.step == 1:
            break
    again = update("train_live", {**state, "step": 1}, {}, "en", strings("en"), "two-stores", sessions=first)
    assert again["state"]["step"] == 1
    elsewhere = update(
        "train_live", {**state, "step": 1, "running": True}, {}, "en", strings("en"), "two-stores", sessions=second
    )
    assert (elsewhere["state"]["step"], elsewhere["state"]["running"]) == (0, False), "a fresh store: paused at 0"


def test_two_figures_of_one_instance_id_keep_their_own_work():
    store = Sessions()
    update("train_live", {}, {}, "en", strings("en"), "same-id", sessions=store)
    update("induction_live", {}, {}, "en", strings("en"), "same-id", sessions=store)
    assert isinstance(store.get(("train_live", "same-id", "en")).work, Run)
    assert not isinstance(store.get(("induction_live", "same-id", "en")).work, Run)


def test_a_drawing_without_a_store_keeps_nothing():
    figure = FIGURES["induction_live"]
    before = figure.render({"seed": 3}, lang="en", strings=strings("en"), instance="no-store")
    assert PAGE_SESSIONS.get(("induction_live", "no-store", "en")) is None
    assert figure.render({"seed": 3}, lang="en", strings=strings("en"), instance="no-store") == before


def test_a_store_keeps_its_limit_the_least_recently_used_going_first():
    store = Sessions(limit=2)
    for name in ("a", "b", "c"):
        update("induction_live", {}, {}, "en", strings("en"), name, sessions=store)
    assert store.get(("induction_live", "a", "en")) is None
    assert store.get(("induction_live", "c", "en")) is not None


def test_pieces_are_taken_all_at_once_or_for_a_time():
    def pieces(done):
        for k in range(5):
            done.append(k)
            yield

    done = []
    assert take(pieces(done), 0.0) is True, "stopped at the deadline, pieces left"
    assert done == [0], "one piece at least"
    drain(rest := pieces(done))
    assert done == [0, 0, 1, 2, 3, 4]
    assert take(rest, 60.0) is False


class Steps:
    """A work of ``steps`` steps, each ``pieces_a_step`` pieces, each piece ``seconds`` of
    ``clock`` (a list holding the time, moved on by the pieces)."""

    def __init__(self, clock: list[float], seconds: float, pieces_a_step: int = 4) -> None:
        self.clock, self.seconds, self.pieces_a_step = clock, seconds, pieces_a_step
        self.step, self.end, self.going = 0, 0, None

    @property
    def begun(self) -> bool:
        return self.step > 0

    def pieces(self, end):
        self.end = end
        self.going = self.going or self.work()
        return self.going

    def work(self):
        while self.step < self.end:
            for piece in range(self.pieces_a_step):
                self.clock[0] += self.seconds
                self.step += piece == self.pieces_a_step - 1  # the step is done with its last piece
                yield
        self.going = None


def test_a_session_measures_its_runs_pace_on_its_stores_clock_and_forgets_pauses():
    now, tick = [0.0], 1 / 64  # a clock that adds exactly: two pieces meet a budget of two ticks
    store = Sessions(clock=lambda: now[0])
    session = store.start(("fig", None, "en"), (), Steps(now, tick))
    assert session.seconds_per_step is None, "no step yet"
    while session.work.step < 10:
        assert session.advance(100, 2 * tick) is True
        now[0] += tick  # the call's way back and forth: the reader's time counts
    assert session.seconds_per_step == pytest.approx(6 * tick, rel=0.02), "2 calls a step, each 2 pieces and its way"
    session.still()  # paused
    now[0] += 64.0
    assert session.seconds_per_step is None, "a pause is not a slow step"
    while session.work.step < 14:
        session.advance(100, 2 * tick)
    assert session.seconds_per_step == 4 * tick, "measured afresh after the pause"
    assert session.advance(14, 2 * tick) is False
    assert session.seconds_per_step is None, "the end: not running"


def test_a_sessions_pace_follows_the_last_seconds_of_running():
    now = [0.0]
    session = Sessions(clock=lambda: now[0]).start(("fig", None, "en"), (), Steps(now, 0.1))
    while now[0] < 20:
        session.advance(10_000, 0.2)
    session.work.seconds = 0.01  # ten times faster now (another figure stopped, say)
    while now[0] < 30:
        session.advance(10_000, 0.2)
    assert session.seconds_per_step == pytest.approx(0.04, rel=0.01)


def test_drawing_is_due_again_after_its_interval_on_the_stores_clock():
    now = [5.0]
    session = Sessions(clock=lambda: now[0]).start(("fig", None, "en"), (), Steps(now, 0.01))
    assert session.due(0.25), "never drawn"
    session.keep_drawing(((({}, {}, None)), None))
    now[0] += 0.2
    assert not session.due(0.25)
    now[0] += 0.05
    assert session.due(0.25)
