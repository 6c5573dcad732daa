"""A shareable figure's address (attention_py/figures/README.md, "Addresses"): the root
names its shareable keys and their defaults (data-share) and the address of the settings it
shows (data-address), and every such address, read back as the page's host sends it (text values), gives the
same settings; hostile values in an address are refused, naming the key. The page side is
in tests/js/figure-address.test.mjs, the links in Chromium in tests/e2e/test_figures_learning.py.
"""

from __future__ import annotations

import html
import itertools
import json
import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from pymdownx.superfences import SuperFencesException

from attention_py.figures import FIGURES, RunningFigure, update
from attention_py.figures.kit.state import Choice, Flag, Integer, StateSpec
from attention_py.figures.learning import train_live as live
from site_hooks.build import Build
from site_hooks.content import figures as fence
from tests.figures.support import strings

FIGURE = FIGURES["train_live"]
SHARED = (*live.RECIPE, "steps")
CHOICES = {key: FIGURE.spec.fields[key] for key in SHARED}


def options(key):
    field = CHOICES[key]
    return field.options if isinstance(field, Choice) else (False, True)


def drawn(state=None, instance="train", lang="en"):
    return FIGURE.render(state, lang=lang, strings=strings(lang), instance=instance)


def share_of(markup):
    found = re.search(r'data-share="([^"]*)"', markup)
    return json.loads(html.unescape(found.group(1))) if found else None


def link_of(markup):
    found = re.search(r'data-address="([^"]*)"', markup)
    return html.unescape(found.group(1)) if found else None


def opened(link, lang="en"):
    """What the page's host does with ``link``: every shared key at its default, then the
    address's values as text, sent to Python as one change."""
    parts = urlsplit(link)
    changes = {**share_of(drawn()), **dict(parse_qsl(parts.fragment.partition("?")[2], keep_blank_values=True))}
    return update("train_live", FIGURE.default_state(), changes, lang, strings(lang), "address-test")


def test_the_root_shares_the_recipe_with_its_defaults_and_links_to_itself_at_them():
    markup = drawn()
    assert share_of(markup) == {key: FIGURE.default_state()[key] for key in SHARED}
    assert link_of(markup) == "#train"


def test_without_an_instance_nothing_is_shared():
    markup = drawn(instance=None)
    assert share_of(markup) is None
    assert link_of(markup) is None


@pytest.mark.parametrize("key", SHARED)
def test_each_value_of_each_control_survives_its_link(key):
    for value in options(key):
        link = link_of(drawn({key: value}))
        answer = opened(link)
        assert answer["ok"], (link, answer)
        assert answer["state"][key] == value, link
        # the link names exactly what differs from the defaults
        named = dict(parse_qsl(link.partition("?")[2]))
        assert set(named) == ({key} if value != FIGURE.default_state()[key] else set())


def test_a_whole_recipe_survives_its_link():
    recipe = {"positions": "none", "learning_rate": 0.003, "heads": 2, "causal": True, "seed": 3, "steps": 240}
    link = link_of(drawn(recipe))
    assert link == "#train?seed=3&learning_rate=0.003&heads=2&positions=none&causal=true&steps=240"
    state = opened(link)["state"]
    assert {k: state[k] for k in recipe} == recipe
    assert (state["running"], state["step"]) == (False, 0), "a link opens the experiment paused at step 0"


@pytest.mark.parametrize(
    ("link", "key"),
    [
        ("#train?seed=7", "seed"),
        ("#train?seed=1.5", "seed"),
        ("#train?learning_rate=0.2", "learning_rate"),
        ("#train?learning_rate=1e999", "learning_rate"),
        ("#train?learning_rate=nan", "learning_rate"),
        ("#train?positions=%3Cscript%3Ealert(1)%3C/script%3E", "positions"),
        ("#train?positions=__import__('os')", "positions"),
        ("#train?causal=maybe", "causal"),
        ("#train?steps=", "steps"),
        ("#train?d_model=32", "d_model"),
        ("#train?data=giveaway&layers=3", "layers"),
    ],
)
def test_hostile_values_are_refused_naming_the_key(link, key):
    answer = opened(link)
    assert answer == {**answer, "ok": False, "key": key}


def test_numbers_in_a_link_may_be_written_as_a_reader_writes_them():
    assert opened("#train?seed=%DB%B3")["state"]["seed"] == 3  # Persian ۳
    assert opened("#train?learning_rate=0%2C03")["state"]["learning_rate"] == 0.03  # 0,03


def test_a_figure_can_share_only_keys_of_its_state():
    spec = StateSpec({"a": Choice((1, 2), 1), "running": Flag(False), "step": Integer(0, 9, 0)})
    with pytest.raises(ValueError, match=r"\['b'\] are not in its state"):
        RunningFigure(
            name="x",
            spec=spec,
            strings=(),
            draw=lambda s, t, w: None,
            start=lambda s, lang: None,
            key=(),
            end="a",
            shareable=("b",),
        )


# --- the fence's id --------------------------------------------------------------------


def fence_options(build, **inputs):
    options = {}
    fence.validate("figure", inputs, options, {}, None, build=build)
    return options


def test_a_figure_block_may_name_its_figure_once_per_page():
    build = Build()
    build.start_page("en", "en/learning.md")
    assert fence_options(build, name="train_live", id="train") == {"name": "train_live", "id": "train"}
    assert fence_options(build, name="softmax") == {"name": "softmax", "id": None}
    for bad in ("train", "figure-3", "Train", "1st", "a b", "x" * 41, '"><script>'):
        with pytest.raises(SuperFencesException, match="figure id"):
            fence_options(build, name="softmax", id=bad)
    with pytest.raises(SuperFencesException, match="optionally id"):
        fence_options(build, name="softmax", title="x")
    assert fence.shareable_ids(build.page) == {"train"}
    fence_options(build, name="softmax", id="scores")  # named, but shares nothing
    assert fence.shareable_ids(build.page) == {"train"}
    build.start_page("en", "en/gallery.md")  # the next page starts afresh
    assert fence.shareable_ids(build.page) == set()
    assert fence_options(build, name="train_live", id="train")["id"] == "train"


def test_every_pair_of_recipe_values_survives_its_link():
    """Two controls at once, every pair of values (the article's prepared links change two)."""
    for a, b in itertools.combinations(SHARED, 2):
        for va, vb in itertools.product(options(a), options(b)):
            link = link_of(drawn({a: va, b: vb}))
            state = opened(link)["state"]
            assert (state[a], state[b]) == (va, vb), link
