"""A source line break between two characters of an unspaced script joins them with nothing
(site_hooks/i18n/line_breaks.py, issue 34); every other page stays byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_hooks.i18n.line_breaks import join_unspaced_lines

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_wrapped_chinese_prose_joins_without_a_space():
    assert (
        join_unspaced_lines("注意力机制。\n这个包用纯 Python\n  写成。\n")
        == "注意力机制。这个包用纯 Python\n  写成。\n"
    )


def test_japanese_kana_and_fullwidth_punctuation_join_too():
    assert join_unspaced_lines("注意の仕組み、\nそれは（例）\n「文」です。") == "注意の仕組み、それは（例）「文」です。"


def test_a_line_break_beside_latin_or_hangul_stays():
    text = "注意力 attention\nmechanism 机制\n주의 메커니즘은\n변환기의 핵심이다\n"
    assert join_unspaced_lines(text) == text


def test_a_blank_line_still_ends_the_paragraph():
    assert join_unspaced_lines("第一段。\n\n第二段。\n") == "第一段。\n\n第二段。\n"


def test_fenced_code_is_left_alone():
    text = "说明：\n说明二\n```python\nx = '中'\ny = '文'\n```\n后文\n后文二\n~~~~\n甲\n乙\n~~~~\n"
    assert (
        join_unspaced_lines(text)
        == "说明：说明二\n```python\nx = '中'\ny = '文'\n```\n后文后文二\n~~~~\n甲\n乙\n~~~~\n"
    )


@pytest.mark.parametrize(
    "page", sorted(p.relative_to(DOCS) for lang in ("en", "he", "fa") for p in (DOCS / lang).rglob("*.md"))
)
def test_the_sites_own_languages_are_unchanged(page):
    text = (DOCS / page).read_text(encoding="utf-8")
    assert join_unspaced_lines(text) == text
