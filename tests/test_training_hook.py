"""The build's training hook (site_hooks/content/training.py) refuses a puzzle file whose two
groups of reasons differ in form, naming the words, before any training."""

from pathlib import Path

import pytest
import yaml
from mkdocs.exceptions import PluginError

from site_hooks.content import training

ROOT = Path(__file__).resolve().parents[1]


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
