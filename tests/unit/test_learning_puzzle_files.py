"""The real puzzle files, docs/puzzles/<lang>.yml, read natively (PyYAML). Inside Pyodide there
is no YAML parser, so this module is allowed to skip there (tests/pyodide)."""

from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

from attention_py.learning import Puzzle  # noqa: E402

PUZZLES = Path(__file__).resolve().parents[2] / "docs" / "puzzles"
LANGUAGES = ("en", "he", "fa")
ZWNJ = "\u200c"


def load(lang):
    return Puzzle.from_dict(yaml.safe_load((PUZZLES / f"{lang}.yml").read_text(encoding="utf-8")))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_has_a_big_enough_puzzle(lang):
    puzzle = load(lang)
    assert len(puzzle.people) >= 6 and len(puzzle.actions) >= 3
    assert len(puzzle.reasons_actor) >= 4 and len(puzzle.reasons_patient) >= 4
    assert puzzle.max_length <= 10


@pytest.mark.parametrize("lang", LANGUAGES)
def test_labels_follow_the_reason_in_each_file(lang):
    puzzle = load(lang)
    for s in puzzle.sentences():
        expected = s.people[0] if s.reason in puzzle.reasons_actor else s.people[1]
        assert s.referent == s.tokens[expected]
    train, held_out = puzzle.split()
    assert not {(s.label, s.reason) for s in train} & {(s.label, s.reason) for s in held_out}


def test_the_sites_example_sentences_are_in_the_puzzles():
    en = load("en")
    assert en.sentence("teacher", "yelled at", "student", "was angry").text == (
        "the teacher yelled at the student because she was angry"
    )
    he = load("he")
    assert he.sentence("המורה", "צעקה על", "התלמידה", "הייתה עצבנית").text == "המורה צעקה על התלמידה כי היא הייתה עצבנית"
    assert he.sentence("המורה", "צעקה על", "התלמידה", "התחצפה").referent == "התלמידה"
    fa = load("fa")
    s = fa.sentence("معلم", "سر {second} داد زد", "دانش\u200cآموز", "عصبانی بود")
    assert s.text == "معلم سر دانش\u200cآموز داد زد چون او عصبانی بود"
    assert fa.sentence(0, 0, 1, "بی\u200cادبی کرده بود").referent == "دانش\u200cآموز"


def test_persian_words_use_the_zero_width_non_joiner_not_a_space():
    fa = load("fa")
    assert "دانش\u200cآموز" in fa.people
    for word in fa.vocabulary:
        assert not word.startswith(ZWNJ) and not word.endswith(ZWNJ)
        assert word not in ("دانش", "آموز", "بی", "ادبی")  # a space where a ZWNJ belongs


def test_hebrew_people_are_definite_and_the_pronoun_is_feminine():
    he = load("he")
    assert he.pronoun == "היא"
    assert all(person.startswith("ה") for person in he.people)
