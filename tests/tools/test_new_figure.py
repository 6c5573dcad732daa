"""The newcomer's scaffold (devtools/new_figure.py): a figure it makes passes the fast tier,
and what it wrote for someone to rewrite or translate is listed until it is."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from devtools import new_figure

ROOT = Path(__file__).resolve().parents[2]


# The fast tier's modules that read every figure, its strings or the gallery: what a new
# figure can break. Left out (about half the fast tier's time): the articles' claims about
# the trained models, the examples' and notebooks' outputs, the package's unit tests.
FIGURE_TESTS = (
    "tests/figures/test_*.py",
    "tests/page/test_*.py",
    "tests/repo/test_*.py",
    "tests/site_hooks/test_strings_yaml_errors.py",
    "tests/site_hooks/test_site_languages.py",
    "tests/site_hooks/test_english_sections_note.py",
    "tests/tools/test_translation_status.py",
)


def figure_tests(repo: Path) -> list[str]:
    found = sorted({path.relative_to(repo).as_posix() for pattern in FIGURE_TESTS for path in repo.glob(pattern)})
    assert len(found) > len(FIGURE_TESTS), found
    return found


def repository_copy(target: Path) -> Path:
    """The files of this checkout git knows of (tracked, or new and not ignored), copied into
    ``target``; node_modules linked and the build's cache copied, as a working checkout has them."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    (target / "node_modules").symlink_to(ROOT / "node_modules")
    if (ROOT / ".cache").is_dir():  # the trained models: the same inputs, so the same cache keys
        shutil.copytree(ROOT / ".cache", target / ".cache")
    return target


def test_names_and_existing_figures_are_refused():
    assert new_figure.problem("softmax") == "a figure called 'softmax' exists already"
    assert new_figure.problem("softmax_bars") == "attention_py/figures/what_matters/softmax_bars.py exists already"
    for bad in ("Softmax", "2d_plot", "with", "a-b", "", "x__y", "../x"):
        assert new_figure.problem(bad), bad
    assert new_figure.problem("scaffold_sample") is None
    assert new_figure.problem("kit") == "'kit' names a folder or module of attention_py/figures/ already"


def test_an_existing_name_is_refused_by_every_way_in():
    with pytest.raises(SystemExit, match="a figure called 'softmax' exists already"):
        new_figure.writes("softmax", "what-matters")


def test_the_figure_goes_into_its_articles_folder_and_after_its_figures_in_the_registry():
    assert new_figure.articles() == ["induction", "information_flow", "learning", "what_matters"]
    written = new_figure.writes("scaffold_sample", "information-flow")
    module = ROOT / "attention_py" / "figures" / "information_flow" / "scaffold_sample.py"
    assert module in written
    registry = written[ROOT / "attention_py" / "figures" / "__init__.py"]
    entries = registry.split("_ORDER = (\n", 1)[1].split(")", 1)[0].split()
    before = entries[entries.index("scaffold_sample.FIGURE,") - 1].split(".")[0]
    after = entries[entries.index("scaffold_sample.FIGURE,") + 1].split(".")[0]
    flow = registry.split("from .information_flow import (", 1)[1].split(")", 1)[0]
    assert "    scaffold_sample,\n" in flow  # imported from its article's folder
    assert f"    {before},\n" in flow  # after the article's figures...
    assert f"    {after},\n" not in flow  # ...all of them
    with pytest.raises(SystemExit, match="the articles: induction, information_flow, learning, what_matters"):
        new_figure.writes("scaffold_sample", "gallery")
    with pytest.raises(SystemExit, match="2"):
        new_figure.main(["scaffold_sample"])


def test_a_dry_run_writes_nothing(capsys):
    touched = [p for p in new_figure.writes("scaffold_sample", "what-matters") if p.exists()]
    before = {p: p.read_bytes() for p in touched}
    assert new_figure.main(["scaffold_sample", "--article", "what-matters", "--dry-run"]) == 0
    assert "would write attention_py/figures/what_matters/scaffold_sample.py" in capsys.readouterr().out
    assert not (ROOT / "attention_py" / "figures" / "what_matters" / "scaffold_sample.py").exists()
    assert {p: p.read_bytes() for p in touched} == before


def test_the_readmes_table_says_what_the_registrys_modules_say():
    readme = (ROOT / "attention_py" / "figures" / "README.md").read_text(encoding="utf-8")
    assert new_figure.with_table(readme, new_figure.figure_table()) == readme, (
        "attention_py/figures/README.md: run `python -m devtools.new_figure --table`"
    )


def test_the_scaffold_writes_its_gallery_entries_into_every_strings_file_and_no_page(tmp_path, capsys):
    """A new figure's gallery heading and line go into every language's strings (in English);
    --leftovers lists the line in every language until it is rewritten and translated."""
    root = tmp_path / "repo"
    for name in ("attention_py/figures/README.md", "attention_py/figures/**/__init__.py"):
        for source in ROOT.glob(name):
            (root / source.relative_to(ROOT)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source, root / source.relative_to(ROOT))
    shutil.copytree(ROOT / "docs" / "figure-strings", root / "docs" / "figure-strings")
    before = {str(item) for item in new_figure.leftovers(root)}
    written = new_figure.writes("scaffold_sample", "what-matters", root)
    assert not any(path.suffix == ".md" and "docs" in path.parts for path in written)
    for path, text in written.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for strings in (root / "docs" / "figure-strings").glob("*.yml"):
        loaded = yaml.safe_load(strings.read_text(encoding="utf-8"))
        assert loaded["gallery_headings"]["scaffold_sample"] == "Scaffold sample", strings
        assert loaded["gallery_lines"]["scaffold_sample"] == new_figure.INTRO, strings
    new = sorted(str(item) for item in new_figure.leftovers(root) if str(item) not in before)
    assert [line.split(":")[0] for line in new] == [f"docs/figure-strings/{lang}.yml" for lang in ("en", "fa", "he")]
    assert all("scaffold_sample's gallery line" in line for line in new)
    for lang in ("en", "fa", "he"):
        strings = root / "docs" / "figure-strings" / f"{lang}.yml"
        strings.write_text(strings.read_text(encoding="utf-8").replace(new_figure.INTRO, "Shift."), encoding="utf-8")
    assert {str(item) for item in new_figure.leftovers(root)} <= before


def test_after_a_figure_the_fence_goes_into_every_languages_article_and_the_registry_beside_it():
    written = new_figure.writes("scaffold_sample", "what-matters", after="softmax")
    registry = written[ROOT / "attention_py" / "figures" / "__init__.py"]
    assert "    softmax_bars.SOFTMAX,\n    scaffold_sample.FIGURE,\n" in registry
    readme = written[ROOT / "attention_py" / "figures" / "README.md"]
    softmax_row = readme.index("| `softmax` |")
    assert readme.index("| `scaffold_sample` |") == readme.index("\n", softmax_row) + 1
    for lang in ("en", "he", "fa"):
        page = written[ROOT / "docs" / lang / "what-matters.md"]
        assert '```figure name="softmax"\n```\n\n```figure name="scaffold_sample"\n```\n' in page, lang
    with pytest.raises(SystemExit, match="no fence of 'induction_live'"):
        new_figure.writes("scaffold_sample", "what-matters", after="induction_live")


@pytest.mark.slow
def test_a_new_figure_passes_the_fast_tier_right_away(tmp_path):
    """In a copy of the repository: the scaffold, then what ./run check runs on Python (ruff,
    mypy, and the fast tier's tests of the figures: FIGURE_TESTS); the new figure is drawn in
    every language, in the gallery and tested."""
    copy = repository_copy(tmp_path / "repo")
    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "devtools.new_figure",
            "made_by_the_scaffold",
            "--article",
            "what-matters",
            "--after",
            "qkv",
        ],
        cwd=copy,
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    # what the recipe asks of every shipped language: the gallery heading and line translated
    for lang, heading, line in (("he", "הזזה", "הזיזו."), ("fa", "جابه‌جایی", "جابه‌جا کنید.")):
        strings = copy / "docs" / "figure-strings" / f"{lang}.yml"
        text = strings.read_text(encoding="utf-8").replace(new_figure.INTRO, line)
        strings.write_text(
            text.replace('made_by_the_scaffold: "Made by the scaffold"', f'made_by_the_scaffold: "{heading}"'),
            encoding="utf-8",
        )
    for command in (
        ["-m", "ruff", "check", "."],
        ["-m", "ruff", "format", "--check", "."],
        ["-m", "mypy", "attention_py"],
        [
            "-m",
            "pytest",
            "-q",
            "-x",
            "-p",
            "no:cacheprovider",
            "-m",
            "not site and not browser and not slow",
            *figure_tests(copy),
        ],
    ):
        run = subprocess.run([sys.executable, *command], cwd=copy, capture_output=True, text=True, timeout=900)
        assert run.returncode == 0, f"{' '.join(command)}:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    its_test = "tests/figures/test_figure_made_by_the_scaffold.py"
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", its_test],
        cwd=copy,
        capture_output=True,
        text=True,
    )
    assert " passed" in tests.stdout, tests.stdout
    # the English gallery line is still the scaffold's, and he lists the figure's English strings
    for command, expected, status in (
        (["-m", "devtools.new_figure", "--leftovers"], "made_by_the_scaffold's gallery line is the scaffold's", 1),
        (["-m", "devtools.translation_status", "--lang", "he"], "made_by_the_scaffold.title", 0),
    ):
        run = subprocess.run([sys.executable, *command], cwd=copy, capture_output=True, text=True)
        assert (run.returncode, expected in run.stdout) == (status, True), run.stdout + run.stderr
