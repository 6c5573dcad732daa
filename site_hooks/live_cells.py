"""The ``python-live`` fence: a code block the reader can edit and run in the page.

In Markdown::

    ```python-live
    from attention_py import softmax
    softmax([1.5, 2.0, 3.0])
    ```

    ```python-live timeout="5"
    ...
    ```

At build time the block becomes ordinary, syntax-highlighted code (Pygments, with the
classes Material colours), readable with scripts off, inside a container whose data
attributes the browser side (docs/widgets/live-cell.js) reads:

- ``data-live-cell``: the cell's number on its page (1, 2, ...), which names its saved edits
  and its tracebacks (``File "<cell 2>"``);
- ``data-timeout``: the time limit in seconds (default 10);
- ``data-hash``: a hash of the original code, so a saved edit of code the author has since
  changed is dropped instead of shown.

An empty toolbar is rendered too, so that the buttons appear without moving the page.
Wired in mkdocs.yml as a pymdownx.superfences custom fence with these two functions.
Mistakes in a fence's options stop the build (``SuperFencesException``) instead of quietly
falling back to a plain code block.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer
from pymdownx.superfences import SuperFencesException

DEFAULT_TIMEOUT = 10.0
MAX_TIMEOUT = 600.0
OPTIONS = {"timeout"}

_COUNTER = "_live_cells_count"  # per-page cell numbering, kept on the page's Markdown object


def validate(language: str, inputs: dict[str, str], options: dict[str, Any], attrs: dict[str, Any], md: Any) -> bool:
    unknown = set(inputs) - OPTIONS
    if unknown:
        raise SuperFencesException(
            f"python-live: unknown option(s) {', '.join(sorted(unknown))}; the only option is timeout=\"seconds\""
        )
    if "timeout" in inputs:
        options["timeout"] = _timeout(inputs["timeout"])
    return True


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


def format(  # noqa: A001 - the name superfences' configuration uses
    source: str, language: str, class_name: str, options: dict[str, Any], md: Any, **kwargs: Any
) -> str:
    index = getattr(md, _COUNTER, 0) + 1
    setattr(md, _COUNTER, index)
    timeout = options.get("timeout", DEFAULT_TIMEOUT)
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]
    code = highlight(source, PythonLexer(), HtmlFormatter(nowrap=True))
    return (
        f'<div class="live-cell" data-live-cell="{index}" data-timeout="{timeout:g}" data-hash="{digest}">'
        f'<div class="live-cell__code highlight" dir="ltr"><pre><code class="language-python">{code}</code></pre></div>'
        '<div class="live-cell__bar"></div>'
        "</div>"
    )

