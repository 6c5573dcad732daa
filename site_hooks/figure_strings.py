"""The figures' translated strings, for the build: read the YAML files and check them.

``docs/figure-strings/<lang>.yml`` holds, per language, the strings of every figure (the
sections ``attention_py.figures.required_strings()`` names) and the ``page`` section that
the site's own scripts read. attention_py itself never reads YAML (it runs in bare
Pyodide): the build parses the files here and hands the figures plain dicts.

    strings = load_strings("docs/figure-strings/he.yml")
    problems = check_strings_dir("docs/figure-strings")   # [] or ["<file>: <section>.<key>: <problem>", ...]
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from attention_py.figures import check_strings, required_strings

STRINGS_DIR = Path(__file__).resolve().parents[1] / "docs" / "figure-strings"
REFERENCE_LANG = "en"

# Sections that no figure reads: the site's own page scripts do (docs/widgets/strings.js).
# Their keys are whatever the English file defines; every other language must match them.
SITE_SECTIONS = ("page",)


def load_strings(path: str | Path) -> dict[str, Any]:
    """A strings file parsed into a dict (an empty file gives {})."""
    with open(path, encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    return data or {}


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
