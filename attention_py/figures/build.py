"""Build-time helpers (native Python with PyYAML): prerender figures, check translations.

Kept apart from the rest of the package because it reads YAML, which the browser's
Pyodide does not have; nothing in ``attention_py.figures`` imports this module.

    prerender("softmax", "z: [1, 2, 3]", "he", strings)   # YAML text or a dict
    problems = check_strings_file("docs/figure-strings/he.yml")
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import figure_from_block, required_strings
from ._strings import REFERENCE_LANG, check_strings


def _yaml() -> Any:
    try:
        import yaml
    except ImportError:  # pragma: no cover - the build always has PyYAML (mkdocs needs it)
        raise RuntimeError("attention_py.figures.build needs PyYAML (pip install pyyaml)") from None
    return yaml


def load_strings(path: str | Path) -> dict[str, Any]:
    """A strings file parsed into a dict (an empty file gives {})."""
    with open(path, encoding="utf-8") as handle:
        data = _yaml().safe_load(handle)
    return data or {}


def prerender(
    name: str,
    state: str | Mapping[str, Any] | None,
    lang: str,
    strings: Mapping[str, Any],
    *,
    instance: str | None = None,
) -> str:
    """The figure's HTML for the page; ``state`` is the block's YAML text or a parsed dict."""
    if isinstance(state, str):
        try:
            state = _yaml().safe_load(state) if state.strip() else None
        except Exception as error:  # noqa: BLE001 - any YAML error becomes a clear ValueError
            raise ValueError(f"figure {name!r}: its block is not valid YAML: {error}") from None
    return figure_from_block(name, state, lang, strings, instance=instance)


# Sections that no figure reads: the site's own page scripts do (docs/widgets/strings.js).
# Their keys are whatever the English file defines; every other language must match them.
SITE_SECTIONS = ("page",)


def check_strings_file(path: str | Path) -> list[str]:
    """Every problem in one language's strings file, each naming the file and the key.

    Placeholders are compared with the English file beside it (``en.yml``), which also
    defines the keys of the site's own sections (``SITE_SECTIONS``).
    """
    path = Path(path)
    strings = load_strings(path)
    reference_path = path.with_name(f"{REFERENCE_LANG}.yml")
    reference = load_strings(reference_path) if reference_path.exists() and reference_path != path else None
    english = strings if reference is None else reference
    required = dict(required_strings())
    for section in SITE_SECTIONS:
        table = english.get(section)
        required[section] = tuple(table) if isinstance(table, Mapping) else ()
    return check_strings(strings, required, source=str(path), reference=reference)


def check_strings_dir(folder: str | Path) -> list[str]:
    """``check_strings_file`` for every ``*.yml`` in ``folder``."""
    problems = []
    for path in sorted(Path(folder).glob("*.yml")):
        problems.extend(check_strings_file(path))
    return problems
