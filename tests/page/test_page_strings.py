"""The page's own strings (section ``page`` of docs/figure-strings/<lang>.yml) against the
scripts that read them (docs/widgets/*.js): every key a script reads exists, and every key
exists for a reason. (tests/e2e/test_site.py checks that the build embeds them.) And the
numbers the scripts write (``number(x, digits)``, strings.js ``writeNumber``) are the very
text attention_py writes from the same keys of the strings file.

A read is what the scripts really do with the object ``pageStrings()`` (strings.js) returns:
``strings.run``, ``this.strings.truncated(...)``, ``this.ui.figure_starting`` (the object
travels as ``strings``, ``uiStrings`` and ``ui``), or ``strings[busy]`` inside a function
whose parameter ``busy`` gets string literals at its call sites (``setBusy("queued")``).
Comments and ordinary string literals are not reads: they are removed before matching.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from tests.figures.support import LANGS, MADE_UP, ROOT, strings

WIDGETS = ROOT / "docs" / "widgets"
# The names the page strings object goes by in the scripts (checked below).
HOLDERS = ("strings", "uiStrings", "ui")
HOLDER = "(?:" + "|".join(HOLDERS) + ")"
DIRECT_READ = re.compile(rf"(?<![\w$.])(?:this\.)?{HOLDER}\.([A-Za-z_]\w*)")
# `strings[busy]`, not an assignment `strings[key] = ...` (how strings.js builds the object).
DYNAMIC_READ = re.compile(rf"(?<![\w$.])(?:this\.)?{HOLDER}\[\s*(\w+)\s*\](?!\s*=(?!=))")
FUNCTION_HEAD = re.compile(r"\b(\w+)\s*\(([\w\s,=]*)\)\s*\{")
KEYWORDS = {"if", "for", "while", "switch", "catch", "with", "function"}
TOKEN = re.compile(r"""//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`""", re.S)


def without_comments(source: str, blank_strings: bool = False) -> str:
    """The code without comments; with ``blank_strings``, "..." and '...' become "" too
    (template literals stay: their ${...} parts are code)."""

    def replace(match: re.Match) -> str:
        token = match.group()
        if token.startswith(("//", "/*")):
            return " " * len(token) if "\n" not in token else "\n" * token.count("\n")
        if blank_strings and token[0] in "\"'":
            return token[0] * 2
        return token

    return TOKEN.sub(replace, source)


def scripts() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(WIDGETS.rglob("*.js"))}


def extras() -> set[str]:
    """What pageStrings() adds to the texts: `return { ...strings, lang, dir, number };`."""
    code = without_comments(scripts()["strings.js"])
    found = re.search(r"return\s*\{\s*\.\.\.strings\s*,([\w\s,]+)\}", code)
    assert found, "strings.js: pageStrings' object is no longer built as { ...strings, extras }"
    return {name.strip() for name in found.group(1).split(",") if name.strip()}


def direct_reads() -> dict[str, set[str]]:
    """key -> the scripts that read it as `holder.key`."""
    reads: dict[str, set[str]] = {}
    for name, source in scripts().items():
        for key in DIRECT_READ.findall(without_comments(source, blank_strings=True)):
            reads.setdefault(key, set()).add(name)
    return reads


def literal_arguments(code: str, function: str) -> set[str]:
    """String literals passed to ``function(...)``, leaving out the operands of comparisons:
    `setBusy(state === "ready" ? "queued" : "waiting")` gives {"queued", "waiting"}."""
    values = set()
    for arguments in re.findall(rf"\b{function}\(([^()]*)\)", code):
        arguments = re.sub(r"""[!=]==?\s*(["'])\w*\1|(["'])\w*\2\s*[!=]==?""", "", arguments)
        values |= {value for _, value in re.findall(r"""(["'])(\w+)\1""", arguments)}
    return values


def dynamic_reads() -> tuple[dict[str, set[str]], list[str]]:
    """key -> scripts for `holder[param]` reads, and the dynamic reads not understood."""
    reads: dict[str, set[str]] = {}
    not_understood = []
    for name, source in scripts().items():
        code = without_comments(source)
        for read in DYNAMIC_READ.finditer(code):
            variable = read.group(1)
            heads = [
                head
                for head in FUNCTION_HEAD.finditer(code, 0, read.start())
                if head.group(1) not in KEYWORDS
                and variable in [p.split("=")[0].strip() for p in head.group(2).split(",")]
            ]
            keys = literal_arguments(code, heads[-1].group(1)) if heads else set()
            if not keys:
                not_understood.append(f"{name}: {read.group()}")
            for key in keys:
                reads.setdefault(key, set()).add(name)
    return reads, not_understood


def all_reads() -> dict[str, set[str]]:
    reads = direct_reads()
    for key, names in dynamic_reads()[0].items():
        reads.setdefault(key, set()).update(names)
    return reads


def test_the_strings_object_goes_only_by_the_names_this_test_reads():
    # A new name (`const words = pageStrings()`, `this.text = strings`) would hide its reads.
    for name, source in scripts().items():
        code = without_comments(source)
        held = re.findall(r"\b(?:const|let|var)\s+(\w+)\s*=\s*pageStrings\(", code)
        held += re.findall(rf"\bthis\.(\w+)\s*=\s*(?:this\.)?{HOLDER}\s*[;,\n]", code)
        held += re.findall(rf"\b(?:const|let|var)\s+(\w+)\s*=\s*(?:this\.)?{HOLDER}\s*;", code)
        assert set(held) <= set(HOLDERS), f"{name}: the page strings are also called {set(held) - set(HOLDERS)}"
    assert "pageStrings" in "".join(scripts().values()), "no script reads the page strings any more"


def test_every_dynamic_read_is_understood():
    assert dynamic_reads()[1] == []


def test_every_key_the_scripts_read_is_in_the_english_file():
    read = set(all_reads()) - extras()
    assert len(read) > 10, f"the patterns found almost no reads: {sorted(read)}"
    missing = {key: sorted(all_reads()[key]) for key in read - set(strings("en")["page"])}
    assert missing == {}


def test_every_page_key_is_read_by_some_script():
    read = all_reads()
    assert [key for key in strings("en")["page"] if key not in read] == []


def test_no_page_key_is_hidden_by_what_page_strings_adds():
    # pageStrings() spreads the texts first, so a key named like an extra would never be seen.
    assert extras() == {"lang", "dir", "number"}
    assert extras() & set(strings("en")["page"]) == set()


def test_the_reads_found_are_the_ones_the_scripts_make():
    # The pattern itself: a comment or a string literal that names a key is not a read.
    code = 'const s = "strings.run"; // strings.stop\n/* this.ui.reset */ strings.done({});\n'
    assert DIRECT_READ.findall(without_comments(code, blank_strings=True)) == ["done"]
    code = "function f(x) { return `${this.ui.ready}`; } mystrings.error; g.strings.queued;"
    assert DIRECT_READ.findall(without_comments(code, blank_strings=True)) == ["ready"]
    code = (
        'setBusy(busy) { this.s = strings[busy]; strings[key] = 1; }\nsetBusy(false); setBusy(x === "a" ? "b" : "c");'
    )
    assert literal_arguments(without_comments(code), "setBusy") == {"b", "c"}
    assert DYNAMIC_READ.findall(code) == ["busy"]


def test_the_holders_are_the_names_the_scripts_use():
    # Each name in HOLDERS must still be in use: a stale one would only widen the pattern.
    code = "".join(without_comments(source, blank_strings=True) for source in scripts().values())
    for holder in HOLDERS:
        assert re.search(rf"(?<![\w$.])(?:this\.)?{holder}\b", code), holder


# --------------------------------------------------------------------------- numbers

# (value, decimals) as the scripts format them: seconds, megabytes, limits, and the cases
# where a sign, a rounding or a zero could differ.
NUMBER_CASES = [
    (0.05, 2),
    (0.0512, 2),
    (13.46, 1),
    (10, 0),
    (2000, 0),
    (200, 0),
    (0.56, 2),
    (99.24, 1),
    (-1.5, 1),
    (-0.004, 2),
]


def written_by_the_page(format: dict[str, str]) -> list[str]:
    """NUMBER_CASES written by strings.js (writeNumber) under Node, with ``format`` as the
    build embeds it."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is needed to run docs/widgets/shared/strings.js")
    module = (WIDGETS / "shared" / "strings.js").as_uri()
    script = (
        f"import {{ writeNumber }} from {json.dumps(module)};"
        f"const format = {json.dumps(format)};"
        f"console.log(JSON.stringify({json.dumps(NUMBER_CASES)}.map(([v, d]) => writeNumber(v, d, format))));"
    )
    result = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


@pytest.mark.parametrize("lang", [*LANGS, MADE_UP])
def test_the_page_writes_numbers_as_its_strings_file_says(lang):
    """One source for the reader's conventions: the build embeds the language's digits and
    decimal separator (common.digits, common.decimal), and the page's scripts write with
    them exactly what attention_py's NumberFormat writes for a number in a sentence: 0.05 s,
    ۰٫۰۵ ثانیه, and 0,56 in the made-up language of a decimal comma."""
    from attention_py.figures import Text
    from site_hooks.content.figures import page_numbers

    prose = Text(strings(lang), lang, "page").prose_numbers
    embedded = {"digits": prose.digits, "decimal": prose.decimal}
    if lang != MADE_UP:
        assert page_numbers(lang) == embedded
    assert written_by_the_page(embedded) == [prose.num(value, digits) for value, digits in NUMBER_CASES]


def test_what_the_page_writes_in_persian_with_a_decimal_comma_and_without_a_format():
    from site_hooks.content.figures import page_numbers

    persian = written_by_the_page(page_numbers("fa"))
    assert persian[:5] == ["۰٫۰۵", "۰٫۰۵", "۱۳٫۵", "۱۰", "۲۰۰۰"]
    assert written_by_the_page({"digits": "0123456789", "decimal": ","})[6:9] == ["0,56", "99,2", "\u22121,5"]
    # A page without the embedded format (an old cached page) still writes a plain number.
    assert written_by_the_page({})[-3:] == ["99.2", "\u22121.5", "0.00"]
