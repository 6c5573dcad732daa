"""Placeholder: the ``python-live`` fence (replaced by the live-cells work)."""

from __future__ import annotations

import html
from typing import Any


def validate(language: str, inputs: dict[str, str], options: dict[str, Any], attrs: dict[str, Any], md: Any) -> bool:
    options.update(inputs)
    return True


def format(source: str, language: str, class_name: str, options: dict[str, Any], md: Any, **kwargs: Any) -> str:  # noqa: A001
    return f'<div class="live-cell"><pre><code class="language-python">{html.escape(source)}</code></pre></div>'
