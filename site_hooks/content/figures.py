"""The ``figure`` fence: an interactive figure placed with one short Markdown block.

    ```figure name="softmax"
    z: [1.5, 2.0, 3.0]
    ```

The body is YAML for the figure's initial state (empty: the defaults). An optional
``id="train"`` names the figure on its page (its root's id; otherwise ``figure-<n>``): the
name a shareable figure's address uses (``#train?positions=none``), the same in every
language's page.

At build time the
block is replaced by the figure drawn natively by ``attention_py.figures`` in the page's
language, so the page is complete before any script runs; in the page the figure host
(docs/widgets/) redraws it with the same function in Pyodide.

Any problem (no name, an unknown figure, a bad state, a missing string) stops the build
with a ``SuperFencesException`` naming the page: superfences turns every other exception
into a silent plain code block. The page's language comes from the build's ``PageContext``
(site_hooks/build.py), which the hook ``figure_pages.py`` starts for each page converted; the
hooks (site_hooks/hooks.py) hand both functions the build.

The figures' words come from ``docs/figure-strings/<lang>.yml``: per language, the strings of
every figure (the sections ``attention_py.figures.required_strings()`` names) and the
``page`` section that the site's own scripts read. attention_py itself never reads YAML (it
runs in bare Pyodide): the build parses the files here and hands the figures plain dicts.
``common.direction`` is in no file: ``strings_for`` adds it from the language code, the same
direction as the page's.

    strings = load_strings("docs/figure-strings/he.yml")   # StringsFileError if not valid YAML
    problems = check_strings_dir("docs/figure-strings")   # [] or ["<file>: <section>.<key>: <problem>", ...]

A file that is not valid YAML is one problem, in one line with the line and column of the
mistake (``docs/figure-strings/he.yml, line 19, column 10: the quoted text that starts here
does not end on this line ...``), the same in the build and in the translators' status tool.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from pymdownx.superfences import SuperFencesException

from attention_py.figures import FIGURES, RunningFigure, Text, check_strings, get, required_strings
from site_hooks import ROOT
from site_hooks.build import Build, PageContext
from site_hooks.content.yaml_errors import describe
from site_hooks.i18n.languages import LanguageError, direction_of

STRINGS_DIR = ROOT / "docs" / "figure-strings"
REFERENCE_LANG = "en"

# Keys of `common` that the figures read but no strings file states: the build derives them.
# A figure's direction is its page's, which Material gives from the language code
# (site_hooks/i18n/languages.py), so a figure and its page can never disagree.
DERIVED = ("direction",)

# Sections that no figure reads: the site's own page scripts do (docs/widgets/shared/strings.js).
# Their keys are whatever the English file defines; every other language must match them.
SITE_SECTIONS = ("page",)

# Sections the gallery page reads at build time (site_hooks/content/gallery.py): a figure's
# heading and line there, one key per figure.
GALLERY_SECTIONS = ("gallery_headings", "gallery_lines")

ID = re.compile(r"[a-z][a-z0-9-]{0,39}")


def shareable_ids(page: PageContext) -> set[str]:
    """The ids the page ``page`` gave to shareable figures: links to their settings
    (``#train?positions=none``) point at them (figure_pages.py tells mkdocs's anchor check)."""
    named = page.named
    return {
        given for given, name in named.items() if isinstance(figure := get(name), RunningFigure) and figure.shareable
    }


@cache
def strings_for(lang: str) -> dict[str, Any]:
    """The strings of language ``lang`` as the figures get them: its file, plus what the build
    derives from the code (``common.direction``, the page's direction)."""
    path = STRINGS_DIR / f"{lang}.yml"
    if not path.exists():
        raise SuperFencesException(f"no figure strings for language {lang!r}: add {path.relative_to(ROOT)}")
    try:
        direction = direction_of(lang)
    except LanguageError as error:
        raise SuperFencesException(str(error)) from None
    return with_derived(load_strings(path), direction=direction)


def page_numbers(lang: str) -> dict[str, str]:
    """How the page's own scripts write a number (docs/widgets/shared/strings.js, ``writeNumber``):
    the language's digits and decimal separator for a number in a sentence ("Done in 0.05 s."),
    read from its strings file as the figures read them (``Text.prose_numbers``)."""
    numbers = Text(strings_for(lang), lang, "page").prose_numbers
    return {"digits": numbers.digits, "decimal": numbers.decimal}


def with_derived(strings: Mapping[str, Any], *, direction: str) -> dict[str, Any]:
    """``strings`` with the ``common`` keys no translator writes (``DERIVED``) filled in."""
    common = dict(strings.get("common") or {})
    common["direction"] = direction
    return {**strings, "common": common}


def validate(
    language: str, inputs: dict[str, str], options: dict[str, Any], attrs: dict[str, Any], md: Any, *, build: Build
) -> bool:
    page = build.page
    if "name" not in inputs or not set(inputs) <= {"name", "id"}:
        raise SuperFencesException(
            f'{page.src}: a figure block takes name="..." and optionally id="..."; got {sorted(inputs) or "none"}'
        )
    given = inputs.get("id")
    if given is not None and (not ID.fullmatch(given) or re.fullmatch(r"figure-\d+", given) or given in page.named):
        raise SuperFencesException(
            f'{page.src}: figure id="{given}": lower-case letters, digits and hyphens, starting with a letter,'
            " at most 40, unique on the page, and not figure-<n> (the numbered figures' ids)"
        )
    if given is not None:
        page.named[given] = inputs["name"]
    options.update(name=inputs["name"], id=given)
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


def format(
    source: str, language: str, class_name: str, options: dict[str, Any], md: Any, *, build: Build, **kwargs: Any
) -> str:
    page = build.page
    page.figures += 1
    instance = options.get("id") or f"figure-{page.figures}"
    try:
        return render_block(options["name"], source, page.lang, strings_for(page.lang), instance)
    except SuperFencesException:
        raise
    except Exception as error:
        raise SuperFencesException(f"{page.src}: {error}") from error


# The strings files


class StringsFileError(ValueError):
    """A strings file that is not valid YAML; the message is one line: the file, the line
    and column of the mistake, and what it probably is (see yaml_errors.py)."""


def _shown(path: Path) -> str:
    """``path`` as a translator would type it: relative to the repository when inside it."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def load_strings(path: str | Path) -> dict[str, Any]:
    """A strings file parsed into a dict (an empty file gives {}).

    Raises StringsFileError, in one line with the true line number, if it is not valid YAML
    (PyYAML's own error names the line where it gave up, often the next one).
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise StringsFileError(describe(error, text, _shown(path))) from None
    if data is not None and not isinstance(data, Mapping):
        raise StringsFileError(f"{_shown(path)}: must be sections of 'key: text' lines, not a {type(data).__name__}")
    return data or {}


def check_strings_file(path: str | Path) -> list[str]:
    """Every problem in one language's strings file, each naming the file and the key.

    Placeholders are compared with the English file beside it (``en.yml``), which also
    defines the keys of the site's own sections (``SITE_SECTIONS``).
    """
    path = Path(path)
    try:
        strings = load_strings(path)
    except StringsFileError as error:
        return [str(error)]
    reference_path = path.with_name(f"{REFERENCE_LANG}.yml")
    try:
        reference = load_strings(reference_path) if reference_path.exists() and reference_path != path else None
    except StringsFileError as error:
        return [str(error)]  # nothing to compare with until the English file parses
    english = strings if reference is None else reference
    required = dict(required_strings())
    required["common"] = tuple(key for key in required.get("common", ()) if key not in DERIVED)
    for section in SITE_SECTIONS:
        table = english.get(section)
        required[section] = tuple(table) if isinstance(table, Mapping) else ()
    for section in GALLERY_SECTIONS:
        required[section] = tuple(FIGURES)
    problems = []
    common = strings.get("common")
    stated = [key for key in DERIVED if isinstance(common, Mapping) and key in common]
    if stated:
        problems = [
            f"{path}: common.{key}: remove this line: the build derives it from the language code "
            "(a figure's direction is its page's)"
            for key in stated
        ]
        strings = {**strings, "common": {k: v for k, v in common.items() if k not in DERIVED}}
    return problems + check_strings(strings, required, source=str(path), reference=reference)


def check_strings_dir(folder: str | Path) -> list[str]:
    """``check_strings_file`` for every ``*.yml`` in ``folder``."""
    problems: list[str] = []
    for path in sorted(Path(folder).glob("*.yml")):
        problems.extend(p for p in check_strings_file(path) if p not in problems)  # a broken en.yml once
    return problems
