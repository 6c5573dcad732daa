"""Induction heads: a copy task, the model that learns it by predicting the next token, and
the measures that say how it does it.

    task = CopyTask(tuple("abcdefghijklmnopqrst"))
    trainer = CopyTrainer(task, seed=0)           # settings: CopySettings
    trainer.run(400)
    trainer.history[-1]["test_copied_accuracy"]    # the copied tokens it guesses, on fresh sequences
    head_scores(trainer.model, trainer.test)       # {"previous": [[...]], "prefix": [[...]], "copying": ...}

The data (``CopyTask``, tasks/copying.py): a few random tokens, then a segment of 3 to 8 different tokens
repeated until the sequence ends ("k q w e | r t y r t y r t y"). From the segment's second
time on the next token can be known: it is the one that followed the current token the time
before. Finding it takes two steps, which is why attention needs two layers for it (Elhage
et al. 2021, Olsson et al. 2022): a *previous-token head* in layer 1 writes into every
position which token came just before it; an *induction head* in layer 2 then looks, from
the current token, for the position whose previous token is the current token (its key
reads what layer 1 wrote: the K-composition) and copies the token it finds there.

Nothing in a sequence says how long its segment is or where it starts, so the position alone
does not tell a layer how far back to look (with a fixed length it would, and one layer
would do: bench/README.md, "Induction heads"). The segment's tokens are all different and
occur nowhere before it, so at each copied position exactly one earlier token is the answer.
``repeat=False`` copies the segment once instead, at a random distance after its first place
(a harder task: fewer positions to learn from).

The measures, on sequences never trained on (``head_scores``, ``copy_scores``):

- accuracy and loss on the *copied* positions (inside the second copy, where the next token
  can be known) and on the *other* positions (where it cannot: chance, 1 / vocabulary);
- per head, the *previous-token score*: the mean attention of each position to the one
  before it;
- the *prefix-matching score*: inside the second copy, the mean attention of each position to
  the token that followed its first occurrence (what an induction head attends to);
- the *copying score*: inside the second copy, the share of positions where the head's own
  output, read through W_U, raises the token it attends to most above every other token.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..linalg import matrix_product
from .gradients import Gradients
from .next_token import NO_CUT, Cut, NextTokenModel, TokenPass, backward
from .parameters import SMALLEST_P
from .tasks.copying import Copied, CopyTask
from .train import Objective, Settings, Training


@dataclass(frozen=True)
class CopySettings(Settings):
    """The copy task's recipe: the model's sizes, then the training's."""

    d_model: int = 16
    layers: int = 2
    heads: int = 1
    batch_size: int = 8
    learning_rate: float = 0.02
    warmup: int = 10  # Adam's steps of linear warm-up (optim.py)
    beta1: float = 0.8
    beta2: float = 0.99
    loss_from: int = 9  # the first position whose guess the training loss counts (unembedding.py)
    eval_every: int = 20
    test_size: int = 64  # fresh sequences scored at every history point
    test_seed: int = 1_000_003  # they are drawn from this seed, whatever the training seed


def _position_sums(model: NextTokenModel, run: TokenPass, example: Copied) -> dict[str, tuple[float, float]]:
    """The named sums of one scored sequence (see ``Tally.sums``)."""
    copied = set(example.copied)
    sums = {key: [0.0, 0.0] for key in ("copied_loss", "copied_accuracy", "other_loss", "other_accuracy")}
    ids, guesses = run.ids, model.guesses(run)
    for i, guess in enumerate(guesses[:-1]):  # the last position guesses nothing
        p = run.probabilities[i]
        kind = "copied" if i in copied else "other"
        sums[f"{kind}_loss"][0] += -math.log(max(p[ids[i + 1]], SMALLEST_P))
        sums[f"{kind}_accuracy"][0] += guess == ids[i + 1]
        sums[f"{kind}_loss"][1] += 1
        sums[f"{kind}_accuracy"][1] += 1
    for layer in range(model.layers):
        for h in range(model.heads):
            A = run.attention(layer, h)
            previous = sum(A[i][i - 1] for i in range(1, len(ids)))
            prefix = sum(A[i][example.source(i) + 1] for i in copied)
            sums[f"layer{layer}.head{h}_previous"] = [previous, len(ids) - 1]
            sums[f"layer{layer}.head{h}_prefix"] = [prefix, len(copied)]
    return {key: (total, count) for key, (total, count) in sums.items()}


def _score(
    model: NextTokenModel, example: Copied, first: int = 0
) -> tuple[float, float, dict[str, tuple[float, float]]]:
    run = model.forward(example.ids)
    sums = _position_sums(model, run, example)
    right, seen = sums["copied_accuracy"]
    return model.loss(run, first), right / seen, sums


def _add_gradients(
    model: NextTokenModel, example: Copied, grads: Gradients, weight: float, first: int = 0
) -> tuple[float, float]:
    run = model.forward(example.ids)
    backward(model, run, grads, weight, first)
    guesses = model.guesses(run)
    copied = example.copied
    right = sum(guesses[i] == example.ids[i + 1] for i in copied)
    return model.loss(run, first), right / len(copied)


def next_token_objective(first: int = 0) -> Objective:
    """The next-token objective: the mean cross-entropy of each position's guess from position
    ``first`` on; "right" is the share of the copied tokens guessed, and every history point
    reports the measures of ``_position_sums`` for the test set (``test_copied_accuracy``,
    ``test_layer1.head0_prefix``, ...), whatever ``first`` is."""
    return Objective(
        score=partial(_score, first=first),
        add_gradients=partial(_add_gradients, first=first),
        new_gradients=Gradients,
    )


class CopyTrainer(Training):
    """A ``NextTokenModel`` learning ``task`` by predicting the next token, with fresh training
    sequences every step (drawn from the seed) and ``test_size`` held-out sequences (drawn from
    ``test_seed``) scored at every history point."""

    def __init__(self, task: CopyTask, seed: int = 0, **settings: Any) -> None:
        self.seed = seed
        self.settings = s = CopySettings.of(settings)
        self.task = task
        self.test = task.sequences(s.test_seed, s.test_size)
        rng = random.Random(seed)
        model = NextTokenModel.initial(
            task.vocabulary,
            task.length,
            rng.getrandbits(32),
            d_model=s.d_model,
            layers=s.layers,
            heads=s.heads,
        )
        self._data_rng = random.Random(rng.getrandbits(32))
        super().__init__(
            model,
            next_token_objective(s.loss_from),
            [],
            {"test": self.test},
            order=random.Random(0),
            learning_rate=s.learning_rate,
            batch_size=s.batch_size,
            eval_every=s.eval_every,
            betas=(s.beta1, s.beta2),
            warmup=s.warmup,
        )
        self.model: NextTokenModel = model

    def _peek_batch(self) -> list[Any]:
        """The next mini-batch: sequences never seen before, drawn as they are needed."""
        while len(self._order) < self.batch_size:
            self._order.append(self.task.sequence(self._data_rng))
        return self._order[: self.batch_size]


def copy_scores(model: NextTokenModel, examples: Iterable[Copied], cut: Cut = NO_CUT) -> dict[str, float]:
    """Accuracy and loss on the copied and on the other positions of ``examples``, with the
    paths of ``cut`` switched off."""
    totals: dict[str, list[float]] = {}
    for example in examples:
        run = model.forward(example.ids, cut)
        for key, (total, count) in _position_sums(model, run, example).items():
            if key.startswith(("copied", "other")):
                kept = totals.setdefault(key, [0.0, 0.0])
                kept[0] += total
                kept[1] += count
    return {key: total / count for key, (total, count) in totals.items()}


def head_scores(model: NextTokenModel, examples: Sequence[Copied]) -> dict[str, list[list[float]]]:
    """Per layer and head: the previous-token, prefix-matching and copying scores over ``examples``."""
    shape = [[0.0] * model.heads for _ in range(model.layers)]
    previous, prefix, copying = ([row[:] for row in shape] for _ in range(3))
    positions = copied_total = 0
    W_U = model.parameters["W_U"]
    for example in examples:
        run = model.forward(example.ids, shares=True)
        n = len(example.ids)
        positions += n - 1
        copied_total += len(example.copied)
        for layer in range(model.layers):
            for h in range(model.heads):
                A = run.attention(layer, h)
                share = run.head_outputs[layer][h]
                previous[layer][h] += sum(A[i][i - 1] for i in range(1, n))
                for i in example.copied:
                    prefix[layer][h] += A[i][example.source(i) + 1]
                    attended = example.ids[max(range(i + 1), key=A[i].__getitem__)]
                    raised = matrix_product([share[i]], W_U)[0]  # the head's output read through W_U
                    copying[layer][h] += max(range(len(raised)), key=raised.__getitem__) == attended
    return {
        "previous": [[v / positions for v in row] for row in previous],
        "prefix": [[v / copied_total for v in row] for row in prefix],
        "copying": [[v / copied_total for v in row] for row in copying],
    }


FORMED = {"copied_accuracy": 0.8, "prefix": 0.4}
"""A model has *formed* its induction head when, on the test sequences, it guesses at least
80% of the copied tokens and a head of its last layer has a prefix-matching score of 0.4 or
more (``formed``)."""


def formed(point: dict[str, float], layers: int) -> bool:
    """Whether a history point of ``CopyTrainer`` meets ``FORMED``."""
    prefixes = [v for k, v in point.items() if k.startswith(f"test_layer{layers - 1}.") and k.endswith("_prefix")]
    return point["test_copied_accuracy"] >= FORMED["copied_accuracy"] and max(prefixes) >= FORMED["prefix"]


def formed_at(history: Sequence[dict[str, Any]], layers: int) -> int | None:
    """The step of the first history point that meets ``FORMED``, or None."""
    return next((int(p["step"]) for p in history if formed(p, layers)), None)


def _named_heads(scores: list[float], threshold: float) -> list[int]:
    """The heads scoring at least ``threshold``, or the best one if none does."""
    chosen = [h for h, v in enumerate(scores) if v >= threshold]
    return chosen or [max(range(len(scores)), key=scores.__getitem__)]


@dataclass(frozen=True)
class Circuit:
    """A two-layer model's heads, named by their scores, and what each ablation leaves.

    ``previous``: the layer-1 heads whose previous-token score is at least 0.4 (else the best);
    ``induction``: the layer-2 heads whose prefix-matching score is at least 0.4 (else the
    best); ``ablations``: ``copy_scores`` with each of ``CUTS`` applied."""

    scores: dict[str, list[list[float]]]
    previous: list[int]
    induction: list[int]
    ablations: dict[str, dict[str, float]]


CUTS = (
    "none",  # the whole model
    "previous_off",  # the previous-token heads removed
    "other_first_off",  # the other heads of layer 1 removed (if there are any)
    "induction_off",  # the induction heads removed
    "other_last_off",  # the other heads of layer 2 removed (if there are any)
    "keys_cut",  # layer 2's keys read the embeddings only: no K-composition
    "queries_cut",  # layer 2's queries read the embeddings only: no Q-composition
    "values_cut",  # layer 2's values read the embeddings only: no V-composition
)


def circuit(model: NextTokenModel, examples: Sequence[Copied]) -> Circuit:
    """Name the heads of a two-layer model by their scores and test each by ablation."""
    if model.layers != 2:
        raise ValueError(f"the circuit is read from a model of two layers, not {model.layers}")
    scores = head_scores(model, examples)
    previous = _named_heads(scores["previous"][0], FORMED["prefix"])
    induction = _named_heads(scores["prefix"][1], FORMED["prefix"])
    everyone = range(model.heads)
    cuts = {
        "none": NO_CUT,
        "previous_off": Cut(heads_off=frozenset((0, h) for h in previous)),
        "other_first_off": Cut(heads_off=frozenset((0, h) for h in everyone if h not in previous)),
        "induction_off": Cut(heads_off=frozenset((1, h) for h in induction)),
        "other_last_off": Cut(heads_off=frozenset((1, h) for h in everyone if h not in induction)),
        "keys_cut": Cut(keys_from_embedding=frozenset({1})),
        "queries_cut": Cut(queries_from_embedding=frozenset({1})),
        "values_cut": Cut(values_from_embedding=frozenset({1})),
    }
    ablations = {name: copy_scores(model, examples, cut) for name, cut in cuts.items()}
    return Circuit(scores, previous, induction, ablations)
