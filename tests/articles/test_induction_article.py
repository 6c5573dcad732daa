"""The article "Copying what came before: induction heads" (docs/<lang>/induction.md) says what
the build's model does; these tests hold every language's page to it, with the very run the
build published (site_hooks/content/induction.py: the one its figures replay and read).

One model serves every language (its tokens are labels, shown in each page's letters), so
the claims are measured once and each page's prose is checked for the numbers it quotes,
read as that language writes a number (devtools/examples.py, ``prose_format``). Claims about
the mechanism are tested by ablation on the 64 test sequences (``induction_run``: the
circuit's cuts and every set of heads switched off); claims about the one-layer control by
probing its model. "Fails" is checked as at most 30% of the copied letters, "changes almost
nothing" as at least 95%.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from attention_py.learning import CopyTask
from attention_py.learning.induction import FORMED, CopySettings, formed
from attention_py.learning.induction_run import RUN, switch_key
from attention_py.learning.next_token import NextTokenModel
from devtools.examples import normalise_numbers, prose_format
from site_hooks.content.induction import record

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "he", "fa")
FAILS = 0.30
KEPT = 0.95


@cache
def prose(lang: str) -> str:
    """The page's text with every number as Python prints it, runs of white space one space."""
    text = " ".join((ROOT / "docs" / lang / "induction.md").read_text(encoding="utf-8").split())
    return normalise_numbers(text, prose_format(lang))


def quoted(lang: str, value: float, digits: int, percent: bool = False) -> bool:
    """Whether the page quotes ``value`` (a share if ``percent``) with ``digits`` decimals."""
    written = f"{100 * value:.{digits}f}%" if percent else f"{value:.{digits}f}"
    return re.search(rf"(?<![\d.]){re.escape(written)}(?![\d])", prose(lang)) is not None


def history() -> dict[int, dict[str, float]]:
    return {p["step"]: p for p in record("run")["history"]}


def best(point: dict[str, float], layer: int, score: str) -> float:
    return max(v for k, v in point.items() if k.startswith(f"test_layer{layer}.") and k.endswith(f"_{score}"))


@cache
def held_out() -> list:
    return CopyTask().sequences(CopySettings().test_seed, CopySettings().test_size)


def test_the_run_is_the_one_the_page_describes():
    run = record("run")
    assert run["settings"]["seed"] == RUN["seed"] == 0
    assert run["settings"]["steps"] == RUN["steps"] == 1000
    assert run["settings"]["learning_rate"] == 0.01
    assert run["settings"]["test_size"] == 64
    model = NextTokenModel.from_dict(run["model"])
    assert sum(r * c for _, (r, c) in model.shapes()) == 9984
    assert (model.layers, model.heads, model.settings["d_model"]) == (2, 2, 32)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_quotes_the_sizes(lang):
    text = prose(lang)
    assert re.search(r"9,?984", text)
    assert re.search(r"1,?000", text)
    for number in ("16", "20", "64", "0.01", "3.00"):
        assert re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", text), number


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_plateau_and_the_drop_are_the_builds(lang):
    """The loss and accuracy on the copied letters at steps 40, 200, 220 and 300, as quoted;
    slow before step 200, fast from 220 to 300."""
    h = history()
    for step, loss, accuracy in ((40, 2.98, 0.10), (200, 2.45, 0.29), (220, 2.38, 0.31), (300, 0.86, 0.86)):
        assert round(h[step]["test_copied_loss"], 2) == loss, step
        assert round(h[step]["test_copied_accuracy"], 2) == accuracy, step
        assert quoted(lang, h[step]["test_copied_loss"], 2), (lang, step)
        assert quoted(lang, h[step]["test_copied_accuracy"], 0, percent=True), (lang, step)
    assert h[200]["test_copied_loss"] - h[40]["test_copied_loss"] > -0.6  # 160 steps: less than 0.6
    assert h[220]["test_copied_loss"] - h[300]["test_copied_loss"] > 1.5  # 80 steps: more than 1.5
    assert abs(h[40]["loss"] - 3.0) < 0.1  # "to about ln 20"


def test_the_head_formed_at_step_300_by_the_criteria_fixed_before():
    run = record("run")
    assert FORMED == {"copied_accuracy": 0.8, "prefix": 0.4}
    assert run["formed_at"] == 300
    assert not formed(history()[280], 2)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_trained_model_copies_and_guesses_the_rest(lang):
    final = record("run")["final"]
    assert round(100 * final["copied_accuracy"], 1) == 99.8
    assert round(100 * final["other_accuracy"], 1) == 5.3
    assert abs(final["other_accuracy"] - 1 / 20) < 0.01  # "which is chance"
    assert quoted(lang, final["copied_accuracy"], 1, percent=True)
    assert quoted(lang, final["other_accuracy"], 1, percent=True)
    assert quoted(lang, 300, 0)


def test_both_stripes_grow_together():
    """Around step 260 both scores pass 0.38 together; at 220 both are below 0.25, at 300 above 0.5."""
    h = history()
    for step, low, high in ((220, 0.0, 0.25), (260, 0.38, 0.45), (300, 0.5, 1.0)):
        assert low <= best(h[step], 0, "previous") <= high, step
        assert low <= best(h[step], 1, "prefix") <= high, step


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_heads_are_named_by_their_scores(lang):
    """Head 1 of layer 1 is the previous-token head (0.80; the other 0.08); both heads of layer 2
    are induction heads (0.80 each) and copy (92% and 80%)."""
    found = record("run")["circuit"]
    scores = found["scores"]
    assert found["previous"] == [0]
    assert found["induction"] == [0, 1]
    assert [round(v, 2) for v in scores["previous"][0]] == [0.80, 0.08]
    assert [round(v, 2) for v in scores["prefix"][1]] == [0.80, 0.80]
    assert [round(100 * v) for v in scores["copying"][1]] == [92, 80]
    for value in (0.80, 0.08):
        assert quoted(lang, value, 2)
    for value in (0.92, 0.80):
        assert quoted(lang, value, 0, percent=True)


ABLATION_TABLE = {  # the article's table: cut -> (copied, others), in the table's precision
    "none": (99.8, 5.3),
    "previous_off": (23.7, 5.4),
    "other_first_off": (99.3, 3.2),
    "induction_off": (14.3, 6.4),
    "keys_cut": (24.8, 5.4),
    "queries_cut": (100.0, 5.1),
    "values_cut": (99.5, 3.6),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_ablation_claim_holds_and_is_quoted(lang):
    ablations = record("run")["circuit"]["ablations"]
    for cut, (copied, other) in ABLATION_TABLE.items():
        scores = ablations[cut]
        assert round(100 * scores["copied_accuracy"], 1) == copied, cut
        assert round(100 * scores["other_accuracy"], 1) == other, cut
        assert quoted(lang, copied / 100, 0 if copied == 100 else 1, percent=True), (lang, cut)
    assert ablations["previous_off"]["copied_accuracy"] <= FAILS  # "the copy fails"
    assert ablations["keys_cut"]["copied_accuracy"] <= FAILS  # "fails again"
    assert ablations["induction_off"]["copied_accuracy"] <= 0.2  # "most of the way to the 5%"
    for cut in ("queries_cut", "values_cut", "other_first_off"):
        assert ablations[cut]["copied_accuracy"] >= KEPT, cut  # "changes almost nothing"
    control = record("control")["final"]["copied_accuracy"]
    assert ablations["previous_off"]["copied_accuracy"] < control  # "below the 27% of one layer"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_either_induction_head_alone_keeps_most_of_the_copy(lang):
    table = record("run")["switched"]
    head_1_alone = table[switch_key([True, True, True, False])]["copied_accuracy"]
    head_2_alone = table[switch_key([True, True, False, True])]["copied_accuracy"]
    assert (round(100 * head_1_alone), round(100 * head_2_alone)) == (89, 75)
    assert quoted(lang, head_1_alone, 0, percent=True)
    assert quoted(lang, head_2_alone, 0, percent=True)


# ---------------------------------------------------------------------------- one layer


@cache
def control_probe() -> dict[str, float]:
    """The one-layer model on the copied positions of the test sequences: its share of attention
    4 to 7 places back, and the shares of its guesses that are segment letters, the current
    letter, and right."""
    control = record("control")
    model = NextTokenModel.from_dict(control["model"])
    far, attention, segment, current, right, seen = 0.0, 0.0, 0, 0, 0, 0
    for s in held_out():
        run = model.forward(s.ids)
        guesses = model.guesses(run)
        letters = set(s.ids[s.first : s.second])
        for i in s.copied:
            seen += 1
            segment += guesses[i] in letters
            current += guesses[i] == s.ids[i]
            right += guesses[i] == s.ids[i + 1]
            for h in range(model.heads):
                row = run.attention(0, h)[i]
                far += sum(row[j] for j in range(i + 1) if 4 <= i - j <= 7)
                attention += sum(row)
    return {"far": far / attention, "segment": segment / seen, "current": current / seen, "right": right / seen}


def test_one_layer_with_the_same_budget_never_forms_the_head():
    control = record("control")
    assert control["settings"]["layers"] == 1
    assert control["settings"]["steps"] == 1000
    assert control["formed_at"] is None
    assert all(p["test_copied_accuracy"] < 0.4 for p in control["history"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_layer_looks_back_by_distance_and_guesses_a_segment_letter(lang):
    probe = control_probe()
    assert round(100 * record("control")["final"]["copied_accuracy"]) == 27
    assert round(100 * probe["right"]) == 27
    assert round(100 * probe["far"]) == 80
    assert round(100 * probe["segment"]) == 81
    assert round(100 * probe["current"], 1) == 0.2
    for share, digits in ((0.27, 0), (0.80, 0), (0.81, 0), (0.002, 1)):
        assert quoted(lang, share, digits, percent=True), share
