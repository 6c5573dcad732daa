"""How fast a figure follows the reader: input to updated figure, for every figure of the
English gallery page, in headless Chromium.

    .venv/bin/python -m bench figure_latency               # builds the site into a temp folder
    .venv/bin/python -m bench figure_latency --site site/  # or measures an existing build
    .venv/bin/python -m bench figure_latency --inputs 50

For each figure, the page's own script drives its first control (the one a reader meets
first: a slider, a draggable point's arrow keys, a button, a select, a check box) back and
forth, one input at a time, as the browser would deliver it (value set and `input`
dispatched, `keydown`, `click`). Latency runs from just before the input event is
dispatched to the moment the figure host has morphed Python's answer into the page (the
`figure-updated` event the host dispatches, detail.appliedAt); "call" is the part spent in
the session call (worker round trip, attention_py.figures.update in Pyodide), "morph" the part spent
patching the page; "frame" is until the next animation frame after the update.
Target: p95 <= 16 ms (one frame at 60 Hz). Beside the times, the bytes of one call (p50 over
those inputs): what the page posts to the worker ("sent": the call message, measured as its
UTF-8 JSON, which is what the worker hands Python) and what comes back ("reply": the result
message, the same way).

The figures of the trained model (training_replay, trained_reader, train_live), on a fresh
gallery page per language (``--training``, with ``--training-only`` to skip the rest): the
first inputs of the replay slider and of the reader's reason menu (the first includes
handing the build's data to Python), then Train: every call of train_live while it
trains (its Python time: one chunk of training), the replay slider moved every quarter
second meanwhile, in turns with a line of code run as a live cell runs it (how long the reader
waits for another figure, or a cell, while training runs), the
main thread's long tasks meanwhile (PerformanceObserver "longtask": over 50 ms), and the
time until the figure's held-out accuracy first reads at least 95%, and the bytes of a
training poll (train_live's call with no changes, sent and reply). Targets (issue 21): the
slider within 50 ms p95 while training runs, no main-thread task over 50 ms, 95% within
10 s; a poll posts under 1 KB (issue 29); the figure's budget (RunningFigure.budget: seconds of training per call) trades the first against the last.

Then drags with a real (Playwright) mouse, pointer moves every few milliseconds: the tip
of a vector in the dot-product figure, the first softmax slider, and the tip again with
the CPU throttled 4x (Chrome DevTools' emulation; a slow phone). With one call in
flight and input merged meanwhile, a drag should never build a backlog: the table shows
pointer moves, calls, inputs merged per call, updates per second and the input-to-update lag.
A drag counts as smooth when the figure redraws at least 30 times a second and the oldest
waiting input is drawn within 50 ms (p95), i.e. no backlog builds up.
"""

from __future__ import annotations

import argparse
import math
from itertools import pairwise
from pathlib import Path

from attention_py.figures.learning.train_live import FIGURE as TRAIN_LIVE
from devtools.browser import CHROMIUM_FLAGS, built_site, chromium_path, use_waits_that_keep_the_policy
from devtools.static_server import serve

TARGET_P95_MS = 16.0
SMOOTH_UPDATES_PER_S = 30
SMOOTH_LAG_MS = 50.0
READY_TIMEOUT_MS = 120_000

# Counts the bytes of every call the page's session posts to its worker and of its result
# (UTF-8 JSON of the message): window.__calls, id -> {id, figure, changes, sent, received}.
COUNT_BYTES = r"""
() => {
  const session = attentionPy.session;
  const size = (message) => new TextEncoder().encode(JSON.stringify(message)).length;
  const calls = (window.__calls = new Map());
  const worker = session.worker;
  const post = worker.postMessage.bind(worker);
  worker.postMessage = (message, ...rest) => {
    if (message?.type === "call") {
      calls.set(message.id, { id: message.id, figure: message.args?.[0], changes: message.args?.[2], sent: size(message), received: null });
    }
    return post(message, ...rest);
  };
  const receive = session.receive.bind(session);
  session.receive = (from, message) => {
    const call = message?.type === "result" && calls.get(message.id);
    if (call) call.received = size(message);
    return receive(from, message);
  };
}
"""
CALLS_SINCE = "(id) => [...window.__calls.values()].filter((call) => call.id >= id && call.received !== null)"

# Drives the first control of figure number `index`, `count` times, and times each update.
DRIVE = r"""
async ({ index, count }) => {
  const root = document.querySelectorAll(".apy-fig[data-figure]")[index];
  const controls = () => [...root.querySelectorAll("[data-keys], input[name], select[name], [data-set]")]
    .filter((el) => !el.disabled && el.getAttribute("aria-pressed") !== "true");
  const first = controls()[0];
  const key = first.getAttribute("data-focus-key");
  const find = (k) => root.querySelector(`[data-focus-key="${CSS.escape(k)}"]`);
  let other = null; // for buttons: a second button to alternate with
  if (first.matches("[data-set]") && !first.matches("[data-keys], input, select")) {
    other = [...root.querySelectorAll("[data-set]")].find((el) => el.dataset.set !== first.dataset.set && !el.disabled);
  }
  const otherKey = other?.getAttribute("data-focus-key");
  const startValue = first.value;
  const startsAtMax = first.type === "range" && Number(first.value) >= Number(first.max);
  const act = (i) => {
    const forward = i % 2 === 0;
    const el = find(key);
    if (el.matches("[data-keys]")) {
      const keys = JSON.parse(el.dataset.keys);
      const name = forward ? (keys.ArrowRight ? "ArrowRight" : "ArrowUp") : (keys.ArrowLeft ? "ArrowLeft" : "ArrowDown");
      el.dispatchEvent(new KeyboardEvent("keydown", { key: name, bubbles: true, cancelable: true }));
    } else if (el.type === "range") {
      forward !== startsAtMax ? el.stepUp() : el.stepDown();
      el.dispatchEvent(new Event("input", { bubbles: true }));
    } else if (el.type === "checkbox") {
      el.click();
    } else if (el.localName === "select") {
      el.selectedIndex = forward ? (el.selectedIndex + 1) % el.options.length : [...el.options].findIndex((o) => o.value === startValue);
      el.dispatchEvent(new Event("input", { bubbles: true }));
      el.dispatchEvent(new Event("change", { bubbles: true }));
    } else if (el.localName === "input") {
      el.value = forward ? "1.5" : startValue;
      el.dispatchEvent(new Event("change", { bubbles: true }));
    } else {
      (forward || !otherKey ? el : find(otherKey)).click();
    }
  };
  const samples = [];
  for (let i = 0; i < count; i += 1) {
    const updated = new Promise((resolve) =>
      root.addEventListener("figure-updated", (event) => resolve(event.detail), { once: true }));
    const t0 = performance.now();
    act(i);
    const detail = await updated;
    await new Promise((resolve) => requestAnimationFrame(resolve));
    samples.push({
      ok: detail.ok,
      dom: detail.appliedAt - t0,
      python: detail.receivedAt - detail.sentAt,
      frame: performance.now() - t0,
      morph: detail.appliedAt - detail.receivedAt,
    });
    await new Promise((resolve) => setTimeout(resolve, 20)); // a reader's pace, not a flood
  }
  return { name: root.dataset.figure, control: key, samples };
}
"""

# A fast drag: after a real mouse press on the element (which the host captures), pointer
# moves every 4 ms (a 250 Hz mouse) along a circle, dispatched by the page itself so that
# nothing waits for the previous answer. Returns what the host logged meanwhile.
FAST_DRAG = r"""
async ({ selector, radius, ms, every }) => {
  const el = document.querySelector(selector);
  const root = el.closest(".apy-fig");
  const host = attentionPy.figures.hosts.find((h) => h.root === root);
  const box = el.getBoundingClientRect();
  const x0 = box.left + box.width / 2, y0 = box.top + box.height / 2;
  const updates = [];
  const log = (event) => updates.push(event.detail);
  root.addEventListener("figure-updated", log);
  const before = { ...host.stats };
  const t0 = performance.now();
  await new Promise((resolve) => {
    const timer = setInterval(() => {
      const t = (performance.now() - t0) / ms;
      if (t >= 1) { clearInterval(timer); resolve(); return; }
      const a = 2 * Math.PI * t;
      if (el.type === "range") { // what the browser does while a slider's thumb is dragged
        const min = Number(el.min), max = Number(el.max);
        el.value = String(min + ((max - min) * (1 - Math.cos(a))) / 2);
        el.dispatchEvent(new Event("input", { bubbles: true }));
        return;
      }
      el.dispatchEvent(new PointerEvent("pointermove", {
        pointerId: 1, pointerType: "mouse", isPrimary: true, bubbles: true, cancelable: true,
        clientX: x0 + radius * Math.sin(a), clientY: y0 - radius * (1 - Math.cos(a)),
      }));
    }, every);
  });
  const seconds = (performance.now() - t0) / 1000;
  while (host.inFlight || host.pending) await new Promise((resolve) => setTimeout(resolve, 5));
  root.removeEventListener("figure-updated", log);
  return {
    seconds,
    inputs: host.stats.inputs - before.inputs,
    calls: host.stats.calls - before.calls,
    updates: updates.map((u) => ({ inputs: u.inputs, lag: u.appliedAt - u.firstInputAt, at: u.appliedAt })),
  };
}
"""


# On a fresh page: first inputs of the replay and the reader, then a whole training run in
# train_live with the replay slider moved every 500 ms meanwhile.
TRAINING = r"""
async () => {
  const fig = (name) => document.querySelector(`.apy-fig[data-figure="${name}"]`);
  const once = (root) => new Promise((resolve) =>
    root.addEventListener("figure-updated", (event) => resolve(event.detail), { once: true }));
  const timed = async (root, act) => {
    const updated = once(root);
    const t0 = performance.now();
    act();
    const detail = await updated;
    return { total: detail.appliedAt - t0, call: detail.receivedAt - detail.sentAt };
  };
  const replay = fig("training_replay"), reader = fig("trained_reader"), live = fig("train_live");
  const slider = replay.querySelector('input[name="checkpoint"]');
  const move = () => {
    slider.value = String(Number(slider.value) > 0 ? Number(slider.value) - 1 : 1);
    slider.dispatchEvent(new Event("input", { bubbles: true }));
  };
  const menu = reader.querySelector('select[name="reason"]');
  const pick = () => {
    menu.selectedIndex = (menu.selectedIndex + 1) % menu.options.length;
    menu.dispatchEvent(new Event("input", { bubbles: true }));
  };
  const out = { replay: [], reader: [], chunks: [], meanwhile: [], cells: [], reached: null, longTasks: [] };
  // what a live cell's Run sends: code through the page's session, queued like a figure's call
  const runCell = async () => {
    const t0 = performance.now();
    await attentionPy.session.run("sum(range(100))").reply;
    return performance.now() - t0;
  };
  for (let i = 0; i < 8; i += 1) out.replay.push(await timed(replay, move));
  for (let i = 0; i < 8; i += 1) out.reader.push(await timed(reader, pick));
  const state = () => JSON.parse(live.dataset.state);
  const accuracy = () => {
    const numbers = live.querySelectorAll(".apy-fig__readout .apy-num");
    return parseFloat(numbers[numbers.length - 1].textContent);
  };
  const t0 = performance.now();
  const log = (event) => {
    const d = event.detail;
    out.chunks.push({ call: d.receivedAt - d.sentAt, step: state().step });
    if (!out.reached && state().step > 0 && accuracy() >= 95) {
      out.reached = { seconds: (performance.now() - t0) / 1000, step: state().step };
    }
  };
  live.addEventListener("figure-updated", log);
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) out.longTasks.push(entry.duration);
  });
  observer.observe({ type: "longtask" });
  live.querySelector('[data-focus-key="train"]').click();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (!state().running && out.chunks.length > 0) break;
    if (out.meanwhile.length > out.cells.length) out.cells.push(await runCell());
    else out.meanwhile.push(await timed(replay, move));
  }
  observer.disconnect();
  live.removeEventListener("figure-updated", log);
  return { ...out, seconds: (performance.now() - t0) / 1000, steps: state().step };
}
"""


def measure_training(browser, url: str, lang: str) -> dict:
    page = open_gallery(browser, url, "" if lang == "en" else f"{lang}/")
    page.evaluate(COUNT_BYTES)
    result = page.evaluate(TRAINING)
    calls = page.evaluate(CALLS_SINCE, 0)
    result["polls"] = [c for c in calls if c["figure"] == "train_live" and not c["changes"]]
    page.close()
    return result


def report_training(results: dict[str, dict]) -> None:
    from bench.training import _load_average

    print(f"\ntraining figures: train_live budget = {TRAIN_LIVE.budget} s; load average {_load_average()}")
    print(
        f"\n{'training figures':<34} {'first':>8} {'then p50':>9} {'max':>8}   (input to figure updated; call = Python + worker)"
    )
    for lang, r in results.items():
        for name, samples in (("training_replay slider", r["replay"]), ("trained_reader reason menu", r["reader"])):
            rest = [s["total"] for s in samples[1:]]
            print(
                f"{lang} {name:<31} {samples[0]['total']:>6.0f}ms {percentile(rest, 0.5):>7.0f}ms {max(rest):>6.0f}ms"
            )
        calls = [c["call"] for c in r["chunks"]]
        print(
            f"{lang} train_live calls while training: {len(calls)}, first {calls[0]:.0f} ms, "
            f"p50 {percentile(calls, 0.5):.0f} ms, p95 {percentile(calls, 0.95):.0f} ms, max {max(calls):.0f} ms"
        )
        waits = [m["total"] for m in r["meanwhile"]]
        if waits:
            print(
                f"{lang} replay slider while training ({len(waits)} inputs): p50 {percentile(waits, 0.5):.0f} ms, "
                f"p95 {percentile(waits, 0.95):.0f} ms, max {max(waits):.0f} ms"
            )
        cells = r["cells"]
        if cells:
            print(
                f"{lang} a cell's code run while training ({len(cells)} runs): p50 {percentile(cells, 0.5):.0f} ms, "
                f"p95 {percentile(cells, 0.95):.0f} ms, max {max(cells):.0f} ms"
            )
        tasks = r["longTasks"]
        print(
            f"{lang} main thread while training: {len(tasks)} tasks over 50 ms"
            + (f", longest {max(tasks):.0f} ms" if tasks else "")
        )
        polls = r["polls"]
        if polls:
            sent, received = [p["sent"] for p in polls], [p["received"] for p in polls]
            print(
                f"{lang} train_live poll ({len(polls)} calls): sent p50 {percentile(sent, 0.5):,.0f} B "
                f"(max {max(sent):,}), reply p50 {percentile(received, 0.5):,.0f} B (max {max(received):,})"
            )
        reached = r["reached"]
        print(
            f"{lang} train_live: {r['steps']} steps in {r['seconds']:.1f} s; test accuracy >= 95% "
            + (f"after {reached['seconds']:.1f} s (step {reached['step']})" if reached else "never")
        )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def open_gallery(browser, url: str, prefix: str = ""):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{url}/{prefix}gallery/")
    page.wait_for_function(
        "window.attentionPy?.figures && attentionPy.session.state === 'ready'", timeout=READY_TIMEOUT_MS
    )
    page.wait_for_function("attentionPy.session.running === null && attentionPy.session.queue.length === 0")
    return page


def measure_inputs(page, count: int) -> list[dict]:
    rows = []
    total = page.evaluate("document.querySelectorAll('.apy-fig[data-figure]').length")
    for index in range(total):
        page.evaluate(DRIVE, {"index": index, "count": 3})  # warm this figure's code paths
        first_call = page.evaluate("attentionPy.session.nextId")
        result = page.evaluate(DRIVE, {"index": index, "count": count})
        calls = [c for c in page.evaluate(CALLS_SINCE, first_call) if c["figure"] == result["name"]]
        samples = result["samples"]
        dom = [s["dom"] for s in samples]
        rows.append(
            {
                "name": result["name"],
                "control": result["control"],
                "n": len(samples),
                "refused": sum(not s["ok"] for s in samples),
                "p50": percentile(dom, 0.5),
                "p95": percentile(dom, 0.95),
                "python_p50": percentile([s["python"] for s in samples], 0.5),
                "frame_p95": percentile([s["frame"] for s in samples], 0.95),
                "morph_p50": percentile([s["morph"] for s in samples], 0.5),
                "sent_p50": percentile([c["sent"] for c in calls], 0.5) if calls else float("nan"),
                "reply_p50": percentile([c["received"] for c in calls], 0.5) if calls else float("nan"),
            }
        )
    return rows


def measure_drag(page, selector: str, *, radius: float = 60, ms: float = 1500, every: float = 4) -> dict:
    """Presses the mouse on `selector`, moves it fast in page (see FAST_DRAG), releases."""
    handle = page.locator(selector).first
    handle.scroll_into_view_if_needed()
    pointer = handle.get_attribute("data-drag") is not None
    if pointer:
        box = handle.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
    result = page.evaluate(FAST_DRAG, {"selector": selector, "radius": radius, "ms": ms, "every": every})
    if pointer:
        page.mouse.up()
    updates = result["updates"]
    lags = [u["lag"] for u in updates]
    gaps = [b["at"] - a["at"] for a, b in pairwise(updates)]
    return {
        "moves": result["inputs"],
        "calls": result["calls"],
        "merged": result["inputs"] / max(1, result["calls"]),
        "moves_per_second": result["inputs"] / result["seconds"],
        "per_second": len(updates) / result["seconds"],
        "lag_p50": percentile(lags, 0.5) if lags else float("nan"),
        "lag_p95": percentile(lags, 0.95) if lags else float("nan"),
        "max_gap": max(gaps) if gaps else float("nan"),
    }


def report(rows: list[dict], drags: dict[str, dict]) -> None:
    print(
        f"{'figure':<22} {'control':<14} {'n':>3} {'p50':>8} {'p95':>8} {'call p50':>9} {'morph p50':>10} "
        f"{'frame p95':>10} {'sent':>8} {'reply':>9}  target"
    )
    for row in rows:
        verdict = "ok" if row["p95"] <= TARGET_P95_MS else "MISS"
        refused = f"  ({row['refused']} refused)" if row["refused"] else ""
        print(
            f"{row['name']:<22} {row['control'][:14]:<14} {row['n']:>3} {row['p50']:>6.1f}ms {row['p95']:>6.1f}ms "
            f"{row['python_p50']:>7.1f}ms {row['morph_p50']:>8.1f}ms {row['frame_p95']:>8.1f}ms "
            f"{row['sent_p50']:>6,.0f} B {row['reply_p50']:>7,.0f} B  {verdict}{refused}"
        )
    met = sum(row["p95"] <= TARGET_P95_MS for row in rows)
    print(f"\n{met} of {len(rows)} figures within p95 <= {TARGET_P95_MS:.0f} ms (input event to figure updated)")
    print("sent / reply = p50 bytes of one call's message to the worker / of its result (UTF-8 JSON)")

    print(
        f"\n{'drag':<27} {'inputs':>6} {'calls':>6} {'merged':>7} {'inputs/s':>8} {'updates/s':>10} "
        f"{'lag p50':>8} {'lag p95':>8} {'max gap':>8}"
    )
    for name, d in drags.items():
        print(
            f"{name:<27} {d['moves']:>6} {d['calls']:>6} {d['merged']:>7.1f} {d['moves_per_second']:>8.0f} "
            f"{d['per_second']:>10.0f} {d['lag_p50']:>6.1f}ms {d['lag_p95']:>6.1f}ms {d['max_gap']:>6.1f}ms"
        )
    print("merged = inputs carried per call (coalescing); lag = oldest merged input to figure updated")
    for name, d in drags.items():
        smooth = d["per_second"] >= SMOOTH_UPDATES_PER_S and d["lag_p95"] <= SMOOTH_LAG_MS
        print(
            f"{'ok  ' if smooth else 'MISS'} {name}: {'smooth' if smooth else 'not smooth'} "
            f"({d['per_second']:.0f} updates/s, lag p95 {d['lag_p95']:.0f} ms, "
            f"longest wait between updates {d['max_gap']:.0f} ms)"
        )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench figure_latency", description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="an existing build (default: build one now)")
    parser.add_argument("--inputs", type=int, default=40, help="inputs per figure (default 40)")
    parser.add_argument(
        "--training",
        nargs="*",
        metavar="LANG",
        help="also measure the trained model's figures on a fresh page per language (default: en)",
    )
    parser.add_argument("--training-only", action="store_true", help="only those")
    args = parser.parse_args(argv)
    training_langs = args.training or (["en"] if args.training is not None or args.training_only else [])

    from playwright.sync_api import sync_playwright

    use_waits_that_keep_the_policy()  # the pages refuse eval, which Playwright's waits use

    with built_site(args.site) as site, serve(site) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        training = {lang: measure_training(browser, server.url, lang) for lang in training_langs}
        if args.training_only:
            browser.close()
            report_training(training)
            return 0
        page = open_gallery(browser, server.url)
        page.evaluate(COUNT_BYTES)
        python = page.evaluate("attentionPy.session.info.python")
        rows = measure_inputs(page, args.inputs)
        drags = {
            "dot_product tip of a": measure_drag(page, ".apy-fig--dot_product [data-drag]"),
            "softmax_scale scale": measure_drag(page, ".apy-fig--softmax_scale input[name='scale']"),
        }
        # A slow phone: the same drag with the CPU (page and worker) 4x slower, where
        # answers take longer than pointer moves arrive and merging has to keep up.
        cdp = page.context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        drags["dot_product, CPU 4x slower"] = measure_drag(page, ".apy-fig--dot_product [data-drag]")
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        browser.close()
    from bench.training import _load_average

    print(
        f"\nHeadless Chromium, English gallery, Python {python} in Pyodide; {args.inputs} inputs per figure, "
        f"one at a time (20 ms apart); drags: moves every 4 ms for 1.5 s; load average {_load_average()}\n"
    )
    report(rows, drags)
    if training:
        report_training(training)
    return 0
