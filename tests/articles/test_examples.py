"""The live cells' examples (docs/examples/): each runs and prints what its .out file says,
and every page and companion notebook of every language points at examples that exist (a
notebook's code cells are the example files' code: ``devtools.examples --sync-notebooks``).

Run as the page runs them (devtools/examples.py explains how). When an output changes, the
failure names the lines of prose, in every language, that quote numbers gone from it; fix
them, then store the new output with ``.venv/bin/python -m devtools.examples --update``.
"""

from __future__ import annotations

import functools
import re

import pytest

from attention_py.figures import NumberFormat
from devtools import examples
from site_hooks.content.live_cells import example_path

NAMES = examples.example_names()


@pytest.fixture(scope="module")
def outputs() -> dict[str, str]:
    return examples.outputs()


@pytest.mark.parametrize("name", NAMES)
def test_example_prints_its_stored_output(name, outputs):
    assert name in outputs, f"docs/examples/{name}.py: no English page uses it"
    path = examples.expected_path(name)
    stored = path.read_text(encoding="utf-8") if path.exists() else None
    if outputs[name] != stored:
        pytest.fail(examples.report(name, stored, outputs[name]), pytrace=False)


@pytest.fixture(scope="module")
def language_outputs() -> dict[tuple[str, str], str]:
    return examples.language_outputs()


def test_a_page_that_reads_its_language_prints_each_languages_output(outputs, language_outputs):
    """The learning article's cells open the model of their page's language: on every other
    language's page they print that language's output, stored as <name>.<lang>.out where it
    differs from English's (and not stored where it does not)."""
    assert language_outputs, "no page reads its language (the learning article's cells do)"
    for (name, lang), text in sorted(language_outputs.items()):
        own = examples.expected_path(name, lang)
        if text == outputs[name]:
            assert not own.exists(), f"{own.name} says what English's says: remove it (`{examples.UPDATE_COMMAND}`)"
            continue
        stored = examples.stored_output(name, lang)
        if text != stored:
            pytest.fail(examples.report(name, stored, text, lang=lang), pytrace=False)


def test_the_learning_cells_print_their_pages_language():
    """What a reader of the Hebrew or Persian page sees: that language's sentences, not English."""
    for lang, word in (("he", "המורה"), ("fa", "معلم")):
        for name in ("learning/untrained", "learning/trained_scores", "learning/shortcut"):
            text = examples.stored_output(name, lang)
            assert word in text, f"{name} on the {lang} page"
            assert "teacher" not in text, f"{name} on the {lang} page prints English sentences"


def test_an_example_used_on_several_pages_prints_the_same_on_each(outputs):
    """Its one .out file must hold on every page: the cells before it may not change it."""
    for page, names in examples.sessions().items():
        for name, text in zip(names, examples.run_session(names)):
            assert text == outputs[name], f"{name} prints something else on {page} than on its first page"


def test_every_live_cell_names_an_existing_example():
    problems = [
        f"{use.path}:{use.line}: " + (f'no file for example="{use.example}"' if use.example else "no example=")
        for use in examples.uses()
        if not use.example or not example_path(use.example).is_file()
    ]
    assert not problems, "\n".join(problems)


def test_every_example_is_used_in_every_language():
    """A language without a page shows the English one (fallback), with its cells."""
    all_uses = examples.uses()
    used: dict[str, set[str]] = {}
    for lang in examples.all_languages():
        own = set(examples.pages_of(lang))
        used[lang] = {
            use.example
            for use in all_uses
            if use.lang == lang or (use.lang == examples.SOURCE_LANG and use.page not in own)
        }
    missing = [
        f"docs/examples/{name}.py: no {lang} page uses it" for lang in used for name in NAMES if name not in used[lang]
    ]
    assert not missing, "\n".join(missing)


def test_translations_have_the_english_cells_in_the_english_order():
    """The cells of a page share one session in page order, and cell numbers name saved edits:
    a translation keeps exactly the English page's cells."""
    english = examples.sessions()
    for lang in examples.all_languages()[1:]:
        table: dict[str, list[str]] = {}
        for use in examples.uses():
            if use.lang == lang:
                table.setdefault(use.page, []).append(use.example)
        for page in set(english) & set(examples.pages_of(lang)):
            assert table.get(page, []) == english[page], f"docs/{lang}/{page}: cells differ from docs/en/{page}"


def test_every_example_has_a_stored_output_and_no_stray_outputs():
    outs = sorted(
        path.relative_to(examples.EXAMPLES_DIR).with_suffix("").as_posix()
        for path in examples.EXAMPLES_DIR.rglob("*.out")
    )
    english = [out for out in outs if "." not in out]
    assert english == NAMES
    others = examples.all_languages()[1:]
    stray = [
        out
        for out in outs
        if "." in out and (out.rpartition(".")[0] not in NAMES or out.rpartition(".")[2] not in others)
    ]
    assert not stray, f"outputs of no example or no language: {stray}"


# --------------------------------------------------------------------------- the drift check itself


def read(text: str, written=None) -> list[str]:
    return [number.text for number in examples.numbers(text, *([written] if written else []))]


# Each language's prose as its strings file says it writes numbers, with the numbers read
# as Python prints them. Python's own "0.522" and "14.0%" (in inline code, in mathematics)
# are read in every language.
PROSE = {
    "en": (
        "softmax gives 14.0%, 23.1% and 62.9%; the score −6.10, $0.522$; x1, v3 stay names",
        ["14.0%", "23.1%", "62.9%", "-6.10", "0.522"],
    ),
    "he": ("ל־23.1% מהמשקל, והציון −6.10; x1 הוא שם", ["23.1%", "-6.10"]),
    "fa": ("۱۴٫۰٪ و منفی ۶٫۱۰، $0.522$ و `14.0%`؛ x1 نام است", ["14.0%", "6.10", "0.522", "14.0%"]),
}


@pytest.mark.parametrize("lang", sorted(PROSE))
def test_numbers_are_read_in_each_languages_prose(lang):
    text, expected = PROSE[lang]
    assert read(text, examples.prose_format(lang)) == expected


def test_a_decimal_comma_and_a_spaced_percent_sign_make_one_number():
    """A made-up language of a decimal comma and "{value}\u00a0%" (Russian, French): "14,0 %"
    is 14.0%, not 14 and 0; the sign may follow a no-break, narrow or plain space; commas
    between numbers ("1, 2", "1,2,3") are no decimal separators."""
    comma = NumberFormat(decimal=",", percent="{value}\u00a0%")
    text = "вес 14,0\u00a0%, 23,1 % и 62,9\u202f%; вероятность 0,56; (1, 2) и 1,2,3; $0.522$; x1"
    assert read(text, comma) == ["14.0%", "23.1%", "62.9%", "0.56", "1", "2", "0.522"]
    [p], [o] = examples.numbers("14,0\u00a0%", comma), examples.numbers("0.14024438316608848")
    assert examples.quotes(p, o)
    # The same text read as English prose: the comma is no decimal separator there.
    assert read("14,0 %") == ["14", "0%"]


def test_a_percent_sign_before_the_number_is_read_too():
    """Turkish writes %14,0."""
    assert read("%14,0 ve %23,1; 62,9%", NumberFormat(decimal=",", percent="%{value}")) == ["14.0%", "23.1%", "62.9%"]


def test_the_drift_check_reads_a_page_in_its_languages_format(tmp_path, monkeypatch):
    """A page of a language of a decimal comma that quotes the softmax example as 14,0 % is
    named when that number leaves the output, and not while it stays."""
    name = "what-matters/softmax_weights"
    old = examples.expected_path(name).read_text(encoding="utf-8")
    (tmp_path / "xx").mkdir()
    (tmp_path / "xx" / "what-matters.md").write_text(
        f'Веса: 14,0\u00a0%, 23,1\u00a0% и 62,9\u00a0%.\n\n```python-live example="{name}"\n```\n', encoding="utf-8"
    )
    monkeypatch.setattr(examples, "prose_format", lambda lang: NumberFormat(decimal=",", percent="{value}\u00a0%"))
    new = old.replace("14.0%", "10.9%").replace("23.1%", "18.0%").replace("62.9%", "71.1%")
    assert [str(q) for q in examples.stale_quotes(name, old, new, docs=tmp_path)] == [
        "docs/xx/what-matters.md:1: 14,0\u00a0%, 23,1\u00a0%, 62,9\u00a0%"
    ]
    assert (
        examples.stale_quotes(name, old, old.replace("0.14024438316608848", "0.1402443831660885"), docs=tmp_path) == []
    )


@pytest.mark.parametrize(
    ("prose", "printed", "quoted"),
    [
        ("14.0%", "14.0%", True),
        ("۱۴٫۰٪", "0.14024438316608848", True),  # rounded, as a percentage
        ("0.522", "52.2%", True),
        ("77%", "0.77", True),
        ("−6.10", "6.10", True),  # signs ignored: Persian says "منفی ۶٫۱۰"
        ("14.1%", "0.14024438316608848", False),
        ("1", "1.03", False),  # a bare integer quotes only itself
        ("16", "16", True),
        # like with like: a percentage and a decimal quote each other with the same digits only
        ("79%", "0.793", False),  # 0.793 as a percentage is 79.3%: "79%" is another number
        ("79.3%", "0.793", True),
        ("79%", "79.3%", True),  # a percentage rounds a percentage
        ("0.44", "0.438", True),  # a decimal rounds a decimal
        ("0%", "0.343", False),  # not 0.343 rounded to a whole number
        ("0.2%", "21%", False),
        ("2", "2%", False),  # a count is no fraction
        ("100%", "1", False),
        ("100%", "1.0", True),
    ],
)
def test_what_counts_as_a_quote(prose, printed, quoted):
    [p], [o] = examples.numbers(prose, examples.prose_format("fa")), examples.numbers(printed)
    assert examples.quotes(p, o) is quoted


def test_a_changed_output_names_the_stale_prose_in_every_language():
    """Every language whose what-matters.md is translated quotes the softmax weights (a
    language in progress without that page shows English's, which is named for it)."""
    name = "what-matters/softmax_weights"
    old = examples.expected_path(name).read_text(encoding="utf-8")
    new = old.replace("14.0%", "10.9%").replace("23.1%", "18.0%").replace("62.9%", "71.1%")
    message = examples.report(name, old, new)
    translated = [lang for lang in examples.all_languages() if "what-matters.md" in examples.pages_of(lang)]
    assert {"en", "he", "fa"} <= set(translated)
    for lang in translated:
        assert f"docs/{lang}/what-matters.md:" in message, f"{lang}: its what-matters.md should quote the weights"
    assert "docs/en/index.md" not in message  # another example: not affected
    assert "devtools.examples --update" in message


# A language in progress (docs/en/translate.md): its learning page translated at the top, the
# rest still English, quoting the English model's numbers.
PARTLY_ENGLISH = """# 权重从哪里来？ { #learning }

模型回答 *student*，$p = 0.793$。

## Watching it learn { #training }

The test accuracy starts at the coin's 50%, is at
79% by step 20 and at 98% by step 40.

## The model { #model }

It answers *student*, with $p = 0.793$.

```python-live example="learning/untrained"
```
"""


@pytest.fixture
def partly_english(tmp_path, monkeypatch):
    """A docs tree with one language, zh, whose learning page is partly English; what the
    untrained cell prints in English, and on the zh page (another model: other numbers)."""
    (tmp_path / "zh").mkdir()
    (tmp_path / "zh" / "learning.md").write_text(PARTLY_ENGLISH, encoding="utf-8")
    monkeypatch.setattr(examples, "prose_format", lambda lang: NumberFormat())
    english = "the teacher yelled at the student because she was angry\n  teacher    0.207\n  student    0.793\n"
    return tmp_path, english, english.replace("0.207", "0.388").replace("0.793", "0.612")


def test_a_number_the_prose_quotes_of_another_source_is_not_a_stale_quote(partly_english):
    """The curve's "79% by step 20" is no quote of the cell's 0.793 (that would be 79.3%):
    only the lines that quote 0.793 itself are named, in the translated and the English prose."""
    docs, english, zh = partly_english
    quotes = [str(q) for q in examples.stale_quotes("learning/untrained", english, zh, docs=docs, langs=["zh"])]
    assert quotes == ["docs/zh/learning.md:3: 0.793", "docs/zh/learning.md:12: 0.793"]


def test_a_language_without_its_own_output_is_told_the_file_update_creates(partly_english):
    """The zh page's output is compared with English's file, the one that exists: the message
    names it, and says that --update will create the zh page's own."""
    docs, english, zh = partly_english
    message = examples.report("learning/untrained", english, zh, docs=docs, lang="zh")
    first = message.splitlines()[0]
    assert "on the zh page what docs/examples/learning/untrained.out says" in first
    assert "`--update` will create docs/examples/learning/untrained.zh.out" in first
    assert "untrained.zh.out says" not in message
    assert "--- docs/examples/learning/untrained.out" in message  # the diff's header: a real file


def test_an_example_without_any_output_is_told_the_file_update_creates():
    message = examples.report("learning/no_such_cell", None, "1\n")
    assert message == (
        "docs/examples/learning/no_such_cell.py has no stored output yet: "
        f"`{examples.UPDATE_COMMAND}` will create docs/examples/learning/no_such_cell.out."
    )


def test_storing_a_languages_first_output_says_it_creates_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(examples, "EXAMPLES_DIR", tmp_path)
    (tmp_path / "learning").mkdir()
    name = "learning/untrained"
    assert examples.store(name, "zh", "zh\n", "en\n") == "created docs/examples/learning/untrained.zh.out"
    assert examples.store(name, "zh", "zh 2\n", "en\n") == "updated docs/examples/learning/untrained.zh.out"
    assert (
        examples.store(name, "zh", "en\n", "en\n")
        == "removed docs/examples/learning/untrained.zh.out (the same as English's)"
    )


def test_a_section_still_in_english_quotes_only_numbers_its_pages_cells_print(partly_english):
    """On zh's page, the English "It answers *student*, with $p = 0.793$" says of the zh model
    what is true of English's: named, though no output changed. The translated section's
    quote is the translator's own text (held to the zh output by the drift check)."""
    docs, english, zh = partly_english
    (docs / "en").mkdir()
    own = PARTLY_ENGLISH.replace("# 权重从哪里来？", "# Weights").replace(
        "模型回答 *student*，$p = 0.793$。", "It says 0.793."
    )
    (docs / "en" / "learning.md").write_text(own, encoding="utf-8")
    assert examples.english_lines(docs, "zh", "learning.md") == {6, 7, 8, 9, 11, 12, 13, 14, 15}  # not the headings
    quotes = examples.english_quotes("learning/untrained", english, zh, "zh", docs)
    assert [str(q) for q in quotes] == ["docs/zh/learning.md:12: 0.793"]
    assert examples.english_quotes("learning/untrained", english, english, "zh", docs) == []


def test_the_english_sections_of_every_language_quote_its_own_outputs(outputs, language_outputs):
    """Every language's page whose cells print their own output (the learning article's): no
    section still in English quotes a number only the English page's cell prints."""
    problems = [
        str(quote)
        for (name, lang), text in sorted(language_outputs.items())
        if text != outputs[name]
        for quote in examples.english_quotes(name, outputs[name], text, lang)
    ]
    assert not problems, (
        "sections still in English quote the English model's numbers, not this language's "
        "(translate them, quoting this page's cells):\n  " + "\n  ".join(problems)
    )


def test_an_unchanged_quote_is_not_reported():
    name = "index/softmax"
    old = examples.expected_path(name).read_text(encoding="utf-8")
    new = old.replace("0.14024438316608848", "0.14024438316608850")  # still 14.0%
    assert examples.stale_quotes(name, old, new) == []


# --------------------------------------------------------------------------- the fence


def _convert(markdown_text: str) -> str:
    import markdown

    from site_hooks.build import Build
    from site_hooks.content import live_cells

    fence = {
        "name": "python-live",
        "class": "python-live",
        "validator": live_cells.validate,
        "format": functools.partial(live_cells.format, build=Build()),  # as site_hooks/hooks.py binds it
    }
    md = markdown.Markdown(
        extensions=["pymdownx.superfences", "pymdownx.tabbed"],
        extension_configs={
            "pymdownx.superfences": {"custom_fences": [fence]},
            "pymdownx.tabbed": {"alternate_style": True},
        },
    )
    return md.convert(markdown_text)


def test_the_fence_shows_the_example_file_and_hashes_its_code():
    from site_hooks.content.live_cells import code_hash, example_code

    html = _convert('=== "Tab"\n\n    ```python-live example="playground/masking" timeout="5"\n    ```\n')
    code = example_code("playground/masking")
    assert f'data-live-cell="1" data-timeout="5" data-hash="{code_hash(code)}"' in html
    assert '<span class="n">mask</span>' in html  # the file's code, highlighted


@pytest.mark.parametrize(
    ("fence", "says"),
    [
        ('```python-live example="playground/masking"\nprint(1)\n```\n', "must be empty"),
        ('```python-live example="playground/no_such_cell"\n```\n', "does not exist"),
        ('```python-live example="../../README"\n```\n', "is not a name like"),
        ("```python-live\nprint(1)\n```\n", 'no example="<page>/<name>"'),
        ('```python-live example="playground/masking" timeout="soon"\n```\n', "timeout='soon'"),
        ('```python-live example="playground/masking" exmaple="x"\n```\n', "unknown option(s) exmaple"),
    ],
)
def test_a_wrong_fence_stops_the_build(fence, says):
    from pymdownx.superfences import SuperFencesException

    with pytest.raises(SuperFencesException, match=re.escape(says)):
        _convert(fence)


# --------------------------------------------------------------------------- the companion notebooks


def test_every_notebook_code_cell_is_its_example_in_every_language():
    """docs/<lang>/notebooks/*.ipynb: each code cell says "example": "<page>/<name>" and holds
    exactly that file's code (or says "notebook_only": true), and a translation has the English
    notebook's code cells in the same order. `devtools.examples --sync-notebooks` fixes the code."""
    problems = examples.notebook_problems()
    assert not problems, "\n".join(problems)


# Notebooks that train a model from the start take the full tier's time, not the fast one's
# (the induction notebook: about 50 s on a 2-core machine).
LONG_NOTEBOOKS = {"notebooks/induction.ipynb"}


@pytest.mark.parametrize(
    "notebook",
    [
        pytest.param(notebook, marks=pytest.mark.slow) if notebook in LONG_NOTEBOOKS else notebook
        for notebook in examples.notebooks_of(examples.SOURCE_LANG)
    ],
)
def test_a_notebook_prints_what_its_page_prints(notebook, outputs):
    """Run top to bottom in one namespace (as its kernel runs it at build time), each example
    cell prints its .out file, and a notebook-only cell does not fail."""
    cells = examples.notebook_sessions()[notebook]
    texts = examples.run_codes([code for _, code in cells])
    for number, ((name, _), text) in enumerate(zip(cells, texts), start=1):
        if name is None:
            assert "Traceback (most recent call last):" not in text, f"{notebook}: code cell {number} fails:\n{text}"
        else:
            assert name in outputs, f"{notebook}: code cell {number}: no page uses an example named {name!r}"
            assert text == outputs[name], (
                f"{notebook}: code cell {number} ({name}) prints something else than on its page"
            )


@pytest.fixture
def scratch_docs(tmp_path):
    """A docs tree with the real what-matters notebook in English and Hebrew."""
    for lang in ("en", "he"):
        folder = tmp_path / lang / "notebooks"
        folder.mkdir(parents=True)
        page = "notebooks/what-matters.ipynb"
        (folder / "what-matters.ipynb").write_bytes((examples.DOCS / lang / page).read_bytes())
    return tmp_path


def _edit(docs, lang, change):
    path = docs / lang / "notebooks" / "what-matters.ipynb"
    notebook = examples.read_notebook(path)
    change(examples.code_cells(notebook))
    path.write_text(examples.notebook_text(notebook), encoding="utf-8")


def _problems(docs) -> str:
    return "\n".join(examples.notebook_problems(docs))


def test_the_notebook_check_passes_on_the_real_notebooks_copied(scratch_docs):
    assert examples.notebook_problems(scratch_docs) == []


def test_a_notebook_cell_edited_by_hand_fails_and_sync_restores_it_in_every_language(scratch_docs):
    original = {lang: (scratch_docs / lang / "notebooks/what-matters.ipynb").read_bytes() for lang in ("en", "he")}

    def edit(cells):
        cells[-1]["source"][-1] += "  # edited"

    _edit(scratch_docs, "en", edit)
    _edit(scratch_docs, "he", lambda cells: cells[0]["source"].insert(0, "import math\n"))
    problems = _problems(scratch_docs)
    assert (
        "docs/en/notebooks/what-matters.ipynb: code cell 5: its code differs from docs/examples/what-matters/attention_in_code.py"
        in problems
    )
    assert (
        "docs/he/notebooks/what-matters.ipynb: code cell 1: its code differs from docs/examples/what-matters/cosine_similarity.py"
        in problems
    )
    assert "--sync-notebooks" in problems

    rewritten, left = examples.sync_notebooks(scratch_docs)
    assert (rewritten, left) == (["docs/en/notebooks/what-matters.ipynb", "docs/he/notebooks/what-matters.ipynb"], [])
    for lang, data in original.items():  # byte for byte: the JSON formatting is kept
        assert (scratch_docs / lang / "notebooks/what-matters.ipynb").read_bytes() == data
    assert examples.sync_notebooks(scratch_docs) == ([], [])


def test_a_notebook_cell_naming_a_missing_example_fails(scratch_docs):
    _edit(scratch_docs, "en", lambda cells: cells[1]["metadata"].update(example="what-matters/no_such_cell"))
    assert 'code cell 2: "example": "what-matters/no_such_cell" does not exist' in _problems(scratch_docs)
    _edit(scratch_docs, "en", lambda cells: cells[1]["metadata"].update(example="../../README"))
    assert 'code cell 2: "example": "../../README" is not a name like' in _problems(scratch_docs)


def test_an_untagged_notebook_code_cell_fails(scratch_docs):
    _edit(scratch_docs, "en", lambda cells: cells[2]["metadata"].clear())
    assert 'docs/en/notebooks/what-matters.ipynb: code cell 3: no "example" in its metadata' in _problems(scratch_docs)
    _edit(scratch_docs, "en", lambda cells: cells[2]["metadata"].update(notebook_only=True))
    assert "code cell 3" not in _problems(scratch_docs).partition("docs/he")[0]


def test_a_translated_notebook_with_other_examples_or_order_fails(scratch_docs):
    def swap(cells):
        cells[0]["source"], cells[1]["source"] = cells[1]["source"], cells[0]["source"]
        cells[0]["metadata"], cells[1]["metadata"] = cells[1]["metadata"], cells[0]["metadata"]

    _edit(scratch_docs, "he", swap)
    problems = _problems(scratch_docs)
    assert (
        "docs/he/notebooks/what-matters.ipynb: its code cells are not those of docs/en/notebooks/what-matters.ipynb in the same order"
        in problems
    )
    assert "docs/en/" not in problems.replace("of docs/en/", "")  # English itself is fine

    path = scratch_docs / "he" / "notebooks" / "what-matters.ipynb"
    notebook = examples.read_notebook(path)
    notebook["cells"].remove(examples.code_cells(notebook)[-1])  # a code cell fewer: sync refuses
    path.write_text(examples.notebook_text(notebook), encoding="utf-8")
    _, left = examples.sync_notebooks(scratch_docs)
    assert any("4 code cells, docs/en/notebooks/what-matters.ipynb has 5: not synced" in problem for problem in left)
