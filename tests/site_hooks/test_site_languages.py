"""A language is its folder, its strings file and its entry in mkdocs.yml: the build derives
its script, checks its face and takes its direction from the code (site_hooks/i18n/languages.py).

Each check is tried on a language that gets it wrong, and the message must name the
language and say what to write.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.config import load_config
from mkdocs.exceptions import PluginError

from site_hooks.assets.vendored import CODE_FACE, FontFace, code_face, code_points, font_assets, offered_faces
from site_hooks.content.figures import check_strings_file, strings_for
from site_hooks.i18n import languages, script_coverage
from site_hooks.i18n.languages import LanguageError, direction_of, face_of, resolve, script_of, text_problems

ROOT = Path(__file__).resolve().parents[2]
FACES = {
    "latin-only": FontFace("latin-only", "Latin Only", ("latin", "latin-ext")),
    "hebrew-face": FontFace("hebrew-face", "Hebrew Face", ("hebrew", "latin", "latin-ext")),
    "arabic-face": FontFace("arabic-face", "Arabic Face", ("arabic", "latin", "latin-ext")),
}


def entry(locale: str, default: bool = False, build: bool = True, **extra: object) -> SimpleNamespace:
    """An entry of the i18n plugin's ``languages`` list, as the plugin hands it over."""
    return SimpleNamespace(locale=locale, default=default, build=build, extra=extra or None)


# The script, from the code


@pytest.mark.parametrize(
    ("code", "script"),
    [
        ("en", "latin"),
        ("pt-BR", "latin"),
        ("ru", "cyrillic"),
        ("uk", "cyrillic"),
        ("he", "hebrew"),
        ("ar", "arabic"),
        ("fa", "arabic"),
        ("ur", "arabic"),
        ("el", "greek"),
        ("vi", "vietnamese"),
    ],
)
def test_the_script_comes_from_the_code(code, script):
    assert script_of(code) == script


def test_an_entry_may_declare_its_script():
    assert script_of("sr", "latin") == "latin"  # Serbian is written in both
    assert script_of("xx", "arabic") == "arabic"


def test_an_unknown_code_asks_for_script_in_the_entry():
    with pytest.raises(LanguageError) as error:
        script_of("xx")
    message = str(error.value)
    assert message.startswith("xx: ")
    assert "`extra: {script: ...}`" in message
    assert "cyrillic" in message


def test_an_unknown_declared_script_lists_the_known_ones():
    with pytest.raises(LanguageError, match=r"^xx: extra.script 'klingon' is not a script .* hebrew"):
        script_of("xx", "klingon")


# The face


def test_a_language_without_a_face_stops_the_build_naming_it():
    with pytest.raises(LanguageError) as error:
        face_of("he", None, "hebrew", FACES)
    message = str(error.value)
    assert message.startswith("he: no face: ")
    assert "`extra: {font: ...}`" in message
    assert "faces that cover hebrew: hebrew-face" in message


def test_a_face_that_does_not_cover_the_script_stops_the_build():
    with pytest.raises(LanguageError) as error:
        face_of("fa", "hebrew-face", "arabic", FACES)
    message = str(error.value)
    assert message.startswith("fa: the face 'hebrew-face' does not cover the arabic script")
    assert "lacks the subsets arabic" in message
    assert "faces that cover arabic: arabic-face" in message


def test_a_script_no_face_covers_says_a_maintainer_must_add_one():
    with pytest.raises(LanguageError, match="no face the site offers covers cyrillic"):
        face_of("ru", "latin-only", "cyrillic", FACES)


def test_a_face_the_site_does_not_offer_lists_the_offered_ones():
    with pytest.raises(LanguageError, match=r"^de: extra.font 'hebo' is not a face the site offers; choose one of: "):
        face_of("de", "hebo", "latin", FACES)


def test_a_face_that_covers_the_script_is_taken():
    assert face_of("ar", "arabic-face", "arabic", FACES).family == "Arabic Face"


def test_the_offered_faces_cover_latin_hebrew_arabic_and_cyrillic():
    covered = {script for face in offered_faces().values() for script in languages.covered_scripts(face)}
    assert {"latin", "hebrew", "arabic", "cyrillic"} <= covered


# The code face: one monospace for every language


MONO = FontFace("mono", "Mono", ("cyrillic", "cyrillic-ext", "greek", "latin", "latin-ext", "vietnamese"), (400, 700))


def test_the_code_face_is_pinned_covers_latin_and_cyrillic_and_is_no_text_face():
    face = code_face()
    assert face.name == CODE_FACE
    assert {"latin", "cyrillic"} <= set(languages.covered_scripts(face))
    assert face.weights == (400, 700)  # code, and the bold keywords of notebook cells
    assert CODE_FACE not in offered_faces(), "a translator chooses a text face; code has its own"


def test_code_ships_latin_greek_and_cyrillic_and_each_languages_script_the_face_has():
    def language(locale: str, script: str) -> languages.SiteLanguage:
        return languages.SiteLanguage(locale, False, script, "ltr", FACES["latin-only"])

    hebrew, vietnamese, ukrainian = language("he", "hebrew"), language("vi", "vietnamese"), language("uk", "cyrillic")
    always = ("latin", "latin-ext", "greek", "cyrillic")
    assert languages.code_subsets([hebrew], MONO) == always, "no Hebrew subset: the browser falls back per glyph"
    assert languages.code_subsets([hebrew, vietnamese], MONO) == (*always, "vietnamese")
    assert languages.code_subsets([ukrainian], MONO) == (*always, "cyrillic-ext")
    latin_mono = FontFace("m", "M", ("latin", "latin-ext"))
    assert languages.code_subsets([hebrew, ukrainian], latin_mono) == ("latin", "latin-ext")


# The direction, from Material, which sets the page's


@pytest.mark.parametrize(
    ("code", "direction"), [("en", "ltr"), ("de", "ltr"), ("he", "rtl"), ("fa", "rtl"), ("ar", "rtl"), ("ur", "rtl")]
)
def test_the_direction_is_materials_for_the_code(code, direction):
    assert direction_of(code) == direction


def test_a_code_material_does_not_know_stops_the_build():
    with pytest.raises(LanguageError, match=r"^xx: Material for MkDocs has no translation for the code 'xx'"):
        direction_of("xx")


def test_a_script_against_the_pages_direction_stops_the_build():
    with pytest.raises(
        LanguageError, match=r"^de: written in arabic, a right-to-left script, but Material lays out 'de' pages ltr"
    ):
        resolve(entry("de", font="arabic-face", script="arabic"), FACES)


def test_an_entry_resolves_to_script_face_and_direction():
    language = resolve(entry("fa", font="arabic-face"), FACES)
    assert (language.script, language.direction, language.face.family, language.home) == (
        "arabic",
        "rtl",
        "Arabic Face",
        "fa/",
    )
    assert language.subsets == ("arabic", "latin", "latin-ext")


# Figures take the page's direction; strings files do not state it


def test_figures_get_the_direction_of_the_language_code():
    for code in ("en", "he", "fa"):
        assert strings_for(code)["common"]["direction"] == direction_of(code)


def test_a_strings_file_that_states_the_direction_is_told_to_remove_it(tmp_path):
    english = (ROOT / "docs" / "figure-strings" / "en.yml").read_text(encoding="utf-8")
    (tmp_path / "en.yml").write_text(english, encoding="utf-8")
    (tmp_path / "ar.yml").write_text(english.replace("common:\n", "common:\n  direction: ltr\n", 1), encoding="utf-8")
    problems = check_strings_file(tmp_path / "ar.yml")
    assert problems == [
        f"{tmp_path / 'ar.yml'}: common.direction: remove this line: the build derives it from the language code "
        "(a figure's direction is its page's)"
    ]


# Texts of the entries


DEFAULTS = {
    "made_with": "Made with",
    "untranslated_note": "Not translated. [Help]({translate}).",
    "not_found": "None. [Home]({home}).",
}


def test_a_language_lacking_a_text_is_warned_about_by_key():
    complete = {
        "made_with": "Gemacht mit",
        "untranslated_note": "Fehlt. [Hilfe]({translate}).",
        "not_found": "Nichts. [Start]({home}).",
    }
    partial = dict(complete)
    del partial["made_with"]
    problems = text_problems(DEFAULTS, [entry("en", default=True), entry("de", font="latin-only", **partial)])
    assert problems == [
        "de: extra.made_with is missing from its entry in mkdocs.yml, so its pages show the English 'Made with'; "
        "add it in the language"
    ]
    assert text_problems(DEFAULTS, [entry("de", font="latin-only", **complete)]) == []
    assert text_problems(DEFAULTS, [entry("de", build=False)]) == []  # not built, not checked


def test_a_text_that_lost_its_link_or_a_misspelt_key_is_warned_about():
    problems = text_problems(
        DEFAULTS,
        [
            entry(
                "de",
                font="latin-only",
                made_with="Gemacht mit",
                made_width="x",
                untranslated_note="Fehlt.",
                not_found="Nichts. [Start]({home}).",
            )
        ],
    )
    assert "de: extra.untranslated_note lost {translate} (keep it)" in problems
    assert any(p.startswith("de: extra.made_width is not read by anything") for p in problems)
    assert len(problems) == 2


# The real configuration


@pytest.fixture(scope="module")
def config():
    return load_config(str(ROOT / "mkdocs.yml"))


def test_every_built_language_in_mkdocs_yml_has_a_face_covering_its_script(config):
    built = languages.site_languages(config)
    assert built
    assert sum(language.default for language in built) == 1
    assert languages.text_problems(languages.texts_of(config.extra), languages.built_entries(config)) == []


def test_the_build_stops_on_an_entry_without_a_face(config):
    language = next(e for e in languages.built_entries(config) if not e.default)
    saved = dict(language.extra)
    try:
        del language.extra["font"]
        with pytest.raises(PluginError, match=rf"\n  {language.locale}: no face: "):
            languages.site_languages(config)
    finally:
        language.extra.clear()
        language.extra.update(saved)


def test_the_generated_css_gives_each_language_its_face_and_no_hand_written_rule_does(config):
    built = languages.site_languages(config)
    files, css, _ = font_assets((lang.locale, lang.face, lang.subsets) for lang in built)
    for lang in built:
        assert f':root[lang="{lang.locale}"]{{--md-text-font:"{lang.face.family}"}}' in css
        assert f"assets/fonts/{lang.face.name}-{lang.subsets[0]}-400-normal.woff2" in files
    site_css = (ROOT / "docs" / "assets" / "extras" / "site.css").read_text(encoding="utf-8")
    assert not re.search(r":root\[lang=", site_css), "the per-language font rules are generated from mkdocs.yml"


def test_the_generated_css_sets_materials_code_font_to_the_code_face_in_every_weight(config):
    built = languages.site_languages(config)
    face = code_face()
    subsets = languages.code_subsets(built, face)
    files, css, _ = font_assets(((lang.locale, lang.face, lang.subsets) for lang in built), (face, subsets))
    assert f':root{{--md-code-font:"{face.family}"}}' in css
    for subset in subsets:
        for weight in face.weights:
            name = f"{face.name}-{subset}-{weight}-normal.woff2"
            assert f"assets/fonts/{name}" in files
            assert f"font-weight:{weight};font-display:swap;src:url({name})" in css
    assert not [name for name in files if "-mono-" in name and not any(f"-{s}-" in name for s in subsets)]


def test_the_languages_comment_in_mkdocs_yml_names_no_python_or_css():
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    comment = text[text.index("# Adding a language") : text.index("- i18n:")]
    assert "vendored.py" not in comment
    assert "site.css" not in comment
    assert "404.html" not in comment


def sliced_face() -> FontFace:
    face = offered_faces().get("noto-sans-sc")
    assert face is not None, "package.json pins @fontsource/noto-sans-sc, the face of Simplified Chinese"
    return face


def test_a_cjk_face_ships_its_script_as_numbered_slices_in_a_stylesheet_of_its_own():
    face = sliced_face()
    assert languages.covered_scripts(face) == ["latin", "vietnamese", "han-simplified"]
    subsets = ("chinese-simplified", "latin", "latin-ext")
    files, css, sheets = font_assets([("zh", face, subsets)])
    sheet = sheets["assets/fonts/noto-sans-sc/noto-sans-sc.css"]
    assert "@font-face" not in css, "pages of other languages do not download the face's hundreds of rules"
    assert ':root[lang="zh"]{--md-text-font:"Noto Sans SC"}' in css, "the rule that chooses the face stays shared"
    rules = re.findall(r"@font-face\{[^}]*\}", sheet)
    slices = {re.search(r"noto-sans-sc-(\d+)-400", rule).group(1) for rule in rules if re.search(r"-\d+-400-", rule)}
    assert len(slices) >= 90, len(slices)
    assert all("unicode-range:U+" in rule for rule in rules), "a rule without a range downloads for every page"
    assert not any("chinese-simplified" in name for name in files), "the 1.1 MB unsliced file is never shipped"
    assert all(name.startswith("assets/fonts/noto-sans-sc/") for name in files)
    assert len(files) == len(rules) == (len(slices) + 2) * len(face.weights)
    # 注 (U+6CE8) and the full stop 。 (U+3002) each fall in a slice
    ranges = [rule.split("unicode-range:")[1].rstrip("}") for rule in rules]
    for char in "注。":
        assert any(_in_range(ord(char), text) for text in ranges), char


def _in_range(code: int, unicode_range: str) -> bool:
    for part in unicode_range.split(","):
        low, _, high = part.strip().removeprefix("U+").partition("-")
        if int(low, 16) <= code <= int(high or low, 16):
            return True
    return False


def test_a_face_without_slices_keeps_the_shared_stylesheet_byte_for_byte():
    face = offered_faces()["heebo"]
    files, css, sheets = font_assets([("he", face, ("hebrew", "latin", "latin-ext"))])
    assert sheets == {}
    assert all(name.count("/") == 2 for name in files), "flat under assets/fonts/"
    assert css.count("@font-face") == 3 * len(face.weights)


def test_a_subset_a_face_lacks_stops_the_build():
    with pytest.raises(PluginError, match="has no 'korean' subset"):
        font_assets([("ko", sliced_face(), ("korean",))])


CHINESE_PAGE = """# 注意力 { #attention }

注意力机制让模型决定看哪里。每个词都问一个问题，再用 `softmax` 把分数变成权重。

```python
print("code is not prose")
```
"""


def zh(script: str, font: str) -> languages.SiteLanguage:
    return resolve(SimpleNamespace(locale="zh", default=False, extra={"script": script, "font": font}), offered_faces())


def test_a_false_script_is_refused_by_the_letters_of_the_pages(tmp_path):
    (tmp_path / "index.md").write_text(CHINESE_PAGE, encoding="utf-8")
    problem = script_coverage.problem(zh("latin", "noto-sans"), tmp_path)
    assert problem is not None
    assert problem.startswith("zh: 100% of the letters of index.md (CJK: 注意力"), problem
    assert "`extra: {script: ...}`" in problem
    assert script_coverage.problem(zh("han-simplified", "noto-sans-sc"), tmp_path) is None


def test_a_page_half_in_english_is_still_checked_for_its_own_letters(tmp_path):
    english = (ROOT / "docs" / "en" / "learning.md").read_text(encoding="utf-8")
    (tmp_path / "learning.md").write_text(english, encoding="utf-8")
    (tmp_path / "index.md").write_text(CHINESE_PAGE * 20, encoding="utf-8")
    assert script_coverage.problem(zh("latin", "noto-sans"), tmp_path) is not None
    assert script_coverage.problem(zh("han-simplified", "noto-sans-sc"), tmp_path) is None


def test_code_math_and_tags_are_not_the_pages_letters():
    text = "Word `код` $\\alpha$ <span title='שלום'>x</span> [a](http://例え.jp) { #anchor }\n```\nкод\n```\n"
    assert script_coverage.prose_letters(text) == "Wordx" + "a"


def test_every_built_language_draws_every_letter_of_its_pages(config):
    for lang in languages.site_languages(config):
        for page, letters in script_coverage.pages_letters(ROOT / "docs" / lang.locale).items():
            missing = script_coverage.undrawn(letters, code_points(lang.face, lang.subsets))
            assert not missing, (lang.locale, page, missing.most_common(10))


def test_the_build_stops_before_it_starts_on_a_false_script(tmp_path, monkeypatch):
    from site_hooks.build import Build
    from site_hooks.i18n import language_checks

    (tmp_path / "zh").mkdir()
    (tmp_path / "zh" / "index.md").write_text(CHINESE_PAGE, encoding="utf-8")
    monkeypatch.setattr(languages, "check", lambda config, english: [zh("latin", "noto-sans")])
    with pytest.raises(PluginError, match=r"need fixing:\n  zh: 100% of the letters of index\.md"):
        language_checks.on_config(SimpleNamespace(docs_dir=str(tmp_path)), Build())
    monkeypatch.setattr(languages, "check", lambda config, english: [zh("han-simplified", "noto-sans-sc")])
    language_checks.on_config(SimpleNamespace(docs_dir=str(tmp_path)), Build())


@pytest.mark.parametrize(
    ("locale", "script", "font", "words"),
    [
        ("zh", "han-simplified", "noto-sans-sc", "注意力机制，权重从哪里来？"),
        ("zh-Hant", "han-traditional", "noto-sans-tc", "注意力機制，權重從哪裡來？"),
        ("ja", "kana", "noto-sans-jp", "注意の仕組み、重みはどこから来るのか。"),
        ("ko", "hangul", "noto-sans-kr", "어텐션 메커니즘, 가중치는 어디서 오는가?"),
    ],
)
def test_every_cjk_script_has_a_face_that_draws_its_words(locale, script, font, words):
    face = offered_faces()[font]
    language = resolve(SimpleNamespace(locale=locale, default=False, extra={"font": font}), offered_faces())
    assert language.script == script, "the script follows from the code"
    assert language.direction == "ltr"
    spans = code_points(face, language.subsets)
    assert not script_coverage.undrawn(words.replace(" ", ""), spans)
    sheets = font_assets([("xx", face, language.subsets)]).face_sheets
    assert list(sheets) == [f"assets/fonts/{font}/{font}.css"]
    assert face.weights == (400, 700)


def test_lists_count_in_the_digits_of_the_languages_prose():
    """Material numbers lists with CSS: a language whose prose digits are not Latin gets a
    counter style of its own digits (issue 45: Persian lists read "1." among Persian prose)."""
    from site_hooks.assets.publish import list_numbering
    from site_hooks.content.figures import page_numbers

    persian = list_numbering("fa", page_numbers("fa")["digits"])
    assert '"۰" "۱" "۲" "۳" "۴" "۵" "۶" "۷" "۸" "۹"' in persian
    assert ':root[lang="fa"] .md-typeset ol:not([type]){list-style-type:apy-digits-fa}' in persian
    assert list_numbering("en", page_numbers("en")["digits"]) == ""
    assert list_numbering("he", page_numbers("he")["digits"]) == ""  # Hebrew prose writes Latin digits
