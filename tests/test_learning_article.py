"""The article "Where do the weights come from?" (docs/<lang>/learning.md) says what the trained
model does; these tests hold it to that, language by language, with the very model the build
trained for that language (site_hooks/content/training.py: the one the figures replay and
read; trained once and cached, like the notebooks). The prose quotes no number of the trained
model: it says "almost all" (checked here as more than 80% on average over the held-out
sentences of that kind) and "most" / "the largest share" (more than 50%, or the largest).

Also: the live cell that builds the English puzzle builds exactly docs/puzzles/en.yml, and
every language's page has the English page's section anchors.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
import yaml

from attention_py.learning import Model, Puzzle, Sentence
from site_hooks.content.training import trained as build_training

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("en", "he", "fa")
ALMOST_ALL = 0.8
MOST = 0.5


def puzzle(lang: str) -> Puzzle:
    return Puzzle.from_dict(yaml.safe_load((ROOT / "docs" / "puzzles" / f"{lang}.yml").read_text(encoding="utf-8")))


@cache
def trained(lang: str) -> tuple[Puzzle, Model, list[Sentence]]:
    """The model the build trained for ``lang`` (site_hooks/content/training.py, cached), the
    one the page's figures show, and its held-out sentences."""
    data = build_training(lang)
    p = Puzzle.from_dict(data["puzzle"])
    assert p.to_dict() == puzzle(lang).to_dict(), f"{lang}: the build trained on another puzzle"
    assert data["history"][-1]["held_out_accuracy"] >= 0.9, f"{lang}: the model did not learn the puzzle"  # the issue aims at 95%; this test checks the prose, not the target
    held_out = p.split(seed=data["settings"].get("split_seed", 0))[1]
    return p, Model.from_dict(data["model"]), held_out


def role(s: Sentence, j: int) -> str:
    if j == s.people[0]:
        return "first"
    if j == s.people[1]:
        return "second"
    if j == s.pronoun:
        return "pronoun"
    return "reason" if j > s.pronoun else "other"


def shares(lang: str, group: str, layer: int, query: str) -> dict[str, float]:
    """Average attention, over the held-out sentences whose reason points at ``group``, that the
    ``query`` token ("pronoun", or "last": the sentence's last word, the end of the reason)
    gives in ``layer`` (1 or 2) to the first person, the second, the pronoun, the reason words
    and the other words."""
    _, model, held_out = trained(lang)
    chosen = [s for s in held_out if s.points_at == group]
    totals: dict[str, float] = {}
    for s in chosen:
        weights = model.read(s).attention[layer - 1][0]
        row = weights[s.pronoun] if query == "pronoun" else weights[len(s.tokens) - 1]
        for j, w in enumerate(row):
            totals[role(s, j)] = totals.get(role(s, j), 0.0) + w / len(chosen)
    return totals


def largest(table: dict[str, float]) -> str:
    return max(table, key=table.__getitem__)


def peak(lang: str, layer: int, query: str = "pronoun") -> float:
    """The largest single weight in the query's row, averaged over the held-out sentences."""
    _, model, held_out = trained(lang)
    peaks = [max(model.read(s).attention[layer - 1][0][s.pronoun if query == "pronoun" else len(s.tokens) - 1])
             for s in held_out]
    return sum(peaks) / len(peaks)


# ---------------------------------------------------------------------------- every language


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_designed_plan_is_not_what_was_learned(lang):
    """Every page says the trained model did not find the designed model's plan, whose layer 1
    sends the pronoun to the reason: in neither group does the trained pronoun give the
    reason words most of its layer-1 attention."""
    for group in ("actor", "patient"):
        assert shares(lang, group, 1, "pronoun")["reason"] < MOST, group


def test_the_pronoun_query_of_layer_1_is_the_same_in_every_sentence():
    """Every page: the pronoun's layer-1 query is made of the pronoun and its position, the
    same in every sentence (the pronoun always stands at the same place)."""
    for lang in LANGUAGES:
        assert len({s.pronoun for s in puzzle(lang).sentences()}) == 1, lang


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_pronoun_spreads_its_attention_in_layer_1(lang):
    """en, fa: in layer 1 the pronoun's attention stays spread over the sentence: no single word
    gets most of it (on average over the held-out sentences, the largest weight is under 50%)."""
    assert peak(lang, 1) < MOST


# ---------------------------------------------------------------------------- English


def test_en_the_second_person_reads_the_reason_in_layer_1():
    """en: in layer 1 the second person gives almost all its attention to the reason words when
    the reason points at the one who acts, and most of it otherwise."""
    def second_row(group: str) -> dict[str, float]:
        _, model, held_out = trained("en")
        chosen = [s for s in held_out if s.points_at == group]
        totals: dict[str, float] = {}
        for s in chosen:
            for j, w in enumerate(model.read(s).attention[0][0][s.people[1]]):
                totals[role(s, j)] = totals.get(role(s, j), 0.0) + w / len(chosen)
        return totals

    assert second_row("actor")["reason"] > ALMOST_ALL
    assert second_row("patient")["reason"] > MOST


def test_en_the_pronoun_looks_straight_at_the_right_person_in_layer_2():
    """en: in layer 2 almost all of the pronoun's attention goes to the first person (actor
    reasons) or to the second (patient reasons)."""
    assert shares("en", "actor", 2, "pronoun")["first"] > ALMOST_ALL
    assert shares("en", "patient", 2, "pronoun")["second"] > ALMOST_ALL


# ---------------------------------------------------------------------------- Hebrew and Persian


@pytest.mark.parametrize("lang", ["he", "fa"])
def test_with_an_actor_reason_the_last_word_fetches_the_first_person_in_layer_1(lang):
    """he, fa: in layer 1 the reason's last word gives almost all its attention to the first
    person (fa names that word: «بود»)."""
    assert shares(lang, "actor", 1, "last")["first"] > ALMOST_ALL


@pytest.mark.parametrize("lang", ["he", "fa"])
def test_with_an_actor_reason_the_pronoun_reads_the_reason_in_layer_2(lang):
    """he, fa: in layer 2 the pronoun gives almost all its attention to the reason words."""
    assert shares(lang, "actor", 2, "pronoun")["reason"] > ALMOST_ALL


def test_he_patient_reasons_give_the_second_person_the_largest_share_in_layer_2():
    """he: with a reason of the other group, the largest share of the pronoun's layer-2
    attention goes straight to the second person."""
    assert largest(shares("he", "patient", 2, "pronoun")) == "second"


def test_fa_the_pronoun_reads_the_reason_in_both_groups():
    """fa: in layer 2 the pronoun gives almost all its attention to the reason words, in both groups."""
    assert shares("fa", "patient", 2, "pronoun")["reason"] > ALMOST_ALL


def test_fa_the_last_word_of_every_reason_is_bud():
    """fa names the reason's last word: «بود»."""
    assert {s.tokens[-1] for s in puzzle("fa").sentences()} == {"بود"}


# ---------------------------------------------------------------------------- the page itself


def test_the_cells_puzzle_is_the_english_puzzle_file():
    code = (ROOT / "docs" / "examples" / "learning" / "untrained.py").read_text(encoding="utf-8")
    namespace: dict = {}
    exec(compile(code, "untrained.py", "exec"), namespace)  # noqa: S102 - our own example
    assert namespace["puzzle"].to_dict() == puzzle("en").to_dict()


def test_every_language_has_the_english_sections():
    anchor = re.compile(r"^#+ .*\{ #([\w-]+) \}\s*$", re.MULTILINE)
    english = anchor.findall((ROOT / "docs" / "en" / "learning.md").read_text(encoding="utf-8"))
    assert "word-order" in english and "what-it-learned" in english
    for lang in LANGUAGES[1:]:
        page = (ROOT / "docs" / lang / "learning.md").read_text(encoding="utf-8")
        assert anchor.findall(page) == english, lang


def test_the_languages_models_did_not_all_find_the_same_plan():
    """Every page ("Train it yourself"): the three languages' models, trained by the same code,
    did not all find the same plan. With an actor reason, the pronoun's layer-2 attention
    goes mostly to the first person in one language and to the reason words in another."""
    targets = {lang: largest(shares(lang, "actor", 2, "pronoun")) for lang in LANGUAGES}
    assert len(set(targets.values())) > 1, targets


# ---------------------------------------------------------------------------- "Open the trained model"


ROW = re.compile(r"^  q·k/√d =\s+(?P<score>-?\d+\.\d)\s+weight\s+(?P<weight>\d+\.\d)%\s+(?P<word>\S+)$")


@cache
def inspect_cells(lang: str) -> tuple[str, str]:
    """What the two cells of "Open the trained model" print once the reader sets ``lang``, run
    as the page runs them (devtools.examples, reading the build's assets/training/<lang>.json)."""
    from devtools.examples import run_codes

    folder = ROOT / "docs" / "examples" / "learning"
    first = (folder / "trained_weights.py").read_text(encoding="utf-8")
    assert 'lang = "en"' in first
    first = first.replace('lang = "en"', f'lang = "{lang}"')
    return tuple(run_codes([first, (folder / "trained_scores.py").read_text(encoding="utf-8")]))


def scored_sentences(lang: str) -> list[tuple[str, str, list[tuple[str, float]]]]:
    """The second cell's sentences: (answer, right answer, [(word, weight %)])."""
    blocks = []
    for line in inspect_cells(lang)[1].splitlines():
        if line.startswith("sentence: "):
            continue
        if match := re.match(r"^  answer: (\S+)   right answer: (\S+)$", line):
            blocks.append((match[1], match[2], []))
        elif match := ROW.match(line):
            blocks[-1][2].append((match["word"], float(match["weight"])))
        else:
            assert line == "  the model's own weights agree: True", line
    assert len(blocks) == 2
    return blocks


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_matrix_moved_and_none_was_replaced(lang):
    """Every page: each matrix moved, and ended closer to its random start than its own size."""
    moved = [int(m) for m in re.findall(r"moved\s+(\d+)% of its size", inspect_cells(lang)[0])]
    assert len(moved) == len(trained(lang)[1].parameters)
    assert all(0 < m < 100 for m in moved), moved


def test_en_layer_2_keys_pick_the_right_person_by_hand():
    """Every page: in the English model the first person's key wins for an actor reason, the
    second's for the other group, with almost all the weight; the hand-made weights are the
    model's own (the cell prints "agree: True", checked in scored_sentences)."""
    for answer, right, rows in scored_sentences("en"):
        word, weight = max(rows, key=lambda row: row[1])
        assert answer == right == word and weight > 100 * ALMOST_ALL


@pytest.mark.parametrize("lang", ["he", "fa"])
def test_with_the_page_language_a_reason_word_wins_in_the_first_sentence(lang):
    """he and fa: with lang set to the page's language, a reason word's key wins in the first
    sentence (an actor reason); fa: in the second too."""
    p = trained(lang)[0]
    reason_words = {w for reason in p.reasons for w in reason.split()}
    sentences = scored_sentences(lang) if lang == "fa" else scored_sentences(lang)[:1]
    for answer, right, rows in sentences:
        word, _ = max(rows, key=lambda row: row[1])
        assert answer == right and word in reason_words, (word, rows)
