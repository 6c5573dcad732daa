"""The size of train_live's run files, and the time to save and import one, natively.

    ./run bench run_files [--repeat N]

For each language and each prepared recipe the build ships (the defaults and the experiments
the learning page links) plus the largest recipe the figure offers (2 layers, 2 heads,
d_model 16): the run file's size as exported (JSON), gzipped (what a download or the shelf's
storage would hold compressed), and the median time of ``run_file`` (save) and
``read_run_file`` (import: every part checked against a fresh model of the recipe). The
shelf stores at most LIMIT such files; figure-files.js bounds their characters.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import time


def _median_ms(action, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench run_files")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)

    from attention_py.figures import FIGURES, update
    from attention_py.figures.learning.training_app.run import PreparedRun, new_run, prepared_run, run_record
    from attention_py.figures.learning.training_app.shelf import LIMIT, Kept, read_run_file, run_file
    from attention_py.pieces import drain
    from site_hooks.content.figures import strings_for
    from site_hooks.content.training import prepared_states, use_build_resources

    use_build_resources()
    print(f"load average {os.getloadavg()[0]:.2f}; shelf limit {LIMIT} runs")
    print(f"{'lang':4} {'recipe':40} {'JSON':>9} {'gzip':>8} {'save ms':>8} {'import ms':>9}")
    for lang in ("en", "he", "fa"):
        figure = FIGURES["train_live"]
        largest = figure.normalise({**figure.default_state(lang), "heads": 2, "steps": 60})
        states = [*prepared_states(lang), largest]
        for state in states:
            if state is largest:  # not prepared: trained here, to its end
                run = new_run(state, lang)
                drain(run.pieces(state["steps"]))
                record = run_record(run, state)
            else:
                answer = update("train_live", {}, {**state, "step": 0, "running": False}, lang, strings_for(lang), "b")
                record = prepared_run(lang, answer["state"]).record
            kept = Kept(1, record, PreparedRun(record, lang))
            text = run_file(kept, lang)
            save = _median_ms(lambda kept=kept, lang=lang: run_file(kept, lang), args.repeat)
            load = _median_ms(lambda text=text, lang=lang: read_run_file(text, lang), args.repeat)
            defaults = figure.default_state(lang)
            name = ",".join(f"{k}={state[k]}" for k in record["recipe"] if state[k] != defaults[k]) or "defaults"
            if state is largest:
                name += " (largest)"
            size = len(text.encode())
            packed = len(gzip.compress(text.encode()))
            print(f"{lang:4} {name:40} {size:>9,} {packed:>8,} {save:>8.1f} {load:>9.1f}")
    return 0
