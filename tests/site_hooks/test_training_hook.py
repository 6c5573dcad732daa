"""The build's training hook (site_hooks/content/training.py) refuses a puzzle file whose two
groups of reasons differ in form, naming the words, before any training."""

from pathlib import Path

import pytest
import yaml
from mkdocs.exceptions import PluginError

from site_hooks.content import training

ROOT = Path(__file__).resolve().parents[2]


def test_the_build_refuses_a_puzzle_with_a_give_away_naming_the_words(tmp_path, monkeypatch):
    data = yaml.safe_load((ROOT / "docs" / "puzzles" / "fa.yml").read_text(encoding="utf-8"))
    data["reasons"]["patient"] = data["giveaway"]["patient"]  # every patient reason says دوباره
    (tmp_path / "fa.yml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    monkeypatch.setattr(training, "PUZZLES", tmp_path)
    monkeypatch.setattr(training, "ROOT", tmp_path.parent)
    with pytest.raises(PluginError, match="told apart by their form") as refused:
        training.checked_puzzle("fa")
    assert "'دوباره'" in str(refused.value)
    assert f"{tmp_path.name}/fa.yml" in str(refused.value)


@pytest.mark.parametrize("lang", ["en", "he", "fa"])
def test_the_sites_puzzles_are_accepted(lang):
    assert training.checked_puzzle(lang).people


def test_a_translated_learning_page_without_its_puzzle_stops_the_build_naming_the_file(tmp_path, monkeypatch):
    """Russian with its learning page translated and no docs/puzzles/ru.yml: the build stops
    (its sentences would be English); with the page untranslated, or a puzzle, it goes on."""
    docs = tmp_path / "docs"
    (docs / "puzzles").mkdir(parents=True)
    (docs / "ru").mkdir()
    (docs / "ru" / "index.md").write_text("# Главная\n", encoding="utf-8")
    assert training.missing_puzzle("ru", docs) is None, "an untranslated learning page shows English's puzzle"
    (docs / "ru" / "learning.md").write_text("# Откуда берутся веса?\n", encoding="utf-8")
    problem = training.missing_puzzle("ru", docs)
    assert problem is not None
    assert "docs/puzzles/ru.yml does not exist" in problem
    assert "docs/puzzles/en.yml" in problem
    assert "translate.md" in problem

    class Config(dict):
        docs_dir = str(docs)

    monkeypatch.setattr(training, "_built_languages", lambda config: ["en", "ru"])
    with pytest.raises(PluginError, match=r"ru\.yml does not exist"):
        training.on_files([], Config())
    (docs / "puzzles" / "ru.yml").write_text("sentence: x\n", encoding="utf-8")
    assert training.missing_puzzle("ru", docs) is None
    assert training.missing_puzzle("en", docs) is None


def test_a_puzzle_file_may_set_its_languages_steps_and_learning_rate(tmp_path, monkeypatch):
    """`training: {steps, learning_rate}` in a puzzle file: used by the build for that language,
    refused (naming the file and the choices) for a key or a value the page does not offer."""
    data = yaml.safe_load((ROOT / "docs" / "puzzles" / "en.yml").read_text(encoding="utf-8"))
    monkeypatch.setattr(training, "PUZZLES", tmp_path)
    monkeypatch.setattr(training, "ROOT", tmp_path.parent)
    (tmp_path / "en.yml").write_text(yaml.safe_dump(data), encoding="utf-8")

    def write(settings):
        (tmp_path / "xx.yml").write_text(yaml.safe_dump({**data, "training": settings}), encoding="utf-8")

    write({"steps": 240, "learning_rate": 0.03})
    assert training.training_settings("xx") == {**training.SETTINGS, "steps": 240, "learning_rate": 0.03}
    for bad, says in (
        ({"steps": 200}, "training.steps must be one of 60, 120, 240"),
        ({"learning_rate": 1}, "training.learning_rate must be one of"),
        ({"batch_size": 8}, "may set steps, learning_rate only"),
    ):
        write(bad)
        with pytest.raises(PluginError, match=says) as refused:
            training.training_settings("xx")
        assert "xx.yml" in str(refused.value)
    assert training.training_settings("en") == training.SETTINGS
