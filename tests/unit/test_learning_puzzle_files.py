"""The real puzzle files, docs/puzzles/<lang>.yml, read natively (PyYAML). Inside Pyodide there
is no YAML parser, so this module is allowed to skip there (tests/pyodide)."""

import re
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

from attention_py.learning import Puzzle  # noqa: E402
from attention_py.learning.tasks.cues import form_cues, giveaway_puzzle  # noqa: E402

PUZZLES = Path(__file__).resolve().parents[2] / "docs" / "puzzles"
LANGUAGES = ("en", "he", "fa")
EVERY_FILE = sorted(path.stem for path in PUZZLES.glob("*.yml"))  # languages added later too
ZWNJ = "\u200c"


def data(lang):
    return yaml.safe_load((PUZZLES / f"{lang}.yml").read_text(encoding="utf-8"))


def load(lang):
    return Puzzle.from_dict(data(lang))


@pytest.mark.parametrize("lang", EVERY_FILE)
def test_no_puzzle_file_gives_the_answer_away_by_form(lang):
    """Only the meaning of a reason may tell the answer: no length, shared word or shape does."""
    assert form_cues(load(lang)) == []


@pytest.mark.parametrize("lang", [lang for lang in EVERY_FILE if "giveaway" in data(lang)])
def test_the_giveaway_version_does_give_it_away_and_covers_the_fair_words(lang):
    giveaway = giveaway_puzzle(data(lang))
    assert form_cues(giveaway)
    assert set(load(lang).vocabulary) <= set(giveaway.vocabulary)  # fair sentences can be asked


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_has_a_big_enough_puzzle(lang):
    puzzle = load(lang)
    assert len(puzzle.people) >= 6
    assert len(puzzle.actions) >= 3
    assert len(puzzle.reasons_actor) >= 4
    assert len(puzzle.reasons_patient) >= 4
    assert puzzle.max_length <= 10


@pytest.mark.parametrize("lang", LANGUAGES)
def test_labels_follow_the_reason_in_each_file(lang):
    puzzle = load(lang)
    for s in puzzle.sentences():
        expected = s.people[0] if s.reason in puzzle.reasons_actor else s.people[1]
        assert s.referent == s.tokens[expected]
    train, validation, test = puzzle.split()
    pairs = [{(s.label, s.reason) for s in part} for part in (train, validation, test)]
    assert not pairs[0] & pairs[1]
    assert not pairs[0] & pairs[2]
    assert not pairs[1] & pairs[2]


def test_the_sites_example_sentences_are_in_the_puzzles():
    en = load("en")
    assert en.sentence("teacher", "yelled at", "student", "was angry").text == (
        "the teacher yelled at the student because she was angry"
    )
    he = load("he")
    assert (
        he.sentence("המורה", "צעקה על", "התלמידה", "הייתה עצבנית").text == "המורה צעקה על התלמידה כי היא הייתה עצבנית"
    )
    assert he.sentence("המורה", "צעקה על", "התלמידה", "הייתה חצופה").referent == "התלמידה"
    fa = load("fa")
    s = fa.sentence("معلم", "سر {second} داد زد", "دانش\u200cآموز", "عصبانی بود")
    assert s.text == "معلم سر دانش\u200cآموز داد زد چون او عصبانی بود"
    assert fa.sentence(0, 0, 1, "بی\u200cادب بود").referent == "دانش\u200cآموز"


def test_persian_words_use_the_zero_width_non_joiner_not_a_space():
    fa = load("fa")
    assert "دانش\u200cآموز" in fa.people
    for word in fa.vocabulary:
        assert not word.startswith(ZWNJ)
        assert not word.endswith(ZWNJ)
        assert word not in ("دانش", "آموز", "بی", "ادب")  # a space where a ZWNJ belongs


def test_hebrew_people_are_definite_and_the_pronoun_is_feminine():
    he = load("he")
    assert he.pronoun == "היא"
    assert all(person.startswith("ה") for person in he.people)


# The tokens of a spaced puzzle as they were made before languages without spaces existed
# (issue 34): the template with its action in, cut at spaces, a slot's attached punctuation
# kept on its word, a reason's punctuation on its first and last words.
SLOT_AS_BEFORE = re.compile(r"^([^\w{}]*)(\{(?:first|second|pronoun|reason)\})([^\w{}]*)$")


def tokens_as_before(puzzle, s):
    fill = {
        "{first}": puzzle.forms[s.first]["first"],
        "{second}": puzzle.forms[s.second]["second"],
        "{pronoun}": puzzle.pronoun,
    }
    tokens = []
    for word in puzzle.template.replace("{action}", s.action).split():
        slot = SLOT_AS_BEFORE.match(word)
        if slot is None:
            tokens.append(word)
            continue
        before, name, after = slot.groups()
        if name == "{reason}":
            words = s.reason.split()
            words[0], words[-1] = before + words[0], words[-1] + after
            tokens.extend(words)
        else:
            tokens.append(before + fill[name] + after)
    return tuple(tokens)


@pytest.mark.parametrize("lang", [lang for lang in EVERY_FILE if data(lang).get("spaces", True)])
def test_a_spaced_language_reads_exactly_as_before_unspaced_languages_existed(lang):
    """en, he, fa (every file without ``spaces: false``): the same tokens, the same text, the
    same dict, so the same vocabulary and the same trained model."""
    for make in (load, lambda lang: giveaway_puzzle(data(lang)) if "giveaway" in data(lang) else load(lang)):
        puzzle = make(lang)
        assert puzzle.spaced
        assert "spaces" not in puzzle.to_dict()
        for s in puzzle.sentences():
            assert s.tokens == tokens_as_before(puzzle, s)
            assert s.text == " ".join(s.tokens)
        assert all(puzzle.shown(text) == text for text in (*puzzle.actions, *puzzle.reasons))
