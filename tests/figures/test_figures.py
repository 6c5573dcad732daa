"""The figures: registry, markup, directions, states (their numbers: test_figures_numbers.py)."""

from __future__ import annotations

import json
import math
import re

import pytest
import yaml

from attention_py.figures import FIGURES, StateError, update
from attention_py.figures.kit.format import percent_shares
from attention_py.figures.kit.sentence import parse_tokens, pronoun_index, read
from attention_py.figures.kit.strings import MissingStringError
from site_hooks.content import gallery
from tests.figures.support import (
    LANGS,
    NON_FINITE,
    ROOT,
    STRINGS_DIR,
    figure_numbers,
    parse,
    sentence_numbers,
    skeleton,
    strings,
)
from tests.languages import LANGUAGES, language

RIGHT_TO_LEFT = [lang.code for lang in LANGUAGES if lang.direction == "rtl"]  # from their own writing

NAMES = list(FIGURES)  # the registry, in the order the articles introduce them


def draw(name, state=None, lang="en"):
    return FIGURES[name].render(state, lang=lang, strings=strings(lang))


FENCE = re.compile(r'^```figure name="(\w+)"', re.MULTILINE)


def article_order() -> list[str]:
    """The figures of the English articles, in the order a reader meets them (mkdocs.yml's nav)."""
    nav = yaml.safe_load(re.search(r"^nav:\n(?:[ -].*\n)+", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)[0])
    articles = next(item["Articles"] for item in nav["nav"] if isinstance(item, dict) and "Articles" in item)
    met = [
        name for page in articles for name in FENCE.findall((ROOT / "docs" / "en" / page).read_text(encoding="utf-8"))
    ]
    return list(dict.fromkeys(met))


def test_the_gallery_shows_the_figures_in_the_order_the_articles_introduce_them():
    """A figure in no article yet (a new one) comes last."""
    in_articles = article_order()
    assert in_articles, "no figure found in the articles"
    nav = yaml.safe_load(re.search(r"^nav:\n(?:[ -].*\n)+", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)[0])
    order = gallery.reading_order(nav["nav"])
    assert order == [*in_articles, *(name for name in FIGURES if name not in in_articles)]


@pytest.mark.parametrize("lang", LANGS)
def test_every_figure_is_in_the_gallery_of_every_language_in_the_registrys_order(lang):
    """The build writes the gallery's sections from the registry and the language's strings."""
    page = ROOT / "docs" / lang / "gallery.md"
    built = gallery.expand_file(page, page.read_text(encoding="utf-8"))
    assert FENCE.findall(built) == list(FIGURES), f"docs/{lang}/gallery.md: the gallery marker, once"
    headings = re.findall(r"^## (.*) \{ #([\w-]+) \}$", built, re.MULTILINE)
    assert [anchor for _, anchor in headings] == [gallery.anchor_of(name) for name in FIGURES]
    assert all(text.strip() for text, _ in headings)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_default_render_is_one_wellformed_root_with_its_state(name, lang):
    html = draw(name, lang=lang)
    root = parse(html)
    assert root.attrs["data-figure"] == name
    assert json.loads(root.attrs["data-state"]) == FIGURES[name].default_state()
    assert root.attrs["lang"] == lang
    assert root.attrs["dir"] == language(lang).direction
    assert root.attrs["aria-label"]
    assert not NON_FINITE.search(html)
    live = [e for e in root.iter() if e.attrs.get("aria-live") == "polite"]
    assert len(live) == 1, "one non-empty polite readout"
    assert live[0].text.strip(), "one non-empty polite readout"
    assert draw(name, lang=lang) == html, "rendering is deterministic"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_every_control_has_an_accessible_name(name, lang):
    root = parse(draw(name, lang=lang))
    for e in root.iter():
        if e.tag in ("input", "select"):
            labelled = e.attrs.get("aria-label") or any(a.tag == "label" for a in _ancestors(e))
            assert labelled, f"{name}: unlabelled <{e.tag} name={e.attrs.get('name')}>"
        if e.tag == "button":
            assert e.attrs.get("aria-label") or e.text.strip(), f"{name}: button without a name"
        if e.attrs.get("tabindex") == "0" and e.tag not in ("button", "input", "select"):
            # a drawn control made focusable (native controls have a role, and their names above)
            assert e.attrs.get("aria-label"), f"{name}: focusable <{e.tag}> needs role and name"
            assert e.attrs.get("role"), f"{name}: focusable <{e.tag}> needs role and name"


def _ancestors(e):
    node = e.parent
    while node is not None:
        yield node
        node = node.parent


def _visible_text(e) -> str:
    """Text a sighted reader sees: without visually hidden (.apy-sr) or aria-hidden parts."""
    if e.has_class("apy-sr") or e.attrs.get("aria-hidden") == "true":
        return ""
    return "".join(p if isinstance(p, str) else _visible_text(p) for p in e.parts)


# Every language file, so a new translation is held to the same rule without editing LANGS.
ALL_LANGS = sorted(p.stem for p in STRINGS_DIR.glob("*.yml"))
LABELLED_STATES = [(name, None) for name in NAMES] + [
    ("attention_sentence", {"ending": "rude", "layer": 1, "selected": 3}),
    ("information_flow", {"table": "output", "row": 2, "col": 0, "seed": 7}),
    ("information_flow", {"table": "K", "row": 1, "col": 2, "seed": 7}),
    ("qkv", {"word": 1}),
]


@pytest.mark.parametrize("lang", ALL_LANGS)
@pytest.mark.parametrize(("name", "state"), LABELLED_STATES)
def test_button_names_begin_with_their_visible_text(name, state, lang):
    """WCAG 2.5.3 (label in name): an aria-label starts with what the button shows."""
    root = parse(draw(name, state, lang=lang))
    for e in root.find_all(lambda e: e.tag == "button" and e.attrs.get("aria-label")):
        shown = " ".join(_visible_text(e).split())
        label = " ".join(e.attrs["aria-label"].split())
        assert shown, f"{name}/{lang}: labelled button shows nothing: {label!r}"
        assert label.startswith(shown), f"{name}/{lang}: name {label!r} does not begin with {shown!r}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_matrix_header_cells_have_text(name, lang):
    """No empty <th> (a matrix without a corner label gets a plain <td> there)."""
    root = parse(draw(name, lang=lang))
    for th in root.find_all(lambda e: e.tag == "th"):
        assert th.text.strip(), f"{name}/{lang}: empty table header {th.attrs}"


@pytest.mark.parametrize(
    "probs",
    [
        [1 / 3] * 3,
        [0.125] * 8,
        [0.9995, 0.0004, 0.0001],
        [1 / 6] * 6,
        [0.0004] * 10 + [0.996],
        [0.14, 0.231, 0.629],
        [2, 1, 1],  # not normalised: shares of the total
    ],
)
def test_percent_shares_round_each_share_down_or_up_and_add_up_to_100(probs):
    """Each share is its exact percentage rounded down or up to 0.1 (computed here with
    fractions, independently of percent_shares), the column adds up to 100.0, and where plain
    rounding already adds up, the shares are plain rounding."""
    from fractions import Fraction

    total = sum(Fraction(p) for p in probs)
    exact = [1000 * Fraction(p) / total for p in probs]  # in tenths of a percent
    tenths = [round(10 * share) for share in percent_shares(probs)]
    for t, x in zip(tenths, exact, strict=True):
        assert t in (math.floor(x), math.ceil(x)), (tenths, [float(x) for x in exact])
    assert sum(tenths) == 1000
    plain = [round(x) for x in exact]
    if sum(plain) == 1000:
        assert tenths == plain


def test_softmax_scale_sharpens_and_flattens():
    def top(scale):
        root = parse(draw("softmax_scale", {"scale": scale}))
        return max(float(e.text.split()[1].rstrip("%")) for e in root.by_class("apy-bar__value"))

    assert top(0.0) == pytest.approx(33.33, abs=0.1)
    assert top(1.0) == 62.9
    assert top(10.0) > 99.0


def test_dot_product_presets_set_b_exactly():
    root = parse(draw("dot_product", {"a": [2, 1], "b": [0.5, 0.5]}))
    presets = {e.text: json.loads(e.attrs["data-set"]) for e in root.find_all(lambda e: e.tag == "button")}
    assert presets["Same direction"] == {"b": [2.0, 1.0]}
    assert presets["Perpendicular"] == {"b": [-1.0, 2.0]}
    assert presets["Opposite"] == {"b": [-2.0, -1.0]}
    perpendicular = parse(draw("dot_product", {"a": [2, 1], "b": [-1, 2]}))
    assert "0.00" in perpendicular.by_class("apy-stats__big")[0].text


def test_zero_vector_has_no_angle_and_no_nan():
    html = draw("dot_product", {"a": [0, 0], "b": [1, 1]})
    assert not NON_FINITE.search(html)
    assert "no angle" in parse(html).by_class("apy-fig__readout")[0].text


@pytest.mark.parametrize("lang", LANGS)
def test_pronoun_flips_between_the_two_endings(lang):
    for ending, noun in (("angry", "teacher"), ("rude", "student")):
        tokens = parse_tokens(strings(lang)["common"][f"sentence_{ending}"], lang)
        weights = read(tokens).weights2
        she = pronoun_index(tokens)
        top = max((j for j in range(len(tokens)) if j != she), key=lambda j: weights[she][j])
        assert tokens[top].role == noun, f"{lang}/{ending}: the pronoun attends to {tokens[top].role}"
        assert weights[she][top] > 0.5


@pytest.mark.parametrize("lang", RIGHT_TO_LEFT)
def test_rtl_sentence_reads_right_to_left_and_maths_stays_ltr(lang):
    root = parse(draw("attention_sentence", lang=lang))
    strip = root.by_class("apy-sentence")[0]
    assert strip.inherited("dir") == "rtl", "tokens flow in the reading direction"
    words = [e.text for e in strip.by_class("apy-token__word")]
    expected = [t.strip().partition(":")[2].strip() for t in strings(lang)["common"]["sentence_angry"].split("|")]
    assert words == expected, "tokens in logical order; dir=rtl lays them out right to left"
    assert root.by_class("apy-attn")[0].inherited("dir") == "rtl", "token axes follow the reading direction"
    for name in NAMES:
        fig = parse(draw(name, lang=lang))
        for e in fig.iter():
            if e.tag == "svg" or e.has_class("apy-math") or e.has_class("apy-num"):
                assert e.attrs.get("dir") == "ltr", f"{name}: <{e.tag} class={e.attrs.get('class')}> must be LTR"
    flow = parse(draw("information_flow", lang=lang))
    assert all(t.attrs.get("dir") == "ltr" for t in flow.by_class("apy-matrix")), "numeric matrices stay LTR"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("table", ["Q", "K", "V", "scores", "weights", "output"])
def test_every_information_flow_cell_explains_itself_when_focused(table, lang):
    """Q, K and V cells are buttons like the lower tables': chosen on focus, named by their
    number, and only the chosen cell is pressed (a cell it came from is merely highlighted,
    so focusing it still chooses it)."""
    from attention_py.figures.information_flow.information_flow import TABLES

    root = parse(draw("information_flow", {"table": table, "row": 2, "col": 1}, lang=lang))
    for name in TABLES:
        buttons = root.by_class(f"apy-t-{name}")[0].find_all(lambda e: e.tag == "button")
        assert len(buttons) == 9, name
        for k, b in enumerate(buttons):
            assert json.loads(b.attrs["data-set"]) == {"table": name, "row": k // 3, "col": k % 3}
            assert b.attrs["data-set-on"] == "focus"
            assert b.attrs["aria-label"].startswith(b.text.strip())
            assert b.attrs["aria-pressed"] == ("true" if (name, k) == (table, 7) else "false"), (name, k)
    lead = strings(lang)["information_flow"][f"explain_{table.lower()}" if len(table) == 1 else f"explain_{table}"]
    explained = root.by_class("apy-explain")[0]
    assert explained.children[0].text.startswith(lead.split("{")[0])
    assert all(m.attrs.get("dir") == "ltr" for m in explained.by_class("apy-math")), "the maths stays LTR"


PERSIAN_LETTERS = re.compile("[\u0600-\u06ff]")
DIGIT_TOUR = [(name, None) for name in NAMES] + [
    ("causal_attention", {"step": 6}),
    ("causal_attention", {"causal": False, "step": 1}),
    ("multi_head", {"heads": 4}),
    ("why_sqrt_dk", {"d_k": 512}),
    ("attention_sentence", {"layer": 1}),
    ("information_flow", {"table": "Q", "row": 2, "col": 2}),
    ("information_flow", {"table": "output"}),
]


def _sentences_outside_ltr(e, ltr=False):
    here = ltr if e.attrs.get("dir") is None else e.attrs["dir"] == "ltr"
    for part in e.parts:
        if isinstance(part, str):
            if not here:
                yield part
        else:
            yield from _sentences_outside_ltr(part, here)


@pytest.mark.parametrize(("name", "state"), DIGIT_TOUR)
def test_persian_sentences_write_whole_numbers_in_persian_digits(name, state):
    """As the Persian prose does: ۸ کلمه, سر ۲, سطر ۱ in a sentence; measured values (weights,
    scores, percentages) stay Latin inside their left-to-right spans, like its $0.37$."""
    root = parse(draw(name, state, lang="fa"))
    for text in _sentences_outside_ltr(root):
        if PERSIAN_LETTERS.search(text):
            assert not re.search("[0-9]", text), f"{name}: Latin digits in a Persian sentence: {text!r}"
    labels = [e.attrs["aria-label"] for e in root.iter() if e.attrs.get("aria-label")]
    if name == "information_flow":
        assert all(re.search("سطر [۱-۳]، ستون [۱-۳]", label) for label in labels if "سطر" in label)
        assert sum("سطر" in label for label in labels) == 54
        if state and state.get("col") is not None:  # the explained entry's number: a word of the sentence
            lead = root.by_class("apy-explain")[0].children[0].text
            assert f"درایهٔ {'۰۱۲۳۴۵۶۷۸۹'[state['col'] + 1]} " in lead, lead
    if name == "self_attention_simple":
        assert {label.rsplit(" ", 1)[-1] for label in labels if "درایهٔ" in label} == {"۱", "۲"}


def test_weighted_average_point_and_zero_weights():
    root = parse(draw("weighted_average", {"w": [1, 0, 0]}))
    assert "y = (−2.00, 1.20)" in root.by_class("apy-fig__readout")[0].text
    zero = draw("weighted_average", {"w": [0, 0, 0]})
    assert "nothing to average" in parse(zero).by_class("apy-fig__readout")[0].text
    assert not NON_FINITE.search(zero)


def test_why_sqrt_dk_spread_grows_like_sqrt_dk_and_scaling_undoes_it():
    from attention_py.figures.what_matters.why_sqrt_dk import measure

    for d_k in (1, 64, 512):
        measured = measure(d_k)
        assert measured.raw_std == pytest.approx(math.sqrt(d_k), rel=0.1)
        assert measured.scaled_std == pytest.approx(1.0, rel=0.1)


def test_causal_rows_do_not_change_when_a_token_arrives():
    root = parse(draw("causal_attention", {"causal": True, "step": 9}))
    assert "did not change" in root.text
    full = parse(draw("causal_attention", {"causal": False, "step": 9}))
    assert "did not change" not in full.text
    assert "differs from its masked row" in full.text


@pytest.mark.parametrize("lang", LANGS)
def test_causal_first_step_names_its_one_word_once_in_the_singular(lang):
    """With the mask, at step 1 the figure has read one word: the readout is the singular
    sentence (not "the 1 words"), naming that word and its weight once."""
    table = strings(lang)["causal_attention"]
    words = [tok.word for tok in parse_tokens(strings(lang)["common"]["sentence_angry"], lang)]
    root = parse(draw("causal_attention", {"causal": True, "step": 1}, lang=lang))
    readout = root.by_class("apy-fig__readout")[0]
    whole = sentence_numbers(lang).pct(100, 0)  # a sentence's number: the prose's digits
    item = table["top_item"].format(word=words[0], weight=whole)
    assert readout.text == table["readout_first"].replace("$", "").format(word=words[0], top=item)
    assert "{count}" not in table["readout_first"], "no number of words: it is one"
    assert [e.text for e in readout.find_all(lambda e: e.attrs.get("dir") == "ltr")] == [whole], "one weight"
    # ... and nothing beside the matrix says it again ("can only look at itself (weight 1.00)")
    one = figure_numbers(lang)
    beside = [p.text for p in root.find_all(lambda e: e.tag == "p" and e.has_class("apy-muted"))]
    assert not any(one.num(1.0) in text or one.pct(100, 0) in text or whole in text for text in beside), beside
    # From two words on, the plural sentence with its count.
    second = parse(draw("causal_attention", {"causal": True, "step": 2}, lang=lang))
    digits = strings(lang)["common"]["digits"]
    before_count = table["readout_causal"].split("{count}")[0].replace("$", "").format(word=words[1])
    assert second.by_class("apy-fig__readout")[0].text.startswith(before_count + digits[2])


def test_without_the_mask_every_word_sees_the_whole_sentence():
    for step in (1, 8, 10):
        root = parse(draw("causal_attention", {"causal": False, "step": step}))
        assert not root.by_class("apy-cell--masked"), "no cell masked or unread without the mask"
        rows = root.by_class("apy-causal")[0].find_all(lambda e: e.tag == "tr")[1:]
        assert [r.has_class("apy-cell--selected") for r in rows[step - 1].children[1:]] == [True] * 10
        assert "all 10 words" in root.by_class("apy-fig__readout")[0].text


def test_causal_mask_hides_the_upper_triangle():
    root = parse(draw("causal_attention", {"causal": True}))
    rows = root.by_class("apy-causal")[0].find_all(lambda e: e.tag == "tr")[1:]
    for i, row in enumerate(rows):
        cells = row.children[1:]
        for j, cell in enumerate(cells):
            assert cell.has_class("apy-cell--masked") == (j > i)
    halfway = parse(draw("causal_attention", {"causal": True, "step": 4}))
    rows = halfway.by_class("apy-causal")[0].find_all(lambda e: e.tag == "tr")[1:]
    for i, row in enumerate(rows):
        for j, cell in enumerate(row.children[1:]):
            assert cell.has_class("apy-cell--masked") == (i >= 4 or j > i), "unread words are hidden too"


def test_multi_head_heads_differ_and_shapes_are_shown():
    for heads in (1, 2, 4):
        root = parse(draw("multi_head", {"heads": heads}))
        assert len(root.by_class("apy-head")) == heads
        assert f"{heads} × 10×{8 // heads}" in root.by_class("apy-shapes")[0].text
    four = parse(draw("multi_head", {"heads": 4}))
    grids = [[c.text for c in h.find_all(lambda e: e.tag == "td")] for h in four.by_class("apy-head")]
    assert len({tuple(g) for g in grids}) == 4, "every head has its own pattern"


def test_embedding_space_cosines_tell_the_story():
    def cosine(first, second):
        root = parse(
            draw("embedding_space", {"words": ["happy", "glad", "sad", "car"], "first": first, "second": second})
        )
        return float(root.by_class("apy-num")[-1].text.replace("−", "-"))

    assert cosine("happy", "glad") > 0.9
    assert cosine("happy", "sad") == -1.0
    assert abs(cosine("happy", "car")) < 0.05


# States: refused, clamped, and the page's update path ------------------------------------


@pytest.mark.parametrize(
    ("state", "key"),
    [
        ({"z": [1, "abc", 3]}, "z.1"),
        ({"z": [1, float("nan"), 3]}, "z.1"),
        ({"z": [1, float("inf"), 3]}, "z.1"),
        ({"z": [1]}, "z"),
        ({"z": "1, 2, 3"}, "z"),
        ({"zz": [1, 2]}, "zz"),
        ({"z": [None, 1]}, "z.0"),
        ({"z": [True, 1]}, "z.0"),
    ],
)
def test_bad_softmax_states_are_refused_naming_the_key(state, key):
    with pytest.raises(StateError) as error:
        FIGURES["softmax"].normalise(state)
    assert error.value.key == key
    assert str(error.value).startswith(f"{key}:")


def test_numbers_are_clamped_and_text_numbers_understood():
    assert FIGURES["softmax"].normalise({"z": [99, -99, "۱٫۵"]})["z"] == [5.0, -5.0, 1.5]
    assert FIGURES["why_sqrt_dk"].normalise({"d_k": 10**9})["d_k"] == 512
    assert FIGURES["why_sqrt_dk"].normalise({"d_k": "0"})["d_k"] == 1
    assert FIGURES["softmax_scale"].normalise({"scale": "1,5"})["scale"] == 1.5
    assert FIGURES["multi_head"].normalise({"heads": "4"})["heads"] == 4
    with pytest.raises(StateError):
        FIGURES["multi_head"].normalise({"heads": 3})


def test_figure_block_reports_unknown_names_keys_and_bad_yaml():
    from site_hooks.content.figures import render_block

    with pytest.raises(ValueError, match=r"unknown figure 'sofmax'.*softmax"):
        render_block("sofmax", "", "en", strings("en"), "figure-1")
    with pytest.raises(ValueError, match="figure 'softmax': scal: unknown key"):
        render_block("softmax", "scal: 2\n", "en", strings("en"), "figure-1")
    with pytest.raises(ValueError, match="figure 'softmax': its block is not valid YAML"):
        render_block("softmax", "z: [1, 2", "en", strings("en"), "figure-1")
    root = parse(render_block("softmax", "z: [1, 2, 3, 4]\n", "he", strings("he"), "figure-1"))
    assert root.attrs["id"] == "figure-1"
    assert json.loads(root.attrs["data-state"]) == {"z": [1.0, 2.0, 3.0, 4.0]}
    empty = parse(render_block("softmax", "\n", "en", strings("en"), "figure-2"))
    assert json.loads(empty.attrs["data-state"]) == FIGURES["softmax"].default_state()


def test_update_applies_a_change_and_refuses_bad_input_in_the_readers_language():
    root = parse(draw("softmax"))
    state, carried = json.loads(root.attrs["data-state"]), json.loads(root.attrs["data-strings"])
    ok = update("softmax", state, {"z.1": "2.5"}, "en", carried, "figure-3")
    assert ok["ok"]
    assert ok["state"] == {"z": [1.5, 2.5, 3.0]}
    assert ok["html"] == FIGURES["softmax"].render(
        {"z": [1.5, 2.5, 3.0]}, lang="en", strings=carried, instance="figure-3"
    )
    assert state == {"z": [1.5, 2.0, 3.0]}, "the caller's state is not modified"
    assert json.loads(json.dumps(ok)) == ok, "plain data: the worker sends it as JSON"
    he = json.loads(parse(draw("softmax", lang="he")).attrs["data-strings"])
    bad = update("softmax", state, {"z.1": "שלוש"}, "he", he)
    assert bad == {"ok": False, "error": bad["error"], "detail": bad["detail"], "key": "z.1"}
    assert "שלוש" in bad["error"]
    assert "אינו מספר" in bad["error"]
    missing = update("softmax", state, {"z.7": 1}, "en", carried)
    assert not missing["ok"]
    assert missing["key"] == "z.7"
    with pytest.raises(ValueError, match="unknown figure"):
        update("sofmax", state, {}, "en", carried)


def test_carried_strings_are_enough_to_render_again():
    for name in NAMES:
        carried = json.loads(parse(draw(name, lang="fa")).attrs["data-strings"])
        assert FIGURES[name].render(None, lang="fa", strings=carried) == draw(name, lang="fa")


def test_missing_string_names_the_file_and_key():
    broken = {section: dict(table) for section, table in strings("he").items()}
    del broken["softmax"]["caption"]
    with pytest.raises(MissingStringError, match=r"'softmax\.caption'.*docs/figure-strings/he\.yml"):
        FIGURES["softmax"].render(None, lang="he", strings=broken)


@pytest.mark.parametrize(
    ("name", "a", "b"),
    [
        ("softmax", {"z": [1, 2, 3]}, {"z": [-4, 0.5, 5]}),
        ("softmax_scale", {"scale": 0}, {"scale": 9.5, "z": [0, 0, 1]}),
        ("dot_product", {"a": [1, 1]}, {"a": [-3, 2], "b": [2, -1]}),
        ("weighted_average", {"w": [0.1, 0.2, 0.3]}, {"w": [1, 0, 0.5]}),
        ("why_sqrt_dk", {"d_k": 1}, {"d_k": 512}),
        ("attention_sentence", {"selected": 0}, {"selected": 3, "layer": 1}),
        ("information_flow", {"table": "scores"}, {"table": "output", "row": 2, "seed": 7}),
        ("information_flow", {"table": "Q"}, {"table": "V", "row": 2, "col": 0}),
        ("information_flow", {"table": "K", "col": 2}, {"table": "weights", "seed": 3}),
        ("self_attention_simple", {"focus": 0}, {"focus": 2, "x": [[0, 0], [1, 1], [3, -3]]}),
        ("embedding_space", {"first": "happy", "second": "glad"}, {"first": "sad", "second": "car"}),
        ("qkv", {"word": 0}, {"word": -1}),
        # multi_head's whole state is its number of heads, which is its shape: nothing to compare.
        ("causal_attention", {"causal": True}, {"causal": False}),
        ("causal_attention", {"causal": True, "step": 2}, {"causal": False, "step": 6}),
    ],
)
def test_dom_skeleton_is_stable_across_states(name, a, b):
    assert skeleton(draw(name, a)) == skeleton(draw(name, b))


def test_causal_first_step_changes_only_the_readout():
    """With one word read the readout names one weight instead of two (one span fewer in
    the live region, which the morph patches in place) and the note under the matrix has no
    number (the readout names the one weight); everything else keeps the structure of the
    other steps."""

    def outside_readout(state):
        root = parse(draw("causal_attention", state))
        changing = [
            *root.by_class("apy-fig__readout"),
            *root.find_all(lambda e: e.tag == "p" and e.has_class("apy-muted")),
        ]
        inside = {id(e) for r in changing for e in r.iter() if e is not r}
        return [e.tag for e in root.iter() if id(e) not in inside]

    assert outside_readout({"causal": True, "step": 1}) == outside_readout({"causal": False, "step": 6})
