"""The ``figure`` fence: an interactive figure placed with one short Markdown block.

    ```figure name="softmax"
    z: [1.5, 2.0, 3.0]
    ```

The body is YAML for the figure's initial state (empty: the defaults). At build time the
block is replaced by the figure drawn natively by ``attention_py.figures`` in the page's
language, so the page is complete before any script runs; in the page the figure host
(docs/widgets/) redraws it with the same function in Pyodide.

Any problem (no name, an unknown figure, a bad state, a missing string) stops the build
with a ``SuperFencesException`` naming the page: superfences turns every other exception
into a silent plain code block. The page's language comes from ``figure_pages.py``, a hook
that records which page is being converted.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import yaml
from pymdownx.superfences import SuperFencesException

from attention_py.figures import get
from site_hooks.figure_strings import STRINGS_DIR, load_strings

_page: dict[str, str] = {"lang": "en", "src": "?"}


def set_page(lang: str, src: str) -> None:
    """Called before each page's Markdown is converted (see figure_pages.py)."""
    _page.update(lang=lang, src=src)


# Per-page figure numbering, kept on the page's Markdown object as live_cells.py does.
_COUNTER = "_figures_count"


@cache
def strings_for(lang: str) -> dict[str, Any]:
    path = STRINGS_DIR / f"{lang}.yml"
    if not path.exists():
        raise SuperFencesException(f"no figure strings for language {lang!r}: add {path.relative_to(STRINGS_DIR.parents[1])}")
    return load_strings(path)


def validate(language: str, inputs: dict[str, str], options: dict[str, Any], attrs: dict[str, Any], md: Any) -> bool:
    if set(inputs) != {"name"}:
        raise SuperFencesException(
            f"{_page['src']}: a figure block takes exactly one option, name=\"...\"; got {sorted(inputs) or 'none'}"
        )
    options["name"] = inputs["name"]
    return True


def render_block(name: str, source: str, lang: str, strings: dict[str, Any], instance: str) -> str:
    """The figure ``name`` drawn for the state the block's YAML ``source`` gives (empty: defaults).

    Every problem - an unknown name, YAML that does not parse, an unknown key, a value that
    is not a number - is a ValueError saying which figure and which key.
    """
    figure = get(name)
    try:
        state = yaml.safe_load(source) if source.strip() else None
    except yaml.YAMLError as error:
        raise ValueError(f"figure {name!r}: its block is not valid YAML: {error}") from None
    try:
        return figure.render(state, lang=lang, strings=strings, instance=instance)
    except ValueError as error:
        raise ValueError(f"figure {name!r}: {error}") from None


def format(source: str, language: str, class_name: str, options: dict[str, Any], md: Any, **kwargs: Any) -> str:  # noqa: A001
    src = _page["src"]
    number = getattr(md, _COUNTER, 0) + 1
    setattr(md, _COUNTER, number)
    try:
        return render_block(options["name"], source, _page["lang"], strings_for(_page["lang"]), f"figure-{number}")
    except SuperFencesException:
        raise
    except Exception as error:  # noqa: BLE001 - any failure must stop the build, loudly
        raise SuperFencesException(f"{src}: {error}") from error
