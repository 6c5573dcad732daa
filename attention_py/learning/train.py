"""Training: mini-batches of puzzle sentences, gradients, Adam steps, and a record of progress.

    trainer = Trainer(puzzle, seed=0)
    trainer.run(100)          # 100 Adam steps, one mini-batch each
    trainer.history[-1]       # {"step": 100, "loss": ..., "train_accuracy": ...,
                              #  "validation_accuracy": ..., "test_accuracy": ..., ...}

The puzzle's sentences are split three ways (``Puzzle.split``): training, *validation*
(the number to look at while choosing settings) and *test* (the number to report; honest only
if nothing is chosen by looking at it). ``split_seed`` draws another split: the learning
article confirms its one choice made after seeing test results on fresh ones.

Everything random (the starting weights, the order of the sentences) comes from
``random.Random`` seeded with ``seed``, so the same seed trains the same model, natively and
in Pyodide (up to the last bits of ``exp``/``log``, which may differ between platforms).
"""

from __future__ import annotations

import random
from typing import Any

from .backward import BatchGradients
from .model import Model, loss_and_answer
from .optim import Adam
from .puzzle import Puzzle, Sentence

DEFAULTS: dict[str, Any] = {
    "d_model": 16,
    "layers": 2,
    "heads": 1,
    "positions": "learned",  # or "sinusoidal" or "none" (attention_py/learning/model.py)
    "causal": False,  # True: each token attends only to itself and the tokens before it
    "batch_size": 16,
    "learning_rate": 0.01,
    "embedding_scale": 1.0,
    "eval_every": 20,  # steps between history points (validation and test are scored in full)
    "split_seed": 0,  # which (person, reason) pairs are held out: fixed, whatever the training seed
}

HistoryPoint = dict[str, float]
"""One entry of ``Trainer.history``: ``step``, the training ``loss`` and ``train_accuracy``
since the previous point, then ``validation_loss``, ``validation_accuracy``, ``test_loss``
and ``test_accuracy``."""


class Tally:
    """Loss and right answers summed over sentences, in the order they are added."""

    def __init__(self, loss: float = 0.0, right: int = 0, seen: int = 0) -> None:
        self.loss, self.right, self.seen = loss, right, seen

    def add(self, model: Model, sentence: Sentence) -> None:
        """Scores ``sentence`` with ``model`` as it is now."""
        loss, answer = loss_and_answer(model.forward(sentence).probabilities, sentence.label)
        self.loss += loss
        self.right += answer == sentence.label
        self.seen += 1

    def means(self) -> tuple[float, float]:
        """(mean loss, accuracy); 0 for both over no sentence."""
        seen = max(self.seen, 1)
        return self.loss / seen, self.right / seen


class Trainer:
    """Owns a model, its Adam state and the order of the training sentences."""

    def __init__(self, puzzle: Puzzle, seed: int = 0, *, record_start: bool = True, **settings: Any) -> None:
        """``record_start=False`` leaves the step-0 history point to the caller, who takes its
        training half with ``start_point`` (figures/train_live.py scores the rest a sentence at
        a time); otherwise it is recorded here."""
        unknown = set(settings) - set(DEFAULTS)
        if unknown:
            raise TypeError(f"unknown training settings {sorted(unknown)}; known: {sorted(DEFAULTS)}")
        self.settings = {**DEFAULTS, **settings, "seed": seed}
        s = self.settings
        self.puzzle = puzzle
        self.train, self.validation, self.test = puzzle.split(seed=s["split_seed"])
        self.held_out = (("validation", self.validation), ("test", self.test))  # scored at every history point
        rng = random.Random(seed)
        self.model = Model.initial(
            puzzle,
            seed=rng.getrandbits(32),
            d_model=s["d_model"],
            layers=s["layers"],
            heads=s["heads"],
            embedding_scale=s["embedding_scale"],
            positions=s["positions"],
            causal=s["causal"],
        )
        self.optimiser = Adam(self.model.parameters, lr=s["learning_rate"])
        self._order_rng = random.Random(rng.getrandbits(32))
        self._order: list[Sentence] = []
        self.step = 0
        self.history: list[HistoryPoint] = []
        # step 0: how the untrained model does on the first batch (its losses added by sum(),
        # which compensates rounding: the published histories were computed so)
        first = self._peek_batch()
        scores = [loss_and_answer(self.model.forward(x).probabilities, x.label) for x in first]
        right = sum(answer == x.label for (_, answer), x in zip(scores, first))
        self._since = Tally(sum(loss for loss, _ in scores), right, len(first))
        if record_start:
            self.record(self.start_point())

    def _peek_batch(self) -> list[Sentence]:
        while len(self._order) < self.settings["batch_size"]:
            fresh = list(self.train)
            self._order_rng.shuffle(fresh)
            self._order.extend(fresh)
        return self._order[: self.settings["batch_size"]]

    def next_batch(self) -> list[Sentence]:
        """The next mini-batch: the training sentences in a fresh shuffled order every epoch."""
        batch = self._peek_batch()
        del self._order[: len(batch)]
        return batch

    def run(self, steps: int) -> list[HistoryPoint]:
        """``steps`` optimiser steps; returns the history points recorded meanwhile."""
        new = []
        for _ in range(steps):
            self.train_step()
            if self.point_due:
                new.append(self.record(self.start_point()))
        return new

    def train_step(self) -> None:
        """One optimiser step on the next mini-batch."""
        pieces = self.start_step()
        while not pieces.complete:
            pieces.advance()
        self.finish_step(pieces)

    def start_step(self) -> BatchGradients:
        """The next mini-batch's gradients, to be computed in pieces (``BatchGradients.advance``)
        and then applied by ``finish_step``: ``train_step`` for a caller that must pause."""
        return BatchGradients(self.model, self.next_batch())

    def finish_step(self, pieces: BatchGradients) -> None:
        """The optimiser step with the complete gradients of ``start_step``'s batch."""
        loss, correct, grads = pieces.result()
        self.optimiser.step(grads)
        self.step += 1
        self._since.loss += loss * len(pieces.batch)
        self._since.right += correct
        self._since.seen += len(pieces.batch)

    @property
    def point_due(self) -> bool:
        """Whether this step gets a history point (every ``eval_every`` steps)."""
        every: int = self.settings["eval_every"]
        return self.step % every == 0

    def start_point(self) -> HistoryPoint:
        """The training half of this step's history point: the loss and accuracy over the
        batches since the last point (as they were met, before each update). The next point
        counts from here."""
        loss, accuracy = self._since.means()
        self._since = Tally()
        return {"step": self.step, "loss": loss, "train_accuracy": accuracy}

    def record(self, point: HistoryPoint, scored: dict[str, Tally] | None = None) -> HistoryPoint:
        """Completes ``point`` with the loss and accuracy on the held-out sentences and appends
        it to the history. Each ``held_out`` set is scored here, on the model as it is now,
        unless ``scored`` holds its tally already."""
        scored = scored or {}
        for name, sentences in self.held_out:
            tally = scored.get(name)
            if tally is None:
                tally = Tally()
                for sentence in sentences:
                    tally.add(self.model, sentence)
            point[f"{name}_loss"], point[f"{name}_accuracy"] = tally.means()
        self.history.append(point)
        return point

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
    if checkpoint_every % trainer.settings["eval_every"]:
        raise ValueError(
            f"checkpoint_every={checkpoint_every} must be a multiple of eval_every={trainer.settings['eval_every']}"
        )

    def saved() -> dict[str, Any]:
        return {"step": trainer.step, "model": trainer.model.to_dict()}

    checkpoints = [saved()]
    limit = steps if steps is not None else max_steps
    reached = None if until_accuracy is None else False
    while trainer.step < limit:
        chunk = min(trainer.settings["eval_every"], limit - trainer.step)
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
            **trainer.settings,
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
