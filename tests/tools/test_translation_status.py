"""The translators' tooling: ``devtools.translation_status`` on a scratch language in a scratch
git repository (never the project's own), the heading-anchor check
(``site_hooks/i18n/translation_checks.py``), and the build guard
(``site_hooks/i18n/translations.py``): missing pages, the English-fallback note, and the
doctest fences of the API reference.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from attention_py.figures import FIGURES
from devtools import translation_status as ts
from site_hooks.content import gallery
from site_hooks.content.doctests import fence_doctests
from site_hooks.i18n import translation_checks as checks
from site_hooks.i18n import translations

ROOT = Path(__file__).resolve().parents[2]
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.invalid",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}

PAGE_A_EN = "# Page A { #page-a }\n\n## First { #first }\n\nSome text.\n\n```python\n# a comment, not a heading\n```\n"
PAGE_A_XX = "# Seite A { #page-a }\n\n## Erstens { #first }\n\nEtwas Text.\n"
INDEX_EN = "# Home { #home }\n\nWelcome.\n"
INDEX_XX = "# Start { #home }\n\nWillkommen.\n"


def notebook(*markdown: str) -> str:
    cells = [{"cell_type": "markdown", "metadata": {}, "source": text} for text in markdown]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def git(repo: Path, *args: str, date: str | None = None) -> str:
    env = {**os.environ, **GIT_ENV}
    if date:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    result = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=True)
    return result.stdout


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def commit(repo: Path, message: str, date: str | None = None) -> None:
    git(repo, "add", "-A", date=date)
    git(repo, "commit", "-q", "-m", message, date=date)


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A git repository with docs/en (3 pages) and a language "xx" that has 2 of them."""
    repo = tmp_path / "repo"
    docs = repo / "docs"
    write(docs / "en" / "index.md", INDEX_EN)
    write(docs / "en" / "a.md", PAGE_A_EN)
    write(docs / "en" / "notebooks" / "n.ipynb", notebook("# Notebook { #nb }\n", "## Step { #step }\n"))
    write(docs / "xx" / "index.md", INDEX_XX)
    write(docs / "xx" / "a.md", PAGE_A_XX)
    strings = docs / "figure-strings"
    strings.mkdir()
    shutil.copy(ROOT / "docs" / "figure-strings" / "en.yml", strings / "en.yml")
    shutil.copy(ROOT / "docs" / "figure-strings" / "en.yml", strings / "xx.yml")
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "English pages and their first translation", date="2024-01-01T10:00:00")
    return docs


def test_one_missing_page_and_one_outdated_page(scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = scratch.parent
    write(scratch / "en" / "a.md", PAGE_A_EN.replace("Some text.", "Some clearer text."))
    commit(repo, "Page A: clearer", date="2024-01-02T10:00:00")

    result = ts.status(scratch, "xx")
    assert result.missing == ["notebooks/n.ipynb"]
    assert [item.page for item in result.outdated] == ["a.md"]
    assert result.outdated[0].commits[0].endswith("Page A: clearer")
    assert not result.anchors
    assert not result.strings
    assert not result.ok

    assert ts.main(["--docs", str(scratch), "--lang", "xx"]) == 1
    out = capsys.readouterr().out
    assert "2/3 pages translated, 1 outdated" in out
    assert "docs/xx/notebooks/n.ipynb" in out
    assert "git diff" in out
    assert "docs/en/a.md" in out


def test_languages_are_found_from_the_folders(scratch: Path) -> None:
    (scratch / "figure-strings").mkdir(exist_ok=True)
    assert ts.languages(scratch) == ["xx"]


def test_a_complete_current_translation_passes(scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(scratch / "xx" / "notebooks" / "n.ipynb", notebook("# Notizbuch { #nb }\n", "## Schritt { #step }\n"))
    commit(scratch.parent, "xx: the notebook")
    assert ts.main(["--docs", str(scratch)]) == 0
    assert "3/3 pages translated, 0 outdated  (all good)" in capsys.readouterr().out


def test_updating_the_translation_makes_it_current(scratch: Path) -> None:
    repo = scratch.parent
    write(scratch / "en" / "a.md", PAGE_A_EN.replace("Some text.", "Other text."))
    commit(repo, "Page A changed")
    assert [item.page for item in ts.outdated_pages(scratch, "xx")] == ["a.md"]
    write(scratch / "xx" / "a.md", PAGE_A_XX.replace("Etwas Text.", "Anderer Text."))
    assert ts.outdated_pages(scratch, "xx") == []  # being translated (uncommitted): not flagged
    commit(repo, "xx: page A follows")
    assert ts.outdated_pages(scratch, "xx") == []


def test_a_commit_marked_translations_unaffected_is_ignored(scratch: Path) -> None:
    write(scratch / "en" / "a.md", PAGE_A_EN.replace("Some text.", "Some text!"))
    commit(scratch.parent, "Page A: punctuation\n\nTranslations: unaffected")
    assert ts.outdated_pages(scratch, "xx") == []


def test_uncommitted_english_edits_outdate_the_translation(scratch: Path) -> None:
    write(scratch / "en" / "index.md", INDEX_EN + "\nMore.\n")
    (outdated,) = ts.outdated_pages(scratch, "xx")
    assert outdated.page == "index.md"
    assert outdated.commits == []
    assert "uncommitted" in outdated.describe("xx")


def test_outdated_follows_ancestry_not_dates(scratch: Path) -> None:
    """A translation branch started before an English change is outdated after the merge,
    even though its commit is dated later than the English one."""
    repo = scratch.parent
    git(repo, "checkout", "-q", "-b", "translation")
    git(repo, "checkout", "-q", "main")
    write(scratch / "en" / "a.md", PAGE_A_EN.replace("Some text.", "New English text."))
    commit(repo, "Page A rewritten", date="2024-02-01T10:00:00")
    git(repo, "checkout", "-q", "translation")
    write(scratch / "xx" / "a.md", PAGE_A_XX.replace("Etwas Text.", "Etwas besserer Text."))
    commit(repo, "xx: page A polished", date="2024-03-01T10:00:00")  # later date, older base
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-edit", "translation", date="2024-03-02T10:00:00")
    assert [item.page for item in ts.outdated_pages(scratch, "xx")] == ["a.md"]


def test_a_shallow_clone_fails_instead_of_guessing(scratch: Path, tmp_path: Path) -> None:
    write(scratch / "xx" / "notebooks" / "n.ipynb", notebook("# N { #nb }\n", "## S { #step }\n"))
    commit(scratch.parent, "xx: the notebook")
    write(scratch / "en" / "a.md", PAGE_A_EN + "\nMore.\n")
    commit(scratch.parent, "Page A: more")
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{scratch.parent}", str(shallow))
    result = ts.status(shallow / "docs", "xx")
    assert result.outdated == []
    assert result.history_missing
    assert not result.ok
    assert any("--unshallow" in note for note in result.notes)


def test_outside_git_the_other_checks_still_run(scratch: Path, tmp_path: Path) -> None:
    copy = tmp_path / "export" / "docs"
    shutil.copytree(scratch, copy)
    result = ts.status(copy, "xx")
    assert result.missing == ["notebooks/n.ipynb"]
    assert not result.history_missing
    assert any("not in a git work tree" in note for note in result.notes)


def test_missing_figure_strings_are_reported(scratch: Path) -> None:
    (scratch / "figure-strings" / "xx.yml").unlink()
    assert ts.figure_string_problems(scratch, "xx")[0].endswith(
        "missing (copy docs/figure-strings/en.yml and translate the values)"
    )
    text = (scratch / "figure-strings" / "en.yml").read_text(encoding="utf-8")
    write(
        scratch / "figure-strings" / "xx.yml",
        text.replace("  title: 'Softmax'\n", "", 1).replace('  title: "Softmax"\n', "", 1),
    )
    problems = ts.figure_string_problems(scratch, "xx")
    assert problems
    assert all("xx.yml" in problem for problem in problems)


def test_a_translated_learning_page_without_a_puzzle_is_listed(
    scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The status names the puzzle file to add as soon as the learning page is translated,
    and a puzzle file that does not read as one, with the reason."""
    assert ts.puzzle_problems(scratch, "xx") == []
    write(scratch / "xx" / "learning.md", "# Woher kommen die Gewichte? { #learning }\n")
    (problem,) = ts.puzzle_problems(scratch, "xx")
    assert "docs/puzzles/xx.yml does not exist" in problem
    assert ts.main(["--docs", str(scratch), "--lang", "xx"]) == 1
    assert "the learning article's puzzle" in capsys.readouterr().out
    write(scratch / "puzzles" / "xx.yml", "sentence: '{first} x'\npronoun: sie\n")
    (problem,) = ts.puzzle_problems(scratch, "xx")
    assert problem.startswith("docs/puzzles/xx.yml: ")
    shutil.copy(ROOT / "docs" / "puzzles" / "en.yml", scratch / "puzzles" / "xx.yml")
    assert ts.puzzle_problems(scratch, "xx") == []
    assert ts.puzzle_training(scratch, "xx") is None
    with (scratch / "puzzles" / "xx.yml").open("a", encoding="utf-8") as file:
        file.write("training:\n  steps: 240\n  learning_rate: 0.03\n")
    assert ts.puzzle_training(scratch, "xx") == (
        "the learning article's model trains with its own settings: steps 240, learning rate 0.03 (docs/puzzles/xx.yml)"
    )
    ts.main(["--docs", str(scratch), "--lang", "xx"])
    assert "note: the learning article's model trains with its own settings" in capsys.readouterr().out


def test_figure_strings_still_english_are_listed_as_a_reminder(
    scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """xx.yml is a copy of en.yml: every string with a word in it is listed (not digits or
    separators), the report names the first few and counts the rest, and translating one
    takes it off the list."""
    same = ts.strings_same_as_english(scratch, "xx")
    assert "softmax.title" in same
    assert "page.run" in same
    assert "common.digits" not in same
    assert len(same) > 100
    assert ts.strings_same_as_english(scratch, "en") == []
    ts.main(["--docs", str(scratch), "--lang", "xx"])
    out = capsys.readouterr().out
    assert f"figure strings still the same as in English ({len(same)};" in out
    assert f"... and {len(same) - ts.SHOWN} more (--all lists them all)" in out
    path = scratch / "figure-strings" / "xx.yml"
    text, count = re.subn(r'^(  run: )"Run"$', r'\1"Ausführen"', path.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert count == 1
    path.write_text(text, encoding="utf-8")
    assert "page.run" not in ts.strings_same_as_english(scratch, "xx")


# --------------------------------------------------------------------------- anchors


def test_anchors_skip_code_and_see_missing_ids() -> None:
    text = "# T { #t }\n\n```python\n# not a heading\n```\n\n## A {#a .wide}\n\n### B\n\n~~~\n## no\n~~~\n"
    assert checks.markdown_anchors(text) == ["t", "a", None]


def test_the_anchor_check_catches_a_mismatch(scratch: Path) -> None:
    assert checks.anchor_problems(scratch, "xx") == []
    write(scratch / "xx" / "a.md", "# Seite A { #page-a }\n\n## Erstens { #erstens }\n")
    (problem,) = checks.anchor_problems(scratch, "xx")
    assert problem.startswith("xx/a.md:")
    assert "missing #first" in problem
    assert "not in English #erstens" in problem

    write(scratch / "xx" / "a.md", "## Erstens { #first }\n\n# Seite A { #page-a }\n")
    (problem,) = checks.anchor_problems(scratch, "xx")
    assert "another order" in problem

    write(scratch / "xx" / "a.md", "# Seite A { #page-a }\n\n## Erstens\n")
    (problem,) = checks.anchor_problems(scratch, "xx")
    assert "no explicit { #id }" in problem


def test_the_anchor_check_reads_notebooks(scratch: Path) -> None:
    write(scratch / "xx" / "notebooks" / "n.ipynb", notebook("# N { #nb }\n", "## S { #other }\n"))
    (problem,) = checks.anchor_problems(scratch, "xx")
    assert problem.startswith("xx/notebooks/n.ipynb:")


def test_the_real_translations_have_the_english_anchors() -> None:
    for lang in ts.languages(ts.DEFAULT_DOCS):
        assert checks.anchor_problems(ts.DEFAULT_DOCS, lang) == []


# --------------------------------------------------------------------------- build guard


def language(locale: str, *, default: bool = False, build: bool = True, extra: dict | None = None) -> SimpleNamespace:
    return SimpleNamespace(locale=locale, default=default, build=build, extra=extra)


def test_the_build_guard_needs_complete_shipped_languages(scratch: Path) -> None:
    english = language("en", default=True)
    (problem,) = translations.translation_problems(scratch, [english, language("xx")])
    assert "docs/xx/notebooks/n.ipynb" in problem
    unfinished = language("xx", extra={"translation_in_progress": True})
    assert translations.translation_problems(scratch, [english, unfinished]) == []
    assert translations.translation_problems(scratch, [english, language("xx", build=False)]) == []


def test_the_build_guard_checks_anchors_of_unfinished_languages_too(scratch: Path) -> None:
    write(scratch / "xx" / "index.md", "# Start { #start }\n")
    unfinished = language("xx", extra={"translation_in_progress": True})
    (problem,) = translations.translation_problems(scratch, [language("en", default=True), unfinished])
    assert problem.startswith("xx/index.md:")


class FakeFiles:
    def __init__(self, guide_url: str | None) -> None:
        self.guide_url = guide_url

    def get_file_from_path(self, path: str) -> SimpleNamespace | None:
        assert path == "translate.md"
        return SimpleNamespace(url=self.guide_url) if self.guide_url else None


def fake_page(locale: str, built: str, url: str) -> SimpleNamespace:
    return SimpleNamespace(file=SimpleNamespace(locale=locale, locale_alternate_of=built), url=url)


def test_a_fallback_page_gets_the_note_in_the_readers_language() -> None:
    config = SimpleNamespace(extra={"untranslated_note": "Noch nicht übersetzt. [Helfen]({translate})"})
    page = fake_page("en", "xx", "xx/notebooks/first/")
    html = translations.on_page_content("<h1>Title</h1>", page, config, FakeFiles("xx/translate/"))
    assert html.startswith('<div class="admonition info translation-fallback" role="note">')
    assert '<a href="../../translate/">Helfen</a>' in html
    assert '<div lang="en" dir="ltr">\n<h1>Title</h1>\n</div>' in html


def test_without_a_guide_page_the_note_links_nowhere_and_translated_pages_get_none() -> None:
    """(The English note, in the top-level extra of mkdocs.yml, is what a language without
    its own gets: the i18n plugin merges the two; site_hooks/i18n/languages.py warns.)"""
    page = fake_page("en", "xx", "xx/a/")
    config = SimpleNamespace(extra={"untranslated_note": "Not translated yet. [Help]({translate})"})
    html = translations.on_page_content("<p>x</p>", page, config, FakeFiles(None))
    assert "Not translated yet" in html
    assert '<a href="#">Help</a>' in html
    for own in (fake_page("xx", "xx", "xx/a/"), fake_page("en", "en", "a/")):
        assert translations.on_page_content("<p>x</p>", own, SimpleNamespace(extra={}), FakeFiles(None)) == "<p>x</p>"


def test_reference_docstrings_stay_english_inside_other_languages() -> None:
    html = '<div class="doc doc-object doc-function"><p>Stable softmax.</p></div>'
    out = translations.on_page_content(
        html, fake_page("xx", "xx", "xx/reference/"), SimpleNamespace(extra={}), FakeFiles(None)
    )
    assert out.startswith('<div lang="en" dir="ltr" class="doc doc-object doc-function">')
    assert (
        translations.on_page_content(
            html, fake_page("en", "en", "reference/"), SimpleNamespace(extra={}), FakeFiles(None)
        )
        == html
    )


def test_doctest_examples_become_code_blocks() -> None:
    text = "Stable softmax.\n\n>>> softmax([1, 2])\n[0.27, 0.73]\n\nMore text.\n\n    >>> x = 1\n    >>> x\n    1"
    assert fence_doctests(text) == (
        "Stable softmax.\n\n```pycon\n>>> softmax([1, 2])\n[0.27, 0.73]\n```\n\nMore text.\n\n"
        "```pycon\n>>> x = 1\n>>> x\n1\n```"
    )


def test_a_heading_without_an_explicit_anchor_fails_a_strict_build(caplog) -> None:
    page = SimpleNamespace(file=SimpleNamespace(src_uri="he/what-matters.md"))
    html = '<h2 id="_1">שלום<a class="headerlink" href="#_1">¶</a></h2>\n<h2 id="softmax">Softmax</h2>'
    with caplog.at_level("WARNING"):
        translations.warn_about_numbered_ids(html, page)
    assert [record.getMessage() for record in caplog.records] == [
        "translations: he/what-matters.md: heading 'שלום' has no explicit anchor (got id '_1'); "
        "write it as `## שלום { #some-id }` with the same id as in the other languages"
    ]


# --------------------------------------------------------------------------- copied pages


def test_a_copied_page_is_reported_as_copied_not_translated(scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Copying docs/en/ to start a language makes pages that say exactly what English says:
    they are not translations (and must not count as ones), whatever an editor did to their
    line ends or trailing spaces."""
    write(scratch / "xx" / "a.md", PAGE_A_EN.replace("\n", "  \r\n"))
    en_notebook = notebook("# Notebook { #nb }\n", "## Step { #step }\n")
    copied_notebook = json.loads(en_notebook)
    copied_notebook["cells"].append(
        {"cell_type": "code", "metadata": {}, "source": "1 + 1", "outputs": [], "execution_count": None}
    )
    write(scratch / "xx" / "notebooks" / "n.ipynb", json.dumps(copied_notebook))  # same prose, code differs
    commit(scratch.parent, "xx: copies of English")

    result = ts.status(scratch, "xx")
    assert result.copied == ["a.md", "notebooks/n.ipynb"]
    assert result.missing == []
    assert not result.ok
    assert ts.main(["--docs", str(scratch), "--lang", "xx"]) == 1
    out = capsys.readouterr().out
    assert "== xx: 1/3 pages translated, 0 outdated\n" in out
    assert "  copied, not translated (2), still word for word English (translate, or delete until you do):" in out
    assert "    docs/xx/a.md\n    docs/xx/notebooks/n.ipynb" in out

    write(scratch / "xx" / "a.md", PAGE_A_XX)  # translated after all
    assert checks.copied_pages(scratch, "xx") == ["notebooks/n.ipynb"]


def test_a_copied_page_stops_the_build_of_a_shipped_language_only(scratch: Path) -> None:
    write(scratch / "xx" / "notebooks" / "n.ipynb", notebook("# Notizbuch { #nb }\n", "## Schritt { #step }\n"))
    shutil.copy(scratch / "en" / "a.md", scratch / "xx" / "a.md")
    english = language("en", default=True)
    (problem,) = translations.translation_problems(scratch, [english, language("xx")])
    assert problem.startswith("xx: copied, not translated: docs/xx/a.md (the same text as docs/en/)")
    unfinished = language("xx", extra={"translation_in_progress": True})
    assert translations.translation_problems(scratch, [english, unfinished]) == []


def test_a_copied_page_of_a_language_in_progress_gets_the_untranslated_note(scratch: Path) -> None:
    shutil.copy(scratch / "en" / "a.md", scratch / "xx" / "a.md")
    config = SimpleNamespace(
        docs_dir=str(scratch), extra={"untranslated_note": "Noch nicht übersetzt. [Helfen]({translate})"}
    )
    copied = SimpleNamespace(
        file=SimpleNamespace(locale="xx", locale_alternate_of="xx", src_uri="xx/a.md"), url="xx/a/"
    )
    html = translations.on_page_content("<h1>Page A</h1>", copied, config, FakeFiles("xx/translate/"))
    assert html.startswith('<div class="admonition info translation-fallback" role="note">')
    assert '<div lang="en" dir="ltr">\n<h1>Page A</h1>\n</div>' in html
    own = SimpleNamespace(file=SimpleNamespace(locale="xx", locale_alternate_of="xx", src_uri="xx/index.md"), url="xx/")
    assert translations.on_page_content("<h1>Start</h1>", own, config, FakeFiles("xx/translate/")) == "<h1>Start</h1>"


def test_no_real_translation_is_a_copy_of_english() -> None:
    for lang in ts.languages(ts.DEFAULT_DOCS):
        assert checks.copied_pages(ts.DEFAULT_DOCS, lang) == []


# --------------------------------------------------------------------------- languages in progress


PAGE_A_XX_HALF = "# Seite A { #page-a }\n\nErst ein Satz.\n\n## First { #first }\n\nSome text.\n"


def test_a_page_with_english_sections_is_counted_as_partly_english(
    scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first section is translated, the second is still the English one: the page is not
    counted as translated, and the report says how many of its sections are English."""
    write(scratch / "xx" / "a.md", PAGE_A_XX_HALF)
    assert ts.partly_english(scratch, "xx") == [("a.md", 1, 2)]
    assert ts.main(["--docs", str(scratch), "--lang", "xx"]) == 1
    out = capsys.readouterr().out
    assert "== xx: 1/3 pages translated, 1 partly English, 0 outdated" in out
    assert "docs/xx/a.md: 1 of 2 sections" in out


def test_sections_that_are_only_code_front_matter_or_directives_do_not_count(scratch: Path) -> None:
    same = "---\nsearch:\n  exclude: true\n---\n\n# Seite { #page-a }\n\n::: attention_py.softmax\n\n<div data-x></div>\n\n## First { #first }\n\n```python\nx = 1\n```\n"
    write(scratch / "en" / "a.md", same.replace("Seite", "Page"))
    write(scratch / "xx" / "a.md", same)
    assert ts.partly_english(scratch, "xx") == []


GALLERY_PAGE = "# Gallery { #gallery }\n\nEvery figure.\n\n" + gallery.MARKER + "\n"


def test_a_gallery_section_counts_as_english_while_its_strings_are_the_english_ones(scratch: Path) -> None:
    """The gallery's sections are written by the build from each language's strings: a figure
    whose gallery heading and line are still the English ones (what devtools.new_figure writes
    into every strings file) leaves the page partly English until a translator translates them."""
    english = {"gallery_headings": {"softmax": "Softmax shift"}, "gallery_lines": {"softmax": "Shift both scores."}}
    ours = {"gallery_headings": {"softmax": "Softmax shift"}, "gallery_lines": {"softmax": "Shift both scores."}}
    write(scratch / "en" / "gallery.md", GALLERY_PAGE)
    write(scratch / "xx" / "gallery.md", GALLERY_PAGE.replace("Every figure.", "Jede Abbildung."))
    for lang, strings in (("en", english), ("xx", ours)):
        write(scratch / "figure-strings" / f"{lang}.yml", yaml.safe_dump(strings))
    assert ("gallery.md", 1, 1 + len(FIGURES)) in ts.partly_english(scratch, "xx")
    ours["gallery_lines"]["softmax"] = "Verschieb beide."
    write(scratch / "figure-strings" / "xx.yml", yaml.safe_dump(ours))
    assert [page for page, _, _ in ts.partly_english(scratch, "xx")] == []


def test_a_language_in_progress_exits_0_unless_something_is_broken(
    scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """xx lacks a page and has a copied one: a failure for a shipped language, expected for a
    language whose entry says translation_in_progress; broken anchors fail either way."""
    shutil.copy(scratch / "en" / "a.md", scratch / "xx" / "a.md")
    assert ts.main(["--docs", str(scratch), "--lang", "xx"]) == 1
    write(
        scratch.parent / "mkdocs.yml",
        "site_url: !ENV [SITE_URL, '']\nplugins:\n  - search\n  - i18n:\n      languages:\n"
        "        - locale: en\n          default: true\n        - locale: xx\n"
        "          extra: {font: noto-sans, script: latin, translation_in_progress: true}\n",
    )
    assert ts.in_progress_languages(scratch) == {"xx"}
    assert ts.main(["--docs", str(scratch), "--lang", "xx"]) == 0
    out = capsys.readouterr().out
    assert "(in progress: nothing broken)" in out
    assert "  written in latin, set in noto-sans (Noto Sans)\n" in out
    write(scratch / "xx" / "index.md", "# Start { #start }\n\nWillkommen.\n")
    assert ts.main(["--docs", str(scratch), "--lang", "xx"]) == 1


def test_all_lists_every_string_still_english(scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    same = ts.strings_same_as_english(scratch, "xx")
    ts.main(["--docs", str(scratch), "--lang", "xx"])
    assert "(--all lists them all)" in capsys.readouterr().out
    ts.main(["--docs", str(scratch), "--lang", "xx", "--all"])
    out = capsys.readouterr().out
    assert "more (--all" not in out
    assert all(key in out for key in same)


def test_a_script_the_pages_are_not_written_in_is_broken(scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Chinese page under ``script: latin`` passes no check: the report names the page's
    letters, and the language fails even though it is in progress."""
    write(
        scratch / "xx" / "a.md",
        "# 页面 { #page-a }\n\n注意力机制让模型决定看哪里。\n\n## 第一 { #first }\n\n每个词都问一个问题。\n",
    )
    entry = "        - locale: xx\n          extra: {{font: {font}, script: {script}, translation_in_progress: true}}\n"
    head = "plugins:\n  - i18n:\n      languages:\n        - locale: en\n          default: true\n"
    write(scratch.parent / "mkdocs.yml", head + entry.format(font="noto-sans", script="latin"))
    assert ts.main(["--docs", str(scratch), "--lang", "xx"]) == 1
    out = capsys.readouterr().out
    assert "  script and face:\n    xx: 100% of the letters of a.md (CJK: " in out
    write(scratch.parent / "mkdocs.yml", head + entry.format(font="noto-sans-sc", script="han-simplified"))
    code = ts.main(["--docs", str(scratch), "--lang", "xx"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "  written in han-simplified, set in noto-sans-sc (Noto Sans SC)\n" in out


def test_a_giveaway_draft_that_adds_no_word_and_a_form_cue_are_puzzle_problems(scratch: Path) -> None:
    """The build refuses both; the status command names them before a build is tried."""
    import yaml

    english = yaml.safe_load((ROOT / "docs" / "puzzles" / "en.yml").read_text(encoding="utf-8"))
    draft = {**english, "giveaway": {"patient": list(english["reasons"]["patient"])}}  # copied, no word added
    write(scratch / "puzzles" / "xx.yml", yaml.safe_dump(draft, allow_unicode=True))
    (problem,) = ts.puzzle_problems(scratch, "xx")
    assert problem.startswith("docs/puzzles/xx.yml: the give-away reason "), problem
    assert "must add exactly one word" in problem
    cued = {**english, "reasons": {**english["reasons"], "actor": [f"{r} indeed" for r in english["reasons"]["actor"]]}}
    cued.pop("giveaway", None)
    write(scratch / "puzzles" / "xx.yml", yaml.safe_dump(cued, allow_unicode=True))
    problems = ts.puzzle_problems(scratch, "xx")
    assert problems, "a word only one group of reasons ends with gives the answer away"
    assert all(problem.startswith("docs/puzzles/xx.yml: ") for problem in problems)
