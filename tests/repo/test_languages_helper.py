"""tests/languages.py, which every per-language test takes its languages from: it reads the
built languages from mkdocs.yml like MkDocs does, and a built language that lacks what a test
needs fails that test with a message saying what to add."""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.config import load_config

from tests import languages
from tests.languages import MissingLanguageData, built_languages

ROOT = Path(__file__).resolve().parents[2]

CONFIG = """\
site_name: x
extra:
  made_with: Made with
markdown_extensions:
  - pymdownx.superfences:
      custom_fences:
        - name: figure
          format: !!python/name:site_hooks.content.figures.format
site_url: !ENV [SITE_URL, ""]
plugins:
  - search
  - i18n:
      languages:
        - locale: de
          name: Deutsch
          build: true
          extra: {translation_in_progress: true}
        - locale: en
          default: true
          name: English
          build: true
        - locale: ar
          name: العربية
          build: false
        - locale: ur
          name: اردو
          extra: {made_with: "بنایا گیا"}
"""


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    (tmp_path / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    return tmp_path / "mkdocs.yml"


def test_the_built_languages_default_first_in_mkdocs_yml_order(scratch: Path) -> None:
    found = built_languages(scratch)
    assert [lang.code for lang in found] == ["en", "de", "ur"]  # ar has build: false
    assert [lang.prefix for lang in found] == ["", "de/", "ur/"]
    assert found[1].in_progress
    assert not found[2].in_progress
    assert found[2].text("made_with") == "بنایا گیا"
    assert found[0].text("made_with") == "Made with"  # the default language may use the site's own


def test_missing_data_fails_with_what_to_add(scratch: Path) -> None:
    de = built_languages(scratch)[1]
    with pytest.raises(
        MissingLanguageData, match=r"language 'de' \(Deutsch\): add `made_with: \.\.\.`.* under `extra:`"
    ):
        de.text("made_with")
    with pytest.raises(MissingLanguageData, match=r"docs/de/index.md is missing"):
        _ = de.direction
    with pytest.raises(MissingLanguageData, match=r"docs/figure-strings/de.yml is missing: copy"):
        de.page_string("run")


def test_direction_title_and_search_word_come_from_the_home_page(scratch: Path) -> None:
    docs = scratch.parent / "docs"
    (docs / "ur").mkdir(parents=True)
    (docs / "ur" / "index.md").write_text(
        "# توجہ، ایک سطر ایک وقت { #home }\n\nیہ سائٹ `attention_py` اور NumPy کے بغیر سمجھاتی ہے۔\n\n"
        "```python\nprint('a long line of code in English, longer than the prose around it')\n```\n",
        encoding="utf-8",
    )
    ur = built_languages(scratch)[2]
    assert ur.direction == "rtl"
    assert ur.title == "توجہ، ایک سطر ایک وقت"
    assert ur.search_word == "توجہ"


def test_the_site_languages_are_those_mkdocs_builds() -> None:
    """The helper's YAML reading agrees with MkDocs' own loader on the real mkdocs.yml."""
    config = load_config(str(ROOT / "mkdocs.yml"))
    entries = config.plugins["i18n"].config.languages
    expected = [e.locale for e in entries if e.default] + [e.locale for e in entries if e.build and not e.default]
    assert expected == languages.CODES
    assert len(languages.CODES) >= 2
    for lang in languages.LANGUAGES:  # every built language has what the browser tests need
        assert lang.direction in ("ltr", "rtl")
        assert lang.search_word
        assert lang.page_string("run")
