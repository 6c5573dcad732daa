"""Training: mini-batches of puzzle sentences, gradients, Adam steps, and a record of progress.

    trainer = Trainer(puzzle, seed=0)
    trainer.run(100)          # 100 Adam steps, one mini-batch each
    trainer.history[-1]       # {"step": 100, "loss": ..., "train_accuracy": ...,
                              #  "validation_accuracy": ..., "test_accuracy": ..., ...}

The puzzle's sentences are split three ways (``Puzzle.split``): training, *validation*
(the number to look at while choosing settings) and *test* (the number to report, never used
to choose anything).

Everything random (the starting weights, the order of the sentences) comes from
``random.Random`` seeded with ``seed``, so the same seed trains the same model, natively and
in Pyodide (up to the last bits of ``exp``/``log``, which may differ between platforms).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from .backward import loss_and_gradients
from .model import Model
from .optim import Adam
from .puzzle import Puzzle, Sentence

DEFAULTS: dict[str, Any] = {
    "d_model": 16,
    "layers": 2,
    "heads": 1,
    "batch_size": 16,
    "learning_rate": 0.01,
    "embedding_scale": 1.0,
    "eval_every": 20,  # steps between history points (validation and test are scored in full)
    "split_seed": 0,  # which (person, reason) pairs are held out: fixed, whatever the training seed
}


class _Shape:
    """What ``Model.initial`` reads of a puzzle, each computed once (the puzzle's properties
    build every sentence again each time they are read): its vocabulary, its people, and its
    longest sentence among ``sentences`` (all of them)."""

    def __init__(self, puzzle: Puzzle, sentences: list[Sentence]) -> None:
        self.vocabulary = puzzle.vocabulary
        self.people = puzzle.people
        self.max_length = max(len(s.tokens) for s in sentences)


class Trainer:
    """Owns a model, its Adam state and the order of the training sentences."""

    def __init__(self, puzzle: Puzzle, seed: int = 0, *, lazy: bool = False, **settings: Any) -> None:
        """``lazy``: leave the validation and test scoring of the step-0 history point to the first
        ``work`` call (a page that must answer quickly); otherwise it is done here."""
        unknown = set(settings) - set(DEFAULTS)
        if unknown:
            raise TypeError(f"unknown training settings {sorted(unknown)}; known: {sorted(DEFAULTS)}")
        self.settings = {**DEFAULTS, **settings, "seed": seed}
        s = self.settings
        self.puzzle = puzzle
        self.train, self.validation, self.test = puzzle.split(seed=s["split_seed"])
        self._scored = [("validation", self.validation), ("test", self.test)]
        rng = random.Random(seed)
        self.model = Model.initial(
            _Shape(puzzle, self.train + self.validation + self.test),
            seed=rng.getrandbits(32),
            d_model=s["d_model"],
            layers=s["layers"],
            heads=s["heads"],
            embedding_scale=s["embedding_scale"],
        )
        self.optimiser = Adam(self.model.parameters, lr=s["learning_rate"])
        self._order_rng = random.Random(rng.getrandbits(32))
        self._order: list[Sentence] = []
        self.step = 0
        self.history: list[dict[str, Any]] = []
        self._since = {"loss": 0.0, "correct": 0, "seen": 0, "steps": 0}
        self._scoring: dict[str, Any] | None = None  # a history point whose validation/test scores are being summed
        self._step_seconds = 0.0  # how long an optimiser step takes here (``work`` plans with it)
        first = self._peek_batch()  # step 0: how the untrained model does on the first batch
        answers = [self.model.forward(x).probabilities for x in first]
        losses = [-math.log(p[x.label]) for p, x in zip(answers, first)]
        correct = sum(max(range(len(p)), key=p.__getitem__) == x.label for p, x in zip(answers, first))
        self._since = {"loss": sum(losses), "correct": correct, "seen": len(first), "steps": len(first)}
        self._start_record()
        if not lazy:
            self._score()

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

    def run(self, steps: int) -> list[dict[str, Any]]:
        """``steps`` optimiser steps; returns the history points recorded meanwhile."""
        new = []
        if self._scoring is not None:  # left unfinished by ``work``
            new.append(self._score())
        for _ in range(steps):
            self._train_step()
            if self.step % self.settings["eval_every"] == 0:
                self._start_record()
                new.append(self._score())
        return new

    def work(self, until: int, seconds: float) -> list[dict[str, Any]]:
        """Train towards step ``until`` for about ``seconds``, in pieces small enough for a page.

        The same steps and history as ``run``, cut differently: each piece is one optimiser
        step or one held-out sentence scored, and the call returns once ``seconds`` have
        passed or the next step would pass them (after one piece at least), or when step
        ``until`` is reached and its history point, if one is due, is complete. Training waits while a history point's held-out
        scores are being summed, so every point measures the model of its own step. Returns
        the history points completed meanwhile.
        """
        deadline = time.perf_counter() + seconds
        new: list[dict[str, Any]] = []
        done = False
        while self._scoring is not None or self.step < until:
            now = time.perf_counter()
            if done and self._scoring is None and now + self._step_seconds > deadline:
                break  # a step would overrun the time left (it is the longest piece)
            done = True
            if self._scoring is not None:
                point = self._score(deadline)
                if point is not None:
                    new.append(point)
            else:
                self._train_step()
                took = time.perf_counter() - now
                self._step_seconds = took if not self._step_seconds else 0.8 * self._step_seconds + 0.2 * took
                if self.step % self.settings["eval_every"] == 0:
                    self._start_record()
            if time.perf_counter() >= deadline:
                break
        return new

    @property
    def scoring(self) -> bool:
        """Whether a history point still waits for validation/test scores (``work`` left it unfinished)."""
        return self._scoring is not None

    def _train_step(self) -> None:
        batch = self.next_batch()
        loss, correct, grads = loss_and_gradients(self.model, batch)
        self.optimiser.step(grads)
        self.step += 1
        self._since["loss"] += loss * len(batch)
        self._since["correct"] += correct
        self._since["seen"] += len(batch)
        self._since["steps"] += 1

    def _start_record(self) -> None:
        """Begin a history point: training loss/accuracy over the batches since the last point
        (as they were met, before each update); ``_score`` adds loss/accuracy on every
        validation and test sentence, measured on the model as it is now."""
        seen = max(self._since["seen"], 1)
        self._scoring = {
            "point": {
                "step": self.step,
                "loss": self._since["loss"] / seen,
                "train_accuracy": self._since["correct"] / seen,
            },
            "part": 0,
            "next": 0,
            "loss": 0.0,
            "right": 0,
        }
        self._since = {"loss": 0.0, "correct": 0, "seen": 0, "steps": 0}

    def _score(self, deadline: float | None = None) -> dict[str, Any] | None:
        """Score validation, then test sentences (all, or until ``deadline``, one at least);
        the finished history point once every sentence is scored, else None."""
        scoring = self._scoring
        assert scoring is not None
        while scoring["part"] < len(self._scored):
            name, sentences = self._scored[scoring["part"]]
            i = scoring["next"]
            while i < len(sentences):
                s = sentences[i]
                p = self.model.forward(s).probabilities
                scoring["loss"] -= math.log(max(p[s.label], 1e-300))
                scoring["right"] += max(range(len(p)), key=p.__getitem__) == s.label
                i += 1
                if deadline is not None and time.perf_counter() >= deadline:
                    break
            scoring["next"] = i
            if i < len(sentences):
                return None
            n = max(len(sentences), 1)
            scoring["point"][f"{name}_loss"] = scoring["loss"] / n
            scoring["point"][f"{name}_accuracy"] = scoring["right"] / n
            scoring.update(part=scoring["part"] + 1, next=0, loss=0.0, right=0)
            if deadline is not None and time.perf_counter() >= deadline and scoring["part"] < len(self._scored):
                return None
        point = scoring["point"]
        self._scoring = None
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
