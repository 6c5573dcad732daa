"""A translated page with sections still in English (a language in progress, translating a
page a section at a time) says so: each such section gets, under its heading, the
``untranslated_section_note`` of the language's ``extra`` (site_hooks/i18n/translations.py).
Pages without English sections, every page of a shipped language, are left as they are.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

from site_hooks.i18n import translations
from site_hooks.i18n.translation_checks import english_sections, pages
from tests.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]

ENGLISH = """# The page { #page }

An introduction.

## First { #first }

The first section.

## Second { #second }

The second section.

```figure name="softmax"
```
"""
# zh, translating the page a section at a time: the title and the first two sections done
PARTLY_ENGLISH = (
    ENGLISH.replace("An introduction.", "简介。")
    .replace("The first section.", "第一节。")
    .replace("# The page", "# 页面")
)
HTML = (
    '<h1 id="page">页面</h1>\n<p>简介。</p>\n'
    '<h2 id="first">First<a class="headerlink" href="#first">¶</a></h2>\n<p>第一节。</p>\n'
    '<h2 id="second">Second<a class="headerlink" href="#second">¶</a></h2>\n<p>The second section.</p>\n'
)
NOTE = "本节尚未翻译，以英文显示。[帮助翻译]({translate})"


class Guide:
    """MkDocs' files, as far as the note needs them: where the translators' guide is."""

    def get_file_from_path(self, path: str) -> SimpleNamespace:
        assert path == "translate.md"
        return SimpleNamespace(url="zh/translate/")


def zh_page(src: str = "zh/a.md") -> SimpleNamespace:
    return SimpleNamespace(file=SimpleNamespace(locale="zh", locale_alternate_of="zh", src_uri=src), url="zh/a/")


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    for lang, text in (("en", ENGLISH), ("zh", PARTLY_ENGLISH)):
        (tmp_path / lang).mkdir()
        (tmp_path / lang / "a.md").write_text(text, encoding="utf-8")
    return tmp_path


def test_a_section_still_in_english_gets_the_note_under_its_heading(docs: Path) -> None:
    assert english_sections(docs, "zh", "a.md") == ["second"]
    config = SimpleNamespace(docs_dir=str(docs), extra={"untranslated_section_note": NOTE})
    html = translations.on_page_content(HTML, zh_page(), config, Guide())
    note = (
        '<div class="admonition info translation-section" role="note">\n'
        '<p>本节尚未翻译，以英文显示。<a href="../translate/">帮助翻译</a></p>\n</div>\n'
    )
    assert html == HTML.replace("¶</a></h2>\n<p>The second", f"¶</a></h2>\n{note}\n<p>The second")
    assert html.count("translation-section") == 1
    assert "translation-fallback" not in html  # the page is translated: no page note


def test_a_translated_page_and_an_english_one_get_no_note(docs: Path) -> None:
    (docs / "zh" / "a.md").write_text(PARTLY_ENGLISH.replace("The second section.", "第二节。"), encoding="utf-8")
    config = SimpleNamespace(docs_dir=str(docs), extra={"untranslated_section_note": NOTE})
    assert translations.on_page_content(HTML, zh_page(), config, Guide()) == HTML
    english = SimpleNamespace(file=SimpleNamespace(locale="en", locale_alternate_of="en", src_uri="a.md"), url="a/")
    assert translations.on_page_content(HTML, english, config, Guide()) == HTML


def test_text_before_the_first_heading_gets_the_note_at_the_top() -> None:
    """(and a heading with more attributes than its id is found too)"""
    html = '<p>Intro.</p>\n<h2 id="a">A</h2>\n<p>x</p>\n<h3 class="wide" id="b">B</h3>\n<p>y</p>\n'
    marked = translations.mark_english_sections(html, [None, "b"], "<aside>N</aside>")
    assert marked == (
        '<aside>N</aside><p>Intro.</p>\n<h2 id="a">A</h2>\n<p>x</p>\n'
        '<h3 class="wide" id="b">B</h3>\n<aside>N</aside>\n<p>y</p>\n'
    )


def test_a_missing_text_stops_the_build_naming_it(docs: Path) -> None:
    config = SimpleNamespace(docs_dir=str(docs), extra={})
    with pytest.raises(PluginError, match=r"zh/a.md has sections still in English.*extra.untranslated_section_note"):
        translations.on_page_content(HTML, zh_page(), config, Guide())


@pytest.mark.parametrize("lang", [language.code for language in LANGUAGES[1:]])
def test_every_built_language_gives_the_note_in_its_own_words(lang: str) -> None:
    """Its entry in mkdocs.yml has the text, translated, with the guide's address; a language in
    progress may show the English one meanwhile (the build warns when its entry lacks it)."""
    (language,) = [candidate for candidate in LANGUAGES if candidate.code == lang]
    if language.in_progress:
        pytest.skip(f"{lang} is in progress: it may show the English note meanwhile")
    text = language.text("untranslated_section_note")
    assert "{translate}" in text
    assert text != language.top_extra["untranslated_section_note"]


@pytest.mark.parametrize("lang", [language.code for language in LANGUAGES[1:] if not language.in_progress])
def test_a_shipped_languages_pages_have_no_english_section(lang: str) -> None:
    """So its built pages carry no such note: the note shows only in a language in progress."""
    docs = ROOT / "docs"
    assert [page for page in pages(docs / lang) if english_sections(docs, lang, page)] == []
