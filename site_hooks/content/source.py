"""The ``python-source`` fence: a page shows the package's own code, read at build time.

In Markdown::

    ```python-source name="attention_py.attention.attention"
    ```

The block becomes the highlighted source of that function, class or method (found with
``inspect.getsource``), under a caption naming its file and first line
(``attention_py/attention.py:<line>``). What readers read is therefore exactly what the
tests check: there is no hand-written twin to drift away. A name that does not resolve, or
a body in the fence, stops the build.
"""

from __future__ import annotations

import html
import importlib
import inspect
import textwrap
from pathlib import Path
from typing import Any

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer
from pymdownx.superfences import SuperFencesException

from site_hooks import ROOT


def validate(language: str, inputs: dict[str, str], options: dict[str, Any], attrs: dict[str, Any], md: Any) -> bool:
    unknown = set(inputs) - {"name"}
    if unknown or "name" not in inputs:
        raise SuperFencesException(
            'python-source: write ```python-source name="package.module.object"``` and nothing else'
        )
    options["name"] = inputs["name"]
    return True


def resolve(name: str) -> Any:
    """The object a dotted name stands for: the longest importable module, then attributes."""
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            target = getattr(target, attribute)
        return target
    raise ImportError(name)


def format(source: str, language: str, class_name: str, options: dict[str, Any], md: Any, **kwargs: Any) -> str:
    name = options["name"]
    if source.strip():
        raise SuperFencesException(f"python-source {name}: the fence must be empty (the code comes from the package)")
    try:
        target = inspect.unwrap(resolve(name))
        lines, first = inspect.getsourcelines(target)
        path = Path(inspect.getsourcefile(target) or "").resolve().relative_to(ROOT)
    except (ImportError, AttributeError, TypeError, OSError, ValueError) as error:
        raise SuperFencesException(f"python-source: cannot show {name!r}: {error}") from None
    code = highlight(textwrap.dedent("".join(lines)), PythonLexer(), HtmlFormatter(nowrap=True))
    caption = f"{path.as_posix()}:{first}"  # file:line, the same in every language
    return (
        '<figure class="source-code" dir="ltr">'
        f"<figcaption><code>{html.escape(caption)}</code></figcaption>"
        f'<div class="highlight"><pre><code class="language-python">{code}</code></pre></div>'
        "</figure>"
    )
