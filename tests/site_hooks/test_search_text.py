"""Search compares words the way readers type them (site_hooks/i18n/search_text.py).

- The rules, in Python: Arabic with or without harakat or the article, Persian with Arabic
  or Persian letters and with or without ZWNJ, Hebrew with or without niqqud or a prefix,
  and the letters that must stay apart.
- Which languages are stemmed (search.py): a stemmer of the browser's for the language's
  script, never for Hebrew or Arabic script; the Russian index names the Russian stemmer.
- The browser side (search_text.js, run by Node) gives the same answers as Python for every
  word of every language's pages, the languages read from mkdocs.yml, and stems like the
  reference Snowball implementation: Russian on every word, the other lunr-languages
  stemmers on nearly all (they are older Snowball versions), English apart from the
  documented differences of lunr's Porter stemmer.
- Material's own search worker, with the plugin and an Arabic index, finds Arabic words
  however they are written (the site has no Arabic pages yet; tests/e2e/test_search.py
  types Hebrew and Persian queries into the built site); with a Russian index it finds a
  word in any of its forms (tests/e2e/test_new_language.py types them into a built Russian
  page); stemming never loses a page a query word found without it (every word of the built
  site's stemmed languages).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from site_hooks.i18n import search, search_text
from site_hooks.i18n.languages import script_of
from site_hooks.i18n.search_text import index_terms, normalise, query_terms, stem, stemmer_for, variants
from tests.languages import CODES, language

ROOT = Path(__file__).resolve().parents[2]
HELPER = Path(__file__).with_name("search_worker.mjs")


def site_languages() -> list[str]:
    """The languages the site builds, default first (tests/languages.py reads mkdocs.yml)."""
    return list(CODES)


def stemmer_of(lang: str) -> str | None:
    """The stemmer the build gives a site language (search.stemmers), from its entry."""
    return stemmer_for(lang, script_of(lang, language(lang).extra.get("script")))


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


# --------------------------------------------------------------------------- Cyrillic


def test_cyrillic_yo_is_written_ye_and_short_i_stays():
    assert normalise("Ёлка") == normalise("ёлка") == normalise("елка") == "елка"
    assert normalise("всё") == normalise("все")
    assert normalise("мой") != normalise("мои")  # й is a letter of its own


# --------------------------------------------------------------------------- stemming


@pytest.mark.parametrize(
    ("code", "script", "stemmer"),
    [
        ("ru", "cyrillic", "ru"),
        ("en", "latin", "en"),
        ("de", "latin", "de"),
        ("pt-BR", "latin", "pt"),
        ("nb", "latin", "no"),
        ("he", "hebrew", None),  # the site's normalisation and clitics only
        ("yi", "hebrew", None),
        ("ar", "arabic", None),
        ("fa", "arabic", None),
        ("ur", "arabic", None),
        ("pl", "latin", None),  # no stemmer in Material's bundle
        ("nn", "latin", None),  # lunr's Norwegian is Bokmål's
        ("ru", "latin", None),  # a language written in another script than its stemmer reads
    ],
)
def test_a_language_is_stemmed_where_the_browser_has_a_stemmer_for_its_script(code, script, stemmer):
    assert stemmer_for(code, script) == stemmer


def test_every_stemmer_of_lunr_languages_is_in_material_s_bundle():
    for stemmer in search_text.SNOWBALL_STEMMERS:
        if stemmer != search_text.LUNR_STEMMER:
            assert search_text.lunr_language_file(stemmer).is_file(), stemmer
            assert search_text.javascript(stemmer).startswith(
                search_text.lunr_language_file(stemmer).read_text(encoding="utf-8")
            )


MERGED = {"lang": ["en"], "separator": r"[\s\-]+", "pipeline": ["stopWordFilter"]}


def test_the_russian_index_names_the_russian_stemmer():
    config = search.index_config(MERGED, stemmer_for("ru", "cyrillic"))
    assert config["lang"] == ["normalised-ru"]
    assert config["pipeline"] == ["stemmer"]  # not lunr-languages' trimmer or stop words
    assert search.plugin_uri("ru") == "assets/javascripts/lunr/min/lunr.normalised-ru.min.js"
    assert '"name":"normalised-ru","stemmer":"ru"' in search_text.javascript("ru")


def test_english_keeps_its_stop_words_and_is_stemmed_by_lunr_s_own_stemmer():
    config = search.index_config(MERGED, stemmer_for("en", "latin"))
    assert config["lang"] == [search.LUNR_LANGUAGE]
    assert config["pipeline"] == ["stopWordFilter", "stemmer"]
    assert search.plugin_uri("en") == search.PLUGIN_URI


@pytest.mark.parametrize(
    ("forms", "stemmed"),
    [
        (["вес", "веса", "весов", "весом", "весу", "весе"], "вес"),
        (["модель", "модели", "моделью", "моделей", "моделям"], "модел"),
        (["учительница", "учительницу", "учительницей"], "учительниц"),
        (["ёлка", "елки", "ёлку"], "елк"),
    ],
)
def test_russian_forms_of_a_word_have_one_stem(forms, stemmed):
    assert {stem(normalise(form), "ru") for form in forms} == {stemmed}


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
    for lang in site_languages():
        config = search.index_config(MERGED, stemmer_of(lang))
        assert config["lang"] == [search_text.plugin_name(stemmer_of(lang))]
        assert config["lang"][0].startswith(search.LUNR_LANGUAGE)
        assert re.split(config["separator"], "ב־softmax קשב") == ["ב", "softmax", "קשב"]
        if script_of(lang, language(lang).extra.get("script")) in ("hebrew", "arabic"):
            assert config["lang"] == [search.LUNR_LANGUAGE]
            assert config["pipeline"] == [], f"{lang}: the site's normalisation only, no lunr step"
    assert search.PLUGIN_URI.endswith(f"lunr.{search.LUNR_LANGUAGE}.min.js")


# --------------------------------------------------------------------------- the browser side


def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.fail("Node.js is needed to run the browser side of search")
    return found


@pytest.fixture(scope="module")
def plugins(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str | None], Path]:
    """The plugin file search.py publishes for a stemmer (None: none), by the name the worker
    asks for."""
    folder = tmp_path_factory.mktemp("search")

    def plugin(stemmer: str | None = None) -> Path:
        path = folder / Path(search.plugin_uri(stemmer)).name
        if not path.exists():
            path.write_text(search_text.javascript(stemmer), encoding="utf-8")
        return path

    return plugin


@pytest.fixture(scope="module")
def plugin(plugins: Callable[[str | None], Path]) -> Path:
    return plugins(None)


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
    "Ёлка",
    "«весов»",
    "всё",
]


def browser_text(plugin: Path, words: list[str], vocabulary: list[str], stems: bool = False) -> list[dict]:
    """The plugin's answers for each word under Node (tests/site_hooks/search_worker.mjs); with ``stems``,
    lunr is loaded first and each answer also has the plugin's ``stem`` of the normalised word."""
    result = subprocess.run(
        [node(), str(HELPER), "text", str(plugin), *([str(material_worker())] if stems else [])],
        input=json.dumps({"words": words, "vocabulary": vocabulary}),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout)


def lunr_porter_differs(term: str) -> bool:
    """Where lunr's own (English) stemmer is not Porter's as Snowball implements it, by design:
    it leaves a word of one or two letters as it is (is, not i) and reads a final y its own way
    (key and play stay, not kei and plai; try is tri), also once -s, -ed or -ing is gone
    (replayed is replay, not replai)."""
    return len(term) < 3 or re.search(r"y(s|ed|ing)?$", term) is not None


NOT_COMPARED: dict[str, Callable[[str], bool]] = {search_text.LUNR_STEMMER: lunr_porter_differs}
"""Per stemmer, the terms whose stem the browser and the reference give differently, by design."""


@pytest.mark.parametrize("lang", site_languages())
def test_the_browser_gives_the_same_answers_as_python(plugins, lang):
    """normalise, variants, indexTerms, queryTerms for every word; and where the language is
    stemmed, its stem (but for NOT_COMPARED)."""
    stemmer = stemmer_of(lang)
    words = page_words(lang) + TEST_WORDS
    vocabulary = sorted(search_text.vocabulary(words))
    browser = browser_text(plugins(stemmer), words, vocabulary, stems=stemmer is not None)
    vocabulary_set = frozenset(vocabulary)
    differ = []
    for word, js in zip(words, browser, strict=True):
        python = {
            "normalise": normalise(word),
            "variants": variants(word),
            "indexTerms": index_terms(word, vocabulary_set),
            "queryTerms": query_terms(word, vocabulary_set),
        }
        if stemmer is not None:
            if NOT_COMPARED.get(stemmer, lambda term: False)(python["normalise"]):
                js = {key: value for key, value in js.items() if key != "stem"}
            else:
                python["stem"] = stem(python["normalise"], stemmer)
        if js != python:
            differ.append((word, js, python))
    assert not differ, differ[:5]


def locale_words(code: str) -> list[str]:
    """Words of the language in babel's locale data (installed with Material): the names of
    languages, countries, scripts, currencies, months, days and units, many in several forms
    (август, августа), normalised, without digits."""
    from babel import Locale

    locale = Locale.parse(code)
    texts = [
        *locale.languages.values(),
        *locale.territories.values(),
        *locale.scripts.values(),
        *locale.currencies.values(),
        *(name for names in locale.unit_display_names.values() for name in names.values() if isinstance(name, str)),
        *(name for context in locale.months.values() for width in context.values() for name in width.values()),
        *(name for context in locale.days.values() for width in context.values() for name in width.values()),
    ]
    return sorted({term for text in texts for word in re.findall(r"[^\W\d_]+", text) if (term := normalise(word))})


def differing_stems(
    stemmer: str, words: list[str], plugins: Callable[[str | None], Path]
) -> list[tuple[str, str, str]]:
    browser = browser_text(plugins(stemmer), words, [], stems=True)
    return [
        (word, js["stem"], python)
        for word, js in zip(words, browser, strict=True)
        if js["stem"] != (python := stem(normalise(word), stemmer))
    ]


def russian_words_of_the_repository() -> list[str]:
    text = " ".join(path.read_text(encoding="utf-8") for path in sorted((ROOT / "docs").glob("*/translate.md")))
    return sorted(set(re.findall(r"[А-Яа-яЁё]+", text)))


def test_the_browser_stems_russian_like_snowball_on_every_word(plugins):
    words = locale_words("ru") + russian_words_of_the_repository() + ["веса", "весов", "Ёлку", "учительницу,"]
    assert len(words) > 1000
    assert not differing_stems("ru", words, plugins)


@pytest.mark.parametrize("stemmer", sorted(search_text.SNOWBALL_STEMMERS))
def test_the_browser_s_stemmers_are_snowball_s(plugins, stemmer):
    """lunr-languages' stemmers are older Snowball versions (see SNOWBALL_STEMMERS), lunr's
    own is Porter's with its own final y: on babel's words of the language they agree with
    the reference on at least 97% (all but NOT_COMPARED; German, the furthest, on 97.8%):
    the algorithm the site says it runs is the one it runs."""
    code = {"no": "nb"}.get(stemmer, stemmer)
    skip = NOT_COMPARED.get(stemmer, lambda term: False)
    words = [word for word in locale_words(code) if not skip(word)]
    differ = differing_stems(stemmer, words, plugins)
    assert len(differ) <= 0.03 * len(words), (len(differ), len(words), differ[:10])


def material_worker() -> Path:
    import material

    workers = Path(material.__file__).parent / "templates" / "assets" / "javascripts" / "workers"
    return next(workers.glob("search.*.min.js"))


ARABIC_DOCS = [
    ("ar/vectors/", "المتجهات", "<p>نجمع المتجهات ونضربها في مصفوفة.</p>"),
    ("ar/matrices/", "المصفوفات", "<p>كل صف من المصفوفة هو متجه، وتُكتب متجهات الاستعلام صفوفًا.</p>"),
    ("ar/softmax/", "سوفت ماكس", "<p>تُحوِّل الدالة الدرجات إلى أوزان.</p>"),
]


def worker_search(
    plugin: Path, tmp_path: Path, config: dict, queries: list[str], pages: list[tuple[str, str, str]] = ARABIC_DOCS
) -> dict[str, list]:
    """Each query's result groups, from Material's worker with ``config`` and ``pages``
    (location, title, text) as the index."""
    index = tmp_path / "search_index.json"
    docs = [{"location": loc, "title": title, "text": text} for loc, title, text in pages]
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
    config = search.index_config(ARABIC_CONFIG, stemmer_for("ar", "arabic"))
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


def found_pages(groups: list) -> set[str]:
    return {item["location"].split("#")[0] for group in groups for item in group}


def assert_found_as_typed(query: str, groups: list) -> None:
    """Found, with the word highlighted and no "Missing: ..." line."""
    for group in groups:
        item = group[0]
        assert all(item["terms"].values()), (query, item["terms"])
        assert "<mark>" in item["title"] + item["text"], (query, item)
        assert "<mark><mark>" not in item["title"] + item["text"]


RUSSIAN_DOCS = [
    ("ru/learning/", "Откуда берутся веса?", "<p>Модель учится: её веса меняются с каждым шагом.</p>"),
    ("ru/", "Внимание", "<p>Механизм внимания на чистом Python: softmax превращает оценки в доли.</p>"),
    ("ru/spring/", "Весна", "<p>Весной всё растёт.</p>"),
]


def test_material_worker_finds_a_russian_word_in_any_of_its_forms(plugins, tmp_path):
    config = search.index_config(ARABIC_CONFIG, stemmer_for("ru", "cyrillic"))
    forms = ["веса", "весов", "весом", "весу", "+весов"]
    queries = [*forms, "модели", "механизмы", "softmax", "все", "весны"]
    found = worker_search(plugins("ru"), tmp_path, config, queries, RUSSIAN_DOCS)
    for query in forms:  # the stem вес as a whole word: not весна
        assert found_pages(found[query]) == {"ru/learning/"}, (query, found[query])
        assert_found_as_typed(query, found[query])
        assert "<mark>веса</mark>" in found[query][0][0]["text"]
    assert found_pages(found["модели"]) == {"ru/learning/"}
    assert found_pages(found["механизмы"]) == {"ru/"}
    assert found_pages(found["softmax"]) == {"ru/"}, "a Latin word of a Russian page is kept"
    assert found_pages(found["все"]) == {"ru/spring/"}, "ё typed as е"
    assert found_pages(found["весны"]) == {"ru/spring/"}
    for query in queries:
        assert_found_as_typed(query, found[query])


def test_without_the_stemmer_a_russian_word_was_found_only_as_written(plugins, tmp_path):
    found = worker_search(plugins(None), tmp_path, search.index_config(ARABIC_CONFIG), ["весов", "веса"], RUSSIAN_DOCS)
    assert found["весов"] == []
    assert found_pages(found["веса"]) == {"ru/learning/"}


ENGLISH_DOCS = [
    ("masking/", "Masking", "<p>The causal mask hides later tokens.</p>"),
    ("adding/", "Adding", "<p>Vectors are added one by one.</p>"),
    ("heads/", "Heads", "<p>Every head computes its own weights.</p>"),
]


def test_material_worker_finds_an_english_word_in_its_other_forms_and_as_it_began(plugin, tmp_path):
    config = search.index_config(ARABIC_CONFIG, stemmer_for("en", "latin"))
    found = worker_search(plugin, tmp_path, config, ["masks", "add", "computing", "weight", "head"], ENGLISH_DOCS)
    assert found_pages(found["masks"]) == {"masking/"}  # mask
    assert found_pages(found["add"]) == {"adding/"}  # added, stemmed ad: found as a word beginning
    assert found_pages(found["computing"]) == {"heads/"}  # computes
    assert found_pages(found["weight"]) == {"heads/"}
    for query, groups in found.items():
        assert_found_as_typed(query, groups)


def site_index(site_dir: Path, lang: str) -> dict:
    prefix = "" if lang == site_languages()[0] else f"{lang}/"
    return json.loads((site_dir / prefix / "search" / "search_index.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", [lang for lang in site_languages() if stemmer_of(lang) is not None])
def test_stemming_loses_no_page_a_word_found(plugins, site_dir, tmp_path, lang):
    """Every word of a stemmed language's built pages, typed as a query into Material's
    worker, finds every page it finds with the same index unstemmed, and some find more."""
    index = site_index(site_dir, lang)
    stemmer = stemmer_of(lang)
    assert index["config"]["lang"] == [search_text.plugin_name(stemmer)]
    pages = [(doc["location"], doc["title"], doc["text"]) for doc in index["docs"]]
    text = re.sub(r"<[^>]+>", " ", " ".join(doc["title"] + " " + doc["text"] for doc in index["docs"]))
    queries = sorted({word.lower() for word in re.findall(r"[^\W\d_]{3,}", text)})
    stemmed = worker_search(plugins(stemmer), tmp_path, index["config"], queries, pages)
    unstemmed_config = {
        **index["config"],
        "lang": [search.LUNR_LANGUAGE],
        "pipeline": [step for step in index["config"]["pipeline"] if step != "stemmer"],
    }
    unstemmed = worker_search(plugins(None), tmp_path, unstemmed_config, queries, pages)
    lost = {query: found_pages(unstemmed[query]) - found_pages(stemmed[query]) for query in queries}
    assert not {query: pages for query, pages in lost.items() if pages}
    # "Some find more": among the words of the language's own pages that its stemmer shortens
    # (a language in progress has English pages in its index too, and code everywhere, whose
    # words a Russian stemmer leaves alone).
    prefix = "" if lang == site_languages()[0] else f"{lang}/"
    own = " ".join(
        doc["title"] + " " + doc["text"] for doc in index["docs"] if translated_page(lang, doc["location"], prefix)
    )
    words = {word.lower() for word in re.findall(r"[^\W\d_]{3,}", re.sub(r"<[^>]+>", " ", own))}
    mine = sorted(word for word in words if stem(normalise(word), stemmer) != normalise(word))
    gained = [query for query in mine if found_pages(stemmed[query]) - found_pages(unstemmed[query])]
    assert len(gained) >= len(mine) // 20, f"stemming found more for only {len(gained)} of {len(mine)} words"


def translated_page(lang: str, location: str, prefix: str) -> bool:
    """Whether the page at ``location`` of ``lang``'s index is its own (docs/<lang>/...), not
    English's shown in its place."""
    path = location.split("#", 1)[0].removeprefix(prefix).strip("/")
    folder = ROOT / "docs" / lang
    return (folder / f"{path or 'index'}.md").is_file() or (folder / path / "index.md").is_file()
