"""What the page's Python survives, in headless Chromium (issue 11): code that floods output
past sys.stdout, a fatal Pyodide error, a saved figure state that would break Python, code
that closes the worker, a figure call that hangs, and code that reaches for another host.

In every case the test checks what docs/widgets/README.md ("What is guaranteed") promises:
the request ends (answered, failed with a message, or timed out with the worker replaced),
the page's other cells and figures work again without a reload, the reader's edit is still
in the editor and in storage, and the main thread stays free throughout. That last one is
measured two ways while the case runs: a 10 ms timer chain in the page (the longest gap
between its ticks) and Playwright round trips (``page.evaluate``). Both must stay under
MAIN_THREAD_LIMIT_MS, which is generous (the aim is 200 ms; a shared 2-core CI machine
needs the margin). Where a case sends just over one of the bounds on what Python's answers
carry (docs/widgets/runtime/message-bounds.js, output-cap.js), the browser's own timing of the
page's tasks (the Long Tasks API) must also show none of BOUNDED_TASK_MS or more. The
numbers are printed (``pytest -s``).

Pages are opened through ``languages.language(...).prefix`` so a site whose default
language is not English still works; the assertions on messages use the default
language's strings file.
"""

from __future__ import annotations

import http.server
import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import ClassVar

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.e2e.conftest import start_without_earlier_edits
from tests.languages import LANGUAGES

FRESH_WORKER_MS = 90_000  # a replaced worker starting on a loaded 2-core machine: longer than a page's first start
MAIN_THREAD_LIMIT_MS = 600  # aim 200 ms, with a margin for shared CI machines
BOUNDED_TASK_MS = 50  # the longest task while the page takes in a message just over a bound
PREFIX = LANGUAGES[0].prefix
STRING = LANGUAGES[0].page_string

# Pyodide's own report of a fatal error (console.error in the worker, which Chromium also
# shows on the page's console): expected in the cases that cause one, nowhere else.
PYODIDE_FATAL_LINES = re.compile(
    r"Pyodide has suffered a fatal error|The cause of the fatal error was|Maximum call stack size exceeded"
)
DEEP_JSON = 'import json\njson.loads("[" * 50000 + "]" * 50000)'

RECORD_UPDATES = """
window.__figureUpdates = [];
document.addEventListener("figure-updated", (event) => window.__figureUpdates.push(event.detail));
"""

START_PROBE = """() => {
  const probe = (window.__mainThread = { maxGap: 0, ticks: 0 });
  let last = performance.now();
  const tick = () => {
    const now = performance.now();
    probe.maxGap = Math.max(probe.maxGap, now - last);
    probe.ticks += 1;
    last = now;
    probe.timer = setTimeout(tick, 10);
  };
  probe.timer = setTimeout(tick, 10);
  // Tasks of 50 ms or more, as the browser times them (the Long Tasks API), but those that
  // start while the test itself reads the page (Responsiveness.read): Playwright's locators
  // run on the page's thread too, and a read of a long output is a long task of its own.
  probe.tasks = [];
  probe.reads = [];
  probe.observer = new PerformanceObserver((list) => probe.tasks.push(...list.getEntries().map((e) => [e.startTime, e.duration])));
  probe.observer.observe({ type: "longtask" });
}"""
LONGEST_TASK = """Math.max(0, ...__mainThread.tasks
    .filter(([start]) => !__mainThread.reads.some(([from, to]) => start >= from && start <= to))
    .map(([, duration]) => duration))"""


# --- helpers ------------------------------------------------------------------------------------


class Responsiveness:
    """Measures the page's main thread while a case runs (see the module docstring)."""

    def __init__(self, page: Page, name: str) -> None:
        self.page = page
        self.name = name
        self.round_trips: list[float] = []
        self.notes: dict[str, object] = {}
        page.evaluate(START_PROBE)

    def sample(self, expression: str = "0"):
        start = time.monotonic()
        value = self.page.evaluate(expression)
        self.round_trips.append((time.monotonic() - start) * 1000)
        return value

    def wait(self, condition: str, timeout_s: float = FRESH_WORKER_MS / 1000) -> float:
        """Polls `condition` (a JS expression) every 50 ms, timing each poll; returns seconds."""
        start = time.monotonic()
        while not self.sample(f"Boolean({condition})"):
            assert time.monotonic() - start < timeout_s, f"{self.name}: still waiting for {condition}"
            time.sleep(0.05)
        return time.monotonic() - start

    def read(self, locator, *, laid_out: bool = True) -> str:
        """The text of ``locator`` (as laid out, or its text content), read by Playwright: its
        tasks are not the page's own."""
        start = self.page.evaluate("performance.now()")
        try:
            return locator.inner_text() if laid_out else (locator.text_content() or "")
        finally:
            self.page.evaluate("(start) => __mainThread.reads.push([start, performance.now()])", start)

    def check(self, longest_task_ms: float | None = None) -> dict:
        """Asserts the main thread stayed free; with `longest_task_ms`, also that no task of
        the page took that long (the bounds on what Python sends aim at 50 ms)."""
        gap = self.page.evaluate(
            "clearTimeout(window.__mainThread.timer), window.__mainThread.observer.disconnect(),"
            f" ({{maxGap: __mainThread.maxGap, ticks: __mainThread.ticks, longestTask: {LONGEST_TASK}}})"
        )
        result = {
            "case": self.name,
            "timer_max_gap_ms": round(gap["maxGap"]),
            "longest_task_ms": round(gap["longestTask"]),
            "evaluate_max_ms": round(max(self.round_trips, default=0)),
            "evaluate_samples": len(self.round_trips),
            **self.notes,
        }
        print(f"\nmain thread during {self.name}: {json.dumps(result)}")
        assert gap["ticks"] > 0
        assert result["timer_max_gap_ms"] < MAIN_THREAD_LIMIT_MS, result
        assert result["evaluate_max_ms"] < MAIN_THREAD_LIMIT_MS, result
        if longest_task_ms is not None:
            assert result["longest_task_ms"] < longest_task_ms, result
        return result


@pytest.fixture
def tab(module_context) -> Iterator[Page]:
    """A new page in the module's shared context (one HTTP cache for the Python runtime).
    A test that causes console errors on purpose lists their patterns in
    ``tab.expected_errors``; any other error fails it as usual."""
    context, guard = module_context
    page = guard.watch(context.new_page())
    page.expected_errors = []
    yield page
    page.close()
    guard.errors[:] = [e for e in guard.errors if not any(p.search(e) for p in page.expected_errors)]
    guard.check()


def says(key: str, text: str) -> bool:
    """True when `text` is the default language's page string `key`, placeholders filled."""
    parts = re.split(r"\{\w+\}", STRING(key))
    return re.fullmatch(".+?".join(map(re.escape, parts)), text.strip(), re.S) is not None


def open_page(page: Page, base_url: str, path: str) -> None:
    page.add_init_script(RECORD_UPDATES)
    start_without_earlier_edits(page)
    page.goto(f"{base_url}/{PREFIX}{path}")
    page.locator(".live-cell--mounted").first.wait_for()
    page.evaluate("attentionPy.session.start()")
    page.wait_for_function("attentionPy.session.state === 'ready'", timeout=FRESH_WORKER_MS)


def cell(page: Page, n: int):
    return page.locator(".live-cell").nth(n)


def type_code(page: Page, n: int, code: str) -> None:
    """The reader's edit: select all in the cell's editor and type."""
    cell(page, n).locator(".cm-content").click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.insert_text(code)
    expect(cell(page, n).locator(".cm-content")).to_contain_text(code.splitlines()[0])


def editor_text(page: Page, n: int) -> str:
    return page.evaluate(f"attentionPy.cells[{n}].editor.state.doc.toString()")


def saved_edits(page: Page) -> list[str]:
    return page.evaluate(
        "Object.keys(localStorage).filter((k) => k.startsWith('attention_py:live-cell:'))"
        ".map((k) => JSON.parse(localStorage.getItem(k)).value)"
    )


def idle(n: int) -> str:
    return f"document.querySelectorAll('.live-cell')[{n}].dataset.busy === ''"


def run_cell(page: Page, n: int, probe: Responsiveness | None = None) -> str:
    """Runs cell `n` and returns its output once the run has been reported. (The status is
    emptied first: a run can end before a poll would see it busy.)"""
    status = cell(page, n).locator(".live-cell__status")
    status.evaluate("(el) => (el.textContent = '')")
    cell(page, n).locator(".live-cell__run").click()
    ended = f"{idle(n)} && document.querySelectorAll('.live-cell__status')[{n}].textContent !== ''"
    output = cell(page, n).locator(".live-cell__output")
    if probe:
        probe.wait(ended)
        return probe.read(output)
    page.wait_for_function(ended, timeout=FRESH_WORKER_MS)
    return output.inner_text()


def assert_edit_kept(page: Page, n: int, code: str) -> None:
    assert editor_text(page, n) == code
    try:
        page.wait_for_function(
            "(code) => Object.values(localStorage).some((v) => JSON.parse(v).value === code)", arg=code
        )
    except PlaywrightTimeoutError:  # say what was kept instead (this failed once in CI under load)
        kept = page.evaluate("Object.fromEntries(Object.entries(localStorage))")
        raise AssertionError(f"cell {n}'s edit is not in localStorage; it holds {kept}") from None


def figure_updates(page: Page) -> int:
    return page.evaluate("window.__figureUpdates.length")


def move_softmax_figure(page: Page, probe: Responsiveness) -> dict:
    """Arrow key on the softmax figure's first slider; returns the update it causes."""
    before = figure_updates(page)
    root = page.locator(".apy-fig[data-figure='softmax']").first
    root.locator("input[name='z.0']").focus()
    page.keyboard.press("ArrowRight")
    probe.wait(
        f"window.__figureUpdates.length > {before} && attentionPy.figures.hosts.every((h) => !h.inFlight && !h.pending)"
    )
    return page.evaluate(f"window.__figureUpdates.slice({before}).at(-1)")


def generation(page: Page) -> int:
    return page.evaluate("attentionPy.session.generation")


# --- 1. output that bypasses sys.stdout ------------------------------------------------------


FLOODS = {
    "os.write": "import os\nwhile True:\n    os.write(1, b'x\\n')",
    "sys.__stdout__": "import sys\ni = 0\nwhile True:\n    print(i, file=sys.__stdout__)\n    i += 1",
    "os.write-stderr": "import os\nwhile True:\n    os.write(2, b'e' * 100 + b'\\n')",
}


@pytest.mark.parametrize("how", ["time-limit", "stop-button"])
@pytest.mark.parametrize("flood", FLOODS)
def test_output_past_sys_stdout_is_capped_and_the_page_stays_responsive(tab, site_url, flood, how):
    page = tab
    open_page(page, site_url, "playground/")
    code = FLOODS[flood]
    type_code(page, 0, code)
    limit_s = 3
    page.evaluate(f"attentionPy.cells[0].timeoutSeconds = {limit_s}")  # the fence's timeout option
    probe = Responsiveness(page, f"{flood} flood, {how}")
    cell(page, 0).locator(".live-cell__run").click()
    page.wait_for_function("document.querySelector('.live-cell').dataset.busy === 'running'")
    if how == "stop-button":
        # Stop once the output is past the cap (its note shows), not merely started: under load
        # the first lines can come well before the two-thousandth.
        probe.wait("document.querySelector('.live-cell .live-cell__note') !== null", 10)
        started = time.monotonic()
        cell(page, 0).locator(".live-cell__stop").click(timeout=5000)  # it can be clicked at all
        probe.notes["stop_click_ms"] = round((time.monotonic() - started) * 1000)  # Playwright's whole click
    seconds = probe.wait(idle(0), 30)
    # The limit fires on time: a few tenths after it, not tens of seconds.
    assert seconds < (limit_s + 2 if how == "time-limit" else 2), seconds
    assert says(
        "stopped" if how == "stop-button" else "timeout", cell(page, 0).locator(".live-cell__status").inner_text()
    )
    text = cell(page, 0).locator(".live-cell__output pre").text_content()
    assert 0 < text.count("\n") <= 2000
    assert len(text) <= 200_000
    assert any(says("truncated", note) for note in cell(page, 0).locator(".live-cell__note").all_inner_texts())
    # Python comes back (a fresh worker, or the same after KeyboardInterrupt) for the next cell.
    probe.wait("attentionPy.session.state === 'ready'")
    type_code(page, 1, "print('after the flood')")
    assert "after the flood" in run_cell(page, 1, probe)
    probe.check()
    assert_edit_kept(page, 0, code)


# --- 2. a fatal Pyodide error -------------------------------------------------------------------


def test_a_fatal_error_restarts_python_says_so_and_keeps_the_code(tab, site_url):
    page = tab
    page.expected_errors.append(PYODIDE_FATAL_LINES)
    open_page(page, site_url, "what-matters/")
    first = generation(page)
    type_code(page, 0, DEEP_JSON)
    probe = Responsiveness(page, "fatal error")
    for attempt in (1, 2):  # the second time is what used to hang: Pyodide dies inside its fatal-error handler
        run_cell(page, 0, probe)
        status = cell(page, 0).locator(".live-cell__status").inner_text()
        assert says("crashed", status), status
        assert "Maximum call stack size exceeded" in status, status
        assert generation(page) == first + attempt
        notes = " ".join(cell(page, 0).locator(".live-cell__note").all_inner_texts())
        assert STRING("session_lost") in notes
        # The runtime's stack dump is not the reader's output.
        assert "session_runtime" not in cell(page, 0).locator(".live-cell__output").inner_text()
        assert_edit_kept(page, 0, DEEP_JSON)
    probe.wait("attentionPy.session.state === 'ready'")
    # Errors are formatted again (not "Internal error ... lost sys.stderr"), other cells run.
    type_code(page, 1, "1 / 0")
    assert run_cell(page, 1, probe).rstrip().endswith("ZeroDivisionError: division by zero")
    assert move_softmax_figure(page, probe)["ok"]
    probe.check()


# --- 3. a call that cannot end by itself ------------------------------------------------------------


def test_a_saved_figure_state_that_would_break_python_is_deleted(tab, site_url):
    """A state nested 50,000 levels deep (and one that is not even JSON) in sessionStorage:
    the figures stay as drawn, the entries are deleted, and everything else works."""
    page = tab
    page.add_init_script(RECORD_UPDATES)
    page.goto(f"{site_url}/{PREFIX}what-matters/")
    page.wait_for_function("window.attentionPy?.figures !== undefined")
    # two of the page's figures, found by name: a deep saved state, and an entry not even JSON
    roots = [page.locator(f".apy-fig[data-figure='{name}']").first for name in ("embedding_space", "weighted_average")]
    keys = []
    for root, value in zip(roots, ('{"z": ' + "[" * 50000 + "1" + "]" * 50000 + "}", "{not json"), strict=True):
        fid = root.get_attribute("id")
        key = page.evaluate("(id) => `attention_py:figure:${location.pathname}#${id}`", fid)
        base = root.get_attribute("data-state")
        entry = json.dumps({"base": base, "value": value}) if value.startswith('{"z"') else value
        page.evaluate("([key, entry]) => sessionStorage.setItem(key, entry)", [key, entry])
        keys.append(key)
    drawn = [root.get_attribute("data-state") for root in roots]
    page.reload()
    page.wait_for_function("window.attentionPy?.figures !== undefined")
    probe = Responsiveness(page, "deep saved figure state")
    probe.wait("attentionPy.session.state === 'ready'")
    probe.wait(f"{json.dumps(keys)}.every((key) => sessionStorage.getItem(key) === null)", 30)
    assert [root.get_attribute("data-state") for root in roots] == drawn
    assert move_softmax_figure(page, probe)["ok"]
    type_code(page, 0, "print(6 * 7)")
    assert run_cell(page, 0, probe).strip() == "42"
    probe.check()
    page.reload()  # the entries are gone for good: the next visit starts clean
    page.wait_for_function("window.attentionPy?.figures !== undefined")
    assert all(page.evaluate("(key) => sessionStorage.getItem(key)", key) is None for key in keys)


def test_code_that_closes_the_worker_gets_a_fresh_python(tab, site_url):
    page = tab
    open_page(page, site_url, "what-matters/")
    first = generation(page)
    code = "import js\njs.close()"
    type_code(page, 0, code)
    probe = Responsiveness(page, "js.close()")
    run_cell(page, 0, probe)
    notes = " ".join(cell(page, 0).locator(".live-cell__note").all_inner_texts())
    assert STRING("session_lost") in notes
    assert move_softmax_figure(page, probe)["ok"]  # used to wait forever
    assert generation(page) == first + 1
    type_code(page, 1, "print('still here')")
    assert run_cell(page, 1, probe).strip() == "still here"
    probe.check()
    assert_edit_kept(page, 0, code)


# Issue 19: reader code that reaches the worker's channel to the page could flood it (the page
# froze for 15 s) or forge the answer of its own run. The channel is hidden from reader code.
CHANNEL_ATTACKS = {
    "flood": "import js\njs.eval(\"for (;;) postMessage({type: 'junk'})\")",
    "flood-progress": "import js\njs.eval(\"for (let i = 0; i < 1e6; i++) self.postMessage({type: 'progress', phase: 'download', loaded: i, total: 1})\")",
    "forged-result": "import js\njs.eval(\"postMessage({id: 0, type: 'result', status: 'ok', value: 'forged'})\")\nwhile True:\n    pass",
    "through-the-prototype": "import js\njs.eval(\"Object.getPrototypeOf(self).postMessage.call(self, {type: 'junk'})\")",
    "through-Function": "import js\njs.eval(\"Function('return this')().postMessage({type: 'junk'})\")",
}
CHANNEL_GONE = "import js\nprint(js.eval(\"[typeof postMessage, typeof self.postMessage, typeof globalThis.postMessage, typeof DedicatedWorkerGlobalScope.prototype.postMessage, typeof Function('return this')().postMessage].join(' ')\"))"


@pytest.mark.parametrize("attack", CHANNEL_ATTACKS)
def test_code_cannot_reach_the_workers_channel_to_the_page(tab, site_url_with_a_lax_policy, attack):
    """Each attack ends at once with a JavaScript error in the cell (no flood, no forged
    result, no long run), the page stays responsive, the same Python goes on, and no way of
    naming postMessage reaches it. (On pages whose policy allows js.eval, which the real one refuses.)"""
    page = tab
    open_page(page, site_url_with_a_lax_policy, "what-matters/")
    first = generation(page)
    code = CHANNEL_ATTACKS[attack]
    type_code(page, 0, code)
    probe = Responsiveness(page, f"postMessage {attack}")
    started = time.monotonic()
    output = run_cell(page, 0, probe)
    assert time.monotonic() - started < 5, "the run ended at once, not at its time limit"
    status = cell(page, 0).locator(".live-cell__status").inner_text()
    assert says("error", status), status
    last = output.strip().splitlines()[-1]
    assert last.startswith("pyodide.ffi.JsException"), output
    assert "not defined" in last or "not a function" in last or "undefined" in last, output
    assert generation(page) == first, "the same Python goes on"
    type_code(page, 1, CHANNEL_GONE)
    assert run_cell(page, 1, probe).strip() == " ".join(["undefined"] * 5)
    assert move_softmax_figure(page, probe)["ok"]
    probe.check()
    assert_edit_kept(page, 0, code)


# Issue 33: the worker's incoming handler was reachable from reader code. 200,000 injected
# requests tripped the page's flood guard (fresh workers were replaced too, definitions lost),
# a wrapped handler rewrote later runs (`assert False` printed "all 12 tests passed"), and an
# injected "start" booted a second Python in the same worker.
INJECTED = """import js
js.eval(\"\"\"
for (let i = 0; i < 200000; i++) self.dispatchEvent(new MessageEvent('message', {data: {id: 1e9 + i, type: 'run', code: 'x = 0'}}));
self.dispatchEvent(new MessageEvent('message', {data: {id: 2e9, type: 'start'}}));
const forge = (event) => { event.data.code = "print('all 12 tests passed')"; };
self.onmessage = forge;
self.addEventListener('message', forge, {capture: true});
\"\"\")
print(x)"""


def test_requests_injected_from_a_cell_never_reach_python(tab, site_url_with_a_lax_policy):
    """Requests dispatched inside the worker are dropped, listeners a cell adds never see the
    page's requests, and the same Python, with its definitions, goes on. (On pages whose
    policy allows js.eval, which the real one refuses.)"""
    page = tab
    open_page(page, site_url_with_a_lax_policy, "what-matters/")
    first = generation(page)
    probe = Responsiveness(page, "injected requests")
    type_code(page, 0, "x = 41")
    run_cell(page, 0, probe)
    type_code(page, 1, INJECTED)
    assert run_cell(page, 1, probe).strip() == "41"
    type_code(page, 0, "assert False, 'the run this cell asked for'")
    output = run_cell(page, 0, probe)
    assert "AssertionError: the run this cell asked for" in output, output
    assert "all 12 tests passed" not in output
    assert says("error", cell(page, 0).locator(".live-cell__status").inner_text())
    type_code(page, 1, "print(x)")
    assert run_cell(page, 1, probe).strip() == "41"
    assert generation(page) == first, "no flood, no second Python: the same worker goes on"
    probe.check()


def test_a_cell_whose_python_was_replaced_says_so(tab, site_url):
    """Python replaced while no cell runs (here Restart; a flood or a crash during a figure's
    call alike): the cell whose definitions went with it says so, a cell that never ran says
    nothing, and running the cell again clears the note."""
    page = tab
    open_page(page, site_url, "what-matters/")
    first = generation(page)
    type_code(page, 0, "y = 1")
    run_cell(page, 0)
    page.evaluate("attentionPy.session.restart()")
    page.wait_for_function(
        f"attentionPy.session.generation > {first} && attentionPy.session.state === 'ready'", timeout=FRESH_WORKER_MS
    )
    lost = STRING("definitions_lost")
    expect(cell(page, 0).locator(".live-cell__note")).to_have_text([lost])
    expect(cell(page, 1).locator(".live-cell__note")).to_have_count(0)
    run_cell(page, 0)
    expect(cell(page, 0).locator(".live-cell__note")).to_have_count(0)


def test_a_figure_call_that_hangs_is_timed_out_and_sent_again_to_a_fresh_python(tab, site_url):
    page = tab
    open_page(page, site_url, "what-matters/")
    first = generation(page)
    page.evaluate("attentionPy.session.callTimeoutMs = 2000")  # 10 s by default
    code = "import attention_py.figures as figures\n\ndef hang(*args, **kwargs):\n    while True:\n        pass\n\nfigures.update = hang"
    type_code(page, 0, code)
    probe = Responsiveness(page, "hanging figure call")
    run_cell(page, 0, probe)
    started = time.monotonic()
    update = move_softmax_figure(page, probe)  # times out, then succeeds in the fresh session
    assert update["ok"]
    assert time.monotonic() - started < 2 + FRESH_WORKER_MS / 1000
    assert generation(page) == first + 1
    type_code(page, 1, "print('next')")
    assert run_cell(page, 1, probe).strip() == "next"
    probe.check()
    assert_edit_kept(page, 0, code)


# --- 4b. answers of any size (issue 33) --------------------------------------------------------

# Bounds in docs/widgets/runtime/message-bounds.js: a call's whole answer, an error, a figure's error.
MAX_CALL_ANSWER, MAX_ERROR, MAX_FIGURE_ERROR = 500_000, 20_000, 1_000
# and in output-cap.js: a line of output, and what replaces the rest of a longer one.
MAX_LINE_CHARS = 10_000
STRING_LINE_CUT = " [... the rest of this line is cut: a line shows at most 10,000 characters ...]"
ANSWERING = """import attention_py.figures as figures

def answer(*args, **kwargs):
    return {{"ok": False, "error": "E" * {length}, "key": None}}

figures.update = answer"""


@pytest.mark.parametrize("length", [300_000, MAX_CALL_ANSWER + 1, 2_000_000, 20_000_000])
def test_a_figures_error_of_any_length_is_cut_or_refused_and_the_page_stays_free(tab, site_url, length):
    """Reader code makes the figure function answer with a long error: over a call's bound it
    never leaves the worker (the figure says it could not be redrawn, the console why); under
    it the figure shows its start and how many characters it leaves out."""
    page = tab
    open_page(page, site_url, "what-matters/")
    type_code(page, 0, ANSWERING.format(length=length))
    run_cell(page, 0)
    if length > MAX_CALL_ANSWER:
        page.expected_errors.append(re.compile(r"characters long; at most 500,000 are accepted"))
    root = page.locator(".apy-fig[data-figure='softmax']").first
    # The figure is brought into view first: the page's scroll and repaint (about 20 ms of
    # tasks quiet, more on a loaded machine) are not the answer's to carry.
    root.locator("input[name='z.0']").focus()
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    probe = Responsiveness(page, f"a figure error of {length:,} characters")
    page.keyboard.press("ArrowRight")
    probe.wait("!document.querySelector(\".apy-fig[data-figure='softmax'] [data-role=error]\").hidden")
    shown = probe.read(root.locator("[data-role=error]"))
    if length > MAX_CALL_ANSWER:
        assert says("figure_failed_update", shown), shown
    else:
        assert shown.startswith("E" * MAX_FIGURE_ERROR), shown[:80]
        assert shown[MAX_FIGURE_ERROR:] == "… " + STRING("figure_error_cut").replace(
            "{count}", str(length - MAX_FIGURE_ERROR)
        )
    probe.check(longest_task_ms=BOUNDED_TASK_MS)


def test_an_error_of_any_length_keeps_its_start_and_end_and_the_page_stays_free(tab, site_url):
    page = tab
    open_page(page, site_url, "what-matters/")
    code = 'raise ValueError("x" * 30_000_000 + " the end")'
    type_code(page, 0, code)
    probe = Responsiveness(page, "an error of 30 million characters")
    shown = run_cell(page, 0, probe)
    assert "Traceback" in shown, shown[:200]
    assert shown.rstrip().endswith("the end"), shown[-200:]
    assert re.search(r"\[\.\.\. [\d,]+ characters cut \.\.\.\]", shown), shown[:200]
    assert len(shown) < MAX_ERROR + 1_000
    probe.check(longest_task_ms=BOUNDED_TASK_MS)


def test_a_line_of_any_length_keeps_its_start_and_the_page_stays_free(tab, site_url):
    """A 199,000-character line, streamed twice, and a value whose repr is one long line: the
    page lays out at most MAX_LINE_CHARS of each (its start, or its start and end for a value)."""
    page = tab
    open_page(page, site_url, "what-matters/")
    type_code(page, 0, 'print("x" * 199_000)\nprint("y" * 199_000)\n"v" * 150_000 + " the end"')
    probe = Responsiveness(page, "two lines of 199,000 characters and a value of 150,000")
    run_cell(page, 0, probe)
    lines = probe.read(cell(page, 0).locator(".live-cell__output pre"), laid_out=False).split("\n")
    cut = STRING_LINE_CUT
    assert lines[0] == "x" * MAX_LINE_CHARS + cut, lines[0][-120:]
    assert lines[1] == "y" * MAX_LINE_CHARS + cut, lines[1][-120:]
    assert lines[2].startswith("'vvv"), lines[2][:40]
    assert lines[2].endswith("v the end'"), lines[2][-40:]
    assert len(lines[2]) <= MAX_LINE_CHARS
    assert re.search(r"\[\.\.\. [\d,]+ characters cut \.\.\.\]", lines[2])
    probe.check(longest_task_ms=BOUNDED_TASK_MS)


@pytest.mark.parametrize(
    "leftover",
    [
        pytest.param('import js\njs.eval("setTimeout(() => { for (;;); }, 0)")', id="javascript"),
        pytest.param(
            "import asyncio\n\nasync def spin():\n    while True:\n        pass\n\nasyncio.ensure_future(spin())",
            id="asyncio",
        ),
    ],
)
def test_code_an_earlier_run_left_running_does_not_blame_the_next_cell(tab, request, site_url, leftover):
    """The first cell ends at once but leaves a loop scheduled; the next, innocent cell is not
    stopped at its limit: the leftover is stopped (or its worker replaced) and the cell runs,
    saying what happened. (A JavaScript loop needs js.eval: on pages whose policy allows it.)"""
    page = tab
    open_page(
        page,
        request.getfixturevalue("site_url_with_a_lax_policy") if "js.eval" in leftover else site_url,
        "playground/",
    )
    type_code(page, 0, leftover)
    run_cell(page, 0)
    type_code(page, 1, "print('innocent')")
    page.evaluate("attentionPy.cells[1].timeoutSeconds = 3")
    probe = Responsiveness(page, f"a {leftover.split()[1]} leftover")
    output = run_cell(page, 1, probe)
    assert "innocent" in output, output
    status = cell(page, 1).locator(".live-cell__status").inner_text()
    assert says("done", status), status
    notes = cell(page, 1).locator(".live-cell__note").all_inner_texts()
    assert any(says("leftover_replaced", n) or says("leftover_interrupted", n) for n in notes), notes
    probe.check()


def test_an_edit_too_large_to_keep_says_so(tab, site_url):
    """A 6 MB paste is more than localStorage holds: the cell says the edit is not kept, no
    older edit is left to come back on reload, and a smaller edit is kept again."""
    page = tab
    open_page(page, site_url, "playground/")
    type_code(page, 0, "x = 1")
    assert_edit_kept(page, 0, "x = 1")
    note = cell(page, 0).locator(".live-cell__not-kept")
    expect(note).to_be_hidden()
    page.evaluate(
        """() => {
          const view = attentionPy.cells[0].editor;
          view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: "# " + "z".repeat(6_000_000) } });
        }"""
    )
    expect(note).to_be_visible()
    assert says("edit_not_kept", note.inner_text())
    assert page.evaluate("Object.values(localStorage).every((v) => !v.includes('x = 1'))")
    type_code(page, 0, "y = 2")
    assert_edit_kept(page, 0, "y = 2")
    expect(note).to_be_hidden()


# --- 5. other hosts -----------------------------------------------------------------------------


class _Recorder(http.server.BaseHTTPRequestHandler):
    seen: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.seen.append(self.path)
        self.send_response(200)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Type", "text/javascript")
        self.end_headers()
        self.wfile.write(b"export const x = 1;\n")

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def another_host() -> Iterator[tuple[str, list[str]]]:
    """A server on another origin (another port), answering everything and CORS-open: the
    only thing that keeps a request from reaching it is the page's rule."""
    handler = type("Recorder", (_Recorder,), {"seen": []})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", handler.seen
    finally:
        server.shutdown()
        server.server_close()


# What a cell tries against the site's storage and the page, and what it must get instead
# (issue 43): the page's Python runs in a sandboxed frame of opaque origin.
REACH_FOR_THE_SITE = """import js
def attempt(get):
    try:
        return repr(get())
    except Exception as error:
        return type(error).__name__ + ": " + str(error).splitlines()[-1]
for label, get in [
    ("caches", lambda: js.caches), ("localStorage", lambda: js.localStorage),
    ("sessionStorage", lambda: js.sessionStorage), ("document", lambda: js.document),
    ("indexedDB", lambda: js.indexedDB.open("apy")),
    ("parent", lambda: js.parent), ("top", lambda: js.top), ("origin", lambda: js.self.origin),
]:
    print(label, "=>", attempt(get))
"""


def test_a_cell_reaches_nothing_of_the_site(tab, site_url):
    """Cache Storage, IndexedDB, localStorage, the page's document and its window: none is
    there for a cell, which runs in the sandboxed frame's worker (opaque origin, `null`).
    The page itself still has them, and its Python still works afterwards."""
    page = tab
    open_page(page, site_url, "playground/")
    type_code(page, 0, REACH_FOR_THE_SITE)
    output = run_cell(page, 0)
    lines = dict(line.split(" => ", 1) for line in output.splitlines() if " => " in line)
    for name in ("caches", "localStorage", "sessionStorage", "document", "parent", "top"):
        assert lines[name].startswith("AttributeError"), output
    assert "SecurityError" in lines["indexedDB"], output  # an opaque origin has no database
    assert lines["origin"] == "'null'", output
    assert page.evaluate("typeof caches") == "object"  # the page's own storage is its own
    type_code(page, 0, "6 * 7")
    assert run_cell(page, 0).strip() == "42"


def test_code_may_request_files_of_this_site_only(tab, site_url):
    page = tab
    open_page(page, site_url, "playground/")
    with another_host() as (other, seen):
        attempts = {
            "open_url": f"import pyodide.http\npyodide.http.open_url('{other}/open_url')",
            "fetch": f"import js\njs.fetch('{other}/fetch')",
            "XMLHttpRequest": f"import js\nr = js.XMLHttpRequest.new()\nr.open('GET', '{other}/xhr', False)\nr.send()",
            "WebSocket": f"import js\njs.WebSocket.new('{other.replace('http', 'ws')}/ws')",
            "EventSource": f"import js\njs.EventSource.new('{other}/events')",
        }
        probe = Responsiveness(page, "requests to another host")
        outputs = {}
        for name, code in attempts.items():
            type_code(page, 0, code)
            outputs[name] = run_cell(page, 0, probe)
        time.sleep(0.5)  # what was sent has arrived
        assert seen == [], f"requests reached another host: {seen}"
        for name, output in outputs.items():
            assert "refused: code on this page may only request files of this site" in output, (name, output)
            assert "python-worker.js" not in output  # the worker's JavaScript frames are not the reader's
        # A dynamic import() is out of any wrapper's reach: the page's Content-Security-Policy,
        # which the worker inherits, stops it in the browser (and reports it on the console).
        # JavaScript from a string is refused outright (no 'unsafe-eval'), so the import is
        # written in a script of its own: a nested worker from a blob: (classic, as the frame's
        # opaque origin may not start a module worker from one), which inherits the policy too.
        page.expected_errors.append(re.compile(r"Content Security Policy|Failed to fetch dynamically imported module"))
        type_code(page, 0, "import js\njs.eval('1')")
        assert "JsException: EvalError" in run_cell(page, 0, probe)
        importer = f"import('{other}/module.js').then(() => postMessage('loaded'), (e) => postMessage(String(e)))"
        type_code(
            page,
            0,
            "import js\nfrom pyodide.ffi import to_js\n"
            f"blob = js.Blob.new(to_js([{importer!r}]), to_js({{'type': 'text/javascript'}}, dict_converter=js.Object.fromEntries))\n"
            "nested = js.Worker.new(js.URL.createObjectURL(blob))\n"
            "nested.onmessage = lambda event: setattr(js, 'importResult', event.data)\n"
            "nested.onerror = lambda event: setattr(js, 'importResult', 'worker error: ' + str(event.message))",
        )
        run_cell(page, 0, probe)
        time.sleep(1)  # the import settles between two runs (running Python blocks the worker)
        type_code(page, 0, "import js\ngetattr(js, 'importResult', 'unsettled')")
        assert "Failed to fetch" in run_cell(page, 0, probe)
        # The site's own files stay reachable, relative URLs included.
        type_code(page, 0, "import pyodide.http\nlen(pyodide.http.open_url('../../').read()) > 0")
        assert run_cell(page, 0, probe).strip() == "True"
        probe.check()
        assert seen == [], f"requests reached another host: {seen}"
    csp = page.locator("meta[http-equiv='Content-Security-Policy']").get_attribute("content")
    assert "connect-src 'self'" in csp
    assert "'wasm-unsafe-eval'" in csp


def test_a_worker_that_floods_the_page_is_replaced(browser, site_url):
    """Defense in depth (issue 19): reader code cannot reach the channel any more, but were a
    worker to flood the page anyway (here the worker script itself, changed for this test in
    a context of its own, sends 10^6 messages on its port to the page once Python is ready),
    the page stays responsive and replaces it."""
    context = browser.new_context()

    def flooding_worker(route):
        response = route.fetch()
        # The runtime's channel is the port the page connects it with (python-worker.js's
        # connect starts it): the changed script floods that port.
        flood = (
            "\nconst __start = MessagePort.prototype.start;\n"
            "MessagePort.prototype.start = function () { const port = this;"
            " setTimeout(() => { for (let i = 0; i < 1e6; i++) port.postMessage({ type: 'junk', text: 'x' }); }, 4000);"
            " return __start.call(this); };\n"
        )
        route.fulfill(
            response=response, body=response.text() + flood, headers={**response.headers, "cache-control": "no-store"}
        )

    context.route("**/assets/widgets/python-worker.js", flooding_worker)
    try:
        page = context.new_page()
        open_page(page, site_url, "what-matters/")
        first = generation(page)
        probe = Responsiveness(page, "worker flood")
        probe.wait(f"attentionPy.session.generation > {first}", timeout_s=30)
        probe.check()
    finally:
        # The replacement worker's script may still be on its way through the route: the
        # route lets it go quietly rather than fail after the test.
        context.unroute_all(behavior="ignoreErrors")
        context.close()
