"""Training the induction model in the page: how fast, and does the page stay responsive?
In headless Chromium, on the induction article of each language asked.

    .venv/bin/python -m bench induction_page                    # builds the site into a temp folder
    .venv/bin/python -m bench induction_page --site site/ --seconds 120 --langs en fa
    .venv/bin/python -m bench induction_page --site site/ --until-formed   # the whole default run

Presses Train on the article's ``induction_live`` figure (its default recipe: the build's,
400 steps) and, while it trains, moves the replay's slider every quarter second (the input to
updated figure: how long a reader waits for another figure meanwhile; not with ``--still``),
and records every training call (its Python time: one short piece of training and the
drawing), the time each figure's answers take to apply on the main thread, the main thread's
long tasks (PerformanceObserver "longtask": over 50 ms) and the steps reached. It
stops after ``--seconds``, or with ``--until-formed`` when the run ends, and prints the
seconds per step and, with the step at which the build's run formed the head
(``assets/induction/run.json``: the same recipe and seed, so the same step), the time the
page takes to form it. Goals (issue 31): the head formed within 60 s of Train, no main-thread
task over 50 ms, another figure within 50 ms p95.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bench.figure_latency import percentile
from devtools.browser import CHROMIUM_FLAGS, built_site, chromium_path, use_waits_that_keep_the_policy
from devtools.static_server import serve

READY_TIMEOUT_MS = 180_000

TRAIN = r"""
async ({ seconds, untilFormed, still }) => {
  const fig = (name) => document.querySelector(`.apy-fig[data-figure="${name}"]`);
  const live = fig("induction_live"), replay = fig("induction_replay");
  const state = () => JSON.parse(live.dataset.state);
  const slider = replay.querySelector('input[name="checkpoint"]');
  const once = (root) => new Promise((resolve) =>
    root.addEventListener("figure-updated", (event) => resolve(event.detail), { once: true }));
  const move = async () => {
    const updated = once(replay);
    const t0 = performance.now();
    slider.value = String(Number(slider.value) > 0 ? Number(slider.value) - 1 : 1);
    slider.dispatchEvent(new Event("input", { bubbles: true }));
    const detail = await updated;
    out.applied.replay.push(detail.appliedAt - detail.receivedAt);
    return detail.appliedAt - t0;
  };
  const out = { calls: [], meanwhile: [], longTasks: [], steps: [], applied: { live: [], replay: [] } };
  const t0 = performance.now();
  live.addEventListener("figure-updated", (event) => {
    const d = event.detail;
    out.calls.push(d.receivedAt - d.sentAt);
    out.applied.live.push(d.appliedAt - d.receivedAt);
    out.steps.push([(performance.now() - t0) / 1000, state().step]);
  });
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) out.longTasks.push(entry.duration);
  });
  observer.observe({ type: "longtask" });
  live.querySelector('[data-focus-key="train"]').click();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const elapsed = (performance.now() - t0) / 1000;
    if (!state().running && out.calls.length > 0) break;
    if (!untilFormed && elapsed >= seconds) break;
    if (!still) out.meanwhile.push(await move());
  }
  observer.disconnect();
  return { ...out, seconds: (performance.now() - t0) / 1000, step: state().step };
}
"""


def measure(browser, url: str, lang: str, seconds: float, until_formed: bool, still: bool) -> dict:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{url}/{'' if lang == 'en' else lang + '/'}induction/")
    page.wait_for_function(
        "window.attentionPy?.figures && attentionPy.session.state === 'ready'", timeout=READY_TIMEOUT_MS
    )
    page.wait_for_function("attentionPy.session.running === null && attentionPy.session.queue.length === 0")
    result = page.evaluate(TRAIN, {"seconds": seconds, "untilFormed": until_formed, "still": still})
    page.close()
    return result


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench induction_page", description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="an existing build (default: build one now)")
    parser.add_argument("--seconds", type=float, default=120.0, help="how long to train (default 120)")
    parser.add_argument("--until-formed", action="store_true", help="train the whole default run instead")
    parser.add_argument("--langs", nargs="+", default=["en"])
    parser.add_argument("--still", action="store_true", help="do not move the replay's slider meanwhile")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    use_waits_that_keep_the_policy()  # the pages refuse eval, which Playwright's waits use

    from bench.training import _load_average

    print(f"load average before: {_load_average()}")
    with built_site(args.site) as site, serve(site) as server, sync_playwright() as pw:
        formed_at = json.loads((Path(site) / "assets" / "induction" / "run.json").read_text())["formed_at"]
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        results = {
            lang: measure(browser, server.url, lang, args.seconds, args.until_formed, args.still) for lang in args.langs
        }
        browser.close()
    print(f"load average after: {_load_average()}")
    for lang, r in results.items():
        steps, seconds = r["step"], r["seconds"]
        per_step = seconds / max(steps, 1)
        calls, waits, tasks = r["calls"], r["meanwhile"], r["longTasks"]
        print(f"\n{lang}: {steps} steps in {seconds:.1f} s: {per_step:.2f} s a step")
        reached = next((at for at, step in r["steps"] if step >= formed_at), None)
        print(
            f"{lang}: the build's recipe forms the head at step {formed_at}: "
            + (
                f"reached {reached:.0f} s after Train"
                if reached is not None
                else f"{formed_at * per_step:.0f} s at this pace"
            )
            + " (goal: 60 s)"
        )
        print(
            f"{lang}: training calls {len(calls)}: p50 {percentile(calls, 0.5):.0f} ms, "
            f"p95 {percentile(calls, 0.95):.0f} ms, max {max(calls):.0f} ms"
        )
        if waits:
            print(
                f"{lang}: replay slider while training ({len(waits)} inputs): p50 {percentile(waits, 0.5):.0f} ms, "
                f"p95 {percentile(waits, 0.95):.0f} ms, max {max(waits):.0f} ms (goal: p95 50 ms)"
            )
        for name, times in r["applied"].items():
            if times:
                print(
                    f"{lang}: {name}'s answers applied on the main thread: p50 {percentile(times, 0.5):.1f} ms, "
                    f"p95 {percentile(times, 0.95):.1f} ms, max {max(times):.1f} ms"
                )
        print(
            f"{lang}: main thread: {len(tasks)} tasks over 50 ms" + (f", longest {max(tasks):.0f} ms" if tasks else "")
        )
    return 0
