"""The Python half of the page's session (docs/widgets/runtime/python/session_runtime.py), natively.

In the page it runs inside Pyodide (the worker, worker-boot.js, loads its source as the module
``_session_runtime`` and calls ``run_cell`` / ``call`` with a JavaScript ``emit``); it is
plain CPython, so here it is loaded by path and driven with a Python ``emit`` that records
what it sends the worker. Covered: how output is buffered and sent, and what the page then
receives, capped by the worker's own output module (worker-output.js, run through Node, as
the output view's cap in output-view.js); the reader's traceback, the REPL-like value of a
last expression, KeyboardInterrupt (a Stop is SIGINT, as Pyodide raises it from the
interrupt buffer; here ``signal.raise_signal``), ``input()``, calls by dotted name, cells
that rebind the names the runtime uses, and values nested too deep to show.

Not covered here (Pyodide-only, see tests/e2e/test_live_cells.py and test_reliability.py):
the Pyodide file names in _INTERNAL_MARKERS as real frames (only the matching is checked), an
interrupt raised by the interrupt buffer mid-loop, and C-level writes that bypass sys.stdout
(capped by the same RequestOutput).
"""

from __future__ import annotations

import builtins
import importlib
import importlib.util
import json
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WIDGETS = ROOT / "docs" / "widgets"
RUNTIME_PATH = WIDGETS / "runtime" / "python" / "session_runtime.py"
FIGURE_SCRIPTS = ("figures/figure-host.js", "figures/figure-call.js", "figures/figure-page.js")


@pytest.fixture(scope="module")
def loaded():
    """The runtime, loaded by path, and its page namespace as loading left it. Requests
    install the runtime's SIGINT handler, which is put back after (with builtins.input, in
    case an older runtime replaced it at load)."""
    saved_input, saved_handler = builtins.input, signal.getsignal(signal.SIGINT)
    spec = importlib.util.spec_from_file_location("session_runtime_under_test", RUNTIME_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        yield module, dict(module.NAMESPACE)
    finally:
        builtins.input = saved_input
        signal.signal(signal.SIGINT, saved_handler)


@pytest.fixture
def rt(loaded):
    """The runtime with a fresh page namespace (cells share one namespace per page)."""
    module, fresh = loaded
    module.NAMESPACE.clear()
    module.NAMESPACE.update(fresh)
    yield module
    module.NAMESPACE.clear()
    module.NAMESPACE.update(fresh)


class Page:
    """Stands in for the worker's ``emit``: records (stream, text) as Python sends them."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    def emit(self, stream: str, text: str) -> None:
        self.sent.append((stream, text))

    def text(self, stream: str) -> str:
        return "".join(text for kind, text in self.sent if kind == stream)

    def streams(self) -> list[str]:
        return [kind for kind, _ in self.sent]


# The helpers' own JSON, out of reach of a cell's ``json.dumps = None`` (see REBINDINGS).
JSON_LOADS, JSON_DUMPS = json.loads, json.dumps
# What the page's Stop (or time limit) does to the running code: Pyodide raises SIGINT.
STOP = "__import__('signal').raise_signal(__import__('signal').SIGINT)"


def run(rt, code: str, cell: int = 1) -> tuple[dict, Page]:
    page = Page()
    reply = JSON_LOADS(rt.run_cell(code, f"<cell {cell}>", page.emit))
    return reply, page


def call(rt, name: str, args=(), kwargs=None) -> tuple[dict, Page]:
    page = Page()
    reply = JSON_LOADS(rt.call(name, JSON_DUMPS(list(args)), JSON_DUMPS(kwargs or {}), page.emit))
    return reply, page


def assert_no_runtime_frames(rt, traceback_text: str) -> None:
    assert str(RUNTIME_PATH) not in traceback_text
    assert "session_runtime" not in traceback_text
    assert "importlib/_bootstrap" not in traceback_text
    assert "<frozen importlib" not in traceback_text


# --- output: buffered here ----------------------------------------------------------------------


def test_a_line_is_sent_when_it_ends_a_partial_line_waits(rt, monkeypatch):
    monkeypatch.setattr(rt, "FLUSH_SECONDS", 3600)
    rt.NAMESPACE["sent"] = sent = []
    code = (
        "import sys\nsys.stdout.write('partial')\nafter_partial = len(sent)\nprint(' line')\nafter_line = list(sent)\n"
    )
    page = Page()
    page.sent = sent
    json.loads(rt.run_cell(code, "<cell 1>", page.emit))
    assert rt.NAMESPACE["after_partial"] == 0
    assert rt.NAMESPACE["after_line"] == [("stdout", "partial line\n")]


def test_a_partial_line_is_sent_by_a_later_write_once_flush_seconds_passed(rt, monkeypatch):
    monkeypatch.setattr(rt, "FLUSH_SECONDS", 0)
    rt.NAMESPACE["sent"] = sent = []
    page = Page()
    page.sent = sent
    rt.run_cell("import sys\nsys.stdout.write('a')\nseen = list(sent)", "<cell 1>", page.emit)
    assert rt.NAMESPACE["seen"] == [("stdout", "a")]


def test_flush_true_sends_a_partial_line_at_once(rt, monkeypatch):
    # A progress message before slow work: `print("working…", end="", flush=True)`.
    monkeypatch.setattr(rt, "FLUSH_SECONDS", 3600)
    rt.NAMESPACE["sent"] = sent = []
    page = Page()
    page.sent = sent
    code = "import sys\nprint('working', end='', flush=True)\nseen = list(sent)\nsys.stderr.flush()"
    reply = json.loads(rt.run_cell(code, "<cell 1>", page.emit))
    assert reply["status"] == "ok"
    assert rt.NAMESPACE["seen"] == [("stdout", "working")]


def test_flushing_on_every_write_keeps_the_sends_bounded(rt, monkeypatch):
    # A "\\r" progress counter asks for a flush 5,000 times in a few milliseconds: the first
    # EAGER_FLUSHES are sent at once, the rest with the next send (here: the final one).
    monkeypatch.setattr(rt, "FLUSH_SECONDS", 3600)
    reply, page = run(rt, "for i in range(5000):\n    print(f'\\r{i}', end='', flush=True)")
    assert reply == {"status": "ok", "value": None}
    assert len(page.sent) == rt.EAGER_FLUSHES + 1
    assert page.text("stdout") == "".join(f"\r{i}" for i in range(5000))


def test_a_partial_line_goes_once_piece_chars_of_it_wait(rt, monkeypatch):
    monkeypatch.setattr(rt, "FLUSH_SECONDS", 3600)
    piece = rt.PIECE_CHARS
    rt.NAMESPACE["sent"] = sent = []
    page = Page()
    page.sent = sent
    code = (
        f"import sys\nsys.stdout.write('a' * {piece - 1})\nbefore = len(sent)\nsys.stdout.write('b')\nafter = len(sent)"
    )
    rt.run_cell(code, "<cell 1>", page.emit)
    assert (rt.NAMESPACE["before"], rt.NAMESPACE["after"]) == (0, 1)
    assert page.sent == [("stdout", "a" * (piece - 1) + "b")]


def test_a_huge_write_crosses_in_pieces(rt):
    reply, page = run(rt, "print('x' * 300_000)")
    assert reply == {"status": "ok", "value": None}
    assert all(len(text) <= rt.PIECE_CHARS for _, text in page.sent)
    assert page.text("stdout") == "x" * 300_000 + "\n"


def test_stdout_and_stderr_keep_their_order(rt):
    code = "import sys\nfor i in range(3):\n    print(i)\n    print(-i, file=sys.stderr)"
    _, page = run(rt, code)
    assert page.sent == [sent for i in range(3) for sent in (("stdout", f"{i}\n"), ("stderr", f"{-i}\n"))]


def test_the_runtime_sends_all_the_worker_takes(rt):
    # No cap of its own: the worker's (worker-output.js) is the one, whatever the path.
    reply, page = run(rt, "for i in range(3000):\n    print(i)")
    assert reply == {"status": "ok", "value": None}
    assert page.text("stdout") == "".join(f"{i}\n" for i in range(3000))


class ClosingPage(Page):
    """The worker once its cap is reached: ``emit`` returns true from the ``takes``-th send on."""

    def __init__(self, takes: int) -> None:
        super().__init__()
        self.takes = takes

    def emit(self, stream: str, text: str) -> bool:
        super().emit(stream, text)
        return len(self.sent) >= self.takes


def test_once_the_worker_takes_no_more_nothing_more_is_sent_and_the_code_runs_on(rt):
    page = ClosingPage(takes=2001)
    code = "import sys\nfor i in range(100_000):\n    print(i)\n    print(i, file=sys.stderr)\ndone = True\n'value'"
    reply = json.loads(rt.run_cell(code, "<cell 1>", page.emit))
    assert reply == {"status": "ok", "value": "'value'"}  # whether it was truncated is the worker's to say
    assert len(page.sent) == 2001
    assert rt.NAMESPACE["done"] is True
    assert run(rt, "print('fresh')", cell=2)[1].sent == [("stdout", "fresh\n")]  # per request


def test_a_huge_write_stops_at_the_piece_that_closed_the_output(rt):
    page = ClosingPage(takes=4)
    reply = json.loads(rt.run_cell("print('x' * 10_000_000)", "<cell 1>", page.emit))
    assert reply == {"status": "ok", "value": None}
    assert page.sent == [("stdout", "x" * rt.PIECE_CHARS)] * 4


def test_a_huge_value_comes_back_whole(rt):
    # The worker cuts it to the cap (RequestOutput.fitValue), as the output's.
    reply, page = run(rt, "'v' * 300_000")
    assert reply == {"status": "ok", "value": repr("v" * 300_000)}
    assert page.sent == []  # the value is in the reply, not streamed


def test_the_streams_accept_only_text_and_are_put_back(rt):
    saved = sys.stdout, sys.stderr
    reply, _ = run(rt, "import sys\nsys.stdout.write(b'bytes')")
    assert reply["status"] == "error"
    assert reply["error"].rstrip().endswith("TypeError: write() argument must be str, not bytes")
    assert_no_runtime_frames(rt, reply["error"])
    assert (sys.stdout, sys.stderr) == saved
    reply, _ = run(rt, "import sys\nsys.stdout = None\nprint('gone')")
    assert (sys.stdout, sys.stderr) == saved


# --- output: capped by the worker -----------------------------------------------------------------
# What the page receives for a cell's output: the cell runs here, and what it sends goes through
# the worker's own RequestOutput (worker-output.js, with output-cap.js) under Node, as the
# worker's message loop drives it; then through the output view's cap (output-view.js).

CAP_CELLS = {
    "3000 lines": "for i in range(3000):\n    print(i)",
    "exactly 2000 lines": "for i in range(2000):\n    print(i)",
    "2000 lines, then a partial line": "import sys\nfor i in range(2000):\n    print(i)\nsys.stdout.write('tail')",
    "1999 lines, then two at once": "for i in range(1999):\n    print(i)\nprint('a\\nb')",
    "one write of 3000 lines": "print('\\n'.join(map(str, range(3000))))",
    "one write of 300,000 characters": "print(('x' * 999 + '\\n') * 300)",
    "one line of 300,000 characters": "print('x' * 300_000)",
    "300 lines of 1,000 characters": "for i in range(300):\n    print('y' * 999)",
    "exactly 200,000 characters": "import sys\nsys.stdout.write(('z' * 999 + '\\n') * 200)",
    "200,000 characters, then one more": "import sys\nsys.stdout.write(('z' * 999 + '\\n') * 200)\nsys.stdout.write('!')",
    "stdout and stderr": "import sys\nfor i in range(1500):\n    print(i)\n    print(-i, file=sys.stderr)",
    "stderr alone": "import sys\nsys.stderr.write(('e' * 999 + '\\n') * 250)",
    "output past the cap, then a value": "print(('x' * 999 + '\\n') * 300)\nprint('after')\ndone = True\n'value'",
    "a fresh request after it": "print('fresh')",
    "a huge value": "'v' * 300_000",
    "stopped past the cap": f"print(('x' * 999 + '\\n') * 300)\n{STOP}",
}

WORKER_REPLAY = """
import { readFileSync } from "node:fs";
import { OutputView } from "./cells/output-view.js";
import { RequestOutput } from "./runtime/worker/worker-output.js";

const requests = JSON.parse(readFileSync(0, "utf8"));
const results = {};
for (const [name, { emits, reply, run }] of Object.entries(requests)) {
  const messages = [];
  const out = new RequestOutput(7, (message) => messages.push(message));
  let closedAt = null; // the first write the worker answered "take no more"
  emits.forEach(([stream, text], index) => {
    if (out.write(stream, text) && closedAt === null) closedAt = index;
  });
  // As python-worker.js ends a request.
  if (run && typeof reply.value === "string") reply.value = out.fitValue(reply.value);
  out.end(reply);
  const view = { lines: 0, chars: 0, truncated: false, lineChars: 0, lineCut: false };
  const shown = messages.filter((m) => m.text !== undefined).map((m) => OutputView.prototype.fit.call(view, m.text));
  results[name] = { messages, closedAt, viewShowsAll: shown.join("") === messages.map((m) => m.text ?? "").join("") };
}
process.stdout.write(JSON.stringify(results));
"""


def copy_widgets(folder: Path, *paths: str) -> None:
    """Copies the page's modules at ``paths`` (under docs/widgets/) into ``folder``, in the same
    folders, so that their relative imports still resolve."""
    for path in paths:
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text((WIDGETS / path).read_text(encoding="utf-8"), encoding="utf-8")


@pytest.fixture(scope="module")
def received(loaded):
    """Cell name -> what the page receives ({messages, closedAt, viewShowsAll}; see WORKER_REPLAY)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is needed to run the worker's output module")
    module, fresh = loaded
    requests = {}
    for name, code in CAP_CELLS.items():
        module.NAMESPACE.clear()
        module.NAMESPACE.update(fresh)
        page = Page()
        reply = JSON_LOADS(module.run_cell(code, "<cell 1>", page.emit))
        requests[name] = {"emits": page.sent, "reply": reply, "run": True}
    module.NAMESPACE.clear()
    module.NAMESPACE.update(fresh)
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        (folder / "package.json").write_text('{"type": "module"}')  # the repo's package.json does not say it
        copy_widgets(
            folder,
            "runtime/worker/worker-output.js",
            "runtime/output-cap.js",
            "cells/output-view.js",
            "runtime/message-bounds.js",
            "runtime/messages.js",
        )
        (folder / "replay.mjs").write_text(WORKER_REPLAY, encoding="utf-8")
        done = subprocess.run(
            [node, str(folder / "replay.mjs")], input=json.dumps(requests), capture_output=True, text=True, check=True
        )
    return json.loads(done.stdout)


def text_of(received_cell: dict, stream: str) -> str:
    return "".join(message["text"] for message in received_cell["messages"] if message["type"] == stream)


def result_of(received_cell: dict) -> dict:
    result = received_cell["messages"][-1]
    assert result["type"] == "result"  # always the last message
    return {key: value for key, value in result.items() if key not in ("id", "type")}


def truncation_said(received_cell: dict) -> bool:
    """The page is told at once, once, after the last text: the worker may not live to send its result."""
    types = [message["type"] for message in received_cell["messages"]]
    if "truncated" not in types:
        return False
    assert types.count("truncated") == 1
    assert types.index("truncated") == len(types) - 2  # then only the result
    return True


def test_the_cap_is_2000_lines_and_200_000_characters():
    # README.md and the page's "Output truncated" sentence both state these numbers; the
    # worker and the output view both take them from output-cap.js, the one definition.
    source = (WIDGETS / "runtime" / "output-cap.js").read_text(encoding="utf-8")
    found = dict(re.findall(r"export const (MAX_LINES|MAX_CHARS) = ([\d_]+);", source))
    assert {name: int(value.replace("_", "")) for name, value in found.items()} == {
        "MAX_LINES": 2000,
        "MAX_CHARS": 200_000,
    }
    for user, cap in (
        ("runtime/worker/worker-output.js", "../output-cap.js"),
        ("cells/output-view.js", "../runtime/output-cap.js"),
    ):
        assert f'from "{cap}"' in (WIDGETS / user).read_text(encoding="utf-8"), user


def test_many_small_writes_stop_after_the_2000th_line(received):
    cell = received["3000 lines"]
    assert result_of(cell) == {"status": "ok", "value": None, "truncated": True}
    assert text_of(cell, "stdout") == "".join(f"{i}\n" for i in range(2000))
    assert truncation_said(cell)
    assert cell["closedAt"] == 2000  # the first line past the cap: Python sends no more


def test_exactly_2000_lines_are_not_truncated(received):
    cell = received["exactly 2000 lines"]
    assert result_of(cell) == {"status": "ok", "value": None, "truncated": False}
    assert text_of(cell, "stdout").count("\n") == 2000
    assert not truncation_said(cell)
    assert cell["closedAt"] is None


def test_a_2001st_line_without_newline_is_truncated(received):
    cell = received["2000 lines, then a partial line"]
    assert result_of(cell)["truncated"] is True
    assert "tail" not in text_of(cell, "stdout")
    assert truncation_said(cell)


def test_a_line_past_the_cap_is_cut_from_a_write_of_several(received):
    cell = received["1999 lines, then two at once"]
    assert result_of(cell)["truncated"] is True
    assert text_of(cell, "stdout").endswith("1998\na\n")


def test_one_write_of_many_lines_is_cut_after_its_2000th_line(received):
    cell = received["one write of 3000 lines"]
    assert result_of(cell)["truncated"] is True
    assert text_of(cell, "stdout") == "".join(f"{i}\n" for i in range(2000))


def test_a_single_huge_write_is_cut_at_200_000_characters(received):
    cell = received["one write of 300,000 characters"]
    assert result_of(cell) == {"status": "ok", "value": None, "truncated": True}
    assert text_of(cell, "stdout") == ("x" * 999 + "\n") * 200
    assert truncation_said(cell)


def test_a_line_past_10_000_characters_keeps_its_start_and_says_the_rest_is_cut(received):
    cell = received["one line of 300,000 characters"]
    assert result_of(cell) == {"status": "ok", "value": None, "truncated": False}
    cut = " [... the rest of this line is cut: a line shows at most 10,000 characters ...]"
    assert text_of(cell, "stdout") == "x" * 10_000 + cut + "\n"


def test_characters_add_up_over_many_small_writes(received):
    cell = received["300 lines of 1,000 characters"]
    assert result_of(cell)["truncated"] is True
    assert text_of(cell, "stdout") == ("y" * 999 + "\n") * 200


def test_exactly_200_000_characters_are_not_truncated(received):
    cell = received["exactly 200,000 characters"]
    assert result_of(cell)["truncated"] is False
    assert text_of(cell, "stdout") == ("z" * 999 + "\n") * 200
    assert result_of(received["200,000 characters, then one more"])["truncated"] is True


def test_stdout_and_stderr_share_one_cap_and_keep_their_order(received):
    cell = received["stdout and stderr"]
    assert result_of(cell)["truncated"] is True
    assert text_of(cell, "stdout").count("\n") == text_of(cell, "stderr").count("\n") == 1000
    assert [message["type"] for message in cell["messages"][:4]] == ["stdout", "stderr", "stdout", "stderr"]


def test_stderr_alone_is_capped_too(received):
    cell = received["stderr alone"]
    assert result_of(cell)["truncated"] is True
    assert text_of(cell, "stderr") == ("e" * 999 + "\n") * 200
    assert text_of(cell, "stdout") == ""


def test_output_after_the_cap_is_dropped_but_the_code_runs_on(received):
    cell = received["output past the cap, then a value"]
    assert result_of(cell) == {"status": "ok", "value": "'value'", "truncated": True}
    assert "after" not in text_of(cell, "stdout")


def test_the_cap_counts_per_request(received):
    cell = received["a fresh request after it"]
    assert result_of(cell) == {"status": "ok", "value": None, "truncated": False}
    assert text_of(cell, "stdout") == "fresh\n"


def test_a_huge_value_is_cut_to_the_cap(received):
    cell = received["a huge value"]
    assert result_of(cell) == {"status": "ok", "value": repr("v" * 300_000)[:200_000], "truncated": True}
    assert len(cell["messages"]) == 1  # the value is in the result, not streamed


def test_a_stopped_run_still_says_it_was_truncated(received):
    cell = received["stopped past the cap"]
    assert result_of(cell) == {"status": "interrupted", "truncated": True}


@pytest.mark.parametrize("name", CAP_CELLS)
def test_the_output_view_shows_all_the_worker_sends(received, name):
    # The view caps again (it never depends on the worker for it) with the same numbers, which
    # its note states: it must never cut what the worker let through.
    assert received[name]["viewShowsAll"]


def test_the_worker_posts_only_output_streams(tmp_path):
    """Code that finds the runtime's ``emit`` in a frame's locals cannot post a message of its
    choosing ("result") to the page through it."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is needed to run the worker's output module")
    (tmp_path / "package.json").write_text('{"type": "module"}')
    copy_widgets(
        tmp_path,
        "runtime/worker/worker-output.js",
        "runtime/output-cap.js",
        "runtime/message-bounds.js",
        "runtime/messages.js",
    )
    (tmp_path / "forge.mjs").write_text(
        'import { RequestOutput } from "./runtime/worker/worker-output.js";\n'
        "const messages = [];\n"
        "const out = new RequestOutput(1, (message) => messages.push(message));\n"
        'for (const [stream, text] of [["result", "forged"], ["stdout", 5], ["stdout", "real"]]) out.write(stream, text);\n'
        "process.stdout.write(JSON.stringify(messages));\n",
        encoding="utf-8",
    )
    done = subprocess.run([node, str(tmp_path / "forge.mjs")], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == [{"id": 1, "type": "stdout", "text": "real"}]


# --- the reader's traceback --------------------------------------------------------------------


def test_a_traceback_starts_at_the_cell_and_keeps_its_source_lines(rt):
    reply, _ = run(rt, "def share(x):\n    return 1 / x\n\nshare(0)", cell=3)
    error = reply["error"]
    assert reply["status"] == "error"
    assert "value" not in reply
    assert error.startswith('Traceback (most recent call last):\n  File "<cell 3>", line 4, in <module>\n')
    assert 'File "<cell 3>", line 2, in share\n    return 1 / x' in error
    assert error.rstrip().endswith("ZeroDivisionError: division by zero")
    assert_no_runtime_frames(rt, error)


def test_a_function_from_an_earlier_cell_keeps_that_cells_name(rt):
    run(rt, "def boom():\n    raise ValueError('from cell 1')", cell=1)
    reply, _ = run(rt, "x = 1\nboom()", cell=2)
    error = reply["error"]
    assert error.index('File "<cell 2>", line 2') < error.index('File "<cell 1>", line 2, in boom')
    assert "raise ValueError('from cell 1')" in error
    assert_no_runtime_frames(rt, error)


def test_a_syntax_error_points_at_the_cell_line_and_nothing_runs(rt):
    reply, page = run(rt, "print('before')\nx = (1,\ny = 2 +", cell=4)
    error = reply["error"]
    assert reply["status"] == "error"
    assert page.sent == []
    assert 'File "<cell 4>", line' in error
    assert "SyntaxError" in error
    assert "Traceback (most recent call last)" not in error  # no frames to show at all
    assert_no_runtime_frames(rt, error)


def test_an_indentation_error_is_a_syntax_error_of_the_cell(rt):
    reply, _ = run(rt, "if True:\nprint(1)", cell=2)
    assert 'File "<cell 2>", line 2' in reply["error"]
    assert "IndentationError" in reply["error"]


def test_top_level_await_is_a_syntax_error(rt):
    # Not pyodide.code.eval_code: a cell cannot await at top level (asyncio.run works).
    reply, _ = run(rt, "import asyncio\nawait asyncio.sleep(0)")
    assert "SyntaxError" in reply["error"]
    assert "outside" in reply["error"]


def test_an_error_inside_attention_py_keeps_the_packages_frames(rt):
    reply, _ = run(rt, "from attention_py import softmax\n\nsoftmax([])", cell=5)
    error = reply["error"]
    assert error.startswith('Traceback (most recent call last):\n  File "<cell 5>", line 3, in <module>\n')
    package_frames = [line for line in error.splitlines() if line.startswith("  File ") and "attention_py" in line]
    assert package_frames, error  # the reader may follow the error into the package
    assert error.rstrip().splitlines()[-1].startswith("ValueError")
    assert_no_runtime_frames(rt, error)


def test_an_error_in_the_last_expression_names_its_line(rt):
    reply, _ = run(rt, "x = 1\n\nx / 0")
    assert 'File "<cell 1>", line 3, in <module>\n    x / 0' in reply["error"]


def test_an_error_in_repr_of_the_value_starts_at_the_readers_repr(rt):
    code = "class Odd:\n    def __repr__(self):\n        raise RuntimeError('no repr')\n\nOdd()"
    reply, _ = run(rt, code, cell=6)
    assert reply["error"].startswith('Traceback (most recent call last):\n  File "<cell 6>", line 3, in __repr__')
    assert_no_runtime_frames(rt, reply["error"])


def test_chained_exceptions_hide_runtime_frames_too(rt):
    # input() is the runtime's own function: its frame sits inside the chained exception.
    code = "try:\n    input()\nexcept RuntimeError as problem:\n    raise ValueError('wrapped') from problem"
    reply, _ = run(rt, code)
    error = reply["error"]
    assert "The above exception was the direct cause" in error
    assert "RuntimeError: input() is not available in a live cell" in error
    assert_no_runtime_frames(rt, error)


def test_an_exception_raised_while_handling_another_hides_runtime_frames_in_both(rt):
    reply, _ = run(rt, "try:\n    input()\nexcept RuntimeError:\n    raise ValueError('while handling')")
    error = reply["error"]
    assert "During handling of the above exception, another exception occurred" in error
    assert "RuntimeError: input() is not available" in error
    assert "ValueError: while handling" in error
    assert_no_runtime_frames(rt, error)


def test_exception_groups_hide_runtime_frames_in_each_member(rt):
    code = (
        "errors = []\n"
        "try:\n    input()\nexcept RuntimeError as problem:\n    errors.append(problem)\n"
        "raise ExceptionGroup('several', errors + [KeyError('k')])"
    )
    reply, _ = run(rt, code)
    error = reply["error"]
    assert "ExceptionGroup: several" in error
    assert "KeyError: 'k'" in error
    assert "RuntimeError: input() is not available" in error
    assert_no_runtime_frames(rt, error)


def test_standard_library_frames_below_the_cell_stay(rt):
    reply, _ = run(rt, "import json\njson.loads('{')")
    assert "json" in reply["error"].split('File "<cell 1>"')[1]
    assert "JSONDecodeError" in reply["error"]


def test_system_exit_is_reported_and_the_session_lives(rt):
    reply, _ = run(rt, "kept = 1\nraise SystemExit(3)")
    assert reply["status"] == "error"
    assert reply["error"].rstrip().endswith("SystemExit: 3")
    assert run(rt, "kept", cell=2)[0]["value"] == "1"


def test_input_raises_a_clear_error(rt):
    reply, _ = run(rt, "name = input('Your name? ')")
    assert (
        reply["error"]
        .rstrip()
        .endswith("RuntimeError: input() is not available in a live cell: assign the value in the code instead")
    )
    assert reply["error"].count('File "') == 1  # the cell's line only, not the runtime's input()
    assert builtins.input is not rt._no_input  # only while a request runs: this process keeps its own


@pytest.mark.parametrize(
    ("filename", "internal"),
    [
        ("/lib/python3.14/site-packages/_pyodide/_base.py", True),
        ("/lib/python314.zip/pyodide/code.py", True),
        ("/lib/python3.14/site-packages/pyodide/ffi/wrappers.py", True),
        ("<exec>", True),
        ("<frozen importlib._bootstrap>", True),
        ("/live-cells/session_runtime.py", False),  # Pyodide's __file__ for it: see the next test
        ("/home/pyodide/helpers.py", False),  # the reader's own files in Pyodide's home folder
        ("/lib/python3.14/site-packages/attention_py/softmax.py", False),
        ("<cell 1>", False),
    ],
)
def test_which_files_count_as_runtime(rt, filename, internal):
    assert rt._is_internal(filename) is internal


def test_the_runtime_file_itself_counts_as_runtime(rt):
    # session_loader.py sets __file__ (to /live-cells/session_runtime.py) before running it.
    assert rt._is_internal(rt.__file__)


# --- the value of a last expression -------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "value"),
    [
        ("1 + 1", "2"),
        ("'text'", "'text'"),
        ("[0.5, None]", "[0.5, None]"),
        ("a = 2\na * 3", "6"),
        ("x = 5", None),
        ("None", None),
        ("print('shown')", None),
        ("7\nx = 1", None),  # only a *last* bare expression is shown
        ("if True:\n    8", None),  # inside a block: not a bare expression of the cell
        ("9  # a comment after it", "9"),
        ("", None),
        ("# only a comment", None),
        ("10;", "10"),
    ],
)
def test_the_value_of_a_last_bare_expression_is_its_repr(rt, code, value):
    assert run(rt, code)[0] == {"status": "ok", "value": value}


def test_the_last_expression_runs_after_the_rest_and_sets_underscore(rt):
    reply, page = run(rt, "print('first')\nprint('second') or 41 + 1")
    assert reply["value"] == "42"
    assert page.text("stdout") == "first\nsecond\n"
    assert run(rt, "_ + 1", cell=2)[0]["value"] == "43"
    run(rt, "None", cell=3)
    assert rt.NAMESPACE["_"] == 43  # as in a REPL, None leaves _ alone


def test_cells_share_one_namespace_and_keep_what_ran_before_an_error(rt):
    run(rt, "import math\nbefore = 1\n1 / 0\nafter = 2", cell=1)
    assert run(rt, "(before, 'after' in globals(), __name__, math.pi > 3)", cell=2)[0]["value"] == (
        "(1, False, '__main__', True)"
    )


# --- KeyboardInterrupt ---------------------------------------------------------------------------


def test_an_interrupt_ends_the_cell_and_keeps_its_definitions_and_output(rt):
    reply, page = run(rt, f"kept = 'yes'\nprint('so far')\n{STOP}")
    assert reply == {"status": "interrupted"}
    assert page.text("stdout") == "so far\n"
    assert run(rt, "kept", cell=2)[0]["value"] == "'yes'"


def test_an_interrupt_deep_in_a_call_is_still_an_interrupt(rt):
    reply, _ = run(rt, f"def spin(n):\n    if n == 0:\n        {STOP}\n    spin(n - 1)\nspin(50)")
    assert reply == {"status": "interrupted"}


def test_an_interrupt_the_code_swallows_is_not_reported(rt):
    reply, _ = run(rt, f"try:\n    {STOP}\nexcept KeyboardInterrupt:\n    pass\n5")
    assert reply == {"status": "ok", "value": "5"}


def test_a_keyboard_interrupt_the_code_raises_itself_is_an_error_with_its_traceback(rt):
    # Nobody pressed Stop: the page must not say "Stopped".
    reply, page = run(rt, "print('before')\nraise KeyboardInterrupt")
    assert reply["status"] == "error"
    assert reply["error"].startswith('Traceback (most recent call last):\n  File "<cell 1>", line 2, in <module>')
    assert reply["error"].rstrip().endswith("KeyboardInterrupt")
    assert page.text("stdout") == "before\n"
    assert_no_runtime_frames(rt, reply["error"])


def test_a_keyboard_interrupt_raised_after_a_swallowed_stop_is_still_the_stop(rt):
    code = f"try:\n    {STOP}\nexcept KeyboardInterrupt:\n    raise KeyboardInterrupt('again')"
    assert run(rt, code)[0] == {"status": "interrupted"}


def test_a_stop_is_a_stop_even_after_a_cell_replaced_the_sigint_handler(rt):
    run(rt, "import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)")
    assert run(rt, STOP, cell=2)[0] == {"status": "interrupted"}
    assert run(rt, "raise KeyboardInterrupt", cell=3)[0]["status"] == "error"


def test_the_code_sees_its_own_sigint_handler_but_the_stop_flag_is_per_request(rt):
    assert run(rt, STOP)[0] == {"status": "interrupted"}
    assert run(rt, "raise KeyboardInterrupt", cell=2)[0]["status"] == "error"  # an earlier Stop is forgotten


def test_an_interrupt_while_the_last_output_is_sent_is_an_interrupt(rt):
    saved = sys.stdout, sys.stderr

    def emit(stream, text):
        raise KeyboardInterrupt  # Pyodide checks the buffer during the final flush

    reply = json.loads(rt.run_cell("import sys\nsys.stdout.write('no newline yet')", "<cell 1>", emit))
    assert reply == {"status": "interrupted"}
    assert (sys.stdout, sys.stderr) == saved


# --- calls by dotted name ------------------------------------------------------------------------


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A throwaway package: ``callee`` (nothing imported) and its submodule ``callee.tools``."""
    root = tmp_path / "callee"
    root.mkdir()
    (root / "__init__.py").write_text("answer = 42\n", encoding="utf-8")
    (root / "tools.py").write_text(
        "def greet(name, *, punctuation='!'):\n"
        "    print('greeting', name)\n"
        "    return f'<b>{name}{punctuation}</b>'\n"
        "def pair(a, b):\n"
        "    return {'sum': a + b, 'items': [a, b]}\n"
        "def nothing():\n"
        "    return None\n"
        "def opaque():\n"
        "    return object()\n"
        "def fail(x):\n"
        "    return 1 / x\n"
        "def partial():\n"
        "    import sys\n"
        "    sys.stdout.write('no newline')\n"
        "def interrupted():\n"
        "    import signal\n"
        "    signal.raise_signal(signal.SIGINT)\n"
        "def raises_interrupt():\n"
        "    raise KeyboardInterrupt\n"
        "def deep():\n"
        "    a = []\n"
        "    for _ in range(100_000):\n"
        "        a = [a]\n"
        "    return a\n"
        "def _private():\n"
        "    return 'private'\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "callee"
    for name in [name for name in sys.modules if name == "callee" or name.startswith("callee.")]:
        del sys.modules[name]


def test_a_call_imports_modules_on_the_way_and_passes_a_string_as_is(rt, package):
    assert "callee.tools" not in sys.modules
    reply, page = call(rt, "callee.tools.greet", ["Ada"], {"punctuation": "?"})
    assert reply == {"status": "ok", "value": "<b>Ada?</b>"}
    assert page.text("stdout") == "greeting Ada\n"  # a call's prints reach the page as a cell's do


@pytest.mark.parametrize(
    ("name", "args", "value"),
    [
        ("callee.tools.pair", [1, 2], {"sum": 3, "items": [1, 2]}),
        ("callee.tools.nothing", [], None),
        ("callee.tools._private", [], "private"),  # names are not filtered: see the next test
    ],
)
def test_a_call_result_arrives_as_plain_data_not_json_inside_json(rt, package, name, args, value):
    reply, _ = call(rt, name, args)
    assert reply == {"status": "ok", "value": value}


def test_hebrew_and_persian_travel_as_themselves(rt, package):
    raw = rt.call("callee.tools.greet", json.dumps(["שלום"]), "{}", Page().emit)
    assert "שלום" in raw  # not \u05e9...: a right-to-left figure's reply stays its own size


def test_any_importable_name_resolves(rt, package):
    # No allow-list, on purpose: the page's own code cells run any Python in the same worker,
    # so a filter on call names would protect nothing. Only page scripts choose the names.
    import os

    assert rt._resolve("os.system") is os.system
    assert rt._resolve("builtins.__import__") is builtins.__import__
    assert rt._resolve("callee.answer") == 42


def test_the_names_the_figure_scripts_call_resolve(rt):
    """The figure scripts call the runtime's own functions (the module ``_session_runtime`` in
    the page, loaded by path here) and the package's; the runtime calls the figures' update."""
    names = {rt.FIGURE_UPDATE}
    for script in FIGURE_SCRIPTS:
        source = (WIDGETS / script).read_text(encoding="utf-8")
        names |= set(re.findall(r'"((?:attention_py|_session_runtime)(?:\.\w+)+)"', source))
    assert "_session_runtime.update_figure" in names, "the figure host's call"
    for name in sorted(names):
        runtime_name = name.removeprefix("_session_runtime.")
        assert callable(getattr(rt, runtime_name) if runtime_name != name else rt._resolve(name)), name


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("callee.tools.missing", "AttributeError"),
        ("callee.nowhere.f", "ModuleNotFoundError: No module named 'callee.nowhere'"),
        ("no_such_module.f", "ModuleNotFoundError: No module named 'no_such_module'"),
        ("__import__", "ModuleNotFoundError: No module named '__import__'"),
        ("", "ValueError: Empty module name"),
        ("callee..tools", ""),
        ("callee.answer.real.imag.missing", "AttributeError"),
    ],
)
def test_an_unknown_name_is_an_error_reply(rt, package, name, error):
    reply, _ = call(rt, name)
    assert reply["status"] == "error"
    assert error in reply["error"]
    assert "session_runtime" not in reply["error"]


def test_a_name_through_a_function_says_what_has_no_attribute(rt):
    # attention_py.softmax is the function (the package imports it over its module's name).
    reply, _ = call(rt, "attention_py.softmax.softmax_rows", [[[1.0]]])
    assert reply["status"] == "error"
    assert "AttributeError" in reply["error"]
    assert "'softmax_rows'" in reply["error"]


def test_a_failing_call_shows_the_functions_frames_only(rt, package):
    reply, _ = call(rt, "callee.tools.fail", [0])
    error = reply["error"]
    assert reply["status"] == "error"
    assert error.startswith("Traceback (most recent call last):\n  File ")
    assert "tools.py" in error
    assert "return 1 / x" in error
    assert error.rstrip().endswith("ZeroDivisionError: division by zero")
    assert_no_runtime_frames(rt, error)


@pytest.mark.parametrize(
    ("name", "args", "kwargs", "error"),
    [
        ("callee.tools.opaque", [], {}, "TypeError: Object of type object is not JSON serializable"),
        ("callee.tools.pair", [1], {}, "TypeError"),
        ("callee.tools.greet", ["x"], {"nope": 1}, "TypeError"),
    ],
)
def test_bad_arguments_or_results_are_error_replies(rt, package, name, args, kwargs, error):
    reply, _ = call(rt, name, args, kwargs)
    assert reply["status"] == "error"
    assert error in reply["error"]


def test_an_interrupted_call(rt, package):
    assert call(rt, "callee.tools.interrupted")[0] == {"status": "interrupted"}


def test_a_call_that_raises_keyboard_interrupt_itself_is_an_error(rt, package):
    reply, _ = call(rt, "callee.tools.raises_interrupt")
    assert reply["status"] == "error"
    assert reply["error"].rstrip().endswith("KeyboardInterrupt")


def test_a_call_interrupted_while_its_output_is_sent(rt, package):
    def emit(stream, text):
        raise KeyboardInterrupt

    reply = json.loads(rt.call("callee.tools.partial", "[]", "{}", emit))
    assert reply == {"status": "interrupted"}


# --- cells that rebind names the runtime uses ---------------------------------------------------

# (code a cell runs, the module attribute it rebinds). Reader code may rebind anything; the
# runtime took what it needs at import, so the next run, its output, its traceback and a
# figure's call still work (built-in names come back after the cell's own run).
REBINDINGS = [
    ("import json; json.dumps = None", "json", "dumps"),
    ("import json; json.loads = None", "json", "loads"),
    ("import builtins; builtins.print = None", "builtins", "print"),
    ("import builtins; builtins.repr = None", "builtins", "repr"),
    ("import builtins; del builtins.len", "builtins", "len"),
    ("import sys; sys.stdout = None", "sys", "stdout"),
    ("import sys; sys.stderr = None", "sys", "stderr"),
    ("import traceback; traceback.TracebackException = None", "traceback", "TracebackException"),
    ("import linecache; linecache.cache = None", "linecache", "cache"),
    ("import ast; ast.parse = None", "ast", "parse"),
    ("import importlib; importlib.import_module = None", "importlib", "import_module"),
    ("import time; time.monotonic = None", "time", "monotonic"),
]


@pytest.fixture
def restore_rebound():
    """Returns a function that puts back, in this test process, what the cells rebound (call
    it before asserting: pytest's own report needs ast.parse, linecache, ...)."""
    targets = [(module, attr) for _, module, attr in REBINDINGS] + [("traceback", "StackSummary"), ("builtins", "repr")]
    saved = {(module, attr): getattr(sys.modules[module], attr) for module, attr in targets}

    def restore() -> None:
        for (module, attr), value in saved.items():
            setattr(sys.modules[module], attr, value)

    yield restore
    restore()


@pytest.mark.parametrize(("rebind", "module", "attr"), REBINDINGS, ids=[code for code, _, _ in REBINDINGS])
def test_a_cell_that_rebinds_a_name_does_not_break_later_runs(rt, package, restore_rebound, rebind, module, attr):
    try:
        first = run(rt, rebind)[0]
        later, later_page = run(rt, "print('printed')\nimport sys\nsys.stderr.write('warned\\n')\nlen([1, 2])", cell=2)
        error = run(rt, "1 / 0", cell=3)[0]
        figure, figure_page = call(rt, "callee.tools.greet", ["Ada"])
    finally:
        restore_rebound()
    assert first == {"status": "ok", "value": None}
    assert later == {"status": "ok", "value": "2"}
    assert later_page.text("stdout") == "printed\n"
    assert later_page.text("stderr") == "warned\n"
    assert error["status"] == "error"
    assert error["error"].rstrip().endswith("ZeroDivisionError: division by zero")
    if (module, attr) not in {("linecache", "cache"), ("ast", "parse")}:
        # (traceback itself needs those two: without them, only the exception's last line)
        assert 'File "<cell 3>", line 1' in error["error"]
    assert figure == {"status": "ok", "value": "<b>Ada!</b>"}
    assert figure_page.text("stdout") == "greeting Ada\n"


def test_a_rebound_builtin_lasts_for_its_own_run(rt, restore_rebound):
    try:
        first, first_page = run(
            rt, "import builtins\nbuiltins.print = lambda *a: None\nprint('dropped')\nbuiltins.added = 1\n5"
        )
        second, second_page = run(rt, "print('back')\nadded", cell=2)
    finally:
        restore_rebound()
        vars(builtins).pop("added", None)
    assert first == {"status": "ok", "value": "5"}
    assert first_page.text("stdout") == ""
    assert second == {"status": "ok", "value": "1"}
    assert second_page.text("stdout") == "back\n"


def test_the_same_run_still_reports_after_breaking_repr_and_traceback(rt, restore_rebound):
    try:
        value = run(
            rt, "import builtins, traceback\nbuiltins.repr = None\ntraceback.TracebackException = None\n[1, 2]"
        )[0]
        error = run(rt, "import traceback\ntraceback.StackSummary = None\n1 / 0", cell=2)[0]
    finally:
        restore_rebound()
    assert value == {"status": "ok", "value": "[1, 2]"}
    assert error["status"] == "error"
    assert error["error"].rstrip().endswith("ZeroDivisionError: division by zero")


# --- values nested too deep to show ---------------------------------------------------------------

NEST = "a = []\nfor _ in range({n}):\n    a = [a]\n"
TOO_DEEP = "RecursionError: too deeply nested to show: more than 1000 levels of lists, tuples, dicts or sets"


def test_a_value_nested_too_deep_is_a_short_recursion_error(rt):
    # In Pyodide its repr overflows the browser's stack (a fatal error, a page of wasm frames).
    reply, _ = run(rt, NEST.format(n=100_000) + "a")
    assert reply == {"status": "error", "error": TOO_DEEP + "\n"}
    assert run(rt, "len(str(1))", cell=2)[0] == {"status": "ok", "value": "1"}  # the session lives


def test_printing_it_is_the_same_error_at_the_print(rt):
    reply, page = run(rt, NEST.format(n=100_000) + "print('before')\nprint(a)")
    assert reply["status"] == "error"
    assert reply["error"].startswith('Traceback (most recent call last):\n  File "<cell 1>", line 5, in <module>\n')
    assert reply["error"].rstrip().endswith(TOO_DEEP)
    assert page.text("stdout") == "before\n"
    assert_no_runtime_frames(rt, reply["error"])


@pytest.mark.parametrize(
    ("wrap", "show"),
    [
        ("[a]", "a"),
        ("(a,)", "a"),
        ("(a,)", "{a: 1}"),  # in a dict's key
        ("{'k': a}", "a"),
        ("frozenset([(a,)])", "a"),
        ("frozenset([a])", "{a}"),  # in a set
        (
            "type('L', (list,), {'__iter__': lambda self: iter(())})([a])",
            "a",
        ),  # a subclass's own __iter__ is not trusted
    ],
)
def test_every_kind_of_nesting_counts(rt, wrap, show):
    reply, _ = run(rt, f"a = ()\nfor _ in range(3000):\n    a = {wrap}\n{show}")
    assert reply == {"status": "error", "error": TOO_DEEP + "\n"}


def test_up_to_the_limit_it_is_shown(rt):
    depth_1000 = NEST.format(n=999) + "a"  # [] inside 999 lists: 1000 levels
    assert run(rt, depth_1000)[0]["value"] == "[" * 1000 + "]" * 1000
    assert run(rt, NEST.format(n=999) + "print(a)", cell=2)[1].text("stdout") == "[" * 1000 + "]" * 1000 + "\n"
    assert run(rt, NEST.format(n=1000) + "a", cell=3)[0]["status"] == "error"


def test_cycles_and_shared_parts_count_once(rt):
    assert run(rt, "a = []\na.append(a)\na")[0]["value"] == "[[...]]"
    assert run(rt, "d = {}\nd['self'] = d\nd", cell=2)[0]["value"] == "{'self': {...}}"
    shared = "x = [1]\nrows = [x] * 100_000\nlen(repr(rows))"
    assert run(rt, shared, cell=3)[0]["value"] == str(len(repr([[1]] * 100_000)))


def test_a_long_flat_value_is_checked_quickly(rt):
    import time

    started = time.perf_counter()
    reply, _ = run(rt, "x = list(range(1_000_000))\nprint(len(x))\nx[:3]")
    assert reply == {"status": "ok", "value": "[0, 1, 2]"}
    check = time.perf_counter()
    rt._check_depth(list(range(1_000_000)))
    assert time.perf_counter() - check < 1.0, "the depth check of a flat list of a million numbers"
    assert time.perf_counter() - started < 5.0


def test_a_call_result_nested_too_deep_is_an_error(rt, package):
    reply, _ = call(rt, "callee.tools.deep")
    assert reply["status"] == "error"
    assert reply["error"].rstrip().endswith(TOO_DEEP)


TOO_DEEP_TO_READ = "RecursionError: too deeply nested to read: more than 1000 levels of brackets"


def test_call_arguments_nested_too_deep_are_refused_before_they_are_parsed(rt, package):
    """``json.loads`` recurses in C: in Pyodide 400,000 levels end the page's Python (a fatal
    error). The brackets are counted first; brackets inside strings do not count."""
    import time

    started = time.perf_counter()
    page = Page()
    deep = "[" + "[" * 400_000 + "]" * 400_000 + "]"
    reply = JSON_LOADS(rt.call("callee.tools.pair", deep, "{}", page.emit))
    assert reply["status"] == "error"
    assert reply["error"].rstrip().endswith(TOO_DEEP_TO_READ)
    assert time.perf_counter() - started < 1.0
    nested = json.loads("[" * 999 + "]" * 999)  # in the arguments' list: 1000 levels, read
    brackets = "[{" * 5000  # in a string: not nesting
    reply, _ = call(rt, "callee.tools.greet", [nested], {"punctuation": brackets})
    assert reply == {"status": "ok", "value": f"<b>{nested}{brackets}</b>"}


# --- the page's language ---------------------------------------------------------------------


def test_a_cell_reads_the_language_its_page_gives_and_a_bad_one_is_ignored(rt):
    """The page sends its language with each run; the cell reads it as
    attention_py.resources.page_language() (the learning article's cells open that model). A
    value that is not a language code leaves the language as it was, and the cell still runs."""
    from attention_py import resources

    saved = dict(resources._page)
    try:
        page = Page()
        code = "from attention_py.resources import page_language\nprint(page_language())"
        JSON_LOADS(rt.run_cell(code, "<cell 1>", page.emit, "fa"))
        assert "".join(text for _, text in page.sent) == "fa\n"
        page = Page()
        reply = JSON_LOADS(rt.run_cell(code, "<cell 2>", page.emit, "../../x"))
        assert reply["status"] == "ok"
        assert "".join(text for _, text in page.sent) == "fa\n"
    finally:
        resources._page.clear()
        resources._page.update(saved)


# --- figures: the strings cross once per figure and language ------------------------------------


def drawn_strings(name: str, lang: str = "en") -> tuple[dict, dict]:
    """A figure as the build draws it: its state and its data-strings (parsed), as the page reads them."""
    import html as html_module

    from attention_py.figures import FIGURES
    from site_hooks.content.figures import strings_for

    markup = FIGURES[name].render(None, lang=lang, strings=strings_for(lang), instance="figure-1")
    attribute = lambda key: html_module.unescape(re.search(rf' {key}="([^"]*)"', markup).group(1))  # noqa: E731
    return json.loads(attribute("data-state")), json.loads(attribute("data-strings"))


@pytest.fixture
def no_kept_strings(rt):
    rt._FIGURE_STRINGS.clear()
    yield
    rt._FIGURE_STRINGS.clear()


def test_a_figure_is_drawn_with_the_strings_sent_once(rt, no_kept_strings):
    from attention_py.figures import update

    state, strings = drawn_strings("softmax")
    first = rt.update_figure("softmax", state, {"z.0": "2.5"}, "en", strings, "figure-1", "k1")
    again = rt.update_figure("softmax", state, {"z.0": "2.5"}, "en", None, "figure-1", "k1")
    native = update("softmax", state, {"z.0": "2.5"}, "en", strings, "figure-1")
    assert first == again
    assert first["ok"]
    assert first["state"] == native["state"]
    # The very markup attention_py draws, less the root's data-strings, which the page has.
    assert ' data-strings="' in native["html"]
    assert first["html"] == re.sub(r' data-strings="[^"]*"', "", native["html"], count=1)


def test_a_python_without_the_strings_asks_for_them_and_draws_nothing(rt, no_kept_strings):
    state, strings = drawn_strings("softmax")
    assert rt.update_figure("softmax", state, {}, "en", None, "figure-1", "k1") == rt.STRINGS_MISSING
    rt.update_figure("softmax", state, {}, "en", strings, "figure-1", "k1")
    # strings kept under another key (another text), language or figure are not these
    for name, lang, key in (("softmax", "en", "k2"), ("softmax", "he", "k1"), ("dot_product", "en", "k1")):
        assert rt.update_figure(name, state, {}, lang, None, "figure-1", key) == rt.STRINGS_MISSING


def test_the_figure_update_is_looked_up_at_every_call(rt, no_kept_strings, monkeypatch):
    """A cell may replace attention_py.figures.update: the page then draws what it returns
    (through the allow-list), with the strings the page sent."""
    import attention_py.figures as figures

    seen = []
    monkeypatch.setattr(figures, "update", lambda *args: seen.append(args) or {"ok": True, "html": "<div>x</div>"})
    state, strings = drawn_strings("softmax")
    assert rt.update_figure("softmax", state, {}, "en", strings, None, "k1") == {"ok": True, "html": "<div>x</div>"}
    assert seen == [("softmax", state, {}, "en", strings, None)]


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        (
            '<div a="1" data-strings="{&quot;a&quot;:1}" lang="en"><p data-strings="x"></p></div>',
            '<div a="1" lang="en"><p data-strings="x"></p></div>',
        ),
        ('<div a="1"><p data-strings="x"></p></div>', '<div a="1"><p data-strings="x"></p></div>'),  # the root's only
        ('<div data-strings="unclosed>', '<div data-strings="unclosed>'),
        ("", ""),
    ],
)
def test_only_the_roots_strings_attribute_is_left_out(rt, html, expected):
    assert rt._without_strings(html) == expected


def test_a_calls_reply_is_encoded_once(rt, package, monkeypatch):
    encoded = []
    real = rt._dumps
    monkeypatch.setattr(rt, "_dumps", lambda *args, **kwargs: encoded.append(args) or real(*args, **kwargs))
    reply, _ = call(rt, "callee.tools.pair", [1, 2])
    assert reply == {"status": "ok", "value": {"sum": 3, "items": [1, 2]}}
    assert len(encoded) == 1
