"""How reliably and how fast the pronoun-puzzle model learns: natively (what the build does)
and in Pyodide under Node.js and in headless Chromium (what "train it yourself" does in the page).

    .venv/bin/python -m bench training                      # everything
    .venv/bin/python -m bench training --skip-chromium --languages en
    .venv/bin/python -m bench training --seeds-only --seeds 20
    .venv/bin/python -m bench training --seeds-only --split-seeds 1,2,3   # fresh held-out pairs
    .venv/bin/python -m bench training --step-costs-only --skip-chromium   # time per step per option

Seeds: the build's recipe (``training_settings``) trained from seeds 0..N-1 in every language, a row per
seed: validation and test accuracy after the build's steps, and the first step at which
validation accuracy reached 95%. The recipe was chosen on validation accuracy; the test
accuracy is the number to report (the article quotes it). The answer layer's design (pointing)
was chosen after test accuracies had been seen, so ``--split-seeds 1,2,3`` also trains on
fresh splits, other (person, reason) pairs held out, on which nothing was chosen.

Natively: the build's training (site_hooks/content/training.py, SETTINGS) of every language
one after the other, as a cold ``./run build`` does it; then, per language, the time until
held-out accuracy first reaches 95% with 1 and with 2 heads. In Pyodide: the same
``Trainer``, seed and settings, run from scratch until validation accuracy >= 95% (measured
every ``eval_every`` steps, with the test sentences; the evaluation is part of the time, as in the page). The wall
time excludes starting Pyodide. The final weights of the Pyodide run are compared with the
native run of the same settings: same seed, same weights, up to float rounding.

Step costs: the time of one optimiser step of the default recipe with one control of "train
it yourself" changed (positions, layers, heads, d_model, the causal mask), best of a few runs
of ``STEP_COST_STEPS`` steps, and the time to score one history point (every validation and
test sentence) with that model; natively, and in Pyodide unless skipped. The figure's rule:
no control value makes a step more than 4x the default's.

In the page: "train it yourself" (the train_live figure) on a fresh gallery page per
language in headless Chromium, its Train button pressed: the time until its readout's test
accuracy first shows at least 95% and the whole run, with the figure's short calls, drawing
and the other figures answering meanwhile (bench/figure_latency.py's ``--training``
measurement; ``--site`` reuses a build, otherwise one is made).

Target: <= 60 s for all languages natively, <= 10 s to 95% test accuracy in the page.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

TARGET = 0.95
MAX_STEPS = 600
# Each control of "train it yourself" that changes the model, and the values it offers; the
# default recipe's value (attention_py.learning.PuzzleSettings) first.
CONTROLS: dict[str, list] = {
    "positions": ["learned", "sinusoidal", "none"],
    "layers": [2, 1],
    "heads": [1, 2],
    "d_model": [16, 8, 24, 32],
    "causal": [False, True],
}
STEP_COST_STEPS = 20  # optimiser steps per timing
STEP_COST_REPEATS = 3  # timings per value (the best counts: other work only ever adds time)


def time_to_target(puzzle_data: dict, heads: int, settings: dict) -> dict:
    """Train from scratch until validation accuracy >= TARGET; seconds, steps, history, weights."""
    from attention_py.learning import Puzzle, Trainer

    puzzle = Puzzle.from_dict(puzzle_data)
    started = time.perf_counter()
    trainer = Trainer(puzzle, settings.get("seed", 0), heads=heads, eval_every=settings["eval_every"])
    reached = None
    while trainer.step < MAX_STEPS:
        point = trainer.run(settings["eval_every"])[-1]
        if point["validation_accuracy"] >= TARGET:
            reached = time.perf_counter() - started
            break
    return {
        "seconds": reached,
        "steps": trainer.step,
        "seconds_total": time.perf_counter() - started,
        "test_accuracy": trainer.history[-1]["test_accuracy"],
        "sentences_per_step": trainer.settings.batch_size,
        "model": trainer.model.to_dict(),
        "python": sys.version.split()[0],
        "platform": sys.platform,
    }


def whole_run(puzzle_data: dict, settings: dict) -> dict:
    """The build's whole run (its steps, a history point every eval_every steps with every
    validation and test sentence scored), as "train it yourself" does it in the page; seconds."""
    from attention_py.learning import Puzzle, Trainer

    puzzle = Puzzle.from_dict(puzzle_data)
    started = time.perf_counter()
    trainer = Trainer(puzzle, settings["seed"], eval_every=settings["eval_every"])
    trainer.run(settings["steps"])
    return {
        "seconds": time.perf_counter() - started,
        "steps": trainer.step,
        "test_accuracy": trainer.history[-1]["test_accuracy"],
        "python": sys.version.split()[0],
    }


def step_costs(
    puzzle_data: dict,
    steps: int = STEP_COST_STEPS,
    repeats: int = STEP_COST_REPEATS,
    controls: dict[str, list] | None = None,
) -> list[dict]:
    """Per control value (the default recipe's other settings kept), then with every control at
    its dearest value at once ("all dearest"): seconds per optimiser step, best of ``repeats``
    runs of ``steps`` steps from a fresh trainer of seed 0 (wall and CPU), and seconds to score
    one history point (every validation and test sentence). The runs take turns (every value
    once, then again), so a burst of other work slows one run of several values, not every run
    of one. ``controls``: a part of ``CONTROLS`` (``{"layers": [2]}`` times the default recipe
    alone, which any version of the package can run)."""
    from attention_py.learning import Puzzle, PuzzleSettings

    puzzle = Puzzle.from_dict(puzzle_data)
    defaults = PuzzleSettings().as_dict()
    chosen = [
        (control, value, {} if value == defaults[control] else {control: value})
        for control, values in (controls or CONTROLS).items()
        for value in values
    ]
    measured = _time_steps(puzzle, [settings for _, _, settings in chosen], steps, repeats)
    rows = [{"control": c, "value": v, **measured[_key(settings)]} for c, v, settings in chosen]
    dearest = {}
    for row in sorted(rows, key=lambda r: r["step_cpu"]):  # the last of a control's values wins: its dearest
        dearest[row["control"]] = row["value"]
    dearest = {k: v for k, v in dearest.items() if v != defaults[k]}
    together = _time_steps(puzzle, [dearest], steps, repeats)[_key(dearest)]
    rows.append({"control": "all dearest", "value": ", ".join(f"{k}={v}" for k, v in dearest.items()), **together})
    return rows


def _key(settings: dict) -> tuple:
    return tuple(sorted(settings.items()))


def _time_steps(puzzle: Any, recipes: list[dict], steps: int, repeats: int) -> dict[tuple, dict]:
    """Per recipe (settings by ``_key``): the best seconds per step, wall and CPU, and the
    seconds to score a history point."""
    from attention_py.learning import Trainer

    unique = {_key(settings): settings for settings in recipes}  # the default recipe is one value of every control
    wall: dict[tuple, list[float]] = {key: [] for key in unique}
    cpu: dict[tuple, list[float]] = {key: [] for key in unique}
    score: dict[tuple, float] = {}
    for _ in range(repeats):
        for key, settings in unique.items():
            trainer = Trainer(puzzle, 0, eval_every=10**9, **settings)
            trainer.held_out = {}  # the steps alone
            trainer.run(1)  # the first step apart (the first use of everything)
            started, started_cpu = time.perf_counter(), time.process_time()
            trainer.run(steps)
            wall[key].append((time.perf_counter() - started) / steps)
            cpu[key].append((time.process_time() - started_cpu) / steps)
            started = time.perf_counter()
            for sentence in trainer.validation + trainer.test:
                trainer.model.forward(sentence)
            score[key] = min(score.get(key, math.inf), time.perf_counter() - started)
    return {key: {"step": min(wall[key]), "step_cpu": min(cpu[key]), "score": score[key]} for key in unique}


def _print_step_costs(where: str, rows: list[dict]) -> None:
    """The table of ``step_costs``; "x default" compares CPU time (wall time counts other work too)."""
    default = rows[0]["step_cpu"]
    print(f"\nTime per optimiser step ({where}; 16 sentences, best of {STEP_COST_REPEATS} x {STEP_COST_STEPS} steps):")
    print("| control | value | per step | CPU per step | x default | scoring a history point |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(
            f"| {r['control']} | {r['value']} | {r['step'] * 1000:.1f} ms | {r['step_cpu'] * 1000:.1f} ms | "
            f"{r['step_cpu'] / default:.2f} | {r['score']:.2f} s |"
        )
    worst = max(rows[:-1], key=lambda r: r["step_cpu"])
    print(
        f"  dearest value: {worst['control']}={worst['value']}, {worst['step_cpu'] / default:.1f}x the default's step "
        f"(rule: <= 4x); all dearest at once ({rows[-1]['value']}): {rows[-1]['step_cpu'] / default:.1f}x"
    )


def _inside_pyodide(argv: list[str]) -> None:
    """Run by devtools.pyodide_runs inside Pyodide: argv = [request JSON]; writes /out/result.json."""
    request = json.loads(argv[0])
    results: dict = {
        str(heads): time_to_target(request["puzzle"], heads, request["settings"]) for heads in request["heads"]
    }
    if "whole_run" in request:
        results["whole_run"] = whole_run(request["puzzle"], request["whole_run"])
    if request.get("step_costs"):  # True: every control; a dict: those controls' values
        chosen = request["step_costs"]
        results["step_costs"] = step_costs(request["puzzle"], controls=chosen if isinstance(chosen, dict) else None)
    import attention_py

    results["package"] = attention_py.__file__  # which copy ran
    with open("/out/result.json", "w") as out:
        json.dump(results, out)


def one_seed(job: tuple[str, int, int]) -> dict:
    """The build's training of ``lang`` from ``seed`` on split ``split_seed`` (0: the build's):
    final validation/test accuracy, first step >= TARGET."""
    from attention_py.learning import Puzzle, train_with_checkpoints
    from site_hooks.content.training import training_settings

    lang, seed, split_seed = job
    settings = {**training_settings(lang), "seed": seed, "split_seed": split_seed}
    result = train_with_checkpoints(Puzzle.from_dict(_load(lang)), **settings)
    last = result["history"][-1]
    first = next((p["step"] for p in result["history"] if p["validation_accuracy"] >= TARGET), None)
    return {
        "lang": lang,
        "seed": seed,
        "split": split_seed,
        "validation": last["validation_accuracy"],
        "test": last["test_accuracy"],
        "first": first,
        "test_size": result["test_size"],
    }


def seed_table(languages: list[str], seeds: int, splits: list[int]) -> None:
    """Print the per-seed table (markdown) and, per language and split, how many seeds reach TARGET."""
    import os
    from concurrent.futures import ProcessPoolExecutor

    jobs = [(lang, seed, split) for lang in languages for split in splits for seed in range(seeds)]
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        results = list(pool.map(one_seed, jobs))
    print(f"\nSeeds 0-{seeds - 1}, the build's recipe (accuracy after the build's steps):\n")
    print("| language | split | seed | validation | test | first step with validation >= 95% |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for r in results:
        print(
            f"| {r['lang']} | {r['split']} | {r['seed']} | {r['validation']:.1%} | {r['test']:.1%} "
            f"| {r['first'] or 'never'} |"
        )
    print()
    for lang, split in [(lang, split) for lang in languages for split in splits]:
        mine = [r for r in results if r["lang"] == lang and r["split"] == split]
        good = sum(r["test"] >= TARGET for r in mine)
        tests = sorted(r["test"] for r in mine)
        print(
            f"  {lang}, split {split}: {good} of {len(mine)} seeds reach >= {TARGET:.0%} test accuracy "
            f"(test accuracy from {tests[0]:.1%} to {tests[-1]:.1%}, {mine[0]['test_size']} test sentences)"
        )


def _max_difference(a: dict, b: dict) -> float:
    return max(
        abs(x - y)
        for name in a["parameters"]
        for row_a, row_b in zip(a["parameters"][name], b["parameters"][name])
        for x, y in zip(row_a, row_b)
    )


def _load(lang: str) -> dict:
    import yaml

    from site_hooks.content.training import puzzle_file

    return yaml.safe_load(puzzle_file(lang).read_text(encoding="utf-8"))


def _load_average() -> str:
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def _seconds(value: float | None) -> str:
    return "not reached" if value is None else f"{value:.1f} s"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench training", description=__doc__.splitlines()[0])
    parser.add_argument("--languages", default="en,he,fa")
    parser.add_argument("--pyodide-languages", default="en", help="languages to time inside Pyodide")
    parser.add_argument("--skip-node", action="store_true")
    parser.add_argument("--skip-chromium", action="store_true")
    parser.add_argument("--seeds", type=int, default=10, help="seeds 0..N-1 for the per-seed table")
    parser.add_argument("--seeds-only", action="store_true", help="print the per-seed table only")
    parser.add_argument(
        "--split-seeds", default="0", help="splits of the per-seed table: 0 is the build's, 1,2,3 fresh ones"
    )
    parser.add_argument("--site", help="an existing build for the in-page run (default: build one now)")
    parser.add_argument(
        "--step-costs-only", action="store_true", help="print the time per step of each control value only"
    )
    args = parser.parse_args(argv)
    languages = args.languages.split(",")
    print(f"load average {_load_average()}")
    if args.step_costs_only:
        for lang in languages:
            _print_step_costs(f"{lang}, natively, load average {_load_average()}", step_costs(_load(lang)))
        if not args.skip_node:
            from devtools.pyodide_runs import in_node

            for lang in args.pyodide_languages.split(","):
                request = {"puzzle": _load(lang), "settings": {}, "heads": [], "step_costs": True}
                answers = in_node("bench/training.py", ["--inside", json.dumps(request, ensure_ascii=False)])
                _print_step_costs(f"{lang}, Pyodide in Node.js, load average {_load_average()}", answers["step_costs"])
        return 0
    if args.seeds:
        seed_table(languages, args.seeds, [int(s) for s in args.split_seeds.split(",")])
    if args.seeds_only:
        return 0

    from attention_py.learning import Puzzle, train_with_checkpoints
    from site_hooks.content.training import SETTINGS

    print(f"Build training (site_hooks/content/training.py SETTINGS = {SETTINGS}), natively, one after the other:")
    total = total_cpu = 0.0
    for lang in languages:
        started, cpu = time.perf_counter(), time.process_time()
        result = train_with_checkpoints(Puzzle.from_dict(_load(lang)), **SETTINGS)
        took, took_cpu = time.perf_counter() - started, time.process_time() - cpu
        total += took
        total_cpu += took_cpu
        first = next((p["step"] for p in result["history"] if p["validation_accuracy"] >= TARGET), None)
        print(
            f"  {lang}: {took:5.1f} s wall, {took_cpu:5.1f} s CPU, {result['steps']} steps, test "
            f"{result['history'][-1]['test_accuracy']:.1%} at the end, first validation >= {TARGET:.0%} at step {first}"
        )
    print(f"  all: {total:.1f} s wall, {total_cpu:.1f} s CPU (target <= 60 s); load average now {_load_average()}")

    settings = {"seed": SETTINGS["seed"], "eval_every": SETTINGS["eval_every"]}
    print(
        f"\nTime until validation accuracy >= {TARGET:.0%} (seed {settings['seed']}, evaluated every {settings['eval_every']} steps):"
    )
    rows = []
    native = {}
    for lang in languages:
        for heads in (1, 2):
            r = time_to_target(_load(lang), heads, settings)
            native[lang, heads] = r
            rows.append((lang, heads, f"CPython {r['python']}", r))
    runners = []
    if not args.skip_node:
        from devtools.pyodide_runs import in_node

        runners.append(("Pyodide, Node.js", in_node))
    if not args.skip_chromium:
        from devtools.pyodide_runs import in_chromium

        runners.append(("Pyodide, Chromium worker", in_chromium))
    whole_runs: list[str] = []
    pyodide_costs: list[tuple[str, list[dict]]] = []
    for where, run in runners:
        for lang in args.pyodide_languages.split(","):
            request = {
                "puzzle": _load(lang),
                "settings": settings,
                "heads": [1, 2],
                "whole_run": SETTINGS,
                "step_costs": True,
            }
            answers = run("bench/training.py", ["--inside", json.dumps(request, ensure_ascii=False)])
            full = answers["whole_run"]
            pyodide_costs.append((f"{lang}, {where}, load average {_load_average()}", answers["step_costs"]))
            whole_runs.append(
                f"  {lang}, {where} (Python {full['python']}): {full['steps']} steps with a history "
                f"point every {SETTINGS['eval_every']} in {full['seconds']:.1f} s, test accuracy "
                f"{full['test_accuracy']:.1%}"
            )
            for heads in (1, 2):
                r = answers[str(heads)]
                r["difference"] = _max_difference(r["model"], native[lang, heads]["model"])
                rows.append((lang, heads, f"{where} (Python {r['python']})", r))
    if whole_runs:
        print("\nThe build's whole run inside Pyodide (what 'train it yourself' computes; target <= 15 s in Chromium):")
        print("\n".join(whole_runs))
    print(f"\n(load average now {_load_average()} on this machine; other work slows every number)")
    print("\n| language | heads | where | to 95% | steps | test at stop | max weight difference from native |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
    for lang, heads, where, r in rows:
        diff = r.get("difference")
        print(
            f"| {lang} | {heads} | {where} | {_seconds(r['seconds'])} | {r['steps']} | "
            f"{r['test_accuracy']:.1%} | {'-' if diff is None else f'{diff:.1e}'} |"
        )
    for lang in languages:
        _print_step_costs(f"{lang}, natively, load average {_load_average()}", step_costs(_load(lang)))
    for where, costs in pyodide_costs:
        _print_step_costs(where, costs)
    if not args.skip_chromium:
        in_the_page(languages, args.site)
    return 0


def in_the_page(languages: list[str], site: str | None) -> None:
    """Train it yourself, in headless Chromium: time to 95% test accuracy, the whole run."""
    from pathlib import Path

    from playwright.sync_api import sync_playwright

    from bench.figure_latency import measure_training, report_training
    from devtools.browser import CHROMIUM_FLAGS, built_site, chromium_path
    from devtools.static_server import serve

    print("\nIn the page: train_live's Train pressed on a fresh gallery page, headless Chromium")
    with built_site(Path(site) if site else None) as built, serve(built) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        results = {lang: measure_training(browser, server.url, lang) for lang in languages}
        browser.close()
    report_training(results)


if __name__ == "__main__":  # inside Pyodide, run by main() above through devtools.pyodide_runs
    _inside_pyodide(sys.argv[2:] if sys.argv[1:2] == ["--inside"] else sys.argv[1:])
