"""What a cell that fills JavaScript's heap does to the page, in headless Chromium (issue 33).

`./run bench memory_crash [--site DIR] [--seconds N]` runs one allocation pattern, arrays of a
million doubles pushed onto a global list for ever, in two places and reports for each whether
the page survived and when the process running the code died:

- **worker**: from a live cell of the built site (its playground, cross-origin isolated, as the
  site's service worker makes it), a Python loop through `js` (the page's policy refuses
  `js.eval`), in the page's Python worker. A dedicated worker runs in its page's renderer
  process, so V8 running out of heap there ends the tab.
- **sandboxed frame**: the same loop in a worker started by a `sandbox="allow-scripts"` srcdoc
  frame of a plain page. Chromium gives such a frame a process of its own (it shows as its
  own target), so the page's timers go on after the frame's process dies.

Whether the page lives is read from the server: the page asks for a file every 200 ms, and a
page whose process died asks no more (Playwright's own crash event cannot say, as it fires
when any frame's process dies, and Playwright drives the page no more after it: what the page
does next, it reports to the server too).
This is a measurement, not a test: print the load average beside it.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from devtools.browser import CHROMIUM_FLAGS, chromium_path, use_waits_that_keep_the_policy
from devtools.static_server import serve

FILL = "const a = []; for (;;) a.push(new Array(1e6).fill(1.5));"
CELL = "import js\na = js.Array.new()\nwhile True:\n    a.push(js.Array.new(1_000_000).fill(1.5))"  # no js.eval: the policy refuses it
# The page says it is alive by asking the server for /__alive every 200 ms.
ALIVE = "/__alive"
BEACON = f"setInterval(() => fetch('{ALIVE}?' + Date.now(), {{cache: 'no-store'}}).catch(() => {{}}), 200);"
# After the crash: the session's restart, then the next cell's answer (its output in the path).
RESTARTED = "/__restarted"
ANSWERED = "/__answered_42"
AFTER_CRASH = f"""attentionPy.session.addEventListener("restart", () => {{
  fetch("{RESTARTED}", {{cache: "no-store"}});
  attentionPy.session.run("print(6 * 7)", {{ timeoutMs: 60000,
    onOutput: (kind, text) => fetch("/__answered_" + text.trim(), {{cache: "no-store"}}) }});
}}, {{ once: true }});"""
FRAME_PAGE = f"""<!doctype html><p>page</p><script>{BEACON}</script>
<iframe sandbox="allow-scripts" srcdoc="<script>new Worker(URL.createObjectURL(new Blob(['{FILL}'],
{{type: 'text/javascript'}})));</script>"></iframe>"""


def watch(page, server, seconds: float, marks: tuple[str, ...] = ()) -> dict:
    """For `seconds`: when Chromium reported a process of the page dead (Playwright's crash
    event, which a frame's process also raises), whether the page's beacons went on, and when
    the page first asked for each of `marks`."""
    start = time.monotonic()
    seen: dict[str, float] = {}
    died = []
    page.on("crash", lambda: died.append(time.monotonic() - start))
    beacons = []
    counted = 0
    while time.monotonic() - start < seconds:
        try:
            page.wait_for_timeout(250)  # lets Playwright deliver its events meanwhile
        except Exception:  # the page's own process is gone
            time.sleep(0.25)
        fresh = sum(1 for path, _ in server.sent[counted:] if path == ALIVE)
        for path, _ in server.sent[counted:]:
            if path in marks:
                seen.setdefault(path.lstrip("/_"), round(time.monotonic() - start, 1))
        counted = len(server.sent)
        beacons.append((time.monotonic() - start, fresh))
    last_beacon = max((at for at, fresh in beacons if fresh), default=None)
    return {
        "process_died_at_s": round(died[0], 1) if died else None,
        "last_beacon_at_s": round(last_beacon, 1) if last_beacon is not None else None,
        "page_alive_at_end": last_beacon is not None and seconds - last_beacon < 1.0,
        **{f"{mark.lstrip('/_')}_at_s": seen.get(mark.lstrip("/_")) for mark in marks},
    }


def in_the_sites_worker(browser, site: Path, seconds: float) -> dict:
    files = {path: ("text/plain", b"") for path in (ALIVE, RESTARTED, ANSWERED)}
    with serve(site, isolated=True, extra_files=files) as server:
        page = browser.new_page()
        page.goto(f"{server.url}/playground/")
        page.wait_for_function("window.attentionPy?.session !== undefined")
        page.evaluate("attentionPy.session.start()")
        page.wait_for_function("attentionPy.session.state === 'ready'", timeout=120_000)
        isolated = page.evaluate("crossOriginIsolated")
        page.evaluate(BEACON)
        page.evaluate(AFTER_CRASH)
        page.evaluate("(code) => { attentionPy.session.run(code, {timeoutMs: 60_000}); }", CELL)
        return {"cross_origin_isolated": isolated, **watch(page, server, seconds, (RESTARTED, ANSWERED))}


def in_a_sandboxed_frame(browser, site: Path, seconds: float) -> dict:
    files = {ALIVE: ("text/plain", b""), "/__frame.html": ("text/html", FRAME_PAGE.encode())}
    with serve(site, isolated=True, extra_files=files) as server:
        page = browser.new_page()
        page.goto(f"{server.url}/__frame.html")
        targets = browser.new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
        own_process = any(t["type"] == "iframe" for t in targets)
        return {"frame_is_its_own_target": own_process, **watch(page, server, seconds)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench memory_crash", description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=Path("site"))
    parser.add_argument("--seconds", type=float, default=25.0, help="how long each case is watched")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    use_waits_that_keep_the_policy()  # the pages refuse eval, which Playwright's waits use

    with sync_playwright() as pw:
        for name, case in (
            ("the site's runtime", lambda b: in_the_sites_worker(b, args.site.resolve(), args.seconds)),
            ("sandboxed frame", lambda b: in_a_sandboxed_frame(b, args.site.resolve(), args.seconds)),
        ):
            browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
            print(f"Chromium {browser.version}, {name}: {case(browser)}", flush=True)
            browser.close()
    return 0
