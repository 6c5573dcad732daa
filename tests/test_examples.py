"""The live cells' examples (docs/examples/): each runs and prints what its .out file says,
and every page of every language points at examples that exist.

Run as the page runs them (devtools/examples.py explains how). When an output changes, the
failure names the lines of prose, in every language, that quote numbers gone from it; fix
them, then store the new output with ``.venv/bin/python -m devtools.examples --update``.
"""

from __future__ import annotations

import re

import pytest

from devtools import examples
from site_hooks.live_cells import example_path

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
    missing = [f"docs/examples/{name}.py: no {lang} page uses it" for lang in used for name in NAMES if name not in used[lang]]
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
    outs = sorted(path.relative_to(examples.EXAMPLES_DIR).with_suffix("").as_posix()
                  for path in examples.EXAMPLES_DIR.rglob("*.out"))
    assert outs == NAMES


# --------------------------------------------------------------------------- the drift check itself


def test_numbers_are_read_in_persian_and_hebrew_prose_as_in_english():
    read = [number.text for number in examples.numbers("۱۴٫۰٪ و منفی ۶٫۱۰، ל־23.1% and −6.10; x1, v3 stay names")]
    assert read == ["14.0%", "6.10", "23.1%", "-6.10"]


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
    ],
)
def test_what_counts_as_a_quote(prose, printed, quoted):
    [p], [o] = examples.numbers(prose), examples.numbers(printed)
    assert examples.quotes(p, o) is quoted


def test_a_changed_output_names_the_stale_prose_in_every_language():
    name = "what-matters/softmax_weights"
    old = examples.expected_path(name).read_text(encoding="utf-8")
    new = old.replace("14.0%", "10.9%").replace("23.1%", "18.0%").replace("62.9%", "71.1%")
    message = examples.report(name, old, new)
    for lang in examples.all_languages():
        assert f"docs/{lang}/what-matters.md:" in message
    assert "docs/en/index.md" not in message  # another example: not affected
    assert "devtools.examples --update" in message


def test_an_unchanged_quote_is_not_reported():
    name = "index/softmax"
    old = examples.expected_path(name).read_text(encoding="utf-8")
    new = old.replace("0.14024438316608848", "0.14024438316608850")  # still 14.0%
    assert examples.stale_quotes(name, old, new) == []


# --------------------------------------------------------------------------- the fence


def _convert(markdown_text: str) -> str:
    import markdown
    from site_hooks import live_cells

    fence = {"name": "python-live", "class": "python-live", "validator": live_cells.validate, "format": live_cells.format}
    md = markdown.Markdown(
        extensions=["pymdownx.superfences", "pymdownx.tabbed"],
        extension_configs={"pymdownx.superfences": {"custom_fences": [fence]}, "pymdownx.tabbed": {"alternate_style": True}},
    )
    return md.convert(markdown_text)


def test_the_fence_shows_the_example_file_and_hashes_its_code():
    from site_hooks.live_cells import code_hash, example_code

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
