"""attention_py.resources.page_language: the language of the page whose code runs (set by the
page's runtime), else ATTENTION_PY_LANG, else English; only language codes are taken.
Standard library only: this file runs inside Pyodide too."""

import pytest

from attention_py import resources


@pytest.fixture
def clean(monkeypatch):
    saved = dict(resources._page)
    resources._page.clear()
    monkeypatch.delenv("ATTENTION_PY_LANG", raising=False)
    yield monkeypatch
    resources._page.clear()
    resources._page.update(saved)


def test_english_unless_told(clean):
    assert resources.page_language() == "en"


def test_the_environment_then_the_page_decide(clean):
    clean.setenv("ATTENTION_PY_LANG", "he")
    assert resources.page_language() == "he"
    resources.set_page_language("pt_BR")
    assert resources.page_language() == "pt_BR"


@pytest.mark.parametrize("bad", ["", "EN", "../en", "en/x", "english", None, 3])
def test_only_a_language_code_is_taken(clean, bad):
    with pytest.raises(ValueError, match="language"):
        resources.set_page_language(bad)
    clean.setenv("ATTENTION_PY_LANG", str(bad))
    assert resources.page_language() == "en"
