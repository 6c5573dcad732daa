"""Search compares words the way readers type them (site_hooks/i18n/search_text.py).

- The rules, in Python: Arabic with or without harakat or the article, Persian with Arabic
  or Persian letters and with or without ZWNJ, Hebrew with or without niqqud or a prefix,
  and the letters that must stay apart.
- The browser side (search_text.js, run by Node) gives the same answers as Python for every
  word of every language's pages, the languages read from mkdocs.yml.
- Material's own search worker, with the plugin and an Arabic index, finds Arabic words
  however they are written (the site has no Arabic pages yet; tests/e2e/test_search.py
  types Hebrew and Persian queries into the built site).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from site_hooks.i18n import search, search_text
from site_hooks.i18n.search_text import index_terms, normalise, query_terms, variants
from tests.languages import CODES

ROOT = Path(__file__).resolve().parents[1]
HELPER = Path(__file__).with_name("search_worker.mjs")


def site_languages() -> list[str]:
    """The languages the site builds, default first (tests/languages.py reads mkdocs.yml)."""
    return list(CODES)


def page_words(lang: str) -> list[str]:
    """Every whitespace-separated word of the language's Markdown pages and notebooks."""
    words: set[str] = set()
    for path in sorted((ROOT / "docs" / lang).rglob("*")):
        if path.suffix in (".md", ".ipynb"):
            words.update(re.split(r"[\s\-\u05be]+", path.read_text(encoding="utf-8")))
    return sorted(words - {""})


# --------------------------------------------------------------------------- Arabic


@pytest.mark.parametrize("written", ["متجهات", "متّجهات", "مُتَّجِهَاتٌ", "متـــجهات", "ﻣﺘﺠﻬﺎﺕ"])
def test_arabic_harakat_shadda_tatweel_and_presentation_forms_do_not_matter(written):
    assert normalise(written) == normalise("متجهات") != ""


@pytest.mark.parametrize("prefixed", ["المتجهات", "والمتجهات", "بالمتجهات", "كالمتجهات", "فالمتجهات", "للمتجهات"])
def test_arabic_article_and_its_prepositions_come_off_when_the_rest_is_a_word(prefixed):
    bare = normalise("متجهات")
    assert bare in variants(prefixed)
    assert index_terms(prefixed, {bare}) == [normalise(prefixed), bare]
    assert index_terms(prefixed, set()) == [normalise(prefixed)]  # not a word elsewhere: kept whole
    assert query_terms(prefixed, {bare}) == [normalise(prefixed), bare]


def test_a_clitic_comes_off_only_if_three_letters_remain():
    assert variants("الحب") == [normalise("الحب")]  # حب: two letters
    assert variants("ובית") == ["ובית", "בית"]  # ו + בית, but not וב + ית


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("أحمد", "احمد"),
        ("إسلام", "اسلام"),
        ("آمن", "امن"),  # alef with hamza or madda
        ("مؤثر", "موثر"),
        ("پائیز", "پاییز"),  # hamza seats
        ("في", "فى"),
        ("في", "فی"),  # yeh, alef maksura, Persian yeh
        ("كتاب", "کتاب"),  # kaf and keheh
        ("مدرسة", "مدرسه"),  # teh marbuta
        ("هٰذا", "هذا"),  # superscript alef
        ("٣٢", "32"),
        ("۳۲", "32"),  # Arabic-Indic and Persian digits
    ],
)
def test_arabic_script_letter_variants_are_one_letter(one, other):
    assert normalise(one) == normalise(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("جزء", "جز"),  # Persian: part / except (standalone hamza stays)
        ("کی", "کے"),  # Urdu: yeh and yeh barree
        ("schön", "schon"),
        ("café", "cafe"),  # Latin marks are letters
        ("שלום", "שלומ"),  # Hebrew final letters mark the end of a word
    ],
)
def test_letters_that_tell_common_words_apart_stay_apart(one, other):
    assert normalise(one) != normalise(other)


# --------------------------------------------------------------------------- Persian


@pytest.mark.parametrize("written", ["می‌شود", "میشود", "مي‌شود", "ميشود", "مى‌شود", "می‌شود\u200f"])
def test_persian_yeh_and_zwnj_do_not_matter(written):
    assert normalise(written) == "میشود"


def test_persian_pieces_between_zwnj_are_words_of_their_own_in_the_index():
    assert index_terms("می‌شود", {"شود"}) == ["میشود", "شود"]
    assert index_terms("ادغام‌شده", {"ادغام", "شده"}) == ["ادغامشده", "ادغام", "شده"]


def test_a_persian_query_with_zwnj_is_one_word():
    # ادغام‌شده must not find every page with شده
    assert query_terms("ادغام‌شده", {"ادغامشده", "ادغام", "شده"}) == ["ادغامشده"]


def test_persian_ezafe_marks_do_not_matter():
    assert normalise("صفحهٔ") == normalise("صفحه") == normalise("صفحۀ")
    assert normalise("بردارِ") == normalise("بردار")


# --------------------------------------------------------------------------- Hebrew


@pytest.mark.parametrize(
    ("vocalised", "plain"),
    [
        ("מַחְבֶּרֶת", "מחברת"),
        ("בְּרֵאשִׁ֖ית", "בראשית"),  # niqqud and a cantillation mark
        ("שׁ", "ש"),  # a presentation form (shin with shin dot)
        ("צה״ל", "צהל"),
        ('צה"ל', "צהל"),  # gershayim or a straight quote
    ],
)
def test_hebrew_niqqud_cantillation_and_gershayim_do_not_matter(vocalised, plain):
    assert normalise(vocalised) == normalise(plain) == plain


@pytest.mark.parametrize(
    ("prefixed", "bare"),
    [
        ("המחברת", "מחברת"),
        ("במחברת", "מחברת"),
        ("והמחברת", "מחברת"),
        ("שבמחברת", "מחברת"),
        ("וכשהמחברת", "מחברת"),
        ("מהמחברת", "מחברת"),
        ("לַמַּחְבֶּרֶת", "מחברת"),
    ],
)
def test_hebrew_prefixes_come_off_when_the_rest_is_a_word(prefixed, bare):
    assert index_terms(prefixed, {bare}) == [normalise(prefixed), bare]
    assert query_terms(prefixed, {bare}) == [normalise(prefixed), bare]


def test_a_hebrew_query_finds_a_form_without_its_prefix_only_as_a_whole_word():
    # באות: ב + אות; אותו and אותה start with אות but are other words
    assert query_terms("באות", {"אותו", "אותה"}) == ["באות"]


# --------------------------------------------------------------------------- every script


@pytest.mark.parametrize(
    ("written", "searched"),
    [
        ("Softmax", "softmax"),
        ("ＳＯＦＴＭＡＸ", "softmax"),
        ("ﬁle", "file"),
        ("(מחברת).", "מחברת"),
        ("«سازوکار»", "سازوکار"),
        ("softmax،", "softmax"),
        ("\u200fקשב\u200e", "קשב"),
        ("—", ""),
    ],
)
def test_case_compatibility_forms_invisible_marks_and_end_punctuation(written, searched):
    assert normalise(written) == searched


@pytest.mark.parametrize("lang", site_languages())
def test_normalising_twice_changes_nothing(lang):
    for word in page_words(lang):
        once = normalise(word)
        assert normalise(once) == once, word


def test_the_rules_are_json_and_their_prefixes_are_written_normalised():
    rules = json.loads(search_text.rules_json())
    assert rules["prefixes"] == [normalise(p) for p in rules["prefixes"]]
    assert "/*RULES*/" not in search_text.javascript()


def test_every_index_names_the_plugin_and_splits_at_maqaf():
    merged = {"lang": ["en"], "separator": r"[\s\-]+", "pipeline": ["stopWordFilter"]}
    for lang in site_languages():
        config = search.index_config(merged, lang)
        assert config["lang"] == [search.LUNR_LANGUAGE]
        assert re.split(config["separator"], "ב־softmax קשב") == ["ב", "softmax", "קשב"]
    assert search.PLUGIN_URI.endswith(f"lunr.{search.LUNR_LANGUAGE}.min.js")


# --------------------------------------------------------------------------- the browser side


def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.fail("Node.js is needed to run the browser side of search")
    return found


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("search") / f"lunr.{search.LUNR_LANGUAGE}.min.js"
    path.write_text(search_text.javascript(), encoding="utf-8")
    return path


TEST_WORDS = [
    "متّجهات",
    "المتجهات",
    "للمتجهات",
    "مي‌شود",
    "ميشود",
    "كتاب",
    "أحمد",
    "٣٢",
    "ﻣﺘﺠﻬﺎﺕ",
    "הַמַּחְבֶּרֶת",
    "וכשהמחברת",
    "צה״ל",
    'צה"ל',
    "(מחברת).",
    "ＳＯＦＴＭＡＸ",
    "ﬁle",
    "İstanbul",
    "ΟΔΟΣ",
    "schön",
    "\u200fקשב\u200e",
    "—",
    "𝐀𝐁",
    "e\u0301",
    "ǅ",
]


@pytest.mark.parametrize("lang", site_languages())
def test_the_browser_gives_the_same_answers_as_python(plugin, lang):
    words = page_words(lang) + TEST_WORDS
    vocabulary = sorted(search_text.vocabulary(words))
    result = subprocess.run(
        [node(), str(HELPER), "text", str(plugin)],
        input=json.dumps({"words": words, "vocabulary": vocabulary}),
        capture_output=True,
        text=True,
        check=True,
    )
    browser = json.loads(result.stdout)
    vocabulary_set = frozenset(vocabulary)
    differ = [
        (word, js, python)
        for word, js in zip(words, browser, strict=True)
        if js
        != (
            python := {
                "normalise": normalise(word),
                "variants": variants(word),
                "indexTerms": index_terms(word, vocabulary_set),
                "queryTerms": query_terms(word, vocabulary_set),
            }
        )
    ]
    assert not differ, differ[:5]


def material_worker() -> Path:
    import material

    workers = Path(material.__file__).parent / "templates" / "assets" / "javascripts" / "workers"
    return next(workers.glob("search.*.min.js"))


ARABIC_DOCS = [
    ("ar/vectors/", "المتجهات", "<p>نجمع المتجهات ونضربها في مصفوفة.</p>"),
    ("ar/matrices/", "المصفوفات", "<p>كل صف من المصفوفة هو متجه، وتُكتب متجهات الاستعلام صفوفًا.</p>"),
    ("ar/softmax/", "سوفت ماكس", "<p>تُحوِّل الدالة الدرجات إلى أوزان.</p>"),
]


def worker_search(plugin: Path, tmp_path: Path, config: dict, queries: list[str]) -> dict[str, list]:
    index = tmp_path / "search_index.json"
    docs = [{"location": loc, "title": title, "text": text} for loc, title, text in ARABIC_DOCS]
    index.write_text(json.dumps({"config": config, "docs": docs}, ensure_ascii=False), encoding="utf-8")
    result = subprocess.run(
        [node(), str(HELPER), "worker", str(material_worker()), str(plugin), str(index)],
        input=json.dumps(queries),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout)


ARABIC_CONFIG = {
    "lang": ["en"],
    "separator": r"[\s\-]+",
    "pipeline": [],
    "fields": {"title": {"boost": 1000.0}, "text": {"boost": 1.0}, "tags": {"boost": 1000000.0}},
}


def test_material_worker_finds_arabic_words_however_they_are_written(plugin, tmp_path):
    queries = ["متجهات", "متّجهات", "مُتَّجِهَات", "المتجهات", "للمتجهات"]
    config = search.index_config(ARABIC_CONFIG, "ar")
    found = worker_search(plugin, tmp_path, config, [*queries, "أوزان", "الأوزان"])
    for query in queries:
        pages = {group[0]["location"] for group in found[query]}
        assert pages == {"ar/vectors/", "ar/matrices/"}, (query, pages)
        for group in found[query]:
            item = group[0]
            assert all(item["terms"].values()), (query, item["terms"])  # no "Missing: ..."
            assert "<mark>" in item["title"] + item["text"], (query, item)
            assert "<mark><mark>" not in item["title"] + item["text"]
    for query in ("أوزان", "الأوزان"):  # written أوزان on the page, found typed with or without hamza or article
        assert [group[0]["location"] for group in found[query]] == ["ar/softmax/"], query


def test_without_the_plugin_the_same_queries_found_less(plugin, tmp_path):
    """What Material did before: words only exactly as written."""
    found = worker_search(plugin, tmp_path, ARABIC_CONFIG, ["متّجهات", "المتجهات", "متجهات"])
    assert found["متّجهات"] == []
    assert {group[0]["location"] for group in found["متجهات"]} == {"ar/matrices/"}
    assert {group[0]["location"] for group in found["المتجهات"]} == {"ar/vectors/"}
