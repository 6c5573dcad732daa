"""Figures in a language written without spaces (issue 34): the puzzle's sentences, actions and
reasons are shown with no spaces between their tokens, the reader's own puzzle is written the
same way, and sentences follow one another as the strings file says
(``common.between_sentences``, optional, a space by default: en, he and fa say nothing and
their figures are unchanged)."""

from __future__ import annotations

import pytest
import yaml

from attention_py.figures import FIGURES, Text
from attention_py.figures.learning import views as views
from attention_py.figures.learning.training_app.own_puzzle import OwnPuzzle, own_puzzle, reader_text
from attention_py.learning import Puzzle, train_with_checkpoints
from attention_py.resources import provide
from site_hooks.content.figures import check_strings_file
from tests.figures.support import LANGS, STRINGS_DIR, parse, saved_resources, strings
from tests.unit.test_learning_puzzle_unspaced import ZH, ZH_AROUND

LANG = "zh"  # made up here: English strings but for how sentences are joined


def zh_strings(between: str = "") -> dict:
    english = strings("en")
    return {**english, "common": {**english["common"], "between_sentences": between}}


@pytest.fixture
def zh_model():
    """The resource training/zh: the Chinese puzzle of the unit tests, briefly trained."""
    small = {**ZH, "people": [*ZH["people"], "经理", "司机"]}
    with saved_resources():
        provide(f"training/{LANG}", train_with_checkpoints(Puzzle.from_dict(small), steps=20, checkpoint_every=20))
        yield


# --------------------------------------------------------------------------- the strings file


def test_sentences_follow_each_other_as_the_language_says():
    assert Text(strings("en"), "en", "trained_reader").sentences("A.", "B.") == "A. B."
    assert Text(zh_strings(), LANG, "trained_reader").sentences("对。", "答对了。") == "对。答对了。"


def strings_file_problems(tmp_path, **common):
    """The check's problems with a strings file ``xx.yml``: en.yml with ``common`` added."""
    (tmp_path / "en.yml").write_text((STRINGS_DIR / "en.yml").read_text(encoding="utf-8"), encoding="utf-8")
    data = yaml.safe_load((STRINGS_DIR / "en.yml").read_text(encoding="utf-8"))
    data["common"].update(common)
    where = tmp_path / "xx.yml"
    where.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return [p.replace(f"{where}: ", "xx.yml: ", 1) for p in check_strings_file(where)]


def test_between_sentences_may_be_left_out_and_is_checked_when_given(tmp_path):
    assert strings_file_problems(tmp_path) == []
    for value in ("", " "):
        assert strings_file_problems(tmp_path, between_sentences=value) == []
    for value in ("x", "  ", None, 0):
        problems = strings_file_problems(tmp_path, between_sentences=value)
        assert len(problems) == 1, problems
        assert problems[0].startswith('xx.yml: common.between_sentences: must be " " (a space'), problems


@pytest.mark.parametrize("lang", LANGS)
def test_a_file_that_says_nothing_joins_with_a_space_and_carries_nothing_new(lang):
    assert "between_sentences" not in strings(lang)["common"]
    root = parse(FIGURES["trained_reader"].render(None, lang=lang, strings=strings(lang)))
    assert "between_sentences" not in root.attrs["data-strings"], "en/he/fa figures are unchanged"


# --------------------------------------------------------------------------- the figures


def text_of(root, cls):
    (found,) = root.by_class(cls)
    return found.text


def test_the_reader_shows_sentences_actions_and_reasons_without_spaces(zh_model):
    p = views.puzzle(LANG)
    assert not p.spaced
    root = parse(FIGURES["trained_reader"].render({"reason": 4}, lang=LANG, strings=zh_strings()))
    (quote,) = [e for e in root.iter() if e.tag == "q"]
    assert quote.text == "老师骂了学生，因为她很吵"
    options = [e.text for e in root.iter() if e.tag == "option"]
    assert "很吵" in options
    assert "很 吵" not in options
    spaced = parse(FIGURES["trained_reader"].render({"reason": 4}, lang=LANG, strings=zh_strings(" ")))
    joined, apart = text_of(root, "apy-fig__readout"), text_of(spaced, "apy-fig__readout")
    assert len(apart) == len(joined) + 1, "one space less: the one between the two sentences"
    assert apart.replace(" ", "") == joined.replace(" ", "")


def test_the_sentence_menus_elide_without_spaces(zh_model):
    s = views.puzzle(LANG).sentence("老师", "骂了", "学生", "很 生气")
    assert views.sentence_option(s) == "老师…学生…很生气"
    root = parse(FIGURES["training_replay"].render(None, lang=LANG, strings=zh_strings()))
    options = [e.text for e in root.iter() if e.tag == "option"]
    assert options
    assert all(" " not in option for option in options)


def test_a_verb_around_the_one_acted_upon_is_shown_with_an_ellipsis_and_no_spaces():
    from attention_py.figures.learning.trained_reader import action_text

    p = Puzzle.from_dict(ZH_AROUND)
    assert [action_text(a, p) for a in p.actions] == ["冲…吼了", "把…骂了"]
    fa = Puzzle.from_dict(
        {
            **ZH_AROUND,
            "spaces": True,
            "sentence": "{first} {action} چون {pronoun} {reason}",
            "actions": ["سر {second} داد زد"],
        }
    )
    assert action_text("سر {second} داد زد", fa) == "سر … داد زد"


def test_the_readers_own_puzzle_is_written_as_the_sites():
    """The reader's boxes start from the site's puzzle as its file writes it and give it
    back; the reader may write without spaces, {second} glued inside an action."""
    reasons = {"actor": ["很 生气", "很 累", "很 烦躁", "很 着急"], "patient": ["很 粗鲁", "很 吵", "很 懒", "很 马虎"]}
    site = Puzzle.from_dict({**ZH_AROUND, "reasons": reasons})
    made = own_puzzle(site, reader_text(site))
    assert isinstance(made, OwnPuzzle)
    assert [s.tokens for s in made.puzzle.sentences()] == [s.tokens for s in site.sentences()]
    boxes = {**reader_text(site), "actions": "冲{second}发火了\n把{second}训了"}
    made = own_puzzle(site, boxes)
    assert isinstance(made, OwnPuzzle), made
    s = made.puzzle.sentence(0, 0, 1, 0)
    assert s.text == "老师冲学生发火了，因为她很生气"
    assert s.tokens[s.people[1]] == "学生"
