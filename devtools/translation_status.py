"""What each translation of the site still needs: missing, copied-but-untranslated and
outdated pages, headings whose anchors differ from English, and broken figure strings.

    .venv/bin/python -m devtools.translation_status             # every language
    .venv/bin/python -m devtools.translation_status --lang he   # one language
    .venv/bin/python -m devtools.translation_status --docs DIR  # another docs tree

    .venv/bin/python -m devtools.translation_status --all      # every string still English, not the first few

Exit status 0 when every language checked is complete and current, or is a language in
progress (its entry in the mkdocs.yml beside the docs folder says
``extra: {translation_in_progress: true}``) with nothing broken: missing, copied and partly
English pages are what a language in progress has. Anchors out of step, broken figure
strings or puzzle, or a history too shallow to check exit 1 for every language.

**Pages** are the Markdown files and notebooks under ``docs/en/``; a translation of
``docs/en/X`` is ``docs/<lang>/X``. Missing pages, copies and heading anchors are checked by
``site_hooks/i18n/translation_checks.py``, the same functions that stop a build
(``site_hooks/i18n/translations.py``).

**Outdated** is decided from git history by ancestry, not by dates. Let T be the last
commit that touched ``docs/<lang>/X``. The translation is outdated when some commit that
touched ``docs/en/X`` is reachable from HEAD but not from T (``git log T..HEAD --
docs/en/X``): the English page changed in a commit the translator had not seen. Dates can lie
(clock skew, rebases, a translation branch merged after a later English fix); ancestry
cannot, and it needs nothing but the repository, so it works the same on any full clone.
Details:

- An English commit whose message has the trailer ``Translations: unaffected`` (a typo fix,
  a reflowed paragraph) is ignored.
- Uncommitted changes count as the newest: an edited English page outdates its committed
  translation; a translation with uncommitted edits (or not committed yet) is taken as
  being worked on, so as current.
- A shallow clone (CI's ``fetch-depth: 1``) has no history to compare: the command says so
  and fails rather than calling everything current. ``git fetch --unshallow`` fixes it.
- Outside a git work tree the outdated check is skipped with a note.

**Copied, not translated** and **anchors**: the build's own checks, explained in
site_hooks/i18n/translation_checks.py.

**Partly English**: a translated page some of whose sections (a heading and the prose up to
the next one) are still word for word an English section of the same page; a section that
is only code or a figure, the same in every language, does not count. The gallery is read as
the build writes it: each figure's section has the heading and line of the language's strings
file, so a new figure's section counts while they are still the English ones.

**Puzzle**: a language whose learning page is translated needs ``docs/puzzles/<lang>.yml``
(the build stops without it: ``site_hooks.content.training.missing_puzzle``); a puzzle file
that does not read as a puzzle is named with the reason, and the steps and learning rate it
sets for its language (``training:``), if any, are noted.

**Figure strings**: ``docs/figure-strings/<lang>.yml`` is checked with
``site_hooks.content.figures.check_strings_file`` (missing file, keys, placeholders; a file
that is not valid YAML in one line with the line and column of the mistake). Strings still
word for word the English ones (with a letter in them: not digits or separators) are listed
too, as a reminder rather than a fault: some are right as they are ("Softmax"), and strings
of figures on pages not translated yet may stay English for now.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from site_hooks import ROOT
from site_hooks.assets.vendored import offered_faces
from site_hooks.i18n import script_coverage
from site_hooks.i18n.languages import LanguageError, SiteLanguage, face_of, read_mkdocs_yml, script_of
from site_hooks.i18n.translation_checks import (
    SOURCE_LANG,
    anchor_problems,
    copied_pages,
    english_sections,
    is_copy,
    missing_pages,
    pages,
    sections,
)

DEFAULT_DOCS = ROOT / "docs"
SHOWN = 12  # strings the same as English named in the report (the count says how many in all)
UNAFFECTED_TRAILER = re.compile(r"^translations:\s*unaffected\s*$", re.IGNORECASE | re.MULTILINE)
# A folder of docs/ that holds a language: "he", "fa", "pt_BR" (static-i18n's convention).
_LOCALE_FOLDER = re.compile(r"^[a-z]{2,3}(?:_[A-Za-z]{2,4})?$")


# --------------------------------------------------------------------------- languages


def languages(docs: Path) -> list[str]:
    """Translation folders of ``docs`` (every locale-named folder except English)."""
    return sorted(
        child.name
        for child in docs.iterdir()
        if child.is_dir() and _LOCALE_FOLDER.match(child.name) and child.name != SOURCE_LANG
    )


def language_settings(docs: Path) -> dict[str, dict[str, Any]]:
    """Each language's ``extra`` in the mkdocs.yml beside ``docs`` (its entry in the i18n
    plugin's list), by code; empty when there is no such file."""
    path = docs.parent / "mkdocs.yml"
    if not path.is_file():
        return {}
    config = read_mkdocs_yml(path)
    for plugin in config.get("plugins") or []:
        if isinstance(plugin, dict) and isinstance(plugin.get("i18n"), dict):
            entries = plugin["i18n"].get("languages") or []
            return {
                str(entry.get("locale")): dict(entry.get("extra") or {}) for entry in entries if isinstance(entry, dict)
            }
    return {}


def in_progress_languages(docs: Path) -> set[str]:
    """The languages whose entry in the mkdocs.yml beside ``docs`` says ``translation_in_progress``."""
    return {code for code, extra in language_settings(docs).items() if extra.get("translation_in_progress")}


def lettering(docs: Path, lang: str, extra: dict[str, Any] | None) -> tuple[str, list[str]]:
    """The script and face the build sets ``lang``'s pages in, as a line of the report, and the
    problems the build would stop on: an unknown script, a face that does not cover it, or
    pages whose letters the face does not draw (site_hooks/i18n/script_coverage.py)."""
    if extra is None:
        return "", []
    try:
        script = script_of(lang, extra.get("script"))
        face = face_of(lang, extra.get("font"), script, offered_faces())
    except LanguageError as error:
        return "", [str(error)]
    shown = SiteLanguage(locale=lang, default=False, script=script, direction="", face=face)
    problem = script_coverage.problem(shown, docs / lang)
    return f"written in {script}, set in {face.name} ({face.family})", [problem] if problem else []


def partly_english(docs: Path, lang: str) -> list[tuple[str, int, int]]:
    """(page, sections still English, sections) of each translated page with English sections,
    word for word the English ones (the gallery's as the build writes them from the strings, so
    a new figure's heading and line count until translated)."""
    found = []
    for page in pages(docs / lang):
        source = docs / SOURCE_LANG / page
        if not source.is_file() or is_copy(docs, lang, page):
            continue
        still = set(english_sections(docs, lang, page))
        if still:
            found.append((page, len(still), len(sections(docs / lang / page))))
    return found


# --------------------------------------------------------------------------- history


class HistoryUnavailable(Exception):
    """The docs are not in a git work tree (``fatal`` False), or its history is shallow (True)."""

    def __init__(self, message: str, *, fatal: bool = False) -> None:
        super().__init__(message)
        self.fatal = fatal


def _git(cwd: Path, *args: str) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if result.returncode:
        raise HistoryUnavailable(f"git {' '.join(args)}: {result.stderr.strip()}")
    return result.stdout


def repository_root(docs: Path) -> Path:
    """Top of the git work tree that holds ``docs``; raises HistoryUnavailable if none or shallow."""
    try:
        top = Path(_git(docs, "rev-parse", "--show-toplevel").strip()).resolve()
    except (HistoryUnavailable, FileNotFoundError):
        raise HistoryUnavailable(f"{docs} is not in a git work tree: outdated pages cannot be detected") from None
    if _git(top, "rev-parse", "--is-shallow-repository").strip() == "true":
        raise HistoryUnavailable(
            "this clone is shallow, so its history cannot tell which translations are outdated; "
            "run `git fetch --unshallow` (in CI: fetch-depth: 0)",
            fatal=True,
        )
    return top


@dataclass
class Outdated:
    page: str
    since: str  # the translation's last commit (short), or "" if only uncommitted English edits
    commits: list[str] = field(default_factory=list)  # "abc1234 subject" of the English changes

    def describe(self, lang: str) -> str:
        if not self.commits:
            return f"{lang}/{self.page}: the English page has uncommitted changes"
        lines = [f"{lang}/{self.page}: English changed in {len(self.commits)} commit(s) since {self.since}"]
        lines += [f"      {commit}" for commit in self.commits]
        lines.append(f"      see: git diff {self.since} HEAD -- docs/{SOURCE_LANG}/{self.page}")
        return "\n".join(lines)


def _dirty(top: Path, path: Path) -> bool:
    """True when ``path`` has uncommitted changes or is not tracked."""
    rel = path.relative_to(top).as_posix()
    return bool(_git(top, "status", "--porcelain", "--", rel).strip())


def outdated_pages(docs: Path, lang: str, top: Path | None = None) -> list[Outdated]:
    """Translated pages whose English source changed after them (see the module docstring)."""
    top = top or repository_root(docs)
    docs = docs.resolve()
    found = []
    for page in pages(docs / lang):
        source, target = docs / SOURCE_LANG / page, docs / lang / page
        if not source.exists():
            continue
        target_rel, source_rel = target.relative_to(top).as_posix(), source.relative_to(top).as_posix()
        since = _git(top, "log", "-1", "--format=%H", "--", target_rel).strip()
        if not since or _dirty(top, target):
            continue  # being translated right now
        log = _git(top, "log", "--format=%h %s%x1f%B%x1e", f"{since}..HEAD", "--", source_rel)
        commits = []
        for entry in filter(None, (e.strip("\n") for e in log.split("\x1e"))):
            headline, _, body = entry.partition("\x1f")
            if not UNAFFECTED_TRAILER.search(body):
                commits.append(headline)
        if commits:
            found.append(Outdated(page, since[:7], commits))
        elif _dirty(top, source):
            found.append(Outdated(page, since[:7]))
    return found


# --------------------------------------------------------------------------- figure strings


def figure_string_problems(docs: Path, lang: str) -> list[str]:
    from site_hooks.content.figures import check_strings_file

    path = docs / "figure-strings" / f"{lang}.yml"
    if not path.exists():
        return [f"{path}: missing (copy docs/figure-strings/{SOURCE_LANG}.yml and translate the values)"]
    return check_strings_file(path)


def puzzle_problems(docs: Path, lang: str) -> list[str]:
    """The learning article's puzzle, as the build would refuse it: missing although the page
    is translated, unreadable, a ``giveaway`` version that is not the fair reasons with one
    word added, or reasons whose form gives the answer away (attention_py/learning/tasks/cues.py)."""
    import yaml

    from attention_py.learning import Puzzle
    from attention_py.learning.tasks.cues import form_cues, giveaway_puzzle
    from site_hooks.content.training import missing_puzzle

    problem = missing_puzzle(lang, docs)
    if problem:
        return [problem]
    path = docs / "puzzles" / f"{lang}.yml"
    if not path.is_file():
        return []
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        puzzle = Puzzle.from_dict(data)
        if "giveaway" in data:
            giveaway_puzzle(data)
    except (yaml.YAMLError, TypeError, ValueError) as error:
        return [f"docs/puzzles/{lang}.yml: {error}"]
    return [f"docs/puzzles/{lang}.yml: {cue}" for cue in form_cues(puzzle)]


def strings_same_as_english(docs: Path, lang: str) -> list[str]:
    """``section.key`` of each figure string of ``lang`` that is the English one, word for word."""
    from site_hooks.content.figures import StringsFileError, load_strings

    folder = docs / "figure-strings"
    if lang == SOURCE_LANG or not (folder / f"{lang}.yml").is_file():
        return []
    try:
        english, own = load_strings(folder / f"{SOURCE_LANG}.yml"), load_strings(folder / f"{lang}.yml")
    except StringsFileError:
        return []  # reported by figure_string_problems
    from attention_py.figures.kit.format import NUMBER_KEYS

    same = []
    for section, table in english.items():
        theirs = own.get(section)
        if not isinstance(table, dict) or not isinstance(theirs, dict):
            continue
        for key, text in table.items():
            words = re.sub(r"\{\w+\}|\$[^$]*\$", "", text) if isinstance(text, str) else ""
            settings = section == "common" and key in NUMBER_KEYS  # how numbers are written: not prose
            if theirs.get(key) == text and re.search(r"[^\W\d_]", words) and not settings:
                same.append(f"{section}.{key}")
    return same


# --------------------------------------------------------------------------- report


@dataclass
class LanguageStatus:
    lang: str
    missing: list[str]
    outdated: list[Outdated]
    anchors: list[str]
    strings: list[str]
    puzzle: list[str] = field(default_factory=list)  # the learning article's puzzle file
    same_strings: list[str] = field(default_factory=list)  # figure strings still the English ones: a reminder
    copied: list[str] = field(default_factory=list)  # in docs/<lang>/ but still the English text
    partly: list[tuple[str, int, int]] = field(default_factory=list)  # (page, English sections, sections)
    in_progress: bool = False  # its entry says translation_in_progress: unfinished pages are expected
    lettering: str = ""  # the script and face its pages are set in
    face: list[str] = field(default_factory=list)  # why the build cannot set its pages in a face
    notes: list[str] = field(default_factory=list)
    history_missing: bool = False  # a shallow clone: outdated pages could not be looked for

    @property
    def broken(self) -> bool:
        """Something to fix whatever the language's progress."""
        return bool(self.anchors or self.strings or self.puzzle or self.face or self.history_missing)

    @property
    def ok(self) -> bool:
        return not (self.broken or self.missing or self.copied or self.partly or self.outdated)

    @property
    def passes(self) -> bool:
        """The exit status's verdict: all good, or in progress with nothing broken."""
        return self.ok or (self.in_progress and not self.broken)


def puzzle_training(docs: Path, lang: str) -> str | None:
    """The steps and learning rate the puzzle file sets for its language, if any, as a note."""
    import yaml

    path = docs / "puzzles" / f"{lang}.yml"
    try:
        own = yaml.safe_load(path.read_text(encoding="utf-8")).get("training") if path.is_file() else None
    except (yaml.YAMLError, AttributeError):
        return None  # reported by puzzle_problems
    if not own:
        return None
    settings = ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in own.items())
    return f"the learning article's model trains with its own settings: {settings} (docs/puzzles/{lang}.yml)"


def status(docs: Path, lang: str, in_progress: bool = False, extra: dict[str, Any] | None = None) -> LanguageStatus:
    """Where ``lang`` stands; ``extra`` is its entry's in mkdocs.yml, if it has one."""
    notes, fatal = [], False
    shown, face_problems = lettering(docs, lang, extra)
    training = puzzle_training(docs, lang)
    if training:
        notes.append(training)
    try:
        outdated = outdated_pages(docs, lang)
    except HistoryUnavailable as error:
        outdated, fatal = [], error.fatal
        notes.append(f"outdated pages not checked: {error}")
    return LanguageStatus(
        lang,
        missing=missing_pages(docs, lang),
        copied=copied_pages(docs, lang),
        partly=partly_english(docs, lang),
        in_progress=in_progress,
        lettering=shown,
        face=face_problems,
        outdated=[item for item in outdated if not is_copy(docs, lang, item.page)],
        anchors=anchor_problems(docs, lang),
        strings=figure_string_problems(docs, lang),
        puzzle=puzzle_problems(docs, lang),
        same_strings=strings_same_as_english(docs, lang),
        notes=notes,
        history_missing=fatal,
    )


def report(result: LanguageStatus, total: int, every_string: bool = False) -> str:
    lang = result.lang
    done = total - len(result.missing) - len(result.copied) - len(result.partly)
    verdict = "  (all good)" if result.ok else "  (in progress: nothing broken)" if result.passes else ""
    lines = [
        f"== {lang}: {done}/{total} pages translated"
        + (f", {len(result.partly)} partly English" if result.partly else "")
        + f", {len(result.outdated)} outdated"
        + verdict
    ]
    if result.lettering:
        lines.append(f"  {result.lettering}")
    if result.face:
        lines.append("  script and face:")
        lines += [f"    {problem}" for problem in result.face]
    if result.missing:
        lines.append(f"  missing pages ({len(result.missing)}), shown in English until translated:")
        lines += [f"    docs/{lang}/{page}" for page in result.missing]
    if result.copied:
        lines.append(
            f"  copied, not translated ({len(result.copied)}), still word for word English "
            "(translate, or delete until you do):"
        )
        lines += [f"    docs/{lang}/{page}" for page in result.copied]
    if result.partly:
        lines.append(f"  partly English ({len(result.partly)}), sections still in English:")
        lines += [f"    docs/{lang}/{page}: {still} of {count} sections" for page, still, count in result.partly]
    if result.outdated:
        lines.append(f"  outdated pages ({len(result.outdated)}):")
        lines += ["    " + item.describe(lang) for item in result.outdated]
    if result.anchors:
        lines.append(f"  heading anchors ({len(result.anchors)}):")
        lines += [f"    {problem}" for problem in result.anchors]
    if result.strings:
        lines.append(f"  figure strings ({len(result.strings)}):")
        lines += [f"    {problem}" for problem in result.strings]
    if result.same_strings:
        shown = result.same_strings if every_string else result.same_strings[:SHOWN]
        more = len(result.same_strings) - len(shown)
        lines.append(
            f"  figure strings still the same as in English ({len(result.same_strings)}; fine where that "
            "is the word in your language, or on pages not translated yet):"
        )
        lines.append("    " + ", ".join(shown) + (f" ... and {more} more (--all lists them all)" if more else ""))
    if result.puzzle:
        lines.append("  the learning article's puzzle:")
        lines += [f"    {problem}" for problem in result.puzzle]
    lines += [f"  note: {note}" for note in result.notes]
    return "\n".join(lines)


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m devtools.translation_status",
        description="Missing, copied (untranslated) and outdated pages, heading anchors and figure strings, per language.",
    )
    parser.add_argument("--lang", action="append", help="a language code (repeatable); default: every docs/<lang>/")
    parser.add_argument("--docs", type=Path, default=DEFAULT_DOCS, help=f"the docs folder (default: {DEFAULT_DOCS})")
    parser.add_argument("--all", action="store_true", help="list every figure string still English, not the first few")
    args = parser.parse_args(list(argv) if argv is not None else None)
    docs = args.docs.resolve()
    if not (docs / SOURCE_LANG).is_dir():
        parser.error(f"{docs} has no {SOURCE_LANG}/ folder")
    wanted = args.lang or languages(docs)
    total = len(pages(docs / SOURCE_LANG))
    settings = language_settings(docs)
    results = [
        status(docs, lang, bool((settings.get(lang) or {}).get("translation_in_progress")), settings.get(lang))
        for lang in wanted
    ]
    print("\n".join(report(result, total, args.all) for result in results))
    return 0 if all(result.passes for result in results) else 1


if __name__ == "__main__":
    sys.exit(main())
