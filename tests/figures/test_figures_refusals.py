"""Every refusal a figure answers is short, whatever it was given (issue 43): it quotes at most
``EXCERPT_MAX_CHARS`` of the value, without controls or invisible formatting, isolated from
the sentence's direction, exactly as the page quotes an address's setting
(docs/widgets/figures/figure-address.js, ``excerpt``); a text too long is named by its limit; the
English detail and the key are cut. So no answer that repeats its input can pass the page's
bound on an answer (docs/widgets/runtime/message-bounds.js, ``MAX_CALL_ANSWER``)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from attention_py.figures import FIGURES, MAX_DETAIL, update
from attention_py.figures.kit.strings import EXCERPT_MAX_CHARS, Text, excerpt
from attention_py.figures.learning.training_app.run import OWN_SPEC
from tests.figures.support import LANGS, strings
from tests.figures.test_figures_learning import LIVE

ROOT = Path(__file__).resolve().parents[2]
SHORT = 1_000  # characters of a whole refusal, as JSON: a sentence or two and a cut detail

QUOTED = {
    "plain": "seed=7",
    "long": "x" * 900_000,
    "bidi override and zero-width space": "\u202eseed\u200b=7",
    "controls": "a\x00b\x1bc\nd",
    "a Persian word keeps its joiner": "می\u200cرود",
    "isolates and marks": "\u2066a\u2067b\u2068c\u2069\u200e\u200f",
    "hidden characters before the cut": "\u200b" * 50_000 + "y" * 40,
    "astral characters count once": "𝑥" * 40,
}


@pytest.mark.parametrize("name", list(QUOTED))
def test_an_excerpt_is_the_pages_excerpt(name):
    node = shutil.which("node")
    assert node is not None, "Node.js runs the page's excerpt"
    page = subprocess.run(
        [
            node,
            "--input-type=module",
            "-e",
            f"import {{ excerpt }} from {json.dumps((ROOT / 'docs/widgets/figures/figure-address.js').as_uri())};"
            "let text = ''; process.stdin.on('data', (d) => (text += d));"
            "process.stdin.on('end', () => process.stdout.write(JSON.stringify(excerpt(JSON.parse(text)))));",
        ],
        input=json.dumps(QUOTED[name]),
        capture_output=True,
        text=True,
        check=True,
    )
    assert excerpt(QUOTED[name]) == json.loads(page.stdout)


def test_an_excerpt_keeps_at_most_its_bound_of_visible_characters():
    quoted = excerpt("\u202e" + "y" * 100)
    assert quoted == "\u2068" + "y" * EXCERPT_MAX_CHARS + "…\u2069"
    assert excerpt("\u200cab\u200d") == "\u2068\u200cab\u200d\u2069"
    assert excerpt(None) == "\u2068None\u2069"


def refused(name, changes, lang="en", state=None):
    state = state if state is not None else FIGURES[name].default_state(lang)
    answer = update(name, state, changes, lang, strings(lang), f"test-refusal-{name}")
    assert answer["ok"] is False, answer
    assert len(json.dumps(answer, ensure_ascii=False)) < SHORT, "the refusal is short"
    return answer


@pytest.mark.parametrize("lang", LANGS)
def test_a_megabyte_where_a_number_belongs_is_refused_quoting_its_start(lang):
    huge = "9" * 1_000_000  # a float too large: not a finite number
    answer = refused("softmax", {"z.1": huge}, lang)
    assert excerpt(huge) in answer["error"]
    assert answer["key"] == "z.1"
    assert len(answer["detail"]) <= MAX_DETAIL + 1
    assert excerpt("\u202e" + huge) in refused("softmax", {"z.1": "\u202e" + huge}, lang)["error"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_megabyte_pasted_into_a_box_of_ones_own_puzzle_is_refused_naming_the_limit(lang):
    limit = OWN_SPEC["own_people"].limit
    answer = refused(LIVE, {"own_open": True, "own_people": "\u202e<b>" * 250_000}, lang)
    text = Text(strings(lang), lang, LIVE)
    assert answer["error"] == text.plain("common.text_too_long", limit=text.count(limit))
    assert answer["key"] == "own_people"


def test_an_unknown_key_of_a_megabyte_is_cut():
    answer = refused("softmax", {"k" * 1_000_000: 1})
    assert answer["key"] == "k" * MAX_DETAIL + "…"


@pytest.mark.parametrize("value", ["x" * 1_000_000, ["x" * 1_000_000], {"x" * 1_000_000: 1}])
def test_a_hostile_action_value_of_a_megabyte_is_refused_short(value):
    for action in ("export", "forget"):
        answer = refused(LIVE, {f"do.{action}": value})
        assert answer["key"] == f"do.{action}"
