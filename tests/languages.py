"""The languages the site builds, for every per-language test: read from mkdocs.yml (the i18n
plugin's ``languages``, those with ``build: true``; the default language first), never
written out in a test. A language added by a translator is then tested like the others
without touching a test.

What a test needs to know about a language is derived from the language's own files - its
entry in mkdocs.yml, its pages (docs/<code>/), its strings file (docs/figure-strings/<code>.yml)
- never from a table keyed by code. Where a built language lacks what a test needs,
``MissingLanguageData`` fails the test with a message that tells the translator what to add.

    from tests.languages import LANGUAGES, CODES, language
    @pytest.mark.parametrize("lang", CODES)
    def test_x(lang): page.goto(f"{site_url}/{language(lang).prefix}")

``ATTENTION_MKDOCS_YML`` points the tests at another configuration (the throwaway-language
test builds a copy of the site with one more language and checks it with these helpers).
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from site_hooks.i18n.languages import read_mkdocs_yml

ROOT = Path(__file__).resolve().parents[1]


class MissingLanguageData(AssertionError):
    """A built language lacks something a test needs; the message says what to add, where."""


@cache
def read_config(path: Path) -> dict[str, Any]:
    return read_mkdocs_yml(path)


def config_path() -> Path:
    return Path(os.environ.get("ATTENTION_MKDOCS_YML") or ROOT / "mkdocs.yml")


def i18n_options(config: dict[str, Any]) -> dict[str, Any]:
    for plugin in config.get("plugins") or []:
        if isinstance(plugin, dict) and "i18n" in plugin:
            return plugin["i18n"] or {}
    raise MissingLanguageData("mkdocs.yml has no i18n plugin (plugins: - i18n: languages: ...)")


# --------------------------------------------------------------------------- a language


_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
_CODE = re.compile(r"`[^`\n]*`|\$[^$\n]*\$|\{[^}\n]*\}|\]\([^)\n]*\)|<[^>\n]*>")


@dataclass(frozen=True)
class Language:
    """One built language, as its entry in mkdocs.yml and its files describe it."""

    code: str
    entry: dict[str, Any] = field(repr=False)
    top_extra: dict[str, Any] = field(repr=False)  # the site's own `extra` (English texts)
    docs: Path = field(repr=False)

    @property
    def default(self) -> bool:
        return bool(self.entry.get("default"))

    @property
    def name(self) -> str:
        return str(self.entry.get("name") or self.code)

    @property
    def prefix(self) -> str:
        """Where its pages are, relative to the site root: "" for the default language, "he/"."""
        return "" if self.default else f"{self.code}/"

    @property
    def extra(self) -> dict[str, Any]:
        return self.entry.get("extra") or {}

    @property
    def in_progress(self) -> bool:
        return bool(self.extra.get("translation_in_progress"))

    def fail(self, what: str) -> MissingLanguageData:
        return MissingLanguageData(f"language {self.code!r} ({self.name}): {what}")

    def text(self, key: str) -> str:
        """A text of the language's ``extra`` in mkdocs.yml; the default language may leave it
        to the site's own ``extra`` (English)."""
        value = self.extra.get(key)
        if value is None and self.default:
            value = self.top_extra.get(key)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"add `{key}: ...` (in this language) under `extra:` of its entry in mkdocs.yml")
        return value

    # ---- its pages

    def page_path(self, page: str) -> Path:
        return self.docs / self.code / page

    def page_text(self, page: str) -> str:
        path = self.page_path(page)
        if not path.is_file():
            raise self.fail(
                f"docs/{self.code}/{page} is missing; every built language needs at least its home page, "
                f"translated from docs/en/{page}"
            )
        return path.read_text(encoding="utf-8")

    @cached_property
    def prose(self) -> str:
        """The home page's text without code, math, links' targets and attribute lists."""
        return _CODE.sub(" ", _FENCE.sub(" ", self.page_text("index.md")))

    @cached_property
    def direction(self) -> str:
        """ "rtl" when most letters of its home page are right-to-left ones, else "ltr".

        Read from the language's own writing, not from the code: a test that compares this
        with the page's ``dir`` checks the theme gives the language the direction it is
        written in."""
        counts = {"L": 0, "R": 0}
        for char in self.prose:
            if char.isalpha():
                kind = unicodedata.bidirectional(char)
                if kind in ("R", "AL"):
                    counts["R"] += 1
                elif kind == "L":
                    counts["L"] += 1
        return "rtl" if counts["R"] > counts["L"] else "ltr"

    @cached_property
    def title(self) -> str:
        """The home page's first heading, without its ``{ #id }``."""
        match = re.search(r"^#\s+(.+?)\s*(\{[^}]*\})?\s*$", self.page_text("index.md"), re.MULTILINE)
        if not match:
            raise self.fail(f"docs/{self.code}/index.md has no '# Title {{ #home }}' heading")
        return match.group(1)

    @cached_property
    def search_word(self) -> str:
        """A word of the language's own, to search for: the longest word of its home page's
        title that is written in the language's own letters (for English: any)."""
        words = [w for w in re.findall(r"[^\W\d_]+", self.title) if len(w) >= 3]
        if not self.default:
            words = [w for w in words if not w.isascii()] or words
        if not words:
            raise self.fail(
                f"the title of docs/{self.code}/index.md has no word of three letters or more to search for"
            )
        return max(words, key=len)

    # ---- its strings file

    @cached_property
    def strings(self) -> dict[str, Any]:
        from site_hooks.content.figures import load_strings

        path = self.docs / "figure-strings" / f"{self.code}.yml"
        if not path.is_file():
            raise self.fail(
                f"docs/figure-strings/{self.code}.yml is missing: copy docs/figure-strings/en.yml "
                "and translate its values"
            )
        return load_strings(path)

    def page_string(self, key: str) -> str:
        """A text of the ``page`` section of its strings file (what the page's scripts say)."""
        value = (self.strings.get("page") or {}).get(key)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"docs/figure-strings/{self.code}.yml: add `{key}` to its `page` section")
        return value


# --------------------------------------------------------------------------- all of them


def built_languages(path: Path | None = None) -> list[Language]:
    """The built languages of the configuration at ``path`` (default: config_path()), the
    default language first, then in the order of mkdocs.yml."""
    path = path or config_path()
    config = read_config(path)
    docs = path.parent / (config.get("docs_dir") or "docs")
    entries = i18n_options(config).get("languages") or []
    found = [
        Language(str(entry["locale"]), entry, config.get("extra") or {}, docs)
        for entry in entries
        if isinstance(entry, dict) and entry.get("locale") and entry.get("build", True)
    ]
    defaults = [language for language in found if language.default]
    if len(defaults) != 1:
        raise MissingLanguageData(f"{path}: exactly one i18n language needs `default: true` (found {len(defaults)})")
    return defaults + [language for language in found if not language.default]


LANGUAGES = built_languages()
CODES = [language.code for language in LANGUAGES]
DEFAULT = LANGUAGES[0]
OTHERS = CODES[1:]  # the translations


def translated(page: str) -> list[str]:
    """The built languages with their own ``docs/<lang>/<page>`` (the default always): the
    others, still in progress, show English's page there, with English's figures and cells."""
    return [lang.code for lang in LANGUAGES if lang.default or lang.page_path(page).is_file()]


def language(code: str) -> Language:
    for candidate in LANGUAGES:
        if candidate.code == code:
            return candidate
    raise KeyError(f"{code!r} is not a built language of {config_path()} ({', '.join(CODES)})")


def language_of_path(path: str) -> str:
    """The language of a site path ("/fa/gallery/" -> "fa", "/gallery/" -> the default)."""
    first = path.lstrip("/").split("/", 1)[0]
    return first if first in OTHERS else DEFAULT.code
