"""Every number a figure shows is the package's: read back out of the markup, recomputed here.

Each test draws one figure, parses the numbers a reader sees (tables, bars, readouts,
formulas) and compares them with what attention_py's public functions give when called
here directly, written and read in the figure's number format (``Text.numbers``: the
language's decimal separator and percent sign; ``MADE_UP`` writes 0,56 and 99,2 %): ``softmax``, ``scaled_dot_product_attention``, ``matmul``, ``dot``... The
designed sentence model is recomputed from its weight matrices (read from the layers as
``layer.W_Q``) with ``matmul`` and ``scaled_dot_product_attention``, not through the
figure's own code path. A figure that rounds, slices or mixes up its numbers fails here.
"""

from __future__ import annotations

import math
import re
import statistics
from dataclasses import dataclass

import pytest

from attention_py import (
    MultiHeadAttention,
    SelfAttention,
    dot,
    dot_product_samples,
    matmul,
    norm,
    scaled_dot_product_attention,
    softmax,
    transpose,
    weighted_average,
)
from attention_py.figures import FIGURES, Text
from attention_py.figures.kit.sentence import D_MODEL, embed, layers, parse_tokens, pronoun_index
from tests.figures.support import LANGS, MADE_UP, ROOT, figure_numbers, parse, sentence_numbers, strings

# The English figures, and the same in the made-up language's number format.
READ_IN = ("en", MADE_UP)
# Every language's figures, and the made-up one's (English words).
EVERY = (*LANGS, MADE_UP)


def draw(name, state=None, lang="en"):
    return parse(FIGURES[name].render(state, lang=lang, strings=strings(lang)))


def number(text: str, lang: str = "en") -> float:
    """A shown number ("−1.23", "62.9%", "99,2 %", "37°") as a float, read in the language's format."""
    return figure_numbers(lang).read(text.strip().removesuffix("°"))


def texts(root, cls: str) -> list[str]:
    return [e.text for e in root.by_class(cls)]


def table_cells(table) -> list[list[str]]:
    """The data cells of a matrix table, row by row (header row and row headers left out)."""
    body = table.find_all(lambda e: e.tag == "tbody")[0]
    rows = body.find_all(lambda e: e.tag == "tr")
    return [[c.text for c in row.children if c.tag == "td"] for row in rows]


def shown(matrix: list[list[float]], lang: str = "en", digits: int = 2) -> list[list[str]]:
    numbers = figure_numbers(lang)
    return [[numbers.num(v, digits) for v in row] for row in matrix]


def tokens(lang: str, ending: str = "angry"):
    return parse_tokens(strings(lang)["common"][f"sentence_{ending}"], lang)


@dataclass
class Designed:
    """The designed two-layer reading of a sentence, recomputed from the layers' weights."""

    weights1: list[list[float]]
    x1: list[list[float]]
    q: list[list[float]]
    k: list[list[float]]
    v: list[list[float]]
    weights2: list[list[float]]


def designed(toks, causal: bool = False) -> Designed:
    first, second = layers()
    x = embed(toks)
    out1, weights1 = scaled_dot_product_attention(
        matmul(x, first.W_Q), matmul(x, first.W_K), matmul(x, first.W_V), causal=causal
    )
    x1 = [[a + b for a, b in zip(row, upd)] for row, upd in zip(x, out1)]  # residual connection
    q, k, v = matmul(x1, second.W_Q), matmul(x1, second.W_K), matmul(x1, second.W_V)
    _, weights2 = scaled_dot_product_attention(q, k, v, causal=causal)
    return Designed(weights1, x1, q, k, v, weights2)


def assert_shares(shown_shares: list[float], probabilities: list[float]) -> None:
    """Shown percentages: each the exact one rounded down or up to 0.1, adding up to 100.0."""
    exact = [100 * p / math.fsum(probabilities) for p in probabilities]
    for share, true in zip(shown_shares, exact, strict=True):
        assert abs(share - true) < 0.1 + 1e-9, (shown_shares, exact)
    assert round(math.fsum(shown_shares), 6) == 100.0, shown_shares


# 1 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", READ_IN)
@pytest.mark.parametrize(
    ("first", "second"), [("happy", "glad"), ("happy", "sad"), ("joyful", "truck"), ("car", "bus")]
)
def test_embedding_space_dot_and_cosine(first, second, lang):
    from attention_py.figures.what_matters.embedding_space import WORDS

    root = draw("embedding_space", {"words": list(WORDS), "first": first, "second": second}, lang)
    product, cosine = texts(root.by_class("apy-fig__readout")[0], "apy-num")
    a, b = WORDS[first], WORDS[second]
    assert product == figure_numbers(lang).num(dot(a, b))
    assert cosine == figure_numbers(lang).num(dot(a, b) / (norm(a) * norm(b)))


# 2 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", READ_IN)
@pytest.mark.parametrize("w", [[0.5, 0.5, 0.5], [0.2, 0.5, 0.9], [1, 0, 0], [0.01, 0.33, 0.07]])
def test_weighted_average_point_and_shares(w, lang):
    from attention_py.figures.what_matters.weighted_average import POINTS

    numbers = figure_numbers(lang)
    root = draw("weighted_average", {"w": w}, lang)
    shares = [number(t.removeprefix("α = "), lang) for t in texts(root, "apy-bar__value")]
    assert_shares(shares, w)
    readout = root.by_class("apy-fig__readout")[0]
    y = weighted_average(w, POINTS)
    assert f"y = ({numbers.join(numbers.num(v) for v in y)})" in readout.text
    alphas = [wj / math.fsum(w) for wj in w]
    assert texts(readout, "apy-num") == [numbers.pct(100 * math.fsum(alphas), 1)]


# 3 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"), [([2, 1], [1, 2]), ([1.5, -0.5], [0.3, 2.0]), ([-3, 0.2], [2.5, 2.5]), ([1, 1], [-1, -1])]
)
@pytest.mark.parametrize("lang", READ_IN)
def test_dot_product_stats(a, b, lang):
    num = figure_numbers(lang).num
    root = draw("dot_product", {"a": a, "b": b}, lang)
    stats = dict(
        zip(
            [e.text for e in root.find_all(lambda e: e.tag == "dt")],
            [e.text for e in root.find_all(lambda e: e.tag == "dd")],
            strict=True,
        )
    )
    cosine = dot(a, b) / (norm(a) * norm(b))
    assert stats == {
        "a · b": num(dot(a, b)),
        "|a|": num(norm(a)),
        "|b|": num(norm(b)),
        "cos θ": num(cosine),
        "θ": num(math.degrees(math.acos(max(-1.0, min(1.0, cosine)))), 0) + "°",
    }
    assert f"a · b = {num(dot(a, b))}" in root.by_class("apy-fig__readout")[0].text


# 4 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", EVERY)
@pytest.mark.parametrize("word", [-1, 0, 1, 8, 29])
def test_qkv_vectors(word, lang):
    toks = tokens(lang)
    chosen = pronoun_index(toks) if word < 0 else min(word, len(toks) - 1)  # the last word, past the end
    ref = designed(toks)
    root = draw("qkv", {"word": word}, lang=lang)
    vectors = [texts(v, "apy-vcell") for v in root.by_class("apy-vector")]
    expected = [ref.x1[chosen], ref.q[chosen], ref.k[chosen], ref.v[chosen]]
    assert vectors == [[figure_numbers(lang).num(x) for x in vec] for vec in expected]


# 5, 6 ----------------------------------------------------------------------------------


def bar_shares(root, lang: str) -> list[float]:
    """The percentages of the bars ("p₀ 14.0%", "p₀ 14,0 %": after the first space, a
    plain one; the made-up language's percent sign follows a no-break space)."""
    return [number(t.split(" ", 1)[1], lang) for t in texts(root, "apy-bar__value")]


@pytest.mark.parametrize("lang", READ_IN)
@pytest.mark.parametrize("z", [[1.5, 2.0, 3.0], [0, 0, 0], [-5, 5], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]])
def test_softmax_bars_and_total(z, lang):
    root = draw("softmax", {"z": z}, lang)
    p = softmax(z)
    assert_shares(bar_shares(root, lang), p)
    readout = root.by_class("apy-fig__readout")[0]
    assert texts(readout, "apy-num") == [figure_numbers(lang).pct(100 * math.fsum(p), 1)]


def test_softmax_shows_the_article_numbers():
    root = draw("softmax")
    assert texts(root, "apy-bar__value") == ["p₀ 14.0%", "p₁ 23.1%", "p₂ 62.9%"]


def test_a_language_with_a_decimal_comma_and_a_spaced_percent_sign_reads_its_own_probabilities():
    """The made-up language (decimal ",", percent "{value}\u00a0%") gets 99,2 % in the
    softmax bars and 0,56 in the simplified self-attention's weights, and its lists of
    numbers are separated by ";" (a comma is inside each number)."""
    root = draw("softmax", {"z": [0, 4.82]}, MADE_UP)
    assert texts(root, "apy-bar__value") == ["p₀ 0,8\u00a0%", "p₁ 99,2\u00a0%"]
    assert "p₀ = 0,8\u00a0%; p₁ = 99,2\u00a0%" in root.by_class("apy-fig__readout")[0].text
    root = draw("self_attention_simple", {"x": [[1, 0.5], [-0.9, 2.9], [0, 0]], "focus": 0}, MADE_UP)
    weights = [c.text for c in root.by_class("apy-small")[0].find_all(lambda e: e.tag == "td")][3:]
    assert weights == ["0,56", "0,28", "0,16"]
    assert "(1,0; 0,5)" in root.text
    assert [t.text for t in root.by_class("apy-flow__label")] == ["56\u00a0%", "28\u00a0%", "16\u00a0%"]


@pytest.mark.parametrize(
    ("z", "scale"), [([1.5, 2.0, 3.0], 2.5), ([0, 0, 1], 0.0), ([-4, 0.5, 5], 9.5), ([1, 2, 3, 4], 0.3)]
)
@pytest.mark.parametrize("lang", READ_IN)
def test_softmax_scale_bars_and_scaled_scores(z, scale, lang):
    numbers = figure_numbers(lang)
    root = draw("softmax_scale", {"z": z, "scale": scale}, lang)
    assert_shares(bar_shares(root, lang), softmax(z, scale=scale))
    scaled = numbers.join(numbers.num(scale * zi) for zi in z)
    assert f"s·z = [{scaled}]" in root.text


# 7 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", READ_IN)
@pytest.mark.parametrize("d_k", [1, 16, 64, 512])
def test_why_sqrt_dk_spreads_and_softmax(d_k, lang):
    from attention_py.figures.what_matters.why_sqrt_dk import KEYS, pair_count

    raw = dot_product_samples(d_k, pair_count(d_k), seed=2017)
    root_dk = math.sqrt(d_k)
    root = draw("why_sqrt_dk", {"d_k": d_k}, lang)
    raw_std, scaled_std = [number(t, lang) for t in texts(root.by_class("apy-hists")[0], "apy-num")]
    assert raw_std == round(statistics.pstdev(raw), 2)
    assert scaled_std == round(statistics.pstdev([v / root_dk for v in raw]), 2)
    largest = [
        number(e.find_all(lambda s: s.attrs.get("dir") == "ltr")[0].text, lang)
        for e in root.by_class("apy-effect")[0].find_all(lambda e: e.tag == "p" and e.has_class("apy-muted"))
    ]
    scores = raw[:KEYS]
    for shown_top, p in zip(largest, (softmax(scores), softmax(scores, scale=1 / root_dk)), strict=True):
        assert abs(shown_top - 100 * max(p)) < 0.1 + 1e-9
    assert f"Each histogram counts {len(raw)} dot products" in root.text


# 8 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", EVERY)
@pytest.mark.parametrize(
    ("ending", "layer", "selected"), [("angry", 2, -1), ("rude", 2, -1), ("rude", 1, 3), ("angry", 1, 0)]
)
def test_attention_sentence_matrix_and_row(ending, layer, selected, lang):
    toks = tokens(lang, ending)
    ref = designed(toks)
    weights = ref.weights1 if layer == 1 else ref.weights2
    chosen = pronoun_index(toks) if selected < 0 else selected
    root = draw("attention_sentence", {"ending": ending, "layer": layer, "selected": selected}, lang=lang)
    numbers = figure_numbers(lang)
    assert table_cells(root.by_class("apy-attn")[0]) == shown(weights, lang)
    assert texts(root, "apy-token__weight") == [numbers.pct(100 * w, 0) for w in weights[chosen]]
    top = max((j for j in range(len(toks)) if j != chosen), key=lambda j: weights[chosen][j])
    assert f"({numbers.pct(100 * weights[chosen][top], 0)})" in root.by_class("apy-fig__readout")[0].text


# The pronoun's layer-2 weights on (teacher, student) in percent, per ending, as each
# language's what-matters.md quotes them ("about 70% ... against 12%").
# The languages whose first article is translated: their own prose quotes the figure's numbers
# (a language in progress shows English's page, and its figures English's sentence, until then).
OWN_ARTICLE = [lang for lang in LANGS if (ROOT / "docs" / lang / "what-matters.md").is_file()]

QUOTED_IN_LAYER_2 = {
    "en": {"angry": (70, 12), "rude": (11, 69)},
    "he": {"angry": (73, 12), "rude": (12, 74)},
    "fa": {"angry": (73, 12), "rude": (12, 71)},
}


@pytest.mark.parametrize("lang", OWN_ARTICLE)
@pytest.mark.parametrize("ending", ["angry", "rude"])
def test_attention_sentence_layer_2_numbers_are_the_articles(ending, lang):
    """The sentence figure at the pronoun, layer 2, prints the percentages the first article
    quotes for that ending, and the article quotes them (as the language's prose writes a
    percentage: ``Text.prose_numbers``, ۷۳٪ in Persian)."""
    if lang not in QUOTED_IN_LAYER_2:
        pytest.fail(
            f"language {lang!r}: add to QUOTED_IN_LAYER_2 in {__file__} the pronoun's layer-2 weights on "
            f"teacher and student that docs/{lang}/what-matters.md quotes"
        )
    on_teacher, on_student = QUOTED_IN_LAYER_2[lang][ending]
    toks = tokens(lang, ending)
    roles = [t.role for t in toks]
    root = draw("attention_sentence", {"ending": ending, "layer": 2, "selected": -1}, lang=lang)
    shown_weights = texts(root, "apy-token__weight")
    numbers = figure_numbers(lang)
    assert (shown_weights[roles.index("teacher")], shown_weights[roles.index("student")]) == (
        numbers.pct(on_teacher, 0),
        numbers.pct(on_student, 0),
    )
    article = (ROOT / "docs" / lang / "what-matters.md").read_text(encoding="utf-8")
    prose = Text(strings(lang), lang, "common").prose_numbers
    for value in (on_teacher, on_student):
        written = prose.pct(value, 0)
        assert re.search(rf"(?<!\d){re.escape(written)}", article), f"docs/{lang}/what-matters.md: {written}"


# 9 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("focus", [0, 1, 2])
@pytest.mark.parametrize(
    "x", [[[1, 0.5], [0.8, 1], [-0.6, 0.6]], [[0, 0], [1, 1], [3, -3]], [[2.5, -1], [-2, 2], [0.3, 0.3]]]
)
@pytest.mark.parametrize("lang", READ_IN)
def test_self_attention_simple_scores_weights_and_output(x, focus, lang):
    numbers = figure_numbers(lang)
    num = numbers.num
    outputs, weights = scaled_dot_product_attention(x, x, x, scale=1.0)
    scores = matmul(x, transpose(x))
    root = draw("self_attention_simple", {"x": x, "focus": focus}, lang)
    table = root.by_class("apy-small")[0]
    score_row, weight_row = [
        [c.text for c in row.children if c.tag == "td"] for row in table.find_all(lambda e: e.tag == "tr")[1:]
    ]
    assert score_row == [num(s) for s in scores[focus]]
    assert weight_row == [num(a) for a in weights[focus]]
    y = outputs[focus]
    mix = " + ".join(f"{num(a)}·x{'₁₂₃'[j]}" for j, a in enumerate(weights[focus]))
    assert root.by_class("apy-formula")[0].text == f"y{'₁₂₃'[focus]} = {mix} = ({numbers.join(map(num, y))})"
    arrows = [number(t, lang) for t in texts(root, "apy-flow__label")]
    for share, a in zip(arrows, weights[focus], strict=True):
        assert abs(share - 100 * a) < 1, (arrows, weights[focus])


# 10 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", READ_IN)
@pytest.mark.parametrize("seed", [1, 7, 999])
def test_information_flow_tables_and_explanations(seed, lang):
    from attention_py.figures.information_flow.information_flow import D_K, X

    numbers = figure_numbers(lang)
    num = numbers.num

    layer = SelfAttention(len(X[0]), D_K, seed=seed)
    q, k, v = matmul(X, layer.W_Q), matmul(X, layer.W_K), matmul(X, layer.W_V)
    scale = 1 / math.sqrt(D_K)
    scores = [[s * scale for s in row] for row in matmul(q, transpose(k))]
    outputs, weights = scaled_dot_product_attention(q, k, v)
    expected = {"Q": q, "K": k, "V": v, "scores": scores, "weights": weights, "output": outputs}
    root = draw("information_flow", {"seed": seed}, lang)
    for name, matrix in expected.items():
        assert table_cells(root.by_class(f"apy-t-{name}")[0]) == shown(matrix, lang), name
    for table, i, j in (("scores", 2, 0), ("weights", 0, 1), ("output", 1, 2)):
        root = draw("information_flow", {"seed": seed, "table": table, "row": i, "col": j}, lang)
        explained = root.by_class("apy-explain")[0].text
        assert explained.endswith(f"= {num(expected[table][i][j], 3)}"), explained
        assert num(expected[table][i][j], 3) in root.by_class("apy-fig__readout")[0].text
    sums = numbers.join(num(math.fsum(row)) for row in weights)
    assert f"Row sums: {sums}" in root.text
    # A cell of Q, K or V: row i of X dotted with column j of W_Q, W_K or W_V, as the layer has them.
    weights_of = {"Q": layer.W_Q, "K": layer.W_K, "V": layer.W_V}
    for table, i, j in (("Q", 0, 0), ("Q", 1, 2), ("K", 2, 1), ("V", 1, 0), ("V", 2, 2)):
        root = draw("information_flow", {"seed": seed, "table": table, "row": i, "col": j}, lang)
        column = [row[j] for row in weights_of[table]]
        products = " + ".join(f"{num(a)}·{num(b, 3)}" for a, b in zip(X[i], column))
        formula = root.by_class("apy-explain")[0].by_class("apy-formula")[0].text
        assert formula == (
            f"{table.lower()}{i + 1},{j + 1} = x{i + 1} · W_{table}[:, {j + 1}] = "
            f"({numbers.join(num(a) for a in X[i])}) · ({numbers.join(num(b, 3) for b in column)}) = "
            f"{products} = {num(expected[table][i][j], 3)}"
        ), formula
        assert abs(math.fsum(a * b for a, b in zip(X[i], column)) - expected[table][i][j]) < 1e-12
        assert num(expected[table][i][j], 3) in root.by_class("apy-fig__readout")[0].text


# 11 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", EVERY)
@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("step", [1, 4, 8, 10])
def test_causal_attention_matrix_readout_and_drift(causal, step, lang):
    """Mask on: the words read so far, through the causal mask. Mask off: the whole sentence."""
    numbers = figure_numbers(lang)
    num = numbers.num
    toks = tokens(lang)
    n = len(toks)
    step = min(step, n)
    masked_now = designed(toks[:step], True).weights2
    full = designed(toks, False).weights2
    now = masked_now if causal else full
    root = draw("causal_attention", {"causal": causal, "step": step}, lang=lang)
    cells = table_cells(root.by_class("apy-causal")[0])
    masked = strings(lang)["causal_attention"]["masked"]
    for i, row in enumerate(cells):
        for j, cell in enumerate(row):
            hidden = causal and (i >= step or j > i)
            assert cell == (masked if hidden else num(now[i][j])), (i, j)
    current = now[step - 1]
    top = sorted(range(len(current)), key=lambda j: (-current[j], j))[:2]  # one at step 1 with the mask
    shown_top = [e.text for e in root.by_class("apy-fig__readout")[0].find_all(lambda e: e.attrs.get("dir") == "ltr")]
    said = sentence_numbers(lang)  # the readout and the note are sentences: the prose's digits
    assert shown_top == [said.pct(100 * current[j], 0) for j in top]
    readout = root.by_class("apy-fig__readout")[0].text
    assert all(toks[j].word in readout for j in top)
    stability = root.by_class("apy-muted")[-1].text
    if not causal:
        padded = masked_now[step - 1] + [0.0] * (n - step)
        drift = max(abs(a - b) for a, b in zip(full[step - 1], padded))
        assert said.num(drift, 3) in stability
    elif step > 1:
        before = designed(toks[: step - 1], True).weights2
        drift = max(abs(before[i][j] - now[i][j]) for i in range(step - 1) for j in range(step - 1))
        assert drift < 1e-12
        assert said.num(drift, 3) in stability


# The pronoun's weights on (teacher, student) in percent, with the causal mask and without, as
# each language's articles quote them (its sentence has its own words, so its own numbers).
QUOTED_AT_THE_PRONOUN = {"en": ((33, 33), (70, 12)), "he": ((37, 37), (73, 12)), "fa": ((37, 37), (73, 12))}


@pytest.mark.parametrize("lang", OWN_ARTICLE)
def test_causal_attention_at_the_pronoun_mask_on_and_off(lang):
    """The numbers the article quotes: at the pronoun's step, teacher and student tie with the
    mask; without it the pronoun reads ahead to "angry" and leans towards the teacher."""
    if lang not in QUOTED_AT_THE_PRONOUN:
        pytest.fail(
            f"language {lang!r}: add to QUOTED_AT_THE_PRONOUN in {__file__} the pronoun's weights on "
            f"teacher and student (percent, mask on and off) that docs/{lang}/what-matters.md and "
            "information-flow.md quote; the causal figure of the gallery shows them"
        )
    masked, full = QUOTED_AT_THE_PRONOUN[lang]
    toks = tokens(lang)
    she = pronoun_index(toks)
    roles = [t.role for t in toks]
    teacher, student = roles.index("teacher"), roles.index("student")
    for causal, (on_teacher, on_student) in ((True, masked), (False, full)):
        root = draw("causal_attention", {"causal": causal, "step": she + 1}, lang=lang)
        row = table_cells(root.by_class("apy-causal")[0])[she]
        assert (round(100 * number(row[teacher], lang)), round(100 * number(row[student], lang))) == pytest.approx(
            (on_teacher, on_student), abs=1
        )
        percents = [
            e.text for e in root.by_class("apy-fig__readout")[0].find_all(lambda e: e.attrs.get("dir") == "ltr")
        ]
        said = sentence_numbers(lang)
        assert percents == [said.pct(on_teacher, 0), said.pct(on_student, 0)]
        later = row[she + 1 :]
        assert all(cell == strings(lang)["causal_attention"]["masked"] for cell in later) == causal


# 12 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", READ_IN)
@pytest.mark.parametrize("heads", [1, 2, 4])
def test_multi_head_weights_concat_output_and_readout(heads, lang):
    from attention_py.figures.information_flow.multi_head import CONTRAST, SEED

    toks = tokens("en")
    n = len(toks)
    x = [[CONTRAST * v for v in row] for row in embed(toks)]
    mha = MultiHeadAttention(len(x[0]), heads, seed=SEED)
    output, per_head = mha(x)
    numbers = figure_numbers(lang)
    root = draw("multi_head", {"heads": heads}, lang)
    grids = [h.find_all(lambda e: e.tag == "table")[0] for h in root.by_class("apy-head")]
    assert [table_cells(g) for g in grids] == [shown(w, lang) for w in per_head]
    assert [h.by_class("apy-math")[0].text for h in root.by_class("apy-head")] == [f"{n}×{n}"] * heads
    concat, out = root.by_class("apy-tables")[0].find_all(lambda e: e.tag == "table")
    assert table_cells(concat) == shown(mha.concat, lang)
    assert table_cells(out) == shown(output, lang)
    focus = pronoun_index(toks)
    items = []
    for k, w in enumerate(per_head):
        top = max(range(n), key=lambda j: w[focus][j])
        items.append(f"head {k + 1}: “{toks[top].word}” {numbers.pct(100 * w[focus][top], 0)}")
    assert root.by_class("apy-fig__readout")[0].text == f"Where “{toks[focus].word}” looks: {'; '.join(items)}."
    shapes = [e.text for e in root.by_class("apy-shapes__dim")]
    d_model, d_head = len(x[0]), len(mha.head_outputs[0][0])
    assert shapes == [
        f"{n}×{d_model}",
        f"{heads} × {n}×{d_head}",
        f"{heads} × {n}×{d_head}",
        f"{n}×{len(mha.concat[0])}",
        f"{len(mha.W_O)}×{len(mha.W_O[0])}",
        f"{len(output)}×{len(output[0])}",
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_multi_head_says_its_inputs_are_scaled_and_why(lang):
    """The caption names the factor the code multiplies the designed vectors by, and its
    reason holds: unscaled, these random heads spread the pronoun's row almost evenly."""
    from attention_py.figures.information_flow.multi_head import CONTRAST, SEED

    toks = tokens(lang)
    she = pronoun_index(toks)
    for heads in (1, 2, 4):
        root = draw("multi_head", {"heads": heads}, lang=lang)
        caption = root.by_class("apy-fig__notes")[0].text
        # what leads to {factor} in the language's own caption ("multiplied by "), then the factor
        lead = strings(lang)["multi_head"]["caption"].split("{factor}")[0][-12:]
        digits = str(CONTRAST).translate(str.maketrans("0123456789", strings(lang)["common"]["digits"]))
        assert f"{lead}{digits}" in caption
        assert root.by_class("apy-shapes__name")[0].text == f"{CONTRAST}·X"
        _, plain = MultiHeadAttention(D_MODEL, heads, seed=SEED)(embed(toks))
        _, scaled = MultiHeadAttention(D_MODEL, heads, seed=SEED)([[CONTRAST * v for v in row] for row in embed(toks)])
        assert max(max(w[she]) for w in plain) < 0.2, "unscaled: almost even"
        assert max(max(w[she]) for w in scaled) > 0.4, "scaled: a visible preference"


# Every figure ----------------------------------------------------------------------------

# Attributes a reader hears or reads (not data-*, not the range inputs' machine values).
READ_ATTRIBUTES = ("aria-label", "aria-valuetext", "title")
# A number written as Python prints it: a decimal point between digits, or a percent sign
# right after a digit (the made-up language writes 0,56 and 99,2 %).
PYTHON_NUMBER = re.compile(r"\d\.\d|\d%")


def without_digits(table: dict) -> dict:
    """The strings with every digit taken out of the translations, so that whatever digit
    a drawing shows comes from the figure's code."""
    return {
        section: {k: re.sub(r"\d", "", v) if section != "common" and isinstance(v, str) else v for k, v in t.items()}
        for section, t in table.items()
    }


@pytest.mark.parametrize("name", list(FIGURES))
def test_every_figure_writes_its_numbers_in_the_languages_format(name):
    """Drawn for the made-up language, no figure shows a number as Python prints it ("0.56",
    "99.2%"), in its text or in what a screen reader says: every number went through the
    figure's format (``Text.num``, ``Text.pct``, ``Text.numbers``)."""
    made_up = without_digits(strings(MADE_UP))
    root = parse(FIGURES[name].render(None, lang="en", strings=made_up, instance="numbers"))
    heard = [e.attrs[a] or "" for e in root.iter() for a in READ_ATTRIBUTES if a in e.attrs]
    text_inputs = [e.attrs.get("value") or "" for e in root.iter() if e.attrs.get("type") == "text"]
    found = {m.group() for text in (root.text, *heard, *text_inputs) for m in PYTHON_NUMBER.finditer(text)}
    assert found == set(), f"{name} writes {sorted(found)} as Python prints them"
