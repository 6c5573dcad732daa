"""Does the induction head form, for every seed, and what does one layer do with the same
budget? Natively, the build's recipe (attention_py/learning/induction.py: ``CopyTask()``,
``CopySettings``).

    .venv/bin/python -m bench induction [--seeds 10] [--steps 600] [--layers 2 1] [--ablations]
        [--recipe d_model=16,heads=1,batch_size=8,learning_rate=0.02,warmup=10,loss_from=7]
        [--eval-every 10] [--until-formed] [--learning-rates 0.01 0.02 0.03]
    .venv/bin/python -m bench induction --step-costs [--recipes d_model=32,heads=2 d_model=16,heads=2]

For each number of layers and each seed: the first history point that meets ``FORMED`` (at
least 80% of the copied tokens of the 64 test sequences, and a last-layer head with a
prefix-matching score of 0.4 or more), and the scores at the end of the budget. With
``--ablations``, the circuit of every two-layer seed: each ablation's accuracy on the copied
tokens. Prints Markdown tables, the time per step and the load average (``uptime``).

``--recipe`` trains with those ``CopySettings`` instead of the build's (the control, one layer,
with the same); ``--eval-every`` scores the test sequences that often, so the step of
formation is found to that many steps; ``--until-formed`` stops a seed where it forms;
``--learning-rates`` repeats the whole table for each learning rate (a sweep: where is the
cliff?) and ends with a summary line per rate.

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


def train(
    layers: int, seed: int, steps: int, settings: dict[str, Any] | None = None, *, until_formed: bool = False
) -> dict[str, Any]:
    from attention_py.learning import CopyTask
    from attention_py.learning.induction import CopyTrainer, formed

    trainer = CopyTrainer(CopyTask(), seed, **{**(settings or {}), "layers": layers})
    start = time.process_time()
    first = None
    while trainer.step < steps and not (until_formed and first is not None):
        trainer.run(trainer.eval_every)
        if first is None and formed(trainer.history[-1], layers):
            first = trainer.step
    seconds = time.process_time() - start
    return {
        "trainer": trainer,
        "formed": first,
        "point": trainer.history[-1],
        "ms_per_step": 1000 * seconds / trainer.step,
    }


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


def seed_table(layers: int, settings: dict[str, Any], args: argparse.Namespace) -> list[dict[str, Any]]:
    """Train every seed; print one row each and the count; return the runs."""
    print(f"\n{layers} layer(s), {args.steps} steps, settings {settings or 'the build’s'}\n")
    print(
        "| seed | formed at step | copied tokens | other tokens | best prefix-matching | best previous-token | ms/step |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    runs = []
    for seed in range(args.seeds):
        run = train(layers, seed, args.steps, settings, until_formed=args.until_formed)
        runs.append(run)
        point = run["point"]
        last = [v for k, v in point.items() if k.startswith(f"test_layer{layers - 1}.") and k.endswith("_prefix")]
        first = [v for k, v in point.items() if k.startswith("test_layer0.") and k.endswith("_previous")]
        print(
            f"| {seed} | {run['formed'] or '-'} | {point['test_copied_accuracy']:.0%} | "
            f"{point['test_other_accuracy']:.0%} | {max(last):.2f} | {max(first):.2f} | {run['ms_per_step']:.0f} |",
            flush=True,
        )
    steps = sorted(run["formed"] for run in runs if run["formed"] is not None)
    middle = steps[len(steps) // 2] if steps else "-"
    print(f"\nformed: {len(steps)} of {args.seeds} seeds; median step {middle}, worst {steps[-1] if steps else '-'}")
    return runs


def circuit_table(runs: list[dict[str, Any]]) -> None:
    """Each two-layer seed's circuit: the heads named by their scores, and each cut's accuracy."""
    from attention_py.learning.induction import CUTS, circuit

    print("\nAccuracy on the copied tokens with each cut (attention_py.learning.induction.CUTS)\n")
    print("| seed | previous-token heads | induction heads | " + " | ".join(CUTS) + " |")
    print("| --- | --- | --- |" + " --- |" * len(CUTS))
    for seed, run in enumerate(runs):
        trainer = run["trainer"]
        found = circuit(trainer.model, trainer.test)
        row = " | ".join(f"{found.ablations[name]['copied_accuracy']:.0%}" for name in CUTS)
        best = max(found.scores["previous"][0])
        print(f"| {seed} | {found.previous} ({best:.2f}) | {found.induction} | {row} |", flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench induction")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--layers", type=int, nargs="+", default=[2, 1])
    parser.add_argument("--ablations", action="store_true")
    parser.add_argument("--recipe", default="", help="CopySettings, e.g. d_model=16,heads=1,loss_from=7")
    parser.add_argument("--eval-every", type=int, default=None)
    parser.add_argument("--until-formed", action="store_true")
    parser.add_argument("--learning-rates", type=float, nargs="+", default=None)
    parser.add_argument("--step-costs", action="store_true")
    parser.add_argument(
        "--recipes", nargs="+", default=["d_model=16,heads=1", "d_model=16,heads=2", "d_model=32,heads=2"]
    )
    args = parser.parse_args(argv)
    if args.step_costs:
        report_step_costs(args.recipes)
        return 0
    settings = recipe(args.recipe) if args.recipe else {}
    if args.eval_every:
        settings["eval_every"] = args.eval_every
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    summary = []
    for rate in args.learning_rates or [None]:
        chosen = settings if rate is None else {**settings, "learning_rate": rate}
        for layers in args.layers:
            runs = seed_table(layers, chosen, args)
            formed = sorted(run["formed"] for run in runs if run["formed"] is not None)
            summary.append((rate, layers, formed))
            if args.ablations and layers == 2:
                circuit_table(runs)
    if args.learning_rates:
        print("\n| learning rate | layers | formed | median step | worst |\n| --- | --- | --- | --- | --- |")
        for rate, layers, formed in summary:
            middle = formed[len(formed) // 2] if formed else "-"
            print(f"| {rate} | {layers} | {len(formed)} of {args.seeds} | {middle} | {formed[-1] if formed else '-'} |")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":  # inside Pyodide, run through devtools.pyodide_runs
    with open("/out/result.json", "w") as out:
        json.dump({"costs": step_costs(json.loads(sys.argv[2]))}, out)
