"""What the build knows about each language, from its code and its entry in mkdocs.yml.

A translator adds a language with a folder (docs/<code>/), a strings file
(docs/figure-strings/<code>.yml) and an entry in the i18n plugin's ``languages`` list; no
Python, CSS or template. Everything else about the language is derived here, once, and
checked before the build starts (``on_config``):

- **script**: from the code, by the table below (``LANGUAGE_SCRIPTS``); a code it does not
  know, or a language written in another script than usual, says ``script:`` in its entry's
  ``extra``;
- **face**: the entry's ``extra.font`` names one of the faces the site self-hosts (every
  ``@fontsource/<name>`` package pinned in package.json, see assets/vendored.py), and that face
  must cover the script. The per-language CSS rule is generated from it (assets/publish.py);
- **direction**: Material's own translation for the code (the file that puts ``dir`` on the
  page, ``partials/languages/<code>.html``), so the figures (site_hooks/content/figures.py)
  and the page can never disagree. No strings file or entry states it;
- **texts**: every text of the top-level ``extra`` (English: the footer's ``made_with``,
  ``untranslated_note``, the 404 page's ``not_found``, the notebook links...) must be given by
  each other built language in its entry's ``extra``. A missing one is a warning naming the
  key (an error under ``--strict``) and the page shows the English text.

A built language without a face, a face that does not cover the script, or a code whose
script is unknown stops the build with a message that names the language and says what to
write. The hook language_checks.py runs ``check`` before the build and ``fill_in_english``
before each language's build, both with the English texts the build keeps (``Build.english``,
site_hooks/build.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import get_plugin_logger

from site_hooks.assets.vendored import FontFace, offered_faces

log = get_plugin_logger("languages")


class _IgnoreTags(yaml.SafeLoader):
    """mkdocs.yml's ``!ENV`` and ``!!python/name:`` tags read as nothing."""


_IgnoreTags.add_multi_constructor("!", lambda loader, suffix, node: None)
_IgnoreTags.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def read_mkdocs_yml(path: Path) -> dict[str, Any]:
    """mkdocs.yml as plain data, for tools that want its settings (the languages) without a
    build: its tags (environment variables, Python names) read as None."""
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_IgnoreTags) or {}


# The @fontsource subsets a face needs to cover a script. Latin needs latin-ext too (Polish,
# Czech, Turkish...); Vietnamese is Latin with stacked accents, which fonts ship apart.
SCRIPT_SUBSETS: dict[str, tuple[str, ...]] = {
    "latin": ("latin", "latin-ext"),
    "vietnamese": ("latin", "latin-ext", "vietnamese"),
    "cyrillic": ("cyrillic", "cyrillic-ext"),
    "greek": ("greek",),
    "armenian": ("armenian",),
    "georgian": ("georgian",),
    "hebrew": ("hebrew",),
    "arabic": ("arabic",),
    "devanagari": ("devanagari",),
    "thai": ("thai",),
    # The CJK faces (@fontsource/noto-sans-sc, -tc, -jp, -kr) name one such subset and ship it
    # as about a hundred numbered unicode-range slices (assets/vendored.py).
    "han-simplified": ("chinese-simplified",),
    "han-traditional": ("chinese-traditional",),
    "kana": ("japanese",),
    "hangul": ("korean",),
}
RIGHT_TO_LEFT_SCRIPTS = frozenset({"hebrew", "arabic"})
# Scripts whose languages write no space between words (Chinese, Japanese; Korean does):
# search segments their text into words (i18n/search.py) and a line break of their Markdown
# source joins with no space (i18n/line_breaks.py).
UNSPACED_SCRIPTS = frozenset({"han-simplified", "han-traditional", "kana"})

# Every page shows some Latin (code, names, the words of formulas): a face's Latin subsets are
# shipped whenever it has them. unicode-range keeps a page from downloading what it never shows.
ALWAYS_SHIPPED = ("latin", "latin-ext")

# Code shows more than Latin in every language: Greek letters in the formulas of comments and
# docstrings (Σ), Cyrillic in the translators' guide's examples of a case-inflecting language.
# The code face ships these subsets too, wherever it has them.
CODE_ALWAYS_SHIPPED = (*ALWAYS_SHIPPED, "greek", "cyrillic")

# The script each common language is written in (ISO 639-1 code, or Material's code).
LANGUAGE_SCRIPTS: dict[str, str] = {
    **dict.fromkeys(
        [
            "af",
            "az",
            "ca",
            "cs",
            "cy",
            "da",
            "de",
            "en",
            "eo",
            "es",
            "et",
            "eu",
            "fi",
            "fr",
            "ga",
            "gl",
            "hr",
            "hu",
            "id",
            "is",
            "it",
            "lb",
            "lt",
            "lv",
            "ms",
            "mt",
            "nb",
            "nl",
            "nn",
            "no",
            "pl",
            "pt",
            "pt-BR",
            "ro",
            "sh",
            "sk",
            "sl",
            "sq",
            "sv",
            "sw",
            "tl",
            "tr",
            "uz",
        ],
        "latin",
    ),
    "vi": "vietnamese",
    **dict.fromkeys(["be", "bg", "kk", "ky", "mk", "mn", "ru", "sr", "tg", "uk"], "cyrillic"),
    "el": "greek",
    "hy": "armenian",
    "ka": "georgian",
    **dict.fromkeys(["he", "yi"], "hebrew"),
    **dict.fromkeys(["ar", "fa", "ku-IQ", "ps", "sd", "ug", "ur"], "arabic"),
    **dict.fromkeys(["hi", "mr", "ne", "sa"], "devanagari"),
    "th": "thai",
    "zh": "han-simplified",
    **dict.fromkeys(["zh-Hant", "zh-TW"], "han-traditional"),
    "ja": "kana",
    "ko": "hangul",
}

# What an entry's `extra` may hold besides the texts: the language's settings.
SETTINGS = ("font", "script", "translation_in_progress")

# Texts the site's hooks and templates read from `extra`: mkdocs.yml must give them in English.
REQUIRED_TEXTS = {
    "made_with": "the footer's 'Made with' (docs/overrides/partials/copyright.html)",
    "untranslated_note": "the note on an untranslated page (site_hooks/i18n/translations.py)",
    "untranslated_section_note": "the note under a section still in English (site_hooks/i18n/translations.py)",
    "not_found": "the 404 page's message (site_hooks/i18n/not_found.py)",
}


class LanguageError(ValueError):
    """A language the build cannot lay out; the message names it and says what to write."""


@dataclass(frozen=True)
class SiteLanguage:
    """One built language, as the build lays it out."""

    locale: str
    default: bool
    script: str
    direction: str  # "ltr" or "rtl", the page's (Material's)
    face: FontFace

    @property
    def home(self) -> str:
        """Its home page, relative to the site root: "" for the default language, "he/"..."""
        return "" if self.default else f"{self.locale}/"

    @property
    def subsets(self) -> tuple[str, ...]:
        """The face's subsets its pages need: its script's, and Latin where the face has it."""
        return self.subsets_of(self.face)

    def subsets_of(self, face: FontFace) -> tuple[str, ...]:
        """The subsets of ``face`` its pages may show: its script's and Latin, those ``face`` has."""
        wanted = SCRIPT_SUBSETS[self.script] + ALWAYS_SHIPPED
        return tuple(dict.fromkeys(s for s in wanted if s in face.subsets))


def code_subsets(built: Iterable[SiteLanguage], face: FontFace) -> tuple[str, ...]:
    """The subsets of the code face the built languages' pages need, those the face has:
    ``CODE_ALWAYS_SHIPPED``, and each language's script (Vietnamese for vi, cyrillic-ext for a
    Cyrillic language; not Hebrew or Arabic, which the code face lacks: the browser draws
    those glyphs in the system's monospace, and code rarely has them)."""
    wanted = [*CODE_ALWAYS_SHIPPED, *(subset for language in built for subset in language.subsets_of(face))]
    return tuple(dict.fromkeys(subset for subset in wanted if subset in face.subsets))


def _scripts_list() -> str:
    return ", ".join(SCRIPT_SUBSETS)


def script_of(locale: str, declared: object = None) -> str:
    """The script ``locale`` is written in: the entry's ``script:`` if it says one, else the table."""
    if declared is not None:
        if declared not in SCRIPT_SUBSETS:
            raise LanguageError(
                f"{locale}: extra.script '{declared}' is not a script the build knows; write one of: {_scripts_list()}"
            )
        return str(declared)
    script = LANGUAGE_SCRIPTS.get(locale) or LANGUAGE_SCRIPTS.get(re.split(r"[-_]", locale)[0])
    if script is None:
        raise LanguageError(
            f"{locale}: the build does not know which script the language '{locale}' is written in; "
            f"say it in its entry in mkdocs.yml, `extra: {{script: ...}}`, one of: {_scripts_list()}"
        )
    return script


def covered_scripts(face: FontFace) -> list[str]:
    """The scripts whose every subset ``face`` ships."""
    return [script for script, needed in SCRIPT_SUBSETS.items() if set(needed) <= set(face.subsets)]


def describe_faces(faces: Mapping[str, FontFace]) -> str:
    """``heebo (hebrew, latin), ...``: what a translator may choose from, for error messages."""
    return ", ".join(f"{name} ({', '.join(covered_scripts(face))})" for name, face in sorted(faces.items()))


def face_of(locale: str, font: object, script: str, faces: Mapping[str, FontFace]) -> FontFace:
    """The face the entry names, checked: it exists and covers ``script``."""
    fitting = [name for name, face in sorted(faces.items()) if script in covered_scripts(face)]
    advice = (
        f"faces that cover {script}: {', '.join(fitting)}"
        if fitting
        else f"no face the site offers covers {script}: a maintainer adds one by pinning a @fontsource package "
        f"with the subsets {', '.join(SCRIPT_SUBSETS[script])} in package.json"
    )
    if font is None:
        raise LanguageError(
            f"{locale}: no face: its entry in mkdocs.yml needs `extra: {{font: ...}}` "
            f"({advice}; all faces: {describe_faces(faces)})"
        )
    face = faces.get(str(font))
    if face is None:
        raise LanguageError(
            f"{locale}: extra.font '{font}' is not a face the site offers; choose one of: {describe_faces(faces)}"
        )
    if script not in covered_scripts(face):
        missing = [s for s in SCRIPT_SUBSETS[script] if s not in face.subsets]
        raise LanguageError(
            f"{locale}: the face '{font}' does not cover the {script} script the language is written in "
            f"(it lacks the subsets {', '.join(missing)}); {advice}"
        )
    return face


def material_languages_dir() -> Path:
    import material  # the theme package, installed with mkdocs-material

    return Path(material.__file__).parent / "templates" / "partials" / "languages"


@cache
def direction_of(locale: str) -> str:
    """The direction Material gives pages in ``locale`` ("rtl" or "ltr"): the same source as
    the page's ``dir``. Material falls back to English (ltr) where its file says nothing."""
    path = material_languages_dir() / f"{locale}.html"
    if not path.is_file():
        raise LanguageError(
            f"{locale}: Material for MkDocs has no translation for the code '{locale}', so it cannot "
            f"lay out its pages; use the code Material uses for the language (the names in {path.parent})"
        )
    match = re.search(r'"direction":\s*"(ltr|rtl)"', path.read_text(encoding="utf-8"))
    return match.group(1) if match else "ltr"


def resolve(entry: Any, faces: Mapping[str, FontFace]) -> SiteLanguage:
    """One entry of the i18n plugin (locale, default, extra...) as the build lays it out.

    Raises LanguageError naming the language when its script, face or direction is wrong.
    """
    locale = entry.locale
    extra = entry.extra or {}
    script = script_of(locale, extra.get("script"))
    face = face_of(locale, extra.get("font"), script, faces)
    direction = direction_of(locale)
    if (script in RIGHT_TO_LEFT_SCRIPTS) != (direction == "rtl"):
        raise LanguageError(
            f"{locale}: written in {script}, a {'right-to-left' if script in RIGHT_TO_LEFT_SCRIPTS else 'left-to-right'} "
            f"script, but Material lays out '{locale}' pages {direction}; check the code and `script:`"
        )
    return SiteLanguage(locale=locale, default=bool(entry.default), script=script, direction=direction, face=face)


def i18n_languages(config: MkDocsConfig) -> list[Any]:
    """The i18n plugin's language entries (locale, default, build, extra...), in order."""
    plugin = config.plugins.get("i18n")
    return list(plugin.config.languages) if plugin is not None else []


def built_entries(config: MkDocsConfig) -> list[Any]:
    return [entry for entry in i18n_languages(config) if entry.build]


def site_languages(config: MkDocsConfig) -> list[SiteLanguage]:
    """Every built language, resolved; PluginError listing every problem if any."""
    faces = offered_faces()
    languages, problems = [], []
    for entry in built_entries(config):
        try:
            languages.append(resolve(entry, faces))
        except LanguageError as error:
            problems.append(str(error))
    if problems:
        raise PluginError("languages in mkdocs.yml need fixing:\n  " + "\n  ".join(problems))
    return languages


def texts_of(extra: Mapping[str, Any]) -> dict[str, str]:
    """The texts of an ``extra`` mapping (what pages show), without the language's settings."""
    return {key: value for key, value in extra.items() if isinstance(value, str) and key not in SETTINGS}


def text_problems(defaults: Mapping[str, str], entries: Iterable[Any]) -> list[str]:
    """A line per text a non-default built language lacks, or per key its ``extra`` has that
    nothing reads (a typo), or per template placeholder it lost."""
    problems = []
    for entry in entries:
        if entry.default or not entry.build:
            continue
        extra = entry.extra or {}
        for key, english in defaults.items():
            if not isinstance(extra.get(key), str) or not extra[key].strip():
                problems.append(
                    f"{entry.locale}: extra.{key} is missing from its entry in mkdocs.yml, so its pages show "
                    f"the English '{english}'; add it in the language"
                )
                continue
            lost = sorted(set(re.findall(r"\{(\w+)\}", english)) - set(re.findall(r"\{(\w+)\}", extra[key])))
            if lost:
                problems.append(
                    f"{entry.locale}: extra.{key} lost {', '.join('{' + name + '}' for name in lost)} (keep it)"
                )
        unknown = sorted(set(extra) - set(defaults) - set(SETTINGS))
        problems.extend(
            f"{entry.locale}: extra.{key} is not read by anything (the texts are: {', '.join(defaults)}; "
            f"the settings: {', '.join(SETTINGS)})"
            for key in unknown
        )
    return problems


def _i18n(config: MkDocsConfig) -> Any:
    return config.plugins.get("i18n")


def check(config: MkDocsConfig, english: dict[str, str]) -> list[SiteLanguage]:
    """Once per build, before static-i18n merges an entry into ``extra``: keep the English
    texts in ``english`` (the build's, ``Build.english``), stop on a language the build cannot
    lay out, warn about missing texts. Returns the languages checked (none in static-i18n's
    builds of the other languages)."""
    plugin = _i18n(config)
    if plugin is not None and plugin.current_language is not None:
        return []  # static-i18n's build of another language: checked once, at the start
    english.clear()
    english.update(texts_of(config.extra or {}))
    missing = [f"extra.{key}, {what}" for key, what in REQUIRED_TEXTS.items() if key not in english]
    if missing:
        raise PluginError("mkdocs.yml lacks English texts at the top level:\n  " + "\n  ".join(missing))
    if config.theme.get("direction"):
        raise PluginError("mkdocs.yml sets theme.direction: remove it; each language's direction comes from its code")
    built = site_languages(config)
    for problem in text_problems(english, built_entries(config)):
        log.warning(problem)
    return built


def fill_in_english(config: MkDocsConfig, english: dict[str, str]) -> None:
    """The language being built shows English (``english``, as ``check`` kept them) for every
    text its entry leaves out.

    static-i18n updates one ``extra`` in place for each language in turn, so without this a
    text the previous language gave would stay for the next.
    """
    plugin = _i18n(config)
    if plugin is None or plugin.current_language is None:
        return
    entry = next((e for e in i18n_languages(config) if e.locale == plugin.current_language), None)
    own = (entry.extra or {}) if entry is not None else {}
    for key, text in english.items():
        if key not in own:
            config.extra[key] = text
