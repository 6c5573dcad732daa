"""The build's induction run: the copy task trained once, with what its figures show.

    record = induction_record(layers=2)       # a JSON-able dict (RUN: seed 0, 400 steps)
    model = NextTokenModel.from_dict(record["model"])

A page should not have to train before it can show a run, so the build does
(site_hooks/content/induction.py) and the record carries what the article's figures read: the history (accuracy and loss on
copied and other positions, every head's scores, every 20 steps), every head's attention on
one example sequence at each history point (the replay), the final model, its circuit (heads
named by their scores, and what each cut leaves) and the accuracy with every set of heads
switched off. Everything after training is computed on the model as saved (its weights
rounded to ``digits`` significant digits), so the numbers a page reads and the model it
runs agree.

The model works on token ids: the tokens are labels, and a page shows them in its own
alphabet (its figure strings). One model serves every language.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from .induction import CopyTrainer, circuit, copy_scores, formed_at
from .next_token import Cut, NextTokenModel
from .tasks.copying import Copied, CopyTask

FORMAT = "attention_py.learning.induction_run/1"
RUN: dict[str, Any] = {"seed": 0, "steps": 400}
"""The build's run: 400 steps, by which 20 seeds of 20 have formed the head (the latest at
step 280; bench/README.md, "A recipe for the page")."""
EXAMPLE = Copied(ids=(15, 3, 11, 0, 7, 2, 9, 4, 0, 7, 2, 9, 4, 0, 7, 2), first=3, second=8, size=5, end=15)
"""The sequence the figures open with: three other tokens, then a segment of five repeated to
the end ("p d l | a h c j e | a h c j e | a h c" in the default letters)."""


EXPERIMENTS: tuple[dict[str, Any], ...] = ({"seed": 1}, {"heads": 2}, {"learning_rate": 0.03})
"""The recipes the article's experiments link to besides the build's and one layer (each a
change to ``CopySettings`` or the seed): the build trains them too, so that the live figure can
draw, faint, where a reader's run of one is going."""


def experiment_histories(steps: int | None = None) -> dict[str, Any]:
    """The history of each of ``EXPERIMENTS``, trained like the build's run (``RUN``'s steps,
    two layers); each entry's ``settings`` say its recipe."""
    runs = []
    for change in EXPERIMENTS:
        settings = {k: v for k, v in change.items() if k != "seed"}
        trainer = CopyTrainer(CopyTask(), change.get("seed", RUN["seed"]), layers=2, **settings)
        trainer.run(steps or RUN["steps"])
        recipe: dict[str, Any] = {**trainer.settings.as_dict(), "seed": trainer.seed}
        runs.append({"settings": recipe, "history": trainer.history})
    return {"format": FORMAT, "runs": runs}


def rounded(model: NextTokenModel, digits: int) -> NextTokenModel:
    """The model with every weight kept to ``digits`` significant digits."""
    data = model.to_dict()
    data["parameters"] = {
        name: [[float(f"{x:.{digits}g}") for x in row] for row in m] for name, m in data["parameters"].items()
    }
    return NextTokenModel.from_dict(data)


def attention_rows(model: NextTokenModel, ids: tuple[int, ...], digits: int = 2) -> list[list[list[list[float]]]]:
    """Every layer's every head's attention on ``ids``, each row up to its own position
    (the causal mask makes the rest zero), rounded to ``digits`` decimals."""
    run = model.forward(ids)
    return [
        [
            [[round(a, digits) for a in row[: i + 1]] for i, row in enumerate(run.attention(layer, h))]
            for h in range(model.heads)
        ]
        for layer in range(model.layers)
    ]


def heads_of(model: NextTokenModel) -> list[tuple[int, int]]:
    """Every (layer, head) of the model, layer by layer."""
    return [(layer, h) for layer in range(model.layers) for h in range(model.heads)]


def switch_key(on: tuple[bool, ...] | list[bool]) -> str:
    """A set of heads switched on, as text: "1101" (one digit a head, in ``heads_of``'s order)."""
    return "".join("1" if x else "0" for x in on)


def switched(model: NextTokenModel, examples: list[Copied]) -> dict[str, dict[str, float]]:
    """``copy_scores`` for every set of heads switched on (by ``switch_key``)."""
    heads = heads_of(model)
    table = {}
    for on in product((True, False), repeat=len(heads)):
        cut = Cut(heads_off=frozenset(head for head, kept in zip(heads, on) if not kept))
        table[switch_key(on)] = copy_scores(model, examples, cut)
    return table


def induction_record(layers: int = 2, task: CopyTask | None = None, *, digits: int = 6, **run: Any) -> dict[str, Any]:
    """Train ``task`` (``CopyTask()``) with ``RUN`` (or ``run``'s seed and steps) and a model of
    ``layers`` layers; return the record described above. ``formed_at`` is the first history
    step that meets ``FORMED`` (None if none does)."""
    settings = {**RUN, **run}
    task = task or CopyTask()
    trainer = CopyTrainer(task, settings["seed"], layers=layers)
    every = trainer.settings.eval_every
    replay = []
    trainer.run(0)  # the untrained model's history point
    replay.append({"step": 0, "attention": attention_rows(trainer.model, EXAMPLE.ids)})
    while trainer.step < settings["steps"]:
        trainer.run(min(every, settings["steps"] - trainer.step))
        replay.append({"step": trainer.step, "attention": attention_rows(trainer.model, EXAMPLE.ids)})
    model = rounded(trainer.model, digits)
    first = formed_at(trainer.history, layers)
    record: dict[str, Any] = {
        "format": FORMAT,
        "settings": {**trainer.settings.as_dict(), "seed": trainer.seed, **settings, "digits": digits},
        "task": {"length": task.length, "segment": list(task.segment), "vocabulary": len(task.vocabulary)},
        "history": trainer.history,
        "formed_at": first,
        "example": {"ids": list(EXAMPLE.ids), "first": EXAMPLE.first, "second": EXAMPLE.second},
        "replay": replay,
        "model": model.to_dict(),
        "final": copy_scores(model, trainer.test),
        "switched": switched(model, trainer.test),
    }
    if layers == 2:
        found = circuit(model, trainer.test)
        record["circuit"] = {
            "scores": found.scores,
            "previous": found.previous,
            "induction": found.induction,
            "ablations": found.ablations,
        }
    return record
