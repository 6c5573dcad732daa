"""The Python half of the page's Python session; the worker loads it once into Pyodide (worker-boot.js).

Why our own runner instead of ``pyodide.code.eval_code``: a live cell needs three things
together: output that streams to the page as it is written, the value of a last bare
expression shown as a REPL shows it, and a traceback that starts at the reader's code (no
runtime frames). Everything here is plain CPython, so it can be read and tested anywhere.

The worker calls ``run_cell`` and ``call`` with a JavaScript ``emit(stream, text)`` function;
both return a JSON string, the worker's reply, encoded once. The figure host calls
``update_figure`` (through ``call``), which keeps each figure's strings so that they cross
from the page once per figure and language, not with every call. The output cap is the worker's alone
(worker-output.js, where writes that bypass ``sys.stdout`` arrive too): here output is only
buffered, and ``emit`` returns true once the worker takes no more of it.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import io
import itertools
import json
import linecache
import re
import signal
import sys
import time
import traceback
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    # The worker's ``emit(stream, text)``: true once the worker takes no more output.
    Emit = Callable[[str, str], object]
# A partial line waits at most this long for its newline (checked at the next write).
FLUSH_SECONDS = 0.05
# Text crosses into JavaScript in pieces of at most this many characters (and a partial line
# goes once this much waits), so that one huge write (``print("x" * 10**9)``) is never copied
# whole: the worker's cap closes the output after a few pieces.
PIECE_CHARS = 65_536
# A flush the code asks for (``flush=True``, ``sys.stdout.flush()``) sends a partial line at
# once this many times per request; after that (a "\r" counter that flushes on every write) it
# goes like any partial line, at most once per FLUSH_SECONDS, instead of crossing into
# JavaScript for every write. Nothing is dropped.
EAGER_FLUSHES = 2000
# Output nests lists, tuples, dicts and sets at most this deep (see _check_depth), and a
# call's JSON arguments their brackets (see _check_json_depth).
MAX_DEPTH = 1000

# Reader code shares this interpreter and may rebind any module's names (``json.dumps =
# None``, ``builtins.repr = None``, ``traceback.TracebackException = None``). The runtime takes
# what it needs now, privately, so a cell can break its own code but not the next run, nor a
# figure's call: module functions under private names, and built-ins from a snapshot (this
# module's functions look built-in names up in ``__builtins__`` as it was when they were
# defined). What a cell does to ``sys.stdout``/``sys.stderr`` is undone after every request.
__builtins__ = dict(vars(builtins))  # type: ignore[assignment]  # CPython reads a dict here as well as a module
_dumps, _loads = json.dumps, json.loads
_accumulate = itertools.accumulate
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_BRACKET_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_parse, _Expr, _Expression = ast.parse, ast.Expr, ast.Expression
_import_module = importlib.import_module
_line_cache = linecache.cache
_monotonic = time.monotonic
_signal, _SIGINT = signal.signal, signal.SIGINT
_TracebackException, _StackSummary = traceback.TracebackException, traceback.StackSummary

# One namespace for the whole page: cells share definitions in run order, like a notebook.
NAMESPACE: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}

# Frames from these files are runtime plumbing, never the reader's business. (Not a bare
# "/pyodide/": the reader's home folder is /home/pyodide.)
_INTERNAL_MARKERS = (
    "/_pyodide/",
    ".zip/pyodide/",
    "site-packages/pyodide/",
    "<exec>",
    "<frozen importlib",
    "/widgets/python-worker.js",  # JavaScript frames of the worker (a request it refused)
    __file__,
)


class _Output:
    """Buffers what one request writes and sends it on through the worker's ``emit``.

    Line-buffered, like a terminal: a write that completes a line is sent at once, so the
    last lines printed before code hangs are on the page even if the worker must then be
    terminated (a timer cannot flush for us: Python blocks the worker while it runs).
    Partial lines wait for their newline, for the next write after FLUSH_SECONDS, for an
    explicit flush (``print(..., flush=True)``; see EAGER_FLUSHES), or for PIECE_CHARS of
    them. The worker caps and batches what it is sent; once ``emit`` returns true (the cap is
    reached), the rest is dropped here, so that a runaway loop's output does not cross into
    JavaScript for nothing.
    """

    def __init__(self, emit: Emit) -> None:
        self.emit = emit
        self.pending: list[tuple[str, str]] = []
        self.pending_chars = 0
        self.closed = False
        self.asked = 0
        self.last_flush = _monotonic()

    def write(self, stream: str, text: str) -> None:
        if self.closed or not text:
            return
        if self.pending and self.pending[-1][0] == stream and len(text) < PIECE_CHARS:
            self.pending[-1] = (stream, self.pending[-1][1] + text)
        else:  # a long text is not copied into the pending one: it is sent in pieces anyway
            self.pending.append((stream, text))
        self.pending_chars += len(text)
        # (The length first: a huge write is not searched for a newline.)
        if self.pending_chars >= PIECE_CHARS or "\n" in text or _monotonic() - self.last_flush >= FLUSH_SECONDS:
            self.flush()

    def flush_asked(self) -> None:
        """``flush=True`` or ``sys.stdout.flush()``: a partial line goes now (say, a progress
        message before slow work), EAGER_FLUSHES times at once, then once per FLUSH_SECONDS."""
        if self.pending and (self.asked < EAGER_FLUSHES or _monotonic() - self.last_flush >= FLUSH_SECONDS):
            self.asked += 1
            self.flush()

    def flush(self) -> None:
        """Sends what is pending, in pieces of at most PIECE_CHARS."""
        if not self.pending:
            return
        pending, self.pending, self.pending_chars = self.pending, [], 0
        self.last_flush = _monotonic()
        for stream, text in pending:
            for start in range(0, len(text), PIECE_CHARS):
                if self.emit(stream, text[start : start + PIECE_CHARS]):
                    self.closed = True
                    return


class _Stream(io.TextIOBase):
    """``sys.stdout`` / ``sys.stderr`` while a request runs."""

    def __init__(self, output: _Output, name: str) -> None:
        self._output = output
        self._name = name

    @property
    def encoding(self) -> str:  # type: ignore[override]  # TextIOBase declares a plain attribute
        return "utf-8"

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self._output.write(self._name, text)
        return len(text)

    def flush(self) -> None:
        self._output.flush_asked()


def _no_input(prompt: object = "") -> str:
    raise RuntimeError("input() is not available in a live cell: assign the value in the code instead")


_NESTING = (list, tuple, dict, set, frozenset)


def _check_depth(value: object) -> None:
    """Raises RecursionError if ``value`` nests lists, tuples, dicts or sets more than
    MAX_DEPTH deep. The repr (or str, or JSON) of such a value recurses in C, and in Pyodide
    the browser's stack runs out long before Python notices (at about 6,000 levels of lists
    in Node): a fatal error and a page of wasm frames, where CPython says RecursionError.
    Walked level by level, never recursively; a container met twice (a cycle) counts once."""
    level = [value] if isinstance(value, _NESTING) else []
    seen: set[int] = set()
    for _ in range(MAX_DEPTH):
        below = []
        for item in level:
            if id(item) in seen:
                continue
            seen.add(id(item))
            # The base types' own iterators: a subclass's __iter__ would be the reader's code.
            if isinstance(item, dict):
                members = [*dict.keys(item), *dict.values(item)]
            else:
                base: Any = next(kind for kind in _NESTING if isinstance(item, kind))
                members = list(base.__iter__(item))
            if any(issubclass(kind, _NESTING) for kind in set(map(type, members))):
                below += [member for member in members if isinstance(member, _NESTING)]
        if not below:
            return
        level = below
    raise RecursionError(f"too deeply nested to show: more than {MAX_DEPTH} levels of lists, tuples, dicts or sets")


def _check_json_depth(text: str) -> None:
    """Raises RecursionError if the JSON ``text`` nests its brackets (outside strings) more
    than MAX_DEPTH deep, before ``json.loads`` recurses through them in C: in Pyodide that
    overflows the browser's stack (a fatal error at about 6,000 levels under Node; 3,000 are
    read). Counted by the regular-expression engine and ``itertools.accumulate``, with no
    Python loop over the text; attention_py/figures/learning/training_app/reader_json.py counts a reader's file
    the same way (this runtime runs without the package too)."""
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    if any(depth > MAX_DEPTH for depth in _accumulate(map(_BRACKET_STEP.__getitem__, brackets))):
        raise RecursionError(f"too deeply nested to read: more than {MAX_DEPTH} levels of brackets")


_print = builtins.print


def _print_checked(*values: object, **options: Any) -> None:
    for value in values:
        _check_depth(value)  # print(deeply_nested) would crash Pyodide inside str()
    return _print(*values, **options)


_print_checked.__name__ = _print_checked.__qualname__ = "print"
_print_checked.__doc__ = _print.__doc__

# What the code of a request finds in builtins besides the usual (and only while it runs,
# so a process that loads this module natively keeps its own).
_REQUEST_BUILTINS = {"input": _no_input, "print": _print_checked}
_BUILTINS_DICT = vars(builtins)
_MISSING = object()
_stopped = False  # the page interrupted the running request (Stop or its time limit)
_watching = False  # our SIGINT handler is installed, so _stopped can be trusted


def _on_interrupt(signum: int, frame: object) -> None:
    """SIGINT: Pyodide raises it when the page writes to the interrupt buffer (Stop or the
    time limit). Marked, so that a KeyboardInterrupt the code raises itself is not taken for
    a Stop: that one is an exception like any other, with its traceback."""
    global _stopped
    _stopped = True
    raise KeyboardInterrupt


def _begin_request() -> dict[str, Any]:
    """Sets up a request; returns the built-ins to put back after it (``_end_request``).

    Our SIGINT handler goes in every time: a cell may have replaced it."""
    global _stopped, _watching
    saved = dict(_BUILTINS_DICT)
    _BUILTINS_DICT.update(_REQUEST_BUILTINS)
    _stopped = False
    try:
        _signal(_SIGINT, _on_interrupt)
        _watching = True
    except ValueError:  # not the main thread: every KeyboardInterrupt counts as a Stop
        _watching = False
    return saved


def _end_request(saved: dict[str, Any]) -> None:
    """Built-in names as the request found them: ``builtins.print = None`` in a cell lasts
    for that cell's run, not for every later one (names a cell adds to builtins stay)."""
    while True:
        try:
            for name, value in saved.items():
                if _BUILTINS_DICT.get(name, _MISSING) is not value:
                    _BUILTINS_DICT[name] = value
            return
        except KeyboardInterrupt:  # a Stop too late for the code: finish putting them back
            continue


def _was_stopped() -> bool:
    return _stopped or not _watching


def _is_internal(filename: str) -> bool:
    return any(marker in filename for marker in _INTERNAL_MARKERS)


def _readable_traceback(exc: BaseException, from_cell: bool = True) -> str:
    """The traceback a reader needs: from the first frame of their code, no runtime frames.

    For a cell it starts at the cell's first frame; for a call there is no cell, so only the
    runtime's frames are dropped. If a cell broke what formatting needs (the traceback or
    linecache module's names), the exception's last line still gets through.
    """
    try:
        return _format_traceback(exc, from_cell)
    except Exception:
        try:
            return f"{type(exc).__name__}: {exc}\n"
        except Exception:
            return f"{type(exc).__name__}\n"


def _format_traceback(exc: BaseException, from_cell: bool) -> str:
    if from_cell:
        tb = exc.__traceback__
        while tb is not None and not tb.tb_frame.f_code.co_filename.startswith("<cell"):
            tb = tb.tb_next
        exc.__traceback__ = tb
    summary = _TracebackException.from_exception(exc)
    for part in _chain(summary):
        part.stack = _StackSummary.from_list([frame for frame in part.stack if not _is_internal(frame.filename)])
    return "".join(summary.format())


def _chain(summary: traceback.TracebackException) -> Iterator[traceback.TracebackException]:
    """This exception and every exception chained to it (causes and contexts)."""
    todo: list[traceback.TracebackException | None] = [summary]
    seen: set[int] = set()
    while todo:
        part = todo.pop()
        if part is None or id(part) in seen:
            continue
        seen.add(id(part))
        yield part
        todo += [part.__cause__, part.__context__, *(part.exceptions or [])]


def _with_output[T](emit: Emit, action: Callable[[], T]) -> T:
    """Runs ``action()`` with stdout/stderr going to ``emit``; returns its result."""
    output = _Output(emit)
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Stream(output, "stdout"), _Stream(output, "stderr")
    try:
        return action()
    finally:
        # Flushed before the streams are dropped: dropping one closes it, and closing flushes
        # in __del__, where an interrupt that arrives during the send would be swallowed.
        try:
            output.flush()
        finally:
            sys.stdout, sys.stderr = saved


def _execute(code: str, filename: str) -> dict[str, Any]:
    try:
        tree = _parse(code, filename, "exec")
        last = tree.body[-1] if tree.body else None
        if isinstance(last, _Expr):
            tree.body.pop()  # evaluated on its own below, for its value
        else:
            last = None
        exec(compile(tree, filename, "exec"), NAMESPACE)
        if last is None:
            return {"status": "ok", "value": None}
        value = eval(compile(_Expression(last.value), filename, "eval"), NAMESPACE)
        if value is None:
            return {"status": "ok", "value": None}
        NAMESPACE["_"] = value
        _check_depth(value)
        return {"status": "ok", "value": repr(value)}  # the worker cuts it to the output cap
    except KeyboardInterrupt as exc:
        if _was_stopped():
            return {"status": "interrupted"}
        return {"status": "error", "error": _readable_traceback(exc)}  # raised by the code itself
    except BaseException as exc:
        return {"status": "error", "error": _readable_traceback(exc)}


def run_cell(code: str, filename: str, emit: Emit, lang: str | None = None) -> str:
    """Runs one cell's code in the page's namespace. ``filename`` is ``"<cell N>"``; ``lang``
    the page's language, which the cell reads as ``attention_py.resources.page_language()``."""
    if lang is not None:
        _set_page_language(lang)
    # Tracebacks show source lines only for files linecache knows: teach it this cell.
    _line_cache[filename] = (len(code), None, code.splitlines(True), filename)
    saved = _begin_request()
    try:
        result = _with_output(emit, lambda: _execute(code, filename))
    except KeyboardInterrupt:  # arrived while the output was being flushed
        result = {"status": "interrupted"}
    finally:
        _end_request(saved)
    return _dumps(result)


def _set_page_language(lang: str) -> None:
    try:
        from attention_py.resources import set_page_language

        set_page_language(lang)
    except (ImportError, ValueError):
        pass  # no package (a bare session) or no language code: cells read English's data


def _resolve(dotted: str) -> Any:
    """``"package.module.attr"`` -> the object, importing modules along the way.

    Read as Python reads the dotted expression: an attribute wins over a submodule of the
    same name (``attention_py.softmax`` is the function), and only a package is asked for a
    submodule, so a missing name is an AttributeError that says where it is missing.
    """
    parts = dotted.split(".")
    target = _import_module(parts[0])
    for index, part in enumerate(parts[1:], start=1):
        if hasattr(target, part):
            target = getattr(target, part)
        elif hasattr(target, "__path__"):  # a package whose submodule is not imported yet
            target = _import_module(".".join(parts[: index + 1]))
        else:
            raise AttributeError(f"{'.'.join(parts[:index])} has no attribute {part!r}")
    return target


def call(dotted: str, args_json: str, kwargs_json: str, emit: Emit) -> str:
    """Calls a function by dotted name with JSON arguments; the reply's value is its result.

    The result travels inside the reply as plain data (a string, a number, a list, a dict of
    them: anything JSON can carry), so the page gets an object, not JSON inside JSON. A result
    JSON cannot carry is an error. The reply is encoded once, inside the request, so that
    such an error has the function's traceback and a Stop during the encoding is a Stop.
    """

    def action() -> str:
        try:
            _check_json_depth(args_json)
            _check_json_depth(kwargs_json)
            result = _resolve(dotted)(*_loads(args_json), **_loads(kwargs_json))
            _check_depth(result)  # the encoder recurses in C: a deep value would crash Pyodide
            return _dumps({"status": "ok", "value": result}, ensure_ascii=False, allow_nan=False)
        except KeyboardInterrupt as exc:
            if _was_stopped():
                return _INTERRUPTED
            return _dumps({"status": "error", "error": _readable_traceback(exc, from_cell=False)}, ensure_ascii=False)
        except BaseException as exc:
            return _dumps({"status": "error", "error": _readable_traceback(exc, from_cell=False)}, ensure_ascii=False)

    saved = _begin_request()
    try:
        return _with_output(emit, action)
    except KeyboardInterrupt:
        return _INTERRUPTED
    finally:
        _end_request(saved)


_INTERRUPTED = _dumps({"status": "interrupted"})

# --- figures ------------------------------------------------------------------------------

# The function that draws a figure, looked up by name at every call (a live cell may replace
# it; whatever it returns still goes through the page's allow-list).
FIGURE_UPDATE = "attention_py.figures.update"
# Each figure's strings, as the page last sent them: (figure, language, the page's key of
# that text) -> the parsed strings. At most one entry per figure and language on the page.
_FIGURE_STRINGS: dict[tuple[str, str, str], Any] = {}
# The answer when the page sent no strings and this Python has none under that key (a fresh
# Python after a crash, a replacement or a reload): the page sends the same call again with
# its strings. No figure is ever drawn without them.
STRINGS_MISSING = {"ok": False, "strings": "missing"}
_STRINGS_ATTRIBUTE = ' data-strings="'


def update_figure(
    name: str,
    state: Any,
    changes: Any,
    lang: str,
    strings: Any,
    instance: str | None,
    strings_key: str,
) -> Any:
    """``attention_py.figures.update`` for the page's figure host, with the strings kept here.

    ``strings`` is the figure's ``data-strings`` (parsed), or None when the page believes this
    Python has them already under ``strings_key`` (a digest of that text, made by the page),
    so that a training figure polled every few milliseconds sends its state and not 4 KB of
    sentences. The key names the text itself, so strings kept here are never another text's.
    The reply's markup leaves out ``data-strings``: the page has it on the figure already.
    """
    cached = (name, lang, strings_key)
    if strings is None:
        if cached not in _FIGURE_STRINGS:
            return dict(STRINGS_MISSING)
        strings = _FIGURE_STRINGS[cached]
    else:
        _FIGURE_STRINGS[cached] = strings
    reply = _resolve(FIGURE_UPDATE)(name, state, changes, lang, strings, instance)
    if isinstance(reply, dict) and isinstance(reply.get("html"), str):
        reply = {**reply, "html": _without_strings(reply["html"])}
    return reply


def _without_strings(html: str) -> str:
    """The markup without its root's ``data-strings`` attribute. Figure markup escapes ``>``
    and ``"`` inside attribute values (attention_py/figures/kit/html.py), so the first ``>``
    ends the root's start tag and the first ``"`` after the attribute's start ends it."""
    start_tag = html.find(">")
    begin = html.find(_STRINGS_ATTRIBUTE, 0, start_tag)
    if begin < 0:
        return html
    end = html.find('"', begin + len(_STRINGS_ATTRIBUTE))
    return html if end < 0 or end > start_tag else html[:begin] + html[end + 1 :]


def use_site_files(read_site_file: Callable[[str], str]) -> None:
    """Lets ``attention_py.resources.resource(key)`` read the site's ``assets/<key>.json``.

    ``read_site_file(path)`` is the worker's synchronous same-origin request (a path under
    ``assets/``; it raises on an HTTP error). Figures and live cells then get the model the
    build trained the first time they ask for it, the same way, and only then.
    """
    from attention_py.resources import set_loader

    set_loader(lambda key: _loads(read_site_file(f"{key}.json")))
