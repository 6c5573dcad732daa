"""What a reader waits for: the home page, cold and warm, in headless Chromium.

    ./run bench site_load                 # builds the site into a temporary folder first
    ./run bench site_load --site site/    # or measures an existing build
    ./run bench site_load --runs 5 --throttled-runs 1

For the English home page (it has a live cell) it reports, as medians over --runs visits:
first contentful paint, Python ready (the page's session says "ready"), first cell result
(a reader who presses Run as soon as the cell is there; the run waits for Python), and the
bytes the server sent. All in one run, side by side: the home page as built (Python restored
from the build's memory snapshot), the same page with the snapshot hidden (the manifest
names none and its file answers 404: the normal boot, as before issue 12), a bare page that
only starts Pyodide in a module worker (no site, no wheel), and the home page with scripts
off (first paint only). Cold = a new browser profile (empty cache); warm = the same profile
visiting again; 3rd = once more (Chromium keeps compiled WebAssembly in its code cache only
from the second load on). "click at 1 s": a reader who presses Run on a page open for 1 s,
timed from the click to the answer. "throttled": cold visits over a Fast-3G-like link (562.5
ms latency, 180 KB/s down, shared by every request), made by the server itself
(devtools/static_server.py, ``link``) so that it slows every request alike: the page's, its
service worker's and its Python frame's, which a page's DevTools network throttling does not
all reach; the page's own process also runs its CPU 4x slower (DevTools; not the frame's
process). The browser rates its connection 3g, as a reader's browser on such a link does: the
page then boots Python without the memory image (docs/widgets/README.md, "The memory snapshot").
The server acts like GitHub Pages (Last-Modified, Cache-Control: max-age=600, gzip for text,
scripts, JSON and WebAssembly: devtools/static_server.py); ``--raw`` sends every file as it is.
Beside each throttled "Python ready" it prints the physical floor: the visit's bytes on the
wire at the profile's throughput plus ``ROUND_TRIPS`` latencies. Then, for each kind of page
(``PAGES``), what a cold visit transfers by kind of file.

Targets (issue 12): Python ready cold <= 0.6x the bare page, warm <= 0.5x the bare page's warm;
click at 1 s no worse than without the snapshot; first paint <= 1.1x scripts off (also
throttled); a repeat visit under 100 KB.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from devtools.browser import CHROMIUM_FLAGS, built_site, chromium_path, use_waits_that_keep_the_policy
from devtools.static_server import serve

TIMEOUT_MS = 120_000
THROTTLED_TIMEOUT_MS = 600_000
# Chromium DevTools' "Fast 3G" preset (latency and throughput with its 0.9 factor), and 4x CPU.
# What a browser on such a link tells the page (Network Information API: "3g" from a round
# trip of 270 ms on), so that the page's connection rule does what it does for such a reader.
SLOW_BROWSER = ("--force-effective-connection-type=3G",)
FAST_3G = {"offline": False, "latency": 562.5, "downloadThroughput": 180_000, "uploadThroughput": 84_375}
CPU_SLOWDOWN = 4
# The requests one after another before Python runs, each waiting for the one before: the
# page, its early worker script, the worker's module, pyodide.mjs, the runtime's files (the
# wasm, the memory image or the standard library), the package's wheel.
ROUND_TRIPS = 6
# One of each kind of page: a live cell near the top, an article of figures, text only, and
# a right-to-left home page. A cold visit in a new profile; "Python" when the page started it.
PAGES = {"home (a cell)": "/", "article (figures)": "/induction/", "glossary (text)": "/glossary/", "fa home": "/fa/"}

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
  const clickAt = location.hash === "#click-at-1s" ? 1000 : 0;
  if (run && !window.__marks.pressed && performance.now() >= clickAt) { window.__marks.pressed = performance.now(); run.click(); }
  const output = document.querySelector(".live-cell__output");
  if (output && output.textContent.includes("0.14") && !window.__marks.result) {
    window.__marks.result = performance.now();
    window.__marks.answer = window.__marks.result - window.__marks.pressed;
    window.__marks.boot = session && session.info ? session.info.boot : "?";
    clearInterval(poll);
  }
}, 4);
"""


def first_contentful_paint(page, timeout_ms: float = 60_000) -> float:
    """The page's first contentful paint; waits for it (under throttling it can come after
    the load event, e.g. while the text waits for its web font)."""
    waited = 0.0
    while True:  # polled from here: with scripts off the page runs no polling of its own
        found = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")
        if found is not None or waited >= timeout_ms:
            return math.nan if found is None else found
        page.wait_for_timeout(100)
        waited += 100


def visit(context, server, url: str, wait_for: str | None, *, throttled: bool = False) -> dict[str, float]:
    page = context.new_page()
    if throttled:  # the link's slowness is the server's (``slow_link``)
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    server.reset_count()
    page.goto(url, wait_until="load", timeout=THROTTLED_TIMEOUT_MS if throttled else TIMEOUT_MS)
    if wait_for:
        page.wait_for_function(
            f"window.__marks && window.__marks.{wait_for}", timeout=THROTTLED_TIMEOUT_MS if throttled else TIMEOUT_MS
        )
    # A reader stays on the page: late requests finish (their bytes are counted) and the worker
    # keeps the inflated memory image for the next visit (Cache Storage), as it does once ready.
    page.wait_for_timeout(1500)
    marks = page.evaluate("window.__marks || {}") if wait_for else {}
    result = {"fcp_ms": first_contentful_paint(page), "bytes": float(server.bytes_sent)}
    result.update({f"{k}_ms": v for k, v in marks.items() if k in ("ready", "result", "answer")})
    if "boot" in marks:
        result["snapshot"] = float(marks["boot"] == "snapshot")
    page.close()
    return result


def measure(
    pw,
    server,
    url: str,
    wait_for: str | None,
    runs: int,
    *,
    scripts: bool = True,
    visits: tuple[str, ...] = ("cold", "warm", "3rd"),
    throttled: bool = False,
) -> dict[str, dict[str, float]]:
    """Cold and warm visits; each run gets a new on-disk profile, as a real returning reader has
    (an in-memory profile's cache is too small to keep Pyodide's 9 MB of WebAssembly)."""
    rows: dict[str, list[dict[str, float]]] = {kind: [] for kind in visits}
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as profile:
            context = pw.chromium.launch_persistent_context(
                profile,
                executable_path=chromium_path(),
                args=[*CHROMIUM_FLAGS, *(SLOW_BROWSER if throttled else ())],
                java_script_enabled=scripts,
            )
            context.add_init_script(MARKS)
            for kind in visits:
                rows[kind].append(visit(context, server, url, wait_for, throttled=throttled))
            context.close()
    return {kind: median_of(found) for kind, found in rows.items()}


def median_of(rows: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(row[key] for row in rows) for key in rows[0]}


def report(results: dict[str, dict[str, dict[str, float]]]) -> None:
    def fmt(value: float | None, unit: str = "ms") -> str:
        if value is None:
            return "-"
        return f"{value / 1024:,.0f} KB" if unit == "KB" else f"{value:,.0f} ms"

    def ratio(value: float | None, base: float | None) -> str:
        return f"{value / base:.2f}x" if value and base else "-"

    bare, plain = results["bare Pyodide page"], results["home, scripts off"]
    baselines = {"throttled": (results.get("bare, throttled"), results.get("scripts off, throttled"))}
    print(
        f"{'page':<24} {'visit':<9} {'first paint':>11} {'/off':>6} {'Python ready':>12} {'/bare':>6} "
        f"{'cell answer':>11} {'transferred':>12} {'/bare':>6} {'snapshot':>8} {'floor':>10} {'/floor':>6}"
    )
    for name, by_visit in results.items():
        for kind, row in by_visit.items():
            base_kind = kind if kind in bare else "cold"
            bare_row, off_row = bare[base_kind], plain.get(base_kind, plain["cold"])
            if kind == "throttled":
                bare_row, off_row = (b.get("throttled", {}) if b else {} for b in baselines["throttled"])
            answer = row.get("answer_ms") if kind.startswith("click") else row.get("result_ms")
            snap = {1.0: "yes", 0.0: "no"}.get(row.get("snapshot"), "")
            bound = floor_ms(row["bytes"]) if kind == "throttled" else None
            print(
                f"{name:<24} {kind:<9} {fmt(row.get('fcp_ms')):>11} {ratio(row.get('fcp_ms'), off_row.get('fcp_ms')):>6} "
                f"{fmt(row.get('ready_ms')):>12} {ratio(row.get('ready_ms'), bare_row.get('ready_ms')):>6} "
                f"{fmt(answer):>11} {fmt(row.get('bytes'), 'KB'):>12} {ratio(row.get('bytes'), bare_row.get('bytes')):>6} {snap:>8}"
                f" {fmt(bound):>10} {ratio(row.get('ready_ms'), bound):>6}"
            )
    print(
        "cell answer: from navigation to the first cell's result (Run pressed as soon as it exists);"
        " at 'click 1s' from the click, on a page open 1 s"
    )

    home, off = results["home page"], results["home, no snapshot"]
    checks = [
        ("Python ready (cold) <= 0.6x the bare page", home["cold"]["ready_ms"], 0.6 * bare["cold"]["ready_ms"]),
        ("Python ready (warm) <= 0.5x the bare page's warm", home["warm"]["ready_ms"], 0.5 * bare["warm"]["ready_ms"]),
        (
            "cell answer after a click at 1 s: no worse than without the snapshot",
            home["click 1s"]["answer_ms"],
            off["click 1s"]["answer_ms"],
        ),
        ("first paint (cold) <= 1.1x scripts off", home["cold"]["fcp_ms"], 1.1 * plain["cold"]["fcp_ms"]),
        ("repeat visit under 100 KB", home["warm"]["bytes"], 100 * 1024),
    ]
    if "throttled" in home:
        slow = home["throttled"]
        checks += [
            (
                "throttled first paint <= 1.1x scripts off, throttled",
                slow["fcp_ms"],
                1.1 * results["scripts off, throttled"]["throttled"]["fcp_ms"],
            ),
            ("throttled Python ready <= 1.3x its floor", slow["ready_ms"], 1.3 * floor_ms(slow["bytes"])),
            ("a first visit's bytes at most 5 MB", slow["bytes"] / 1024, 5 * 1024),
        ]
    print()
    for label, value, limit in checks:
        print(f"{'ok  ' if value <= limit else 'MISS'} {label}: {value:,.0f} (limit {limit:,.0f})")


def slow_link() -> tuple[float, float]:
    """The Fast-3G-like link as the server makes it: (latency in seconds, bytes a second)."""
    return FAST_3G["latency"] / 1000, FAST_3G["downloadThroughput"]


def floor_ms(wire_bytes: float) -> float:
    """The least a throttled visit can take to move ``wire_bytes``: at the profile's throughput,
    after ``ROUND_TRIPS`` latencies one after another."""
    return 1000 * wire_bytes / FAST_3G["downloadThroughput"] + ROUND_TRIPS * FAST_3G["latency"]


FILE_KINDS = (
    ("memory image", lambda p: p.startswith("/assets/snapshot/")),
    ("Pyodide wasm", lambda p: p.endswith(".wasm")),
    ("standard library", lambda p: p.endswith(("python_stdlib.zip", "python_stdlib_core.zip"))),
    ("wheels", lambda p: p.endswith(".whl")),
    ("scripts", lambda p: p.endswith((".js", ".mjs"))),
    ("styles", lambda p: p.endswith(".css")),
    ("fonts", lambda p: p.endswith((".woff2", ".woff", ".ttf"))),
    ("pages", lambda p: p.endswith((".html", "/"))),
    ("data", lambda p: p.endswith(".json")),
)


def file_kind(path: str) -> str:
    return next((name for name, matches in FILE_KINDS if matches(path)), "other")


def page_bytes(pw, server, url: str) -> dict[str, object]:
    """A cold visit of ``url`` (a new profile): the bytes on the wire by kind of file, and
    whether the page started Python (then it waits until Python is ready). Then the network is
    cut and the page reloaded: whether its text comes back, and its Python (within 20 s)."""
    with tempfile.TemporaryDirectory() as profile:
        context = pw.chromium.launch_persistent_context(profile, executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        page = context.new_page()
        server.reset_count()
        page.goto(url, wait_until="load", timeout=TIMEOUT_MS)
        page.wait_for_timeout(1500)
        started = page.evaluate("(window.attentionPy?.session?.state ?? 'idle') !== 'idle'")
        if started:
            page.wait_for_function("attentionPy.session.state === 'ready'", timeout=TIMEOUT_MS)
            page.wait_for_timeout(1500)
        kinds: Counter[str] = Counter()
        for path, size in list(server.sent):
            kinds[file_kind(path)] += size
        wait_until_kept(page, started)
        server.reset_count()
        page.reload(wait_until="load", timeout=TIMEOUT_MS)  # a repeat visit, online
        repeat_ready = page.evaluate(READY_AT, TIMEOUT_MS) if started else None
        page.wait_for_timeout(1500)
        repeat = sum(size for _, size in list(server.sent))
        context.set_offline(True)
        try:
            page.reload(wait_until="load", timeout=20_000)
            text = page.evaluate("Boolean(document.querySelector('article'))")
        except Exception:  # the browser's own offline page, or none
            text = False
        offline_ready = page.evaluate(READY_AT, 20_000) if text and started else None
        context.close()
    return {
        "python": started,
        "kinds": kinds,
        "total": sum(kinds.values()),
        "repeat": repeat,
        "offline": (text, offline_ready is not None),
        "ready_ms": (repeat_ready, offline_ready),
    }


# Milliseconds from the navigation to the page's Python being ready (polled every 5 ms), or
# null if it is not ready within the given milliseconds. Started now if the page has not yet
# (its cells and figures may be further down: a reader scrolls to them).
READY_AT = """async (limit) => {
  while (!window.attentionPy?.session && performance.now() < limit) await new Promise((done) => setTimeout(done, 5));
  if (window.attentionPy?.session?.state === "idle") window.attentionPy.session.start();
  const ready = () => window.attentionPy?.session?.state === "ready";
  while (!ready() && performance.now() < limit) await new Promise((done) => setTimeout(done, 5));
  return ready() ? performance.now() : null;
}"""


def wait_until_kept(page, python: bool) -> None:
    """Until the site's service worker has kept this visit (its page, and Python's runtime if
    the page started it), at most 60 s: what an offline reload can then use."""
    wanted = ["assets/pyodide/pyodide.asm.wasm"] if python else []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        kept = page.evaluate(
            r"""async (wanted) => {
                if (!navigator.serviceWorker?.controller) return false;
                const keys = (await (await caches.open("attention-py-site")).keys()).map((r) => r.url);
                const here = location.href.split("#")[0].replace(/\/$/, "/index.html");
                return keys.some((k) => k.startsWith(here)) && wanted.every((w) => keys.some((k) => k.includes(w)));
            }""",
            wanted,
        )
        if kept:
            return
        time.sleep(0.5)


def report_pages(pages: dict[str, dict[str, object]]) -> None:
    kinds = [name for name, _ in FILE_KINDS] + ["other"]
    print(
        f"\n{'cold visit, KB on the wire':<28} {'Python':>6} {'offline: text, Python':>22} {'repeat':>7} {'total':>8} "
        + " ".join(f"{k:>10}" for k in kinds)
    )
    for name, found in pages.items():
        by_kind = found["kinds"]
        assert isinstance(by_kind, dict)
        cells = " ".join(f"{by_kind.get(k, 0) / 1024:>10,.0f}" for k in kinds)
        text, python = found["offline"]  # type: ignore[misc]
        offline = f"{'yes' if text else 'no'}, {'yes' if python else 'no' if found['python'] else '-'}"
        print(
            f"{name:<28} {'yes' if found['python'] else 'no':>6} {offline:>22} {found['repeat'] / 1024:>7,.0f} "
            f"{found['total'] / 1024:>8,.0f} {cells}"
        )
    print("\nPython ready after a reload (ms from navigation): online (repeat visit) / offline")
    for name, found in pages.items():
        online, cut = found["ready_ms"]  # type: ignore[misc]
        if found["python"]:
            print(f"{name:<28} {_ms(online):>8} / {_ms(cut):>8}")


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def hide_snapshot(site: Path) -> dict[str, tuple[str, bytes] | None]:
    """Files that make the server act as a build without a snapshot: a manifest that names none,
    and the image's file gone (the page's preload of it gets a 404)."""
    manifest = json.loads((site / "assets" / "wheels" / "manifest.json").read_text())
    hidden: dict[str, tuple[str, bytes] | None] = {}
    if manifest.get("snapshot"):
        hidden[f"/assets/snapshot/{manifest['snapshot']}"] = None
    plain = {"attention_py": manifest["attention_py"]}
    hidden["/assets/wheels/manifest.json"] = ("application/json", json.dumps(plain).encode())
    return hidden


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench site_load", description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="an existing build (default: build one now)")
    parser.add_argument("--runs", type=int, default=5, help="visits of each kind (median is reported)")
    parser.add_argument("--throttled-runs", type=int, default=1, help="cold visits under throttling (0: none)")
    parser.add_argument("--raw", action="store_true", help="no gzip: every file as it is on disk")
    parser.add_argument("--pages-only", action="store_true", help="only the bytes by kind of page, and offline")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    use_waits_that_keep_the_policy()  # the pages refuse eval, which Playwright's waits use

    with built_site(args.site) as site:
        bare_files = {
            "/__bench__/bare.html": ("text/html; charset=utf-8", BARE_PAGE),
            "/__bench__/bare-worker.js": ("text/javascript", BARE_WORKER),
        }
        with (
            serve(site, extra_files=bare_files, compress=not args.raw) as server,
            serve(site, extra_files={**bare_files, **hide_snapshot(site)}, compress=not args.raw) as no_snapshot,
            sync_playwright() as pw,
        ):
            home, bare = f"{server.url}/", f"{server.url}/__bench__/bare.html"
            pages = {name: page_bytes(pw, server, server.url + path) for name, path in PAGES.items()}
            if args.pages_only:
                report_pages(pages)
                return 0
            results = {
                "home page": measure(pw, server, home, "result", args.runs),
                "home, no snapshot": measure(pw, no_snapshot, f"{no_snapshot.url}/", "result", args.runs),
                "bare Pyodide page": measure(pw, server, bare, "ready", args.runs),
                "home, scripts off": measure(pw, server, home, None, args.runs, scripts=False),
            }
            results["home page"].update(
                measure(pw, server, home + "#click-at-1s", "result", args.runs, visits=("click 1s",))
            )
            results["home, no snapshot"].update(
                measure(pw, no_snapshot, f"{no_snapshot.url}/#click-at-1s", "result", args.runs, visits=("click 1s",))
            )
            if args.throttled_runs:
                slow = {"visits": ("throttled",), "throttled": True}
                hidden = {**bare_files, **hide_snapshot(site)}
                with (
                    serve(site, extra_files=bare_files, compress=not args.raw, link=slow_link()) as link,
                    serve(site, extra_files=hidden, compress=not args.raw, link=slow_link()) as link_no_snapshot,
                ):
                    slow_home, slow_bare = f"{link.url}/", f"{link.url}/__bench__/bare.html"
                    results["home page"].update(measure(pw, link, slow_home, "ready", args.throttled_runs, **slow))
                    results["home, no snapshot"].update(
                        measure(pw, link_no_snapshot, f"{link_no_snapshot.url}/", "ready", args.throttled_runs, **slow)
                    )
                    results["bare, throttled"] = measure(pw, link, slow_bare, "ready", args.throttled_runs, **slow)
                    results["scripts off, throttled"] = measure(
                        pw, link, slow_home, None, args.throttled_runs, scripts=False, **slow
                    )
    print(
        f"\nChromium headless, {args.runs} runs each ({args.throttled_runs} throttled), medians;"
        " served from 127.0.0.1 (no network latency unless throttled),"
        + (" every file as it is" if args.raw else " gzipped as GitHub Pages does")
    )
    report(results)
    report_pages(pages)
    return 0
