"""What the reader's own puzzle of "train it yourself" costs at its limits
(attention_py/figures/learning/training_app/own_puzzle.py), beside the English site puzzle: natively.

    .venv/bin/python -m bench own_puzzle [--steps 10]

For each puzzle: the check (``own_puzzle``: the boxes read, the give-away check, the split),
the give-away check alone (``cues``), making the ``Trainer`` (the model and the split), one
optimiser step (the mean of ``--steps`` steps between history points) and one history
point's scoring of every validation and test sentence (the figure scores them every
``eval_every`` steps), then an estimate of a 240-step run (the longest the figure offers)
with its scorings. The limits' puzzle has every box full, each action and reason of the
most words, each item of the most characters. Times are CPU time (steadier than wall time
on a shared machine), best of 3; the load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RUN_STEPS = 240  # the longest run "train it yourself" offers


def best(task: Callable[[], Any], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        task()
        times.append(time.process_time() - start)
    return min(times)


def limit_boxes() -> dict[str, str]:
    """Every box at its limit: the most items, the most words an item, the most characters."""
    from attention_py.figures.learning.training_app.own_puzzle import MAX_ITEM, MAX_ITEMS, MAX_WORDS

    def item(tag: str, k: int, words: int) -> str:
        width = (MAX_ITEM - (words - 1)) // words  # words of equal length, spaces between
        return " ".join(f"{tag}{k}{chr(97 + j)}".ljust(width, "x") for j in range(words))

    return {
        "people": "\n".join(item("p", k, 1) for k in range(MAX_ITEMS["people"])),
        "actions": "\n".join(item("a", k, MAX_WORDS) for k in range(MAX_ITEMS["actions"])),
        "actor": "\n".join(item("r", k, MAX_WORDS) for k in range(MAX_ITEMS["actor"])),
        "patient": "\n".join(item("q", k, MAX_WORDS) for k in range(MAX_ITEMS["patient"])),
    }


def measure(name: str, site: Any, boxes: dict[str, str], steps: int) -> None:
    from attention_py.figures.learning.training_app.own_puzzle import OwnPuzzle, own_puzzle
    from attention_py.learning import Puzzle, Trainer
    from attention_py.learning.tasks.cues import cues

    check = best(lambda: own_puzzle(Puzzle.from_dict(site.to_dict()), boxes))  # a fresh puzzle: no cached split
    made = own_puzzle(site, boxes)
    assert isinstance(made, OwnPuzzle), made
    puzzle = made.puzzle
    giveaway = best(lambda: cues(puzzle))
    trainer_time = best(lambda: Trainer(Puzzle.from_dict(puzzle.to_dict())), repeat=1)
    trainer = Trainer(puzzle)
    trainer.run(1)  # the untrained history point and the first step
    start = time.process_time()
    trainer.run(steps)
    step = (time.process_time() - start) / steps
    held_out = trainer.validation + trainer.test
    scoring = best(lambda: [trainer.objective.score(trainer.model, s) for s in held_out], repeat=1)
    run = RUN_STEPS * step + (RUN_STEPS // trainer.eval_every + 1) * scoring
    print(
        f"{name}: {made.train + made.validation + made.test} sentences ({made.train}/{made.validation}/{made.test}),"
        f" longest {puzzle.max_length} words, vocabulary {len(puzzle.vocabulary)}\n"
        f"  check {check * 1e3:.0f} ms (give-away check {giveaway * 1e3:.2f} ms), Trainer {trainer_time * 1e3:.0f} ms,"
        f" one step {step * 1e3:.0f} ms, one scoring of {len(held_out)} held-out sentences {scoring:.2f} s;"
        f" {RUN_STEPS} steps with their scorings about {run:.0f} s"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench own_puzzle", description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=10, help="steps to average one step over (default 10)")
    args = parser.parse_args(argv)
    import yaml

    from attention_py.figures.learning.training_app.own_puzzle import reader_text
    from attention_py.learning import Puzzle

    site = Puzzle.from_dict(yaml.safe_load((ROOT / "docs/puzzles/en.yml").read_text(encoding="utf-8")))
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    measure("English site puzzle", site, reader_text(site), args.steps)
    measure("at the limits", site, limit_boxes(), args.steps)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0
