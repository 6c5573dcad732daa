"""The ``python-live`` fence: a code block the reader can edit and run in the page.

Every live cell's code lives once, in its own file under ``docs/examples/`` (FastAPI's
``docs_src/`` idea): the pages of every language only point at it, so a translation carries
prose and nothing else, and ``tests/articles/test_examples.py`` runs each example and compares what it
prints with the ``.out`` file beside it. In Markdown, with an empty body::

    ```python-live example="what-matters/softmax_weights"
    ```

    ```python-live example="playground/free_cell" timeout="5"
    ```

``example="<page>/<name>"`` is ``docs/examples/<page>/<name>.py``. A fence with code in its
body, without ``example=``, or naming a file that does not exist stops the build: one way to
write a cell, so that no code can hide in a page where no test runs it.

At build time the block becomes ordinary, syntax-highlighted code (Pygments, with the
classes Material colours), readable with scripts off, inside a container whose data
attributes the browser side (docs/widgets/cells/live-cell.js) reads:

- ``data-live-cell``: the cell's number on its page (1, 2, ...), which names its saved edits
  and its tracebacks (``File "<cell 2>"``);
- ``data-timeout``: the time limit in seconds (default 10);
- ``data-hash``: a hash of the original code, so a saved edit of code the author has since
  changed is dropped instead of shown.

An empty toolbar is rendered too, so that the buttons appear without moving the page.
Wired in mkdocs.yml as a pymdownx.superfences custom fence with these two functions; the
hooks (site_hooks/hooks.py) hand ``format`` the build, whose page it counts the cell into.
Mistakes in a fence stop the build (``SuperFencesException``; mkdocs names the page)
instead of quietly falling back to a plain code block.
"""

from __future__ import annotations

import hashlib
import math
import re
from pathlib import Path
from typing import Any

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer
from pymdownx.superfences import SuperFencesException

from site_hooks import ROOT
from site_hooks.build import Build

EXAMPLES_DIR = ROOT / "docs" / "examples"
DEFAULT_TIMEOUT = 10.0
MAX_TIMEOUT = 600.0
OPTIONS = {"example", "timeout"}
# "<page>/<name>": folders and a file name, no dots, so nothing can point outside EXAMPLES_DIR
EXAMPLE_NAME = re.compile(r"[A-Za-z0-9_-]+(?:/[A-Za-z0-9_-]+)+")


def example_path(name: str) -> Path:
    """The file of ``example="<name>"``: ``docs/examples/<name>.py``."""
    return EXAMPLES_DIR / f"{name}.py"


def example_code(name: str) -> str:
    """The code a cell shows: the example file without its final newline(s)."""
    return example_path(name).read_text(encoding="utf-8").rstrip("\n")


def code_hash(code: str) -> str:
    """``data-hash``: names the original code, so saved edits of older code are dropped."""
    return hashlib.sha256(code.encode("utf-8")).hexdigest()[:16]


def validate(language: str, inputs: dict[str, str], options: dict[str, Any], attrs: dict[str, Any], md: Any) -> bool:
    unknown = set(inputs) - OPTIONS
    if unknown:
        raise SuperFencesException(
            f"python-live: unknown option(s) {', '.join(sorted(unknown))}; "
            'the options are example="<page>/<name>" and timeout="seconds"'
        )
    options["example"] = _example(inputs.get("example"))
    if "timeout" in inputs:
        options["timeout"] = _timeout(inputs["timeout"])
    return True


def _example(name: str | None) -> str:
    if not name:
        raise SuperFencesException(
            'python-live: no example="<page>/<name>"; the code of a live cell lives in '
            'docs/examples/<page>/<name>.py (see docs/widgets/README.md, "Examples")'
        )
    if not EXAMPLE_NAME.fullmatch(name):
        raise SuperFencesException(
            f'python-live: example="{name}" is not a name like "what-matters/softmax_weights" '
            "(folders and a file name under docs/examples/, without .py)"
        )
    if not example_path(name).is_file():
        raise SuperFencesException(
            f'python-live: example="{name}" does not exist: there is no '
            f"{example_path(name).relative_to(ROOT).as_posix()}"
        )
    return name


def _timeout(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not (0 < seconds <= MAX_TIMEOUT):
        raise SuperFencesException(
            f"python-live: timeout={text!r} is not a number of seconds between 0 and {MAX_TIMEOUT:g}"
        )
    return seconds


def format(
    source: str, language: str, class_name: str, options: dict[str, Any], md: Any, *, build: Build, **kwargs: Any
) -> str:
    name = options["example"]
    if source.strip():
        raise SuperFencesException(
            f'python-live example="{name}": the fence must be empty; its code comes from '
            f"{example_path(name).relative_to(ROOT).as_posix()} (move any change there)"
        )
    page = build.page  # the template loads the cells' code only where there are some
    page.cells += 1
    index = page.cells
    timeout = options.get("timeout", DEFAULT_TIMEOUT)
    code = example_code(name)
    html = highlight(code, PythonLexer(), HtmlFormatter(nowrap=True))
    return (
        f'<div class="live-cell" data-live-cell="{index}" data-timeout="{timeout:g}" data-hash="{code_hash(code)}">'
        f'<div class="live-cell__code highlight" dir="ltr"><pre><code class="language-python">{html}</code></pre></div>'
        '<div class="live-cell__bar"></div>'
        "</div>"
    )
