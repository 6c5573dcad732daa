"""Search finds a word anywhere in a sentence of a language written without spaces (issue 34).

Chinese and Japanese write no space between words, so splitting at separators made a whole
clause one word: 注意力 found a page only where it began a run of text, 链式法则 and 掷硬币
nothing. Such a language (its script in languages.UNSPACED_SCRIPTS) is segmented by the
platform's word segmenter, Intl.Segmenter (site_hooks/i18n/search.py, search_text.py/.js):

- Which languages: Chinese (simplified, traditional) and Japanese; not Korean, which spaces
  its words, nor any other.
- Every other index is written byte for byte as before: the expected texts below were made by
  the code before segmentation existed.
- The build puts U+200B between the words of a Chinese index's pages (one Node process, the
  plugin's own function), and nothing else changes in them.
- Material's own search worker, run under Node with the plugin and a Chinese index built from
  a few pages (tests/site_hooks/search_worker.mjs), finds 注意力 in the middle of a sentence, 链式法则 and
  掷硬币, each typed without spaces, with every piece highlighted and no "Missing: ..."; and
  still a Latin word of a Chinese page. It cuts the pages itself when the build has not, finds
  a page whose words were cut finer than the query (another ICU), and without Intl.Segmenter in
  the page falls back to Material's own segmentation of the query.
- Before segmentation, the same queries found what the issue reported.
- Bounded and linear (issue 43): every plugin's worker reads a query's first QUERY_LIMIT
  characters (code points), so 40,000 Han characters in one run are answered as their first
  ones in a fraction of a second where they took minutes; the segmenter reads a long text at
  most 1,000 characters at a time and cuts it as in one call; a long word is cut at the
  index's terms in time that grows with its length, not with its cube.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from site_hooks.i18n import search, search_text
from tests.site_hooks.test_search_text import HELPER, found_pages, material_worker, node

ZWSP = "\u200b"

MERGED = {
    "lang": ["en"],
    "separator": r"[\s\-]+",
    "pipeline": ["stopWordFilter"],
    "fields": {"title": {"boost": 1000.0}, "text": {"boost": 1.0}, "tags": {"boost": 1000000.0}},
}
"""A merged index's config as Material's search plugin writes it for an English default."""


# --------------------------------------------------------------------------- which languages


@pytest.mark.parametrize(
    ("locale", "script", "segmenter"),
    [
        ("zh", "han-simplified", "zh"),
        ("zh-Hant", "han-traditional", "zh-Hant"),
        ("zh-TW", "han-traditional", "zh-TW"),
        ("ja", "kana", "ja"),
        ("ko", "hangul", None),  # Korean spaces its words
        ("en", "latin", None),
        ("he", "hebrew", None),
        ("fa", "arabic", None),
        ("ru", "cyrillic", None),
        ("th", "thai", None),  # not a script of UNSPACED_SCRIPTS (yet)
    ],
)
def test_exactly_the_languages_written_without_spaces_are_segmented(locale, script, segmenter):
    assert search_text.segmenter_for(locale, script) == segmenter


def test_a_segmented_index_names_its_plugin_and_splits_at_zero_width_space():
    config = search.index_config(MERGED, None, "zh")
    assert config["lang"] == ["normalised-segmented-zh"]
    assert config["pipeline"] == [], "no lunr step: lunr's English trimmer would strip every Han character"
    assert re.split(config["separator"], f"注意力{ZWSP}机制 ב־softmax") == ["注意力", "机制", "ב", "softmax"]
    assert search.plugin_uri(None, "zh") == "assets/javascripts/lunr/min/lunr.normalised-segmented-zh.min.js"
    assert '"segmenter":"zh"' in search_text.javascript(None, "zh")
    assert '"segmenter":null' in search_text.javascript()


# --------------------------------------------------------------------------- other indexes unchanged

UNSEGMENTED_DOCS = {
    "en": [
        {
            "location": "",
            "title": "Attention",
            "text": "<p>The causal mask hides later tokens; in Chinese, 注意力机制.</p>",
        },
        {
            "location": "learning/#softmax",
            "title": "softmax(x)",
            "text": "<p>Weights <code>w</code> sum to one.</p>",
            "tags": ["注意力"],
        },
    ],
    "he": [{"location": "he/", "title": "קשב", "text": "<p>מנגנון הקשב ב־softmax: 注意力.</p>"}],
    "fa": [{"location": "fa/", "title": "توجه", "text": "<p>سازوکار توجه می\u200cشود.</p>", "boost": 2}],
    "ru": [
        {"location": "ru/learning/", "title": "Откуда берутся веса?", "text": "<p>Модель учится: её веса меняются.</p>"}
    ],
}

FIELDS = '"fields":{"title":{"boost":1000.0},"text":{"boost":1.0},"tags":{"boost":1000000.0}}'
WRITTEN_BEFORE = {
    # search.py's output for UNSEGMENTED_DOCS before segmentation existed (commit 2d80b11)
    "en": '{"config":{"lang":["normalised"],"separator":"[\\\\s\\\\-]+|[־]","pipeline":["stopWordFilter","stemmer"],'
    + FIELDS
    + '},"docs":[{"location":"","title":"Attention","text":"<p>The causal mask hides later tokens; in Chinese, '
    '注意力机制.</p>"},{"location":"learning/#softmax","title":"softmax(x)","text":"<p>Weights <code>w</code> sum to '
    'one.</p>","tags":["注意力"]}]}',
    "he": '{"config":{"lang":["normalised"],"separator":"[\\\\s\\\\-]+|[־]","pipeline":[],'
    + FIELDS
    + '},"docs":[{"location":"he/","title":"קשב","text":"<p>מנגנון הקשב ב־softmax: 注意力.</p>"}]}',
    "fa": '{"config":{"lang":["normalised"],"separator":"[\\\\s\\\\-]+|[־]","pipeline":[],'
    + FIELDS
    + '},"docs":[{"location":"fa/","title":"توجه","text":"<p>سازوکار توجه می\u200cشود.</p>","boost":2}]}',
    "ru": '{"config":{"lang":["normalised-ru"],"separator":"[\\\\s\\\\-]+|[־]","pipeline":["stemmer"],'
    + FIELDS
    + '},"docs":[{"location":"ru/learning/","title":"Откуда берутся веса?","text":"<p>Модель учится: её веса '
    'меняются.</p>"}]}',
}


@pytest.mark.parametrize(("lang", "script"), [("en", "latin"), ("he", "hebrew"), ("fa", "arabic"), ("ru", "cyrillic")])
def test_an_index_of_a_spaced_language_is_written_byte_for_byte_as_before(monkeypatch, lang, script):
    """Even with Han characters in its pages: only a segmented language's index runs Node."""

    def no_segmenting(texts: list[str], segmenter: str) -> list[str]:
        raise AssertionError(f"{lang} was segmented")

    monkeypatch.setattr(search_text, "separate_words", no_segmenting)
    stemmer, segmenter = search_text.stemmer_for(lang, script), search_text.segmenter_for(lang, script)
    assert search.language_index(MERGED, UNSEGMENTED_DOCS[lang], stemmer, segmenter) == WRITTEN_BEFORE[lang]


# --------------------------------------------------------------------------- the build

ZH_DOCS = [
    ("zh/", "注意力", "<p>本站用纯 Python 讲解注意力。</p>"),
    ("zh/learning/", "学习", "<p>模型用注意力机制决定看哪里。</p><p>模型用softmax函数把分数变成权重。</p>"),
    ("zh/learning/#backprop", "反向传播", "<p>反向传播用链式法则逐层求梯度。</p>"),
    ("zh/coins/", "随机", "<p>每次掷硬币的结果是随机的。</p>"),
    ("zh/code/", "代码", "<p>调用 <code>softmax(x)</code> 即可。</p>"),
]


def zh_docs(pages: list[tuple[str, str, str]] = ZH_DOCS) -> list[dict]:
    return [{"location": location, "title": title, "text": text} for location, title, text in pages]


@pytest.fixture(scope="module")
def zh_index() -> dict:
    """A Chinese index as the build writes it, from ZH_DOCS (one Node process)."""
    return json.loads(search.language_index(MERGED, zh_docs(), None, "zh"))


def test_the_build_puts_a_zero_width_space_between_chinese_words_and_changes_nothing_else(zh_index):
    docs = zh_index["docs"]
    without = [{**doc, "title": doc["title"].replace(ZWSP, ""), "text": doc["text"].replace(ZWSP, "")} for doc in docs]
    assert without == zh_docs()
    learning = docs[1]["text"]
    assert f"用{ZWSP}注意力{ZWSP}机制{ZWSP}决定" in learning, "注意力 is a word of its own in mid-sentence"
    assert f"用{ZWSP}softmax{ZWSP}函数" in learning, "a Latin word beside Han characters is cut off"
    assert f"用{ZWSP}链式{ZWSP}法则{ZWSP}逐" in docs[2]["text"]
    assert f"{ZWSP}掷{ZWSP}硬币{ZWSP}的" in docs[3]["text"]
    assert "<code>softmax(x)</code>" in docs[4]["text"], "Latin text is cut only by the separators"
    texts = "".join(doc["text"] for doc in docs)
    assert f"{ZWSP}<" not in texts, "tags are left as they are"
    assert f">{ZWSP}" not in texts


def test_tags_are_separated_too():
    docs = [{"location": "zh/", "title": "注意力机制", "text": "", "tags": ["注意力机制", 3]}]
    (doc,) = search.separated_docs(docs, MERGED["fields"], "zh")
    assert doc == {"location": "zh/", "title": f"注意力{ZWSP}机制", "text": "", "tags": [f"注意力{ZWSP}机制", 3]}
    assert docs[0]["tags"] == ["注意力机制", 3], "the merged index's docs are not changed"


def test_the_build_writes_a_segmented_index_for_chinese_and_the_others_as_before(tmp_path):
    """search.on_post_build, after static-i18n merged every language's pages into one index:
    the Chinese pages go to zh/search/, segmented, the English ones stay, unchanged."""
    english = UNSEGMENTED_DOCS["en"]
    merged = tmp_path / "search" / "search_index.json"
    merged.parent.mkdir()
    merged.write_text(json.dumps({"config": MERGED, "docs": [*english, *zh_docs()]}), encoding="utf-8")
    entries = [
        SimpleNamespace(locale="en", default=True, build=True, extra={}),
        SimpleNamespace(locale="zh", default=False, build=True, extra={}),
    ]
    i18n = SimpleNamespace(
        building=False,
        build_languages=["en", "zh"],
        default_language="en",
        current_language=None,
        config=SimpleNamespace(languages=entries),
    )
    search.on_post_build(SimpleNamespace(site_dir=str(tmp_path), plugins={"i18n": i18n}))
    assert merged.read_text(encoding="utf-8") == WRITTEN_BEFORE["en"]
    chinese = json.loads((tmp_path / "zh" / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert chinese["config"]["lang"] == ["normalised-segmented-zh"]
    assert [doc["location"] for doc in chinese["docs"]] == [location for location, _, _ in ZH_DOCS]
    assert f"{ZWSP}注意力{ZWSP}" in chinese["docs"][1]["text"]


# --------------------------------------------------------------------------- Material's worker


@pytest.fixture(scope="module")
def zh_plugin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The plugin search.py publishes for Chinese, by the name the worker asks for."""
    path = tmp_path_factory.mktemp("search") / Path(search.plugin_uri(None, "zh")).name
    path.write_text(search_text.javascript(None, "zh"), encoding="utf-8")
    return path


def worker(plugin: Path, index: dict, queries: list[str], tmp_path: Path, *flags: str) -> dict[str, list]:
    """Each query's result groups from Material's worker under Node, set up with ``index``."""
    path = tmp_path / "search_index.json"
    path.write_text(json.dumps(index, ensure_ascii=False), encoding="utf-8")
    result = subprocess.run(
        [node(), str(HELPER), "worker", str(material_worker()), str(plugin), str(path), *flags],
        input=json.dumps(queries),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout)


QUERIES = ["注意力", "链式法则", "掷硬币", "softmax", "函数", "权重"]


def assert_found(found: dict[str, list]) -> None:
    """Each of QUERIES finds the pages that write it, in mid-sentence too."""
    assert found_pages(found["注意力"]) == {"zh/", "zh/learning/"}, found["注意力"]
    assert {item["location"] for group in found["链式法则"] for item in group} >= {"zh/learning/#backprop"}
    assert found_pages(found["掷硬币"]) == {"zh/coins/"}, found["掷硬币"]
    assert found_pages(found["softmax"]) == {"zh/learning/", "zh/code/"}, "Latin in a Chinese page is found"
    assert found_pages(found["函数"]) == {"zh/learning/"}
    assert found_pages(found["权重"]) == {"zh/learning/"}


def highlighted(groups: list, location: str) -> str:
    return next(item["text"] for group in groups for item in group if item["location"] == location)


def test_material_worker_finds_chinese_words_anywhere_in_a_sentence(zh_plugin, zh_index, tmp_path):
    found = worker(zh_plugin, zh_index, QUERIES, tmp_path)
    assert_found(found)
    for query in QUERIES:
        for group in found[query]:
            assert all(group[0]["terms"].values()), (query, group[0]["terms"])  # no "Missing: ..."
    assert f"<mark>注意力</mark>{ZWSP}机制" in highlighted(found["注意力"], "zh/learning/")
    assert f"<mark>链式</mark>{ZWSP}<mark>法则</mark>" in highlighted(found["链式法则"], "zh/learning/#backprop")
    assert f"<mark>掷</mark>{ZWSP}<mark>硬币</mark>" in highlighted(found["掷硬币"], "zh/coins/")


THROW_PAGE = ("zh/throw/", "投掷", "<p>他掷出骰子。</p>")
"""A page with 掷 but not 硬币."""


def test_a_query_is_cut_as_the_pages_were_whatever_the_index_holds(zh_plugin, tmp_path):
    """Material's own "experimental Chinese segmentation" cut 掷硬币 to 掷 (a term of the
    index), which also found every word starting with 掷; the plugin's cut searches 掷 and 硬币."""
    index = json.loads(search.language_index(MERGED, zh_docs([*ZH_DOCS, THROW_PAGE]), None, "zh"))
    found = worker(zh_plugin, index, ["掷硬币", "+掷硬币"], tmp_path)
    assert found_pages(found["+掷硬币"]) == {"zh/coins/"}, "every piece of a required word is required"
    groups = {group[0]["location"]: group[0] for group in found["掷硬币"]}
    assert next(iter(groups)) == "zh/coins/", "the page with both pieces ranks first"
    assert groups["zh/coins/"]["terms"] == {"掷硬币": True}


def test_a_query_finds_pages_whose_words_were_cut_finer_than_the_query(zh_plugin, tmp_path):
    """Node's ICU at build time and the reader's browser may cut a word differently (another
    version, or the word in a sentence and alone): a query piece no indexed term begins with
    is cut again at the index's terms (注意力 at 注意|力). A word no page writes stays whole."""
    cut = f"<p>模型{ZWSP}用{ZWSP}注意{ZWSP}力{ZWSP}机制{ZWSP}。</p>"
    index = {"config": search.index_config(MERGED, None, "zh"), "docs": zh_docs([("zh/cut/", "页", cut)])}
    found = worker(zh_plugin, index, ["注意力", "量子力学"], tmp_path)
    assert found_pages(found["注意力"]) == {"zh/cut/"}
    assert found["注意力"][0][0]["terms"] == {"注意力": True}
    assert found["量子力学"] == []


def test_material_worker_cuts_the_pages_itself_when_the_build_has_not(zh_plugin, tmp_path):
    """The plugin gives Material's tokenizer the browser's segmenter (see search_text.js), so
    an index built without U+200B is searched the same way."""
    index = {"config": search.index_config(MERGED, None, "zh"), "docs": zh_docs()}
    assert_found(worker(zh_plugin, index, QUERIES, tmp_path))


def test_without_intl_segmenter_in_the_page_material_segments_the_query(zh_plugin, zh_index, tmp_path):
    """A browser without Intl.Segmenter still has the build's cut of the pages, and Material
    cuts a Han query at the index's terms: 掷硬币 to 掷 alone."""
    assert_found(worker(zh_plugin, zh_index, QUERIES, tmp_path, "--no-segmenter"))
    index = json.loads(search.language_index(MERGED, zh_docs([*ZH_DOCS, THROW_PAGE]), None, "zh"))
    found = worker(zh_plugin, index, ["+掷硬币"], tmp_path, "--no-segmenter")
    assert found_pages(found["+掷硬币"]) == {"zh/coins/", "zh/throw/"}, "Material's cut"


def test_before_segmentation_the_issue_s_queries_found_too_little(tmp_path):
    """What issue 34 reported from a trial Chinese site: separators alone."""
    plugin = tmp_path / Path(search.plugin_uri()).name
    plugin.write_text(search_text.javascript(), encoding="utf-8")
    index = {"config": search.index_config(MERGED), "docs": zh_docs()}
    found = worker(plugin, index, ["注意力", "链式法则", "掷硬币"], tmp_path)
    assert found_pages(found["注意力"]) == {"zh/"}, "only by the title, which starts with it"
    assert found["链式法则"] == []
    assert found["掷硬币"] == [], "每次掷硬币的结果是随机的 was one word"


JA_DOCS = [
    ("ja/", "注意", "<p>注意機構はモデルがどこを見るかを決めます。</p>"),
    ("ja/softmax/", "ソフトマックス", "<p>ソフトマックス関数で重みを計算する。</p>"),
]


def test_material_worker_finds_japanese_words_in_mid_sentence(tmp_path):
    plugin = tmp_path / Path(search.plugin_uri(None, "ja")).name
    plugin.write_text(search_text.javascript(None, "ja"), encoding="utf-8")
    index = json.loads(search.language_index(MERGED, zh_docs(JA_DOCS), None, "ja"))
    found = worker(plugin, index, ["モデル", "見る", "関数", "重み", "計算"], tmp_path)
    assert found_pages(found["モデル"]) == found_pages(found["見る"]) == {"ja/"}
    assert found_pages(found["関数"]) == found_pages(found["重み"]) == found_pages(found["計算"]) == {"ja/softmax/"}


# --------------------------------------------------------------------------- bounded and linear (issue 43)
# 5,000 Han characters typed into the search box held the worker for 104.5 s, 40,000 for more
# than 300 s: Material's cut of a Han run, ICU's cut of a long text and the plugin's cut at the
# terms all cost more than the query's length. The worker now reads a query's first
# QUERY_LIMIT characters, and the plugin's own work grows with the length of what it reads.

LIMIT = search_text.QUERY_LIMIT


def worker_plugin(folder: Path, stemmer: str | None, segmenter: str | None, unbounded: bool = False) -> Path:
    """The plugin search.py publishes, by the name the worker asks for; ``unbounded``: the same
    plugin reading queries of any length, to time the plugin's own work."""
    path = folder / Path(search.plugin_uri(stemmer, segmenter)).name
    text = search_text.javascript(stemmer, segmenter)
    if unbounded:
        text = text.replace(f'"queryLimit":{LIMIT}', '"queryLimit":1e15', 1)
        assert '"queryLimit":1e15' in text
    path.write_text(text, encoding="utf-8")
    return path


def timed(plugin: Path, index: dict, queries: list[str], tmp_path: Path) -> list[dict]:
    """Material's worker under Node answering ``queries``: per query, its length, the time from
    the message to the answer (ms) and its result groups; killed after 120 s."""
    path = tmp_path / "search_index.json"
    path.write_text(json.dumps(index, ensure_ascii=False), encoding="utf-8")
    result = subprocess.run(
        [node(), str(HELPER), "worker", str(material_worker()), str(plugin), str(path), "--timed"],
        input=json.dumps(queries),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(result.stdout)


READINGS = [(None, None), ("ru", None), (None, "zh")]
"""Every kind of plugin an index names: normalised (en, he, fa...), normalised-<stemmer>,
normalised-segmented-<locale>; each bounds the query."""


@pytest.mark.parametrize(("stemmer", "segmenter"), READINGS)
def test_the_worker_reads_the_first_query_limit_characters_of_a_query(stemmer, segmenter, tmp_path):
    """Characters are code points (𠀀 is two UTF-16 units): +weights ends at the limit and is
    read, +nowhere comes after it and is not (read, it would find no page)."""
    assert 100 <= LIMIT <= 1000, "longer than any sentence of the site's pages, short for Material's Han cut"
    docs = [("one/", "一", "<p>softmax 函数 weights.</p>"), ("two/", "二", "<p>softmax.</p>")]
    index = {"config": search.index_config(MERGED, stemmer, segmenter), "docs": zh_docs(docs)}
    head, tail = "softmax", " +weights"
    gap = LIMIT - len(head) - len(tail)
    query = head + " 𠀀" * (gap // 2) + " " * (gap % 2) + tail
    assert len(query) == LIMIT
    assert len(query.encode("utf-16-le")) // 2 > LIMIT, "more UTF-16 units than the limit"
    plugin = worker_plugin(tmp_path, stemmer, segmenter)
    found = worker(plugin, index, [query + " +nowhere", query, query[: -len(tail)]], tmp_path)
    assert found_pages(found[query]) == {"one/"}
    assert found_pages(found[query[: -len(tail)]]) == {"one/", "two/"}
    assert found[query + " +nowhere"] == found[query]


ZH_SENTENCE = "反向传播用链式法则逐层求梯度，模型用注意力机制决定看哪里。"


def test_40000_han_characters_are_answered_as_their_first_query_limit_in_a_bound(zh_plugin, zh_index, tmp_path):
    """One run of Han characters, as the issue typed it: Material cuts each run trying every
    piece of it (punctuation would end a run). Measured: 0.1-0.15 s from the message to the
    answer (Node 20, load 4.5), where it took over 300 s; the bound, 5 s, leaves room for a
    loaded machine."""
    run = re.sub(r"\W", "", ZH_SENTENCE)
    query = (run * (40_000 // len(run) + 1))[:40_000]
    assert re.fullmatch(r"\w+", query)
    long, first = timed(zh_plugin, zh_index, [query, query[:LIMIT]], tmp_path)
    assert long["characters"] == 40_000
    assert long["ms"] < 5_000, long
    assert long["groups"] == first["groups"] > 0
    found = worker(zh_plugin, zh_index, [query, query[:LIMIT]], tmp_path)
    assert found[query] == found[query[:LIMIT]]


def pieces_and_reads(plugin: Path, texts: list[str]) -> list[dict]:
    """The plugin's pieces of each text, and the length of each text Intl.Segmenter was given."""
    result = subprocess.run(
        [node(), str(HELPER), "pieces", str(plugin)],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(result.stdout)


def test_the_segmenter_reads_a_long_text_a_bounded_part_at_a_time_and_cuts_it_alike(zh_plugin):
    """ICU's cut of a Han text costs more than its length (40,000 characters in one call 0.2-0.3 s,
    80,000 7.7 s; in calls of 1,000 characters 33 ms and 94 ms): the plugin gives it at most
    1,000 at a time, each character about once, and the words come out as in one call."""
    long = ZH_SENTENCE * (40_000 // len(ZH_SENTENCE))
    (sentence, text) = pieces_and_reads(zh_plugin, [ZH_SENTENCE, long])
    assert sentence["reads"] == [len(ZH_SENTENCE)]
    assert "".join(text["pieces"]) == long
    assert text["pieces"] == sentence["pieces"] * (40_000 // len(ZH_SENTENCE)), "the windows change no cut"
    assert max(text["reads"]) <= 1_000
    assert sum(text["reads"]) <= 1.05 * len(long), sum(text["reads"])


def test_a_long_word_is_cut_at_the_index_s_terms_in_time_linear_in_its_length(tmp_path):
    """With the query unbounded, a word of 5,000 letters that no term begins with but that is
    made of a term (x): cut at the terms as before (it finds the page with x), where each cut
    tried every longer part of the word first (its length cubed: it never finished). Measured
    0.2 s from the message to the answer (Node 20), 1.0-1.3 s at load 16; 40,000 letters 1.9-4.9 s
    at load 18, lunr's work for 40,000 searched words."""
    plugin = worker_plugin(tmp_path, None, "zh", unbounded=True)
    docs = [("x/", "变量", "<p>变量 x 的值</p>"), ("y/", "变量", "<p>变量 y 的值</p>")]
    index = {"config": search.index_config(MERGED, None, "zh"), "docs": zh_docs(docs)}
    (answer,) = timed(plugin, index, ["x" * 5_000], tmp_path)
    assert answer["ms"] < 10_000, answer
    assert answer["groups"] == 1
    found = worker(plugin, index, ["x" * 40], tmp_path)
    assert found_pages(found["x" * 40]) == {"x/"}
