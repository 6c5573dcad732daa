"""A strings file that is not valid YAML is reported in one line, with the file and the line
and column of the mistake itself (PyYAML's own traceback names where it gave up, often the
next line): by ``load_strings``, by the check the build runs, and by the translators' status
tool. Each case breaks one line of a copy of en.yml the way translators do."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from devtools import translation_status as ts
from site_hooks.content import figure_pages, figures
from site_hooks.content.figures import StringsFileError, check_strings_dir, check_strings_file, load_strings
from tests.figures.support import STRINGS_DIR

ENGLISH = (STRINGS_DIR / "en.yml").read_text(encoding="utf-8").splitlines(keepends=True)


def line_of(text: str) -> int:
    """1-based number of the first line of en.yml that contains ``text``."""
    return next(i for i, line in enumerate(ENGLISH, 1) if text in line)


CHIPS = line_of('  chips: "Words on the plane"')  # embedding_space, its second key
FIRST = CHIPS + 1  # its third key: '  first: "Compare"'
TITLE = CHIPS - 1  # its first key, after the section's line
LAST = len(ENGLISH)

# name: (line to break, how, the line and column reported, words of the hint)
CASES = {
    "missing closing quote": (
        CHIPS,
        lambda line: line.replace('plane"', "plane"),
        (CHIPS, 10),
        "does not end on this line",
    ),
    "missing closing quote, last line": (
        LAST,
        lambda line: line.rstrip("\n")[:-1] + "\n",
        (LAST, None),
        "never closed",
    ),
    "quote inside quotes": (
        CHIPS,
        lambda line: line.replace('"Words on the plane"', '"Words "on" the plane"'),
        (CHIPS, 18),
        "text after the closing quote",
    ),
    "apostrophe in single quotes": (
        CHIPS,
        lambda line: line.replace('"Words on the plane"', "'Word's plane'"),
        (CHIPS, 16),
        "text after the closing quote",
    ),
    "indented too deep": (FIRST, lambda line: "    " + line, (FIRST, 7), "indented more"),
    "indented one space too deep": (FIRST, lambda line: " " + line, (FIRST, 4), "indented more"),
    "indented too little": (FIRST, lambda line: line.lstrip(), (FIRST, 1), "indented less"),
    "first key indented too little": (TITLE, lambda line: line.lstrip(), (TITLE, 1), "indented less"),
    "a tab for indentation": (FIRST, lambda line: "\t" + line.lstrip(), (FIRST, 1), "tab"),
    "unclosed bracket": (
        CHIPS,
        lambda line: line.replace('"Words on the plane"', "[Words, on"),
        (CHIPS, 10),
        "'[' that starts here",
    ),
    "unclosed brace": (
        CHIPS,
        lambda line: line.replace('"Words on the plane"', "{Words"),
        (CHIPS, 10),
        "'{' that starts here",
    ),
    "colon in unquoted text": (
        CHIPS,
        lambda line: line.replace('"Words on the plane"', "Words: on the plane"),
        (CHIPS, 15),
        "put the whole text in quotes",
    ),
    "key without its colon": (CHIPS, lambda line: line.replace("chips:", "chips"), (CHIPS, 3), "without its ':'"),
}


def broken(folder: Path, name: str) -> tuple[Path, int, int | None, str]:
    """en.yml and a copy of it, xx.yml, broken as CASES[name] says, in ``folder``."""
    number, how, (line, column), hint = CASES[name]
    lines = ENGLISH[:]
    lines[number - 1] = how(lines[number - 1])
    assert lines != ENGLISH, f"{name}: the mutation changed nothing (en.yml changed?)"
    shutil.copy(STRINGS_DIR / "en.yml", folder / "en.yml")
    path = folder / "xx.yml"
    path.write_text("".join(lines), encoding="utf-8")
    return path, line, column, hint


def assert_one_line_at(message: str, path: Path, line: int, column: int | None, hint: str) -> None:
    assert "\n" not in message, message
    assert "Traceback" not in message, message
    where = f"{path}, line {line}, column {column if column is not None else ''}"
    assert message.startswith(where), f"expected {where!r}, got: {message}"
    assert hint in message, message


@pytest.mark.parametrize("name", CASES)
def test_a_yaml_mistake_is_one_line_at_its_true_line(tmp_path: Path, name: str) -> None:
    path, line, column, hint = broken(tmp_path, name)
    with pytest.raises(StringsFileError) as raised:
        load_strings(path)
    assert_one_line_at(str(raised.value), path, line, column, hint)
    assert check_strings_file(path) == [str(raised.value)]


def test_the_build_stops_with_the_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, line, column, hint = broken(tmp_path, "missing closing quote")
    monkeypatch.setattr(figure_pages, "STRINGS_DIR", tmp_path)
    with pytest.raises(PluginError) as raised:
        figure_pages.on_config(None)
    message = str(raised.value)
    assert message.count("\n") == 1, message  # the heading and the file's one line
    assert_one_line_at(message.splitlines()[1].strip(), path, line, column, hint)


def test_a_broken_english_file_is_reported_once(tmp_path: Path) -> None:
    path, line, column, hint = broken(tmp_path, "a tab for indentation")
    path.rename(tmp_path / "en.yml")
    shutil.copy(STRINGS_DIR / "he.yml", tmp_path / "he.yml")
    (problem,) = check_strings_dir(tmp_path)
    assert_one_line_at(problem, tmp_path / "en.yml", line, column, hint)


def test_the_status_tool_reports_it_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = tmp_path / "docs"
    (docs / "en").mkdir(parents=True)
    (docs / "xx").mkdir()
    (docs / "en" / "index.md").write_text("# Home { #home }\n", encoding="utf-8")
    (docs / "xx" / "index.md").write_text("# Start { #home }\n", encoding="utf-8")
    (docs / "figure-strings").mkdir()
    path, line, column, hint = broken(docs / "figure-strings", "indented too little")
    assert ts.main(["--docs", str(docs), "--lang", "xx"]) == 1
    out = capsys.readouterr().out
    assert "Traceback" not in out
    (reported,) = [row.strip() for row in out.splitlines() if "xx.yml" in row]
    assert_one_line_at(reported, path, line, column, hint)


def test_a_file_of_the_repository_is_named_from_the_repository_root(tmp_path: Path, monkeypatch) -> None:
    """Inside the checkout the message names docs/figure-strings/<lang>.yml, as the guide does."""
    monkeypatch.setattr(figures, "ROOT", tmp_path)
    path = tmp_path / "docs" / "figure-strings" / "xx.yml"
    path.parent.mkdir(parents=True)
    path.write_text("common:\n  direction: 'ltr\n", encoding="utf-8")
    with pytest.raises(StringsFileError) as raised:
        load_strings(path)
    assert str(raised.value).startswith("docs/figure-strings/xx.yml, line 2, column 14: the quoted text"), raised.value
