"""What a reader waits for: the home page, cold and warm, in headless Chromium.

    ./run bench site_load                 # builds the site into a temporary folder first
    ./run bench site_load --site site/    # or measures an existing build
    ./run bench site_load --runs 5

For the English home page (it has a live cell) it reports, as medians over --runs visits:
first contentful paint, Python ready (the page's session says "ready"), first cell result
(a reader who presses Run as soon as the cell is there; the run waits for Python), and the
bytes the server sent. Beside it, in the same run: a bare page that only starts Pyodide in
a module worker (no site, no wheel), and the home page with scripts off (first paint only).
Cold = a new browser profile (empty cache); warm = the same profile visiting again; 3rd =
once more (Chromium keeps compiled WebAssembly in its code cache only from the second load
on, so the third visit is the first to skip compiling Pyodide). The server acts like a
static host (Last-Modified, Cache-Control: max-age=600).

Targets (issue 3): Python ready within 1.2x of the bare page; warm within 60% of cold;
first paint no later than 1.1x of the page with scripts off; a repeat visit under 100 KB.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from devtools.browser import CHROMIUM_FLAGS, built_site, chromium_path
from devtools.static_server import serve

TIMEOUT_MS = 120_000

BARE_PAGE = b"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bare Pyodide</title></head>
<body><p>A bare page that only starts Pyodide in a module worker.</p>
<script type="module">
const worker = new Worker(new URL("./bare-worker.js", import.meta.url), { type: "module" });
worker.onmessage = () => { window.__marks = { ready: performance.now() }; };
</script></body></html>"""
BARE_WORKER = b"""import { loadPyodide } from "../assets/pyodide/pyodide.mjs";
const pyodide = await loadPyodide({ indexURL: new URL("../assets/pyodide/", import.meta.url).href });
pyodide.runPython("1 + 1");
postMessage("ready");
"""

# Installed before any page script: records when the session becomes ready and when the first
# cell shows output, and presses Run on the first cell as soon as it is mounted.
MARKS = """
window.__marks = {};
const poll = setInterval(() => {
  const session = window.attentionPy && window.attentionPy.session;
  if (session && !window.__marks.watching) {
    window.__marks.watching = true;
    const mark = () => { if (session.state === "ready" && !window.__marks.ready) window.__marks.ready = performance.now(); };
    session.addEventListener("state", mark);
    mark();
  }
  const run = document.querySelector(".live-cell--mounted .live-cell__run");
  if (run && !window.__marks.pressed) { window.__marks.pressed = performance.now(); run.click(); }
  const output = document.querySelector(".live-cell__output");
  if (output && output.textContent.includes("0.14") && !window.__marks.result) {
    window.__marks.result = performance.now();
    clearInterval(poll);
  }
}, 4);
"""


def first_contentful_paint(page) -> float:
    return page.evaluate(
        "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN"
    )


def visit(context, server, url: str, wait_for: str | None) -> dict[str, float]:
    page = context.new_page()
    server.reset_count()
    page.goto(url, wait_until="load")
    if wait_for:
        page.wait_for_function(f"window.__marks && window.__marks.{wait_for}", timeout=TIMEOUT_MS)
    page.wait_for_timeout(300)  # let late requests finish so their bytes are counted
    marks = page.evaluate("window.__marks || {}") if wait_for else {}
    result = {"fcp_ms": first_contentful_paint(page), "bytes": float(server.bytes_sent)}
    result.update({f"{k}_ms": v for k, v in marks.items() if k in ("ready", "result")})
    page.close()
    return result


def measure(pw, server, url: str, wait_for: str | None, runs: int, *, scripts: bool = True) -> dict[str, dict[str, float]]:
    """Cold and warm visits; each run gets a new on-disk profile, as a real returning reader has
    (an in-memory profile's cache is too small to keep Pyodide's 9 MB of WebAssembly)."""
    cold, warm, third = [], [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as profile:
            context = pw.chromium.launch_persistent_context(
                profile, executable_path=chromium_path(), args=CHROMIUM_FLAGS, java_script_enabled=scripts
            )
            context.add_init_script(MARKS)
            cold.append(visit(context, server, url, wait_for))
            warm.append(visit(context, server, url, wait_for))
            third.append(visit(context, server, url, wait_for))
            context.close()
    return {"cold": median_of(cold), "warm": median_of(warm), "3rd": median_of(third)}


def median_of(rows: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(row[key] for row in rows) for key in rows[0]}


def report(results: dict[str, dict[str, dict[str, float]]]) -> None:
    def fmt(value: float | None, unit: str = "ms") -> str:
        if value is None:
            return "-"
        return f"{value / 1024:,.0f} KB" if unit == "KB" else f"{value:,.0f} ms"

    print(f"{'page':<24} {'visit':<5} {'first paint':>12} {'Python ready':>13} {'first result':>13} {'transferred':>12}")
    for name, by_visit in results.items():
        for visit_kind, row in by_visit.items():
            print(f"{name:<24} {visit_kind:<5} {fmt(row.get('fcp_ms')):>12} {fmt(row.get('ready_ms')):>13} "
                  f"{fmt(row.get('result_ms')):>13} {fmt(row.get('bytes'), 'KB'):>12}")

    home, bare, plain = results["home page"], results["bare Pyodide page"], results["home, scripts off"]
    checks = [
        ("Python ready (cold) within 1.2x of the bare page", home["cold"]["ready_ms"], 1.2 * bare["cold"]["ready_ms"]),
        ("Python ready (warm) within 1.2x of the bare page", home["warm"]["ready_ms"], 1.2 * bare["warm"]["ready_ms"]),
        ("warm Python ready within 60% of cold", home["warm"]["ready_ms"], 0.6 * home["cold"]["ready_ms"]),
        ("3rd-visit Python ready within 60% of cold", home["3rd"]["ready_ms"], 0.6 * home["cold"]["ready_ms"]),
        ("first paint (cold) within 1.1x of scripts off", home["cold"]["fcp_ms"], 1.1 * plain["cold"]["fcp_ms"]),
        ("repeat visit under 100 KB", home["warm"]["bytes"], 100 * 1024),
    ]
    print()
    for label, value, limit in checks:
        print(f"{'ok  ' if value <= limit else 'MISS'} {label}: {value:,.0f} (limit {limit:,.0f})")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench site_load", description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="an existing build (default: build one now)")
    parser.add_argument("--runs", type=int, default=5, help="visits of each kind (median is reported)")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    with built_site(args.site) as site:
        extra = {
            "/__bench__/bare.html": ("text/html; charset=utf-8", BARE_PAGE),
            "/__bench__/bare-worker.js": ("text/javascript", BARE_WORKER),
        }
        with serve(site, extra_files=extra) as server, sync_playwright() as pw:
            results = {
                "home page": measure(pw, server, f"{server.url}/", "result", args.runs),
                "bare Pyodide page": measure(pw, server, f"{server.url}/__bench__/bare.html", "ready", args.runs),
                "home, scripts off": measure(pw, server, f"{server.url}/", None, args.runs, scripts=False),
            }
    print(f"\nChromium headless, {args.runs} runs each, medians; served from 127.0.0.1 (no network latency)")
    report(results)
    return 0
