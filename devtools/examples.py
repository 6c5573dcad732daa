"""The live cells' examples: run them as the page does, and keep their stored output current.

    .venv/bin/python -m devtools.examples                   # check every example (exit 1 on a change)
    .venv/bin/python -m devtools.examples --update          # rewrite the .out files that changed
    .venv/bin/python -m devtools.examples --show playground/masking   # print one example's output
    .venv/bin/python -m devtools.examples --sync-notebooks  # rewrite the notebooks' code cells from the examples

Each live cell's code is one file, ``docs/examples/<page>/<name>.py``; the pages of every
language point at it with ```` ```python-live example="<page>/<name>" ```` (see
``site_hooks/content/live_cells.py``). Beside it, ``<name>.out`` holds what the reader sees under
the cell after Run, and ``tests/articles/test_examples.py`` checks that it still does.

**Run as the page runs them.** The cells of a page share one Python session, in page order
(the information-flow article defines ``layer`` in one cell and uses it in the next), so the
examples are run page by page, in the order of the English page, in a fresh namespace per
page, by the page's own runner (``docs/widgets/runtime/python/session_runtime.py``, loaded natively, reading
the site's data files such as ``assets/training/en.json`` from the build itself): the
output is stdout and stderr as printed, then the ``repr`` of a last bare expression, or the
traceback, on a line of its own, as ``docs/widgets/cells/output-view.js`` shows them. One
difference: a traceback frame inside the package is written ``File ".../attention_py/x.py",
line ...``, because its folder differs between Pyodide and here, and its line number would
change the output at every edit of the package.

**Languages.** An example that reads its page's language (``page_language()`` of
``attention_py.resources``: the learning article's cells open that language's model and
puzzle) prints something else on each language's page. A page with such an example runs once
per language, with the page runtime told the language as the page tells it; an output that
differs from English's is stored as ``<name>.<lang>.out`` beside ``<name>.out``, and that
language's prose is held to it. Pages whose examples never read the language run once.

**Drift.** Prose quotes numbers that a cell prints ("14.0%, 23.1% and 62.9%"), in every
language. When an example's output changes, the numbers that were in the old output and are
not in the new one are looked up in the prose (outside code blocks) of every page that uses
the example, read in the page's language as its strings file says it writes a number
(``common.decimal`` and ``common.percent`` of ``docs/figure-strings/<lang>.yml``; see
``prose_format``): "۱۴٫۰٪" in Persian and "14,0 %" in a language of a decimal comma are one
number each, 14.0%, like "14.0%" in English. Digits of any script count, Python's own "." and
"%" (and LaTeX's "\\%") are read in every language, and signs are ignored (Persian may write
"منفی ۶٫۱۰"). Numbers are matched like with like (``quotes``): a percentage quotes a percentage
and a decimal a decimal, rounded to the prose's decimals ("0.44" for 0.438), while a fraction
written the other way keeps its digits ("52.2%" for 0.522, not "52%"), so that "79% by
step 20" is no quote of a cell's 0.793. The report names those lines, so the prose is fixed
together with the code; a language's page whose output is still English's (no ``<name>.<lang>.out``
yet) is compared with English's file, and ``--update`` creates its own. ``--update`` refuses
to store an output while such lines remain, unless ``--force`` (a number that only looks
the same, such as a line number).

**Notebooks.** The companion notebooks (``docs/<lang>/notebooks/*.ipynb``, executed by
mkdocs-jupyter at build time) show the same code as their page, so their code cells point at
the examples too: a code cell's metadata says ``"example": "<page>/<name>"`` and its source is
exactly that file's code. A code cell no page has (a notebook's own epilogue) says
``"notebook_only": true`` instead, so that leaving a copy of a page's code untagged is a
mistake the check names, not a choice. Translations carry only Markdown cells: their code
cells are the English notebook's, in the same order. ``--sync-notebooks`` rewrites the code
cells from the example files (English) and from the English notebook (translations), with
outputs cleared; JSON stays as Jupyter writes it (indent 1, key order kept, UTF-8 as is).
"""

from __future__ import annotations

import argparse
import builtins
import difflib
import importlib.util
import json
import os
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the examples import attention_py from this checkout
    sys.path.insert(0, str(ROOT))

from attention_py.figures import NumberFormat, Text  # noqa: E402
from attention_py.figures.kit.format import LATIN  # noqa: E402
from devtools.translation_status import SOURCE_LANG, languages  # noqa: E402
from site_hooks.content.live_cells import EXAMPLE_NAME, EXAMPLES_DIR, example_code, example_path  # noqa: E402
from site_hooks.i18n.translation_checks import english_sections, markdown_anchors  # noqa: E402

DOCS = ROOT / "docs"
RUNTIME = DOCS / "widgets" / "runtime" / "python" / "session_runtime.py"
UPDATE_COMMAND = ".venv/bin/python -m devtools.examples --update"

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_LIVE = re.compile(r"^\s*python-live\b(?P<options>.*)$")
_EXAMPLE_OPTION = re.compile(r'\bexample="(?P<name>[^"]*)"')
# a frame of the package, native or in Pyodide: File "/any/where/attention_py/x.py", line 12, in f
_PACKAGE_FRAME = re.compile(r'File "[^"\n]*?/(attention_py/[^"\n]+)", line \d+')
# What may stand between a number and its percent sign: a space, a no-break space, a narrow one.
_SPACE = "[ \u00a0\u202f]"


# --------------------------------------------------------------------------- where examples are used


@dataclass(frozen=True)
class Use:
    """One live cell of one page: ``docs/<lang>/<page>``, line ``line``, cell number ``cell``."""

    lang: str
    page: str  # relative to the language folder: "what-matters.md"
    line: int
    cell: int
    example: str

    @property
    def path(self) -> str:
        return f"docs/{self.lang}/{self.page}"


def all_languages(docs: Path = DOCS) -> list[str]:
    return [SOURCE_LANG, *languages(docs)]


def fenced_lines(text: str) -> Iterator[tuple[int, str, str | None]]:
    """``(line number, line, info)`` for every line; ``info`` is the info string of an opening
    fence (```` ```python-live example="x" ```` gives ``'python-live example="x"'``), ``""`` for
    any other line inside or closing a fenced block, ``None`` for prose."""
    fence: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        match = _FENCE.match(line)
        if fence is None:
            if match:
                fence = match["fence"]
                yield number, line, match["info"]
            else:
                yield number, line, None
        else:
            if (
                match
                and match["fence"][0] == fence[0]
                and len(match["fence"]) >= len(fence)
                and not match["info"].strip()
            ):
                fence = None
            yield number, line, ""


def page_examples(path: Path) -> list[tuple[int, str]]:
    """``(line, example name)`` of the live cells of one page, in order (``""``: no name)."""
    found = []
    for number, _line, info in fenced_lines(path.read_text(encoding="utf-8")):
        live = _LIVE.match(info or "")
        if live:
            option = _EXAMPLE_OPTION.search(live["options"])
            found.append((number, option["name"] if option else ""))
    return found


def pages_of(lang: str, docs: Path = DOCS) -> list[str]:
    folder = docs / lang
    return sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*.md"))


def uses(docs: Path = DOCS) -> list[Use]:
    """Every live cell of every Markdown page of every language."""
    found = []
    for lang in all_languages(docs):
        for page in pages_of(lang, docs):
            for cell, (line, name) in enumerate(page_examples(docs / lang / page), start=1):
                found.append(Use(lang, page, line, cell, name))
    return found


def example_names() -> list[str]:
    """Every example file, as the name a fence uses: ``"what-matters/softmax_weights"``."""
    return sorted(path.relative_to(EXAMPLES_DIR).with_suffix("").as_posix() for path in EXAMPLES_DIR.rglob("*.py"))


def expected_path(name: str, lang: str = SOURCE_LANG) -> Path:
    """Where the output of ``name`` on ``lang``'s page is stored when it differs from English's."""
    return EXAMPLES_DIR / (f"{name}.out" if lang == SOURCE_LANG else f"{name}.{lang}.out")


def stored_path(name: str, lang: str = SOURCE_LANG) -> Path | None:
    """The file that holds what ``name`` prints on ``lang``'s page: its own, else English's
    (``None`` when neither exists yet)."""
    for path in (expected_path(name, lang), expected_path(name)):
        if path.exists():
            return path
    return None


def stored_output(name: str, lang: str = SOURCE_LANG) -> str | None:
    """What ``name`` prints on ``lang``'s page, as stored: its own file, else English's."""
    path = stored_path(name, lang)
    return path.read_text(encoding="utf-8") if path else None


def shown(path: Path) -> str:
    """An example's file as messages name it: ``docs/examples/learning/loss.he.out``."""
    return f"docs/examples/{path.relative_to(EXAMPLES_DIR).as_posix()}"


LANGUAGE_AWARE = "page_language("
"""What an example that reads its page's language calls: its page runs once per language."""


def language_aware(names: Sequence[str]) -> bool:
    return any(LANGUAGE_AWARE in example_code(name) for name in names)


# --------------------------------------------------------------------------- running them


@cache
def _runtime():
    """The page's own runner (docs/widgets/runtime/python/session_runtime.py), loaded as a fresh module.

    Loading it replaces ``input`` (a live cell has no stdin); this process keeps its own."""
    spec = importlib.util.spec_from_file_location("_examples_session_runtime", RUNTIME)
    module = importlib.util.module_from_spec(spec)
    saved_input = builtins.input
    try:
        spec.loader.exec_module(module)
    finally:
        builtins.input = saved_input
    return module


def _read_site_file(path: str) -> str:
    """What the page's worker reads from the built site's ``assets/<path>``, here taken from the
    build itself: ``training/<lang>.json`` is the model it trains (site_hooks/content/training.py)."""
    from site_hooks.content.training import load_resource

    return json.dumps(load_resource(path.removesuffix(".json")))


def run_session(names: Sequence[str], lang: str = SOURCE_LANG) -> list[str]:
    """Runs examples one after another in one fresh namespace, as the cells of ``lang``'s page
    run; returns what the page shows under each cell."""
    return run_codes([example_code(name) for name in names], lang)


def run_codes(codes: Sequence[str], lang: str = SOURCE_LANG) -> list[str]:
    """Runs pieces of code one after another in one fresh namespace (see ``run_session``)."""
    runtime = _runtime()
    runtime.use_site_files(_read_site_file)  # resources as the page reads them, whoever set the loader last
    runtime.NAMESPACE = {"__name__": "__main__", "__builtins__": builtins}
    return [_run_cell(runtime, code, f"<cell {cell}>", lang) for cell, code in enumerate(codes, start=1)]


def _run_cell(runtime, code: str, filename: str, lang: str = SOURCE_LANG) -> str:
    pieces: list[str] = []

    def emit(stream: str, text: str) -> None:
        if stream in ("stdout", "stderr"):
            pieces.append(text)

    reply = json.loads(runtime.run_cell(code, filename, emit, lang))
    text = "".join(pieces)
    block = reply.get("value") if reply["status"] == "ok" else reply.get("error")
    if block is None and reply["status"] != "ok":
        block = f"({reply['status']})"
    if block is not None:  # output-view.js: a block starts on its own line and ends one
        if text and not text.endswith("\n"):
            text += "\n"
        text += block if block.endswith("\n") else block + "\n"
    if reply.get("truncated"):
        text += "(output truncated)\n"
    text = _PACKAGE_FRAME.sub(r'File ".../\1", line ...', text)
    return text.replace(f"{ROOT}{os.sep}", f"...{os.sep}")  # in messages: "(/home/me/x/attention_py/...)"


def sessions(docs: Path = DOCS) -> dict[str, list[str]]:
    """The English pages' live cells: page -> example names in order."""
    table: dict[str, list[str]] = {}
    for use in uses(docs):
        if use.lang == SOURCE_LANG:
            table.setdefault(use.page, []).append(use.example)
    return table


def outputs(docs: Path = DOCS) -> dict[str, str]:
    """Every used example's output, from its English page's session (the first page that uses it)."""
    result: dict[str, str] = {}
    for names in sessions(docs).values():
        for name, text in zip(names, run_session(names)):
            result.setdefault(name, text)
    return result


def language_outputs(docs: Path = DOCS) -> dict[tuple[str, str], str]:
    """The outputs of the examples of pages that read their language, on every other
    language's page: ``(name, lang) -> text`` (English's are ``outputs``)."""
    result: dict[tuple[str, str], str] = {}
    for names in sessions(docs).values():
        if not language_aware(names):
            continue
        for lang in all_languages(docs)[1:]:
            for name, text in zip(names, run_session(names, lang)):
                result.setdefault((name, lang), text)
    return result


# --------------------------------------------------------------------------- drift of prose and output


@cache
def prose_format(lang: str) -> NumberFormat:
    """How the prose of ``lang`` writes a number: the ``common.digits``, ``decimal`` and
    ``percent`` of its strings file (the figures' ``Text.prose_numbers``)."""
    from site_hooks.content.figures import strings_for

    return Text(strings_for(lang), lang, "common").prose_numbers


@cache
def _number_pattern(written: NumberFormat) -> re.Pattern[str]:
    """A number as ``written`` writes it, or as Python prints it: 14.0%, −6.10, ۱۴٫۰٪, 14,0 %
    (not x1, v3, 1.2.3). Digits of any script; the decimal separators "." and the format's."""
    separators = re.escape("".join(dict.fromkeys("." + written.decimal)))
    before, _, after = (part.strip() for part in written.percent.partition("{value}"))
    signs = "|".join(re.escape(sign) for sign in sorted({"%", "\\%", after} - {""}, key=len, reverse=True))
    prefix = f"(?:{re.escape(before)}{_SPACE}?)?" if before else ""
    return re.compile(
        rf"(?<![\w{separators}]){prefix}[-−]?\d+(?:[{separators}]\d+)?(?![\w{separators}]\d)(?:{_SPACE}?(?:{signs}))?"
    )


def _as_python_prints(raw: str, written: NumberFormat) -> str:
    """A number ``raw`` found by ``_number_pattern(written)`` as Python prints it: "14.0%", "-6.10"."""
    before, _, after = (part.strip() for part in written.percent.partition("{value}"))
    text, percent = re.sub(_SPACE, "", raw), False
    for sign in dict.fromkeys(s for s in (after, "\\%", "%") if s):
        if text.endswith(sign):
            text, percent = text[: -len(sign)], True
            break
    if before and text.startswith(before):
        text, percent = text[len(before) :], True
    text = "".join(str(int(c)) if c.isdecimal() else c for c in text)
    return text.replace(written.decimal, ".").replace("−", "-") + ("%" if percent else "")


def normalise_numbers(text: str, written: NumberFormat = LATIN) -> str:
    """``text`` with every number written as Python prints it: "۱۴٫۰٪" -> "14.0%"."""
    return _number_pattern(written).sub(lambda match: _as_python_prints(match[0], written), text)


# A printed decimal with at least this many significant digits is a float Python printed in
# full (its repr, up to 17 digits): no reader quotes it whole, so prose may round it, even as a
# percentage. A cell that formats its numbers ("0.793", "52.2%") chose their precision.
IN_FULL = 12


@dataclass(frozen=True)
class Number:
    """A number as written (``raw``: ``"۱۴٫۰٪"``) and as Python prints it (``text``: ``"14.0%"``)."""

    raw: str
    text: str  # as Python prints it, with its sign and percent sign: "-6.10", "14.0%"

    @property
    def percent(self) -> bool:
        return self.text.endswith("%")

    @property
    def digits(self) -> str:
        """Without sign and percent sign: "14.0"."""
        return self.text.rstrip("%").lstrip("-")

    @property
    def value(self) -> Decimal:
        """As written, without its sign: 14.0 for "14.0%"."""
        return Decimal(self.digits)

    @property
    def decimals(self) -> int:
        return len(self.digits.partition(".")[2])

    @property
    def rounds(self) -> bool:
        """Whether it may quote a longer number rounded: a decimal or a percentage, not "3"."""
        return "." in self.text or self.percent

    @property
    def fraction(self) -> tuple[Decimal, int]:
        """``(value, decimals)`` as a plain number: "14.0%" is (0.140, 3), "0.77" is (0.77, 2)."""
        if self.percent:
            return self.value.scaleb(-2), self.decimals + 2
        return self.value, self.decimals

    @property
    def in_full(self) -> bool:
        """Whether it is a float printed in full (see ``IN_FULL``), not a formatted number."""
        return not self.percent and len(self.digits.replace(".", "").lstrip("0")) >= IN_FULL


def numbers(text: str, written: NumberFormat = LATIN) -> list[Number]:
    """Every number in ``text``, read as ``written`` writes them (a page's language: see
    ``prose_format``) and as Python prints them (a cell's output: the default)."""
    return [Number(match[0], _as_python_prints(match[0], written)) for match in _number_pattern(written).finditer(text)]


def _rounded(value: Decimal, decimals: int) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_EVEN)


def quotes(prose: Number, printed: Number) -> bool:
    """Whether ``prose`` can be a quote of ``printed``, matching like with like (signs ignored).

    A percentage quotes a percentage and a decimal a decimal: the same value, or the printed
    one rounded to the prose's decimals ("0.44" quotes "0.438", "79%" quotes "79.3%"); a bare
    integer quotes only itself ("3" not "2.996"). Across kinds, a decimal fraction written as
    a percentage or the other way round ("0.522" for "52.2%", "77%" for "0.77"), the digits
    must be the same: "79%" is no quote of "0.793" (that would be "79.3%"), and an integer is
    a count, not a fraction ("2" is no quote of "2%", "100%" none of "1"). Only a float
    printed in full may be rounded across kinds: "14.0%" quotes "0.14024438316608848"."""
    if prose.percent == printed.percent:
        if not prose.rounds:
            return printed.decimals == 0 and printed.value == prose.value
        if printed.decimals <= prose.decimals:
            return printed.value == prose.value
        return _rounded(printed.value, prose.decimals) == prose.value
    decimal = printed if prose.percent else prose
    if "." not in decimal.digits:
        return False
    (value, decimals), (printed_value, printed_decimals) = prose.fraction, printed.fraction
    if printed_value == value:
        return True
    return printed.in_full and printed_decimals > decimals and _rounded(printed_value, decimals) == value


def vanished_numbers(old: str, new: str) -> list[str]:
    """Numbers printed in ``old`` and nowhere in ``new``, as printed, in order of appearance."""
    now = {number.text for number in numbers(new)}
    return list(dict.fromkeys(number.text for number in numbers(old) if number.text not in now))


@dataclass(frozen=True)
class Quote:
    """A line of prose that quotes numbers that are gone from an example's output."""

    path: str
    line: int
    quoted: tuple[str, ...]  # as written in the page: "۱۴٫۰٪", "23.1%"

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {', '.join(self.quoted)}"


def stale_quotes(name: str, old: str, new: str, docs: Path = DOCS, langs: Iterable[str] | None = None) -> list[Quote]:
    """Lines of prose, in every page of every language using example ``name`` (or of the
    languages ``langs``), that quote a number of the ``old`` output which nothing in the
    ``new`` output matches (see ``quotes``; signs are ignored)."""
    before, after = numbers(old), numbers(new)
    found = []
    wanted = None if langs is None else set(langs)
    pages = sorted(
        {(use.lang, use.page) for use in uses(docs) if use.example == name and (wanted is None or use.lang in wanted)}
    )
    for lang, page in pages:
        text = (docs / lang / page).read_text(encoding="utf-8")
        written = prose_format(lang)
        for line_number, line, info in fenced_lines(text):
            if info is not None:
                continue
            hits = tuple(
                number.raw
                for number in numbers(line, written)
                if any(quotes(number, printed) for printed in before)
                and not any(quotes(number, printed) for printed in after)
            )
            if hits:
                found.append(Quote(f"docs/{lang}/{page}", line_number, hits))
    return found


def english_lines(docs: Path, lang: str, page: str) -> set[int]:
    """The line numbers of ``docs/<lang>/<page>`` in sections still in English
    (``translation_checks.english_sections``): a language in progress may translate a page a
    section at a time."""
    english = set(english_sections(docs, lang, page))
    if not english:
        return set()
    found, anchor = set(), None
    for number, line, info in fenced_lines((docs / lang / page).read_text(encoding="utf-8")):
        heading = markdown_anchors(line) if info is None else []
        if heading:
            anchor = heading[0]
        elif anchor in english:
            found.add(number)
    return found


def english_quotes(name: str, english: str, own: str, lang: str, docs: Path = DOCS) -> list[Quote]:
    """Lines of ``lang``'s pages, in sections still in English, that quote a number of what
    ``name`` prints on the English page (``english``) which it does not print on theirs
    (``own``): the English prose, left as it was, says of this language's model what is true
    of English's. Unlike ``stale_quotes``, a standing check, not only when an output changes."""
    quotes = stale_quotes(name, english, own, docs, [lang])
    pages = {quote.path for quote in quotes}  # each page's sections are read once
    lines = {path: english_lines(docs, lang, path.removeprefix(f"docs/{lang}/")) for path in pages}
    return [quote for quote in quotes if quote.line in lines[quote.path]]


def prose_languages(name: str, lang: str, docs: Path = DOCS) -> list[str]:
    """The languages whose prose quotes the output of ``name`` on ``lang``'s page: that
    language, and for English every language that stores no output of its own for it."""
    if lang != SOURCE_LANG:
        return [lang]
    return [other for other in all_languages(docs) if other == lang or not expected_path(name, other).exists()]


def report(name: str, old: str | None, new: str, docs: Path = DOCS, lang: str = SOURCE_LANG) -> str:
    """Why example ``name`` fails its check on ``lang``'s page, and what to do: the message tests print."""
    source = f"docs/examples/{name}.py"
    where = "" if lang == SOURCE_LANG else f" on the {lang} page"
    path = stored_path(name, lang)
    if old is None or path is None:
        return f"{source} has no stored output yet: `{UPDATE_COMMAND}` will create {shown(expected_path(name))}."
    stored = shown(path)
    lines = [f"{source} no longer prints{where} what {stored} says{_what_update_does(name, lang, path)}."]
    gone = vanished_numbers(old, new)
    quotes = stale_quotes(name, old, new, docs, prose_languages(name, lang, docs))
    if quotes:
        lines.append(f"Numbers gone from its output: {', '.join(gone)}. Pages whose prose still quotes them:")
        lines += [f"  {quote}" for quote in quotes]
        lines.append(f"Fix that prose in every language, then run `{UPDATE_COMMAND}`.")
    else:
        lines.append(
            f"No page that uses it quotes a number gone from its output; if the new output is right, run `{UPDATE_COMMAND}`."
        )
    diff = difflib.unified_diff(old.splitlines(), new.splitlines(), stored, "now", lineterm="")
    lines += ["", *diff]
    return "\n".join(lines)


def _what_update_does(name: str, lang: str, path: Path) -> str:
    """For a language's page whose output is read from English's file: that ``--update`` will
    give it a file of its own (it does not exist yet, so no message calls it stale)."""
    own = expected_path(name, lang)
    if path == own:
        return ""
    return f" (English's output; the {lang} page has none of its own yet: `--update` will create {shown(own)})"


# --------------------------------------------------------------------------- the companion notebooks

NOTEBOOK_EXAMPLE = "example"  # code cell metadata: "example": "what-matters/attention_in_code"
NOTEBOOK_ONLY = "notebook_only"  # code cell metadata: "notebook_only": true (no page has this code)
SYNC_COMMAND = ".venv/bin/python -m devtools.examples --sync-notebooks"


def notebooks_of(lang: str, docs: Path = DOCS) -> list[str]:
    """The notebooks of one language, relative to its folder: ``"notebooks/what-matters.ipynb"``."""
    folder = docs / lang
    return sorted(
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*.ipynb")
        if ".ipynb_checkpoints" not in path.parts
    )


def read_notebook(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def notebook_text(notebook: dict) -> str:
    """A notebook as Jupyter writes it: indent 1, keys in their order, UTF-8 as is, final newline."""
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


def code_cells(notebook: dict) -> list[dict]:
    return [cell for cell in notebook.get("cells", []) if cell.get("cell_type") == "code"]


def cell_code(cell: dict) -> str:
    source = cell.get("source", "")
    return source if isinstance(source, str) else "".join(source)


def source_lines(code: str) -> list[str]:
    """A cell's ``source`` as Jupyter stores it: lines, each but the last ending in a newline."""
    return code.splitlines(keepends=True)


def cell_example(cell: dict) -> str | None:
    return (cell.get("metadata") or {}).get(NOTEBOOK_EXAMPLE)


def _cell_problem(where: str, cell: dict) -> str | None:
    """What is wrong with one code cell on its own: its tag, or its code against its example."""
    meta = cell.get("metadata") or {}
    name = meta.get(NOTEBOOK_EXAMPLE)
    if name is None:
        if meta.get(NOTEBOOK_ONLY) is True:
            return None
        return (
            f'{where}: no "{NOTEBOOK_EXAMPLE}" in its metadata; give it "{NOTEBOOK_EXAMPLE}": "<page>/<name>" '
            f'(its code is then docs/examples/<page>/<name>.py) or, for code no page has, "{NOTEBOOK_ONLY}": true'
        )
    if NOTEBOOK_ONLY in meta:
        return f'{where}: has both "{NOTEBOOK_EXAMPLE}" and "{NOTEBOOK_ONLY}"'
    if not isinstance(name, str) or not EXAMPLE_NAME.fullmatch(name):
        return f'{where}: "{NOTEBOOK_EXAMPLE}": {json.dumps(name)} is not a name like "what-matters/softmax_weights"'
    if not example_path(name).is_file():
        return f'{where}: "{NOTEBOOK_EXAMPLE}": "{name}" does not exist (no docs/examples/{name}.py)'
    if cell_code(cell) != example_code(name):
        return f"{where}: its code differs from docs/examples/{name}.py; run `{SYNC_COMMAND}`"
    return None


def _cell_key(cell: dict) -> str:
    """How a code cell is named in messages: its example, or its first line."""
    name = cell_example(cell)
    if name is not None:
        return str(name)
    first = cell_code(cell).partition("\n")[0]
    return f"notebook-only code {first!r}"


def notebook_problems(docs: Path = DOCS) -> list[str]:
    """Every notebook code cell that is not its example, names none or a missing one, and
    every translated notebook whose code cells are not the English notebook's, in order."""
    problems = []
    english = {page: read_notebook(docs / SOURCE_LANG / page) for page in notebooks_of(SOURCE_LANG, docs)}
    for lang in all_languages(docs):
        for page in notebooks_of(lang, docs):
            path = f"docs/{lang}/{page}"
            cells = code_cells(read_notebook(docs / lang / page))
            for number, cell in enumerate(cells, start=1):
                problem = _cell_problem(f"{path}: code cell {number}", cell)
                if problem:
                    problems.append(problem)
            if lang == SOURCE_LANG or page not in english:
                continue
            ours = [(_cell_key(cell), cell_code(cell)) for cell in cells]
            theirs = [(_cell_key(cell), cell_code(cell)) for cell in code_cells(english[page])]
            if [key for key, _ in ours] != [key for key, _ in theirs]:
                problems.append(
                    f"{path}: its code cells are not those of docs/{SOURCE_LANG}/{page} in the same order "
                    f"(a translation carries only Markdown cells)\n"
                    f"  {lang}: {', '.join(key for key, _ in ours)}\n"
                    f"  {SOURCE_LANG}: {', '.join(key for key, _ in theirs)}"
                )
            elif ours != theirs:
                changed = [key for (key, code), (_, code_en) in zip(ours, theirs) if code != code_en]
                problems.append(
                    f"{path}: code differs from docs/{SOURCE_LANG}/{page} in {', '.join(changed)}; run `{SYNC_COMMAND}`"
                )
    return problems


def _set_code(cell: dict, code: str) -> None:
    cell["source"] = source_lines(code)
    cell["outputs"] = []
    cell["execution_count"] = None


def sync_notebooks(docs: Path = DOCS) -> tuple[list[str], list[str]]:
    """Rewrites the notebooks' code cells: in English from their example files, in the other
    languages from the English notebook (tag and code, cell by cell). Outputs are cleared.
    Returns ``(files rewritten, problems left)``; a translation whose number of code cells
    differs from English is left alone and named among the problems."""
    rewritten, problems = [], []
    english: dict[str, dict] = {}
    for lang in all_languages(docs):
        for page in notebooks_of(lang, docs):
            path = docs / lang / page
            text = path.read_text(encoding="utf-8")
            notebook = json.loads(text)
            cells = code_cells(notebook)
            if lang == SOURCE_LANG:
                for cell in cells:
                    name = cell_example(cell)
                    if isinstance(name, str) and EXAMPLE_NAME.fullmatch(name) and example_path(name).is_file():
                        _set_code(cell, example_code(name))
                    else:
                        _set_code(cell, cell_code(cell))
                english[page] = notebook
            elif page in english:
                source = code_cells(english[page])
                if len(cells) != len(source):
                    problems.append(
                        f"docs/{lang}/{page}: {len(cells)} code cells, docs/{SOURCE_LANG}/{page} has {len(source)}: "
                        "not synced (a translation carries only Markdown cells; copy the English code cells by hand)"
                    )
                    continue
                for cell, original in zip(cells, source):
                    meta = cell.setdefault("metadata", {})
                    for key in (NOTEBOOK_EXAMPLE, NOTEBOOK_ONLY):
                        meta.pop(key, None)
                        if key in original.get("metadata", {}):
                            meta[key] = original["metadata"][key]
                    _set_code(cell, cell_code(original))
            new_text = notebook_text(notebook)
            if new_text != text:
                path.write_text(new_text, encoding="utf-8")
                rewritten.append(f"docs/{lang}/{page}")
    return rewritten, problems + notebook_problems(docs)


def notebook_sessions(docs: Path = DOCS) -> dict[str, list[tuple[str | None, str]]]:
    """The English notebooks' code cells: notebook -> ``(example or None, code)`` in order."""
    return {
        page: [(cell_example(cell), cell_code(cell)) for cell in code_cells(read_notebook(docs / SOURCE_LANG / page))]
        for page in notebooks_of(SOURCE_LANG, docs)
    }


# --------------------------------------------------------------------------- command line


def changed(docs: Path = DOCS) -> dict[tuple[str, str], tuple[str | None, str]]:
    """Outputs that differ from the stored ones: (name, lang) -> (stored or None, now). For a
    language, "stored" is its own file, else English's; a language's own file that now says
    the same as English's new output counts as changed too (it is to go)."""
    english = outputs(docs)
    result: dict[tuple[str, str], tuple[str | None, str]] = {}
    for name, text in sorted(english.items()):
        old = stored_output(name)
        if old != text:
            result[name, SOURCE_LANG] = (old, text)
    for (name, lang), text in sorted(language_outputs(docs).items()):
        own = expected_path(name, lang)
        old = stored_output(name, lang) if own.exists() else english.get(name)
        if old != text or (own.exists() and text == english.get(name)):
            result[name, lang] = (stored_output(name, lang), text)
    return result


def store(name: str, lang: str, text: str, english: str | None) -> str:
    """Writes the output of ``name`` on ``lang``'s page where it belongs; returns what it did."""
    path = expected_path(name, lang)
    if lang != SOURCE_LANG and text == english:
        if path.exists():
            path.unlink()
            return f"removed {shown(path)} (the same as English's)"
        return f"{shown(path)}: the same as English's, nothing to store"
    done = "updated" if path.exists() else "created"
    path.write_text(text, encoding="utf-8")
    return f"{done} {shown(path)}"


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m devtools.examples", description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="write the .out files whose output changed")
    parser.add_argument("--force", action="store_true", help="with --update: even where prose still quotes old numbers")
    parser.add_argument("--show", metavar="NAME", help="print the output of one example, e.g. playground/masking")
    parser.add_argument(
        "--sync-notebooks", action="store_true", help="rewrite the notebooks' code cells from the examples"
    )
    args = parser.parse_args(list(argv) if argv is not None else None)

    if args.sync_notebooks:
        rewritten, problems = sync_notebooks()
        for path in rewritten:
            print(f"synced {path}")
        for problem in problems:
            print(problem, file=sys.stderr)
        if not rewritten and not problems:
            print("every notebook code cell is its example already.")
        return 1 if problems else 0

    if args.show:
        table = outputs()
        if args.show not in table:
            print(f"no page uses an example named {args.show!r}", file=sys.stderr)
            return 2
        sys.stdout.write(table[args.show])
        return 0

    unused = sorted(set(example_names()) - set(outputs()))
    for name in unused:
        print(f"docs/examples/{name}.py: no English page uses it (not run)")
    stale_notebooks = notebook_problems()
    for problem in stale_notebooks:
        print(problem)
    todo = changed()
    if not todo:
        print(f"{len(example_names()) - len(unused)} examples, every output as stored.")
        return 1 if unused or stale_notebooks else 0
    status = 1 if stale_notebooks else 0
    english = {name: new for (name, lang), (_, new) in todo.items() if lang == SOURCE_LANG}
    for (name, lang), (old, new) in todo.items():
        quotes = stale_quotes(name, old, new, langs=prose_languages(name, lang)) if old is not None else []
        if args.update and (args.force or not quotes):
            print(store(name, lang, new, english.get(name, stored_output(name))))
        else:
            status = 1
            print(report(name, old, new, lang=lang), end="\n\n")
            if args.update:
                print(f"not updated: {name} on the {lang} page (fix the prose above, or --force)\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
