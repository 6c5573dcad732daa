"""Any state at all: either refused with a StateError naming a key, or drawn without NaN/inf."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attention_py.figures import FIGURES, StateError
from attention_py.figures.kit.state import Choice, Flag, Integer, Number, Numbers, Subset, Vectors, Writing
from tests.figures.support import LANGS, NON_FINITE, parse, strings

junk = st.one_of(
    st.none(),
    st.booleans(),
    st.text(max_size=4),
    st.just("1e400"),
    st.just("nan"),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=1),
)
number = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=-1e6, max_value=1e6),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.from_regex(r"\A-?[0-9]{1,3}(\.[0-9]{1,2})?\Z"),
)


def value_for(field):
    if isinstance(field, (Number, Integer)):
        return st.one_of(number, junk)
    if isinstance(field, Choice):
        return st.one_of(st.sampled_from(field.options), number, junk)
    if isinstance(field, Flag):
        return st.one_of(st.booleans(), st.sampled_from([0, 1, "on", "off"]), junk)
    if isinstance(field, Numbers):
        return st.one_of(st.lists(st.one_of(number, number, junk), min_size=0, max_size=8), junk)
    if isinstance(field, Vectors):
        width = len(field.default[0])
        row = st.lists(number, min_size=width, max_size=width)
        return st.one_of(
            st.lists(row, min_size=len(field.default), max_size=len(field.default)),
            st.lists(st.lists(number, max_size=3), max_size=4),
            junk,
        )
    if isinstance(field, Subset):
        return st.one_of(
            st.lists(st.sampled_from(field.options), max_size=10),
            st.lists(st.one_of(st.sampled_from(field.options), st.text(max_size=3)), max_size=3),
        )
    if isinstance(field, Writing):  # the reader's lines, markup and slots included; or not text
        lines = st.lists(st.sampled_from(["cat", "dog", "owl", "<b>", "{second}", "", "x y z", "\u200c"]), max_size=6)
        typed = st.text(max_size=40).filter(lambda text: not NON_FINITE.search(text))  # "nan" as a word is the reader's
        not_text = st.one_of(st.none(), st.booleans(), number, st.lists(st.text(max_size=3), max_size=2))
        return st.one_of(typed, lines.map("\n".join), not_text)
    raise AssertionError(field)


def states_for(name):
    fields = FIGURES[name].spec.fields
    return st.fixed_dictionaries({}, optional={key: value_for(f) for key, f in fields.items()})


@pytest.mark.parametrize("name", list(FIGURES))
def test_any_state_is_refused_by_key_or_drawn_finite(name):
    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(state=states_for(name), lang=st.sampled_from(LANGS))
    def check(state, lang):
        try:
            clean = FIGURES[name].normalise(state)
        except StateError as error:
            refusal = error
        else:
            refusal = None
        if refusal is not None:
            assert refusal.key, "a refusal names its key"
            assert refusal.key.split(".")[0] in FIGURES[name].spec.fields or refusal.key == "state"
            return
        for value in _numbers(clean):
            assert math.isfinite(value)
        html = FIGURES[name].render(clean, lang=lang, strings=strings(lang))
        assert not NON_FINITE.search(html)
        parse(html)
        assert FIGURES[name].normalise(clean) == clean, "normalising is idempotent"

    check()


def _numbers(value):
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        yield float(value)
    elif isinstance(value, list):
        for item in value:
            yield from _numbers(item)


@pytest.mark.parametrize("name", list(FIGURES))
def test_extreme_numbers_are_clamped_into_range_and_drawn(name):
    fields = FIGURES[name].spec.fields
    for extreme in (-1e308, -1e6, 0, 1e-300, 1e6, 1e308):
        state = {}
        for key, f in fields.items():
            if isinstance(f, (Number, Integer)):
                state[key] = extreme
            elif isinstance(f, Numbers):
                state[key] = [extreme] * len(f.default)
            elif isinstance(f, Vectors):
                state[key] = [[extreme] * len(f.default[0]) for _ in f.default]
        html = FIGURES[name].render(state, lang="en", strings=strings("en"))
        assert not NON_FINITE.search(html)
