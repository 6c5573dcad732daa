"""Griffe extension for the API reference: doctest examples become ``pycon`` code blocks.

The package's docstrings show examples the way the tests run them (``>>> softmax(...)``
followed by the output), without a Markdown fence. Left as they are, Markdown reads ``>>>``
as nested quotes and ``[0.14, 0.231]`` as a link. Each run of doctest lines (up to the next
blank line) is wrapped in a fenced ``pycon`` block, so the reference shows them as code.
Wired in mkdocs.yml under the mkdocstrings python handler's ``extensions``.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """``text`` with every doctest block fenced as ```` ```pycon ````."""
    out: list[str] = []
    lines = text.splitlines()
    i, in_fence = 0, False
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        if in_fence or not line.lstrip().startswith(">>>"):
            out.append(line)
            i += 1
            continue
        indent = len(line) - len(line.lstrip())
        block = []
        while i < len(lines) and lines[i].strip():
            block.append(lines[i][indent:] if lines[i][:indent].isspace() else lines[i].lstrip())
            i += 1
        out += ["```pycon", *block, "```"]
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
