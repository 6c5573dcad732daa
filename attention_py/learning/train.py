"""Training: mini-batches, gradients, Adam steps, and a record of progress, in pieces.

    trainer = Trainer(puzzle, seed=0)
    trainer.run(100)          # 100 Adam steps, one mini-batch each
    trainer.history[-1]       # {"step": 100, "loss": ..., "train_accuracy": ...,
                              #  "validation_accuracy": ..., "test_accuracy": ..., ...}

``Training`` is the loop for any model: it is given the model, its ``Objective`` (how one
example is scored and how its gradients are recorded), the training examples and the
held-out sets, and keeps the steps, the optimiser and the history. ``Trainer`` is the pronoun
puzzle's: it makes the model from a puzzle and settings (``PuzzleSettings``) and splits the
puzzle's sentences three ways (``Puzzle.split``): training, *validation* (the number to look
at while choosing settings) and *test* (the number to report; honest only if nothing is
chosen by looking at it). ``split_seed`` draws another split: the learning article confirms
its one choice made after seeing test results on fresh ones.

The same training comes in pieces (``Training.pieces``): a generator that yields after each
example's forward and backward pass, each weight matrix's summed gradient, each update and
each held-out example scored. ``run`` takes every piece at once; a page that must answer
between pieces takes them for a few milliseconds at a time and comes back for the rest
(``drain`` and ``take``, attention_py/pieces.py). Either way the same operations in the same
order, so the same numbers to the last bit.

Everything random (the starting weights, the order of the sentences) comes from
``random.Random`` seeded with ``seed``, so the same seed trains the same model, natively and
in Pyodide (up to the last bits of ``exp``/``log``, which may differ between platforms).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any, Self

from ..pieces import drain
from .backward import example_gradients
from .gradients import Gradients
from .model import Model, loss_and_answer
from .optim import Adam
from .tasks.puzzle import Puzzle, Sentence


@dataclass(frozen=True)
class Settings:
    """What every trainer's settings can do (each a frozen dataclass of its own fields):
    be made from keywords with a clear error for an unknown one, and be saved as a dict in
    the order of the fields."""

    @classmethod
    def of(cls, settings: Mapping[str, Any]) -> Self:
        """The settings ``settings`` names, the defaults for the rest."""
        known = [f.name for f in fields(cls)]
        unknown = set(settings) - set(known)
        if unknown:
            raise TypeError(f"unknown training settings {sorted(unknown)}; known: {sorted(known)}")
        return cls(**settings)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class PuzzleSettings(Settings):
    """The pronoun puzzle's recipe: the model's sizes and options, then the training's."""

    d_model: int = 16
    layers: int = 2
    heads: int = 1
    positions: str = "learned"  # or "sinusoidal" or "none" (attention_py/learning/model.py)
    causal: bool = False  # True: each token attends only to itself and the tokens before it
    batch_size: int = 16
    learning_rate: float = 0.01
    embedding_scale: float = 1.0
    eval_every: int = 20  # steps between history points (validation and test are scored in full)
    split_seed: int = 0  # which (person, reason) pairs are held out: fixed, whatever the training seed


HistoryPoint = dict[str, float]
"""One entry of ``Training.history``: ``step``, the training ``loss`` and ``train_accuracy``
since the previous point, then for each held-out set (``validation``, ``test``) its ``_loss``
and ``_accuracy``."""


class Tally:
    """Loss and right answers summed over examples, in the order they are counted, and
    whether each was right (``marks``, in that order). ``right`` may be a share (an example
    of many guesses); ``sums`` adds up the named (total, count) pairs an objective's score may
    give besides, so ``measures()`` is each total over its count."""

    def __init__(self, loss: float = 0.0, right: float = 0, seen: int = 0) -> None:
        self.loss, self.right, self.seen = loss, right, seen
        self.marks: list[float] = []
        self.sums: dict[str, list[float]] = {}

    def count(self, loss: float, right: float, sums: Mapping[str, tuple[float, float]] | None = None) -> None:
        self.loss += loss
        self.right += right
        self.seen += 1
        self.marks.append(right)
        for name, (total, count) in (sums or {}).items():
            kept = self.sums.setdefault(name, [0.0, 0.0])
            kept[0] += total
            kept[1] += count

    def measures(self) -> dict[str, float]:
        """Each named sum's total over its count (0 over no count)."""
        return {name: total / count if count else 0.0 for name, (total, count) in self.sums.items()}

    def means(self) -> tuple[float, float]:
        """(mean loss, accuracy); 0 for both over no example."""
        seen = max(self.seen, 1)
        return self.loss / seen, self.right / seen


@dataclass(frozen=True)
class Objective:
    """How a model learns from one example: what ``Training`` needs besides the model (which
    has ``parameters``, a dict of matrices, updated in place) and the data.

    ``score(model, example)`` is (loss, right) without gradients, or (loss, right, sums) with
    named (total, count) pairs that every history point reports as ``{set}_{name}``, each
    total over its count (``Tally.sums``); ``add_gradients(model,
    example, gradients, weight)`` is the same and records ``weight`` times the example's
    gradients in ``gradients``, a fresh one of which ``new_gradients(model)`` makes (its
    ``total(name)`` is the summed gradient of parameter ``name``).
    """

    score: Callable[[Any, Any], Any]  # (loss, right) or (loss, right, sums)
    add_gradients: Callable[[Any, Any, Any, float], tuple[float, float]]  # (loss, right: a bool or a share)
    new_gradients: Callable[[Any], Any]


def _score_sentence(model: Model, sentence: Sentence) -> tuple[float, bool]:
    loss, answer = loss_and_answer(model.forward(sentence).probabilities, sentence.label)
    return loss, answer == sentence.label


POINTING = Objective(score=_score_sentence, add_gradients=example_gradients, new_gradients=Gradients)
"""The puzzle model's objective: cross-entropy of the person it points at (model.py, backward.py)."""


class Training:
    """A model's training: the order of its examples, its Adam state, its steps and history."""

    def __init__(
        self,
        model: Any,
        objective: Objective,
        train: Sequence[Any],
        held_out: Mapping[str, Sequence[Any]],
        *,
        order: random.Random,
        learning_rate: float,
        batch_size: int,
        eval_every: int,
        betas: tuple[float, float] = (0.9, 0.999),
        warmup: int = 0,
    ) -> None:
        """``held_out`` names the sets scored in full at every history point (every
        ``eval_every`` steps, and step 0); ``order`` shuffles the training examples, afresh
        every epoch; ``betas`` and ``warmup`` are Adam's (optim.py)."""
        self.model, self.objective = model, objective
        self.train, self.held_out = list(train), dict(held_out)
        self.optimiser = Adam(model.parameters, lr=learning_rate, beta1=betas[0], beta2=betas[1], warmup=warmup)
        self.batch_size, self.eval_every = batch_size, eval_every
        self._order_rng = order
        self._order: list[Any] = []
        self.step = 0
        self.history: list[HistoryPoint] = []
        self.scores: dict[str, Tally] = {}  # each held-out set's tally at the last history point
        self.step_losses: list[float] = []  # each step's mean loss on its batch (step i+1 at i): a curve per step
        self._since = Tally()  # the training examples met since the last history point

    def _peek_batch(self) -> list[Any]:
        while len(self._order) < self.batch_size:
            fresh = list(self.train)
            self._order_rng.shuffle(fresh)
            self._order.extend(fresh)
        return self._order[: self.batch_size]

    def next_batch(self) -> list[Any]:
        """The next mini-batch: the training examples in a fresh shuffled order every epoch."""
        batch = self._peek_batch()
        del self._order[: len(batch)]
        return batch

    def run(self, steps: int) -> list[HistoryPoint]:
        """``steps`` more optimiser steps (the first run begins with the untrained model's
        history point); returns the history points recorded meanwhile."""
        known = len(self.history)
        drain(self.pieces(self.step + steps))
        return self.history[known:]

    def pieces(self, until: int) -> Iterator[None]:
        """Training up to step ``until`` in short pieces (see the module's docstring); the
        untrained model's history point first if there is none yet. Take every piece, or drop
        the generator only where it stopped at ``step == until``."""
        if not self.history:
            yield from self._start()
        while self.step < until:
            yield from self._step()

    def _start(self) -> Iterator[None]:
        """The step-0 history point: the untrained model on the first batch (as the first step
        will meet it; its losses summed by ``sum()``, which compensates rounding), then the
        held-out sets."""
        scores = []
        for example in self._peek_batch():
            scores.append(self.objective.score(self.model, example)[:2])
            yield
        self._since = Tally(sum(loss for loss, _ in scores), sum(right for _, right in scores), len(scores))
        yield from self._point()

    def _step(self) -> Iterator[None]:
        """One optimiser step on the next mini-batch, then its history point if one is due."""
        batch = self.next_batch()
        gradients = self.objective.new_gradients(self.model)
        loss, right = 0.0, 0.0
        for example in batch:
            example_loss, example_right = self.objective.add_gradients(self.model, example, gradients, 1 / len(batch))
            loss += example_loss
            right += example_right
            yield
        totals = {}
        for name in self.model.parameters:
            totals[name] = gradients.total(name)
            yield
        self.optimiser.step(totals)
        self.step += 1
        self._since.loss += loss / len(batch) * len(batch)  # the batch's mean loss, as loss_and_gradients gives it
        self._since.right += right
        self._since.seen += len(batch)
        self.step_losses.append(loss / len(batch))
        yield
        if self.step % self.eval_every == 0:
            yield from self._point()

    def _point(self) -> Iterator[None]:
        """A history point for this step: the training examples met since the last one (as they
        were met, before each update), then every held-out set scored on the model as it is."""
        loss, accuracy = self._since.means()
        self._since = Tally()
        point: HistoryPoint = {"step": self.step, "loss": loss, "train_accuracy": accuracy}
        scores = {}
        for name, examples in self.held_out.items():
            tally = scores[name] = Tally()
            for example in examples:
                tally.count(*self.objective.score(self.model, example))
                yield
            point[f"{name}_loss"], point[f"{name}_accuracy"] = tally.means()
            point.update({f"{name}_{key}": value for key, value in tally.measures().items()})
        self.history.append(point)
        self.scores = scores


class Trainer(Training):
    """The pronoun puzzle's training: a ``Model`` made from ``puzzle`` and ``settings``
    (``PuzzleSettings``' fields), trained on the puzzle's training sentences and scored on its
    validation and test sentences at every history point."""

    def __init__(self, puzzle: Puzzle, seed: int = 0, **settings: Any) -> None:
        self.seed = seed
        self.settings = s = PuzzleSettings.of(settings)
        self.puzzle = puzzle
        train, self.validation, self.test = puzzle.split(seed=s.split_seed)
        rng = random.Random(seed)
        model = Model.initial(
            puzzle,
            seed=rng.getrandbits(32),
            d_model=s.d_model,
            layers=s.layers,
            heads=s.heads,
            embedding_scale=s.embedding_scale,
            positions=s.positions,
            causal=s.causal,
        )
        super().__init__(
            model,
            POINTING,
            train,
            {"validation": self.validation, "test": self.test},
            order=random.Random(rng.getrandbits(32)),
            learning_rate=s.learning_rate,
            batch_size=s.batch_size,
            eval_every=s.eval_every,
        )
        self.model: Model = model

    def again(self, **changes: Any) -> Trainer:
        """A fresh trainer of the same puzzle, seed and settings, but for ``changes``."""
        return Trainer(self.puzzle, self.seed, **{**self.settings.as_dict(), **changes})

    def mistakes(self) -> list[Sentence]:
        """The test sentences the model answers wrongly now."""
        return [s for s in self.test if self.model.predict(s) != s.label]

    def mistake_indices(self) -> list[list[int]]:
        """``mistakes()`` as ``[first, action, second, reason]`` indices into the puzzle's lists
        (``puzzle.sentence(*indices)`` gives the sentence back)."""
        p = self.puzzle
        return [[s.first, p.actions.index(s.action), s.second, p.reasons.index(s.reason)] for s in self.mistakes()]


def train_with_checkpoints(
    puzzle: Puzzle,
    seed: int = 0,
    *,
    checkpoint_every: int = 100,
    until_accuracy: float | None = None,
    steps: int | None = None,
    max_steps: int = 5000,
    checkpoint_digits: int | None = None,
    **settings: Any,
) -> dict[str, Any]:
    """Train, saving the model every ``checkpoint_every`` steps; a JSON-able dict.

    Stops after ``steps`` steps, or at the first history point whose *validation* accuracy is
    at least ``until_accuracy`` (and after ``max_steps`` at most). Returns ``{"settings",
    "puzzle", "history", "checkpoints": [{"step", "model"}], "model", "steps", "reached"}``:
    ``model`` is the final model's ``to_dict()``, the last checkpoint is the final model, and
    ``reached`` says whether ``until_accuracy`` was reached (None without one), and
    ``mistakes`` lists the test sentences the final model answers wrongly
    (``Trainer.mistake_indices``) out of ``test_size``, so a page need not score them again.
    ``checkpoint_digits`` keeps that many significant digits in the checkpoints before the
    last (a smaller file for a page to replay); ``model`` and the last checkpoint are exact.
    """
    if (steps is None) == (until_accuracy is None):
        raise TypeError("give either steps= or until_accuracy=")
    trainer = Trainer(puzzle, seed, **settings)
    every = trainer.settings.eval_every
    if checkpoint_every % every:
        raise ValueError(f"checkpoint_every={checkpoint_every} must be a multiple of eval_every={every}")

    def saved() -> dict[str, Any]:
        return {"step": trainer.step, "model": trainer.model.to_dict()}

    checkpoints = [saved()]
    trainer.run(0)  # the untrained model's history point
    limit = steps if steps is not None else max_steps
    reached = None if until_accuracy is None else False
    while trainer.step < limit:
        chunk = min(every, limit - trainer.step)
        points = trainer.run(chunk)
        if trainer.step % checkpoint_every == 0:
            checkpoints.append(saved())
        if until_accuracy is not None and points and points[-1]["validation_accuracy"] >= until_accuracy:
            reached = True
            break
    if checkpoints[-1]["step"] != trainer.step:
        checkpoints.append(saved())
    if checkpoint_digits is not None:
        for checkpoint in checkpoints[:-1]:
            parameters = checkpoint["model"]["parameters"]
            for name, matrix in parameters.items():
                parameters[name] = [[float(f"{x:.{checkpoint_digits}g}") for x in row] for row in matrix]
    return {
        "format": "attention_py.learning.training/1",
        "settings": {
            **trainer.settings.as_dict(),
            "seed": seed,
            "checkpoint_every": checkpoint_every,
            "until_accuracy": until_accuracy,
            "steps": steps,
            "max_steps": max_steps,
            "checkpoint_digits": checkpoint_digits,
        },
        "puzzle": puzzle.to_dict(),
        "history": trainer.history,
        "checkpoints": checkpoints,
        "model": checkpoints[-1]["model"],
        "steps": trainer.step,
        "reached": reached,
        "mistakes": trainer.mistake_indices(),
        "test_size": len(trainer.test),
    }
