"""Does the induction head form, for every seed, and what does one layer do with the same
budget? Natively, the build's recipe (attention_py/learning/induction.py: ``CopyTask()``,
``CopySettings``).

    .venv/bin/python -m bench induction [--seeds 10] [--steps 600] [--layers 2 1] [--ablations]
    .venv/bin/python -m bench induction --step-costs [--recipes d_model=32,heads=2 d_model=16,heads=2]

For each number of layers and each seed: the first history point that meets ``FORMED`` (at
least 80% of the copied tokens of the 64 test sequences, and a last-layer head with a
prefix-matching score of 0.4 or more), and the scores at the end of the budget. With
``--ablations``, the circuit of every two-layer seed: each ablation's accuracy on the copied
tokens. Prints Markdown tables, the time per step and the load average (``uptime``).

``--step-costs``: the time of one optimiser step (the mean of ``STEP_COST_STEPS``, after one
to warm up) of each recipe natively, in Pyodide under Node.js and in headless Chromium's
worker, where "train it yourself" runs; the ratios to native say what a step costs a reader.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

STEP_COST_STEPS = 5


def train(layers: int, seed: int, steps: int) -> dict[str, Any]:
    from attention_py.learning import CopyTask
    from attention_py.learning.induction import CopyTrainer, formed

    trainer = CopyTrainer(CopyTask(), seed, layers=layers)
    start = time.process_time()
    first = None
    while trainer.step < steps:
        trainer.run(trainer.eval_every)
        if first is None and formed(trainer.history[-1], layers):
            first = trainer.step
    seconds = time.process_time() - start
    return {"trainer": trainer, "formed": first, "point": trainer.history[-1], "ms_per_step": 1000 * seconds / steps}


def recipe(text: str) -> dict[str, Any]:
    """``d_model=32,heads=2`` as settings."""
    return {key: float(value) if "." in value else int(value) for key, value in (p.split("=") for p in text.split(","))}


def step_costs(recipes: list[dict[str, Any]]) -> list[float]:
    """Milliseconds per optimiser step of each recipe (``CopyTask()``, seed 0; wall time)."""
    from attention_py.learning import CopyTask
    from attention_py.learning.induction import CopyTrainer

    costs = []
    for settings in recipes:
        trainer = CopyTrainer(CopyTask(), 0, **settings)
        trainer.run(1)
        start = time.perf_counter()
        for _ in range(STEP_COST_STEPS):
            trainer.run(1)
        costs.append(1000 * (time.perf_counter() - start) / STEP_COST_STEPS)
    return costs


def report_step_costs(texts: list[str]) -> None:
    from devtools.pyodide_runs import in_chromium, in_node

    recipes = [recipe(text) for text in texts]
    request = ["--inside", json.dumps(recipes)]
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    native = step_costs(recipes)
    node = in_node("bench/induction.py", request)["costs"]
    chromium = in_chromium("bench/induction.py", request)["costs"]
    print("\n| recipe | native ms/step | Pyodide, Node.js | Pyodide, Chromium worker | Chromium / native |")
    print("| --- | --- | --- | --- | --- |")
    for text, a, b, c in zip(texts, native, node, chromium):
        print(f"| {text} | {a:.0f} | {b:.0f} | {c:.0f} | {c / a:.2f} |")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench induction")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--layers", type=int, nargs="+", default=[2, 1])
    parser.add_argument("--ablations", action="store_true")
    parser.add_argument("--step-costs", action="store_true")
    parser.add_argument(
        "--recipes", nargs="+", default=["d_model=16,heads=1", "d_model=16,heads=2", "d_model=32,heads=2"]
    )
    args = parser.parse_args(argv)
    if args.step_costs:
        report_step_costs(args.recipes)
        return 0
    from attention_py.learning.induction import CUTS, circuit

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for layers in args.layers:
        print(f"\n{layers} layer(s), {args.steps} steps\n")
        print(
            "| seed | formed at step | copied tokens | other tokens | best prefix-matching | best previous-token | ms/step |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- |")
        runs, count = [], 0
        for seed in range(args.seeds):
            run = train(layers, seed, args.steps)
            runs.append(run)
            point = run["point"]
            last = [v for k, v in point.items() if k.startswith(f"test_layer{layers - 1}.") and k.endswith("_prefix")]
            first = [v for k, v in point.items() if k.startswith("test_layer0.") and k.endswith("_previous")]
            count += run["formed"] is not None
            print(
                f"| {seed} | {run['formed'] or '-'} | {point['test_copied_accuracy']:.0%} | "
                f"{point['test_other_accuracy']:.0%} | {max(last):.2f} | {max(first):.2f} | {run['ms_per_step']:.0f} |",
                flush=True,
            )
        print(f"\nformed: {count} of {args.seeds} seeds")
        if args.ablations and layers == 2:
            print("\nAccuracy on the copied tokens with each cut (attention_py.learning.induction.CUTS)\n")
            print("| seed | " + " | ".join(CUTS) + " |")
            print("| --- |" + " --- |" * len(CUTS))
            for seed, run in enumerate(runs):
                trainer = run["trainer"]
                found = circuit(trainer.model, trainer.test)
                row = " | ".join(f"{found.ablations[name]['copied_accuracy']:.0%}" for name in CUTS)
                print(f"| {seed} | {row} |", flush=True)
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":  # inside Pyodide, run through devtools.pyodide_runs
    with open("/out/result.json", "w") as out:
        json.dump({"costs": step_costs(json.loads(sys.argv[2]))}, out)
