"""What the build checks about a translation, page by page, against English: which pages it
lacks (``missing_pages``), which are still the English text (``is_copy``, ``copied_pages``), and
whose heading anchors differ from English's (``anchor_problems``).

**Pages** are the Markdown files and notebooks under ``docs/en/``; a translation of
``docs/en/X`` is ``docs/<lang>/X``.

**Copied, not translated**: a page of ``docs/<lang>/`` whose text is still the English
page's (a notebook: its Markdown cells) is not counted as translated. Copying the whole
English folder to start a language makes every page such a copy, and readers would get
English pages without the note that says they are untranslated; the build stops on one in
a shipped language and shows the note on one in a language still in progress.

**Anchors**: every heading of a page needs an explicit id (``## Softmax { #softmax }``),
and a translation must have the same ids in the same order as the English page, so links to
a section work in every language. Notebooks are checked through their Markdown cells.

The hook ``site_hooks/i18n/translations.py`` stops a build on these; the translators' tool
``python -m devtools.translation_status`` reports them, with outdated pages and figure strings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from site_hooks.content.gallery import expand_file

SOURCE_LANG = "en"
PAGE_SUFFIXES = (".md", ".ipynb")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")
_ATTR_ID = re.compile(r"\{\s*[^}]*?#([^\s}]+)[^}]*\}\s*$")


# --------------------------------------------------------------------------- pages


def pages(lang_dir: Path) -> list[str]:
    """Paths (relative, with "/") of the pages in one language folder, sorted."""
    if not lang_dir.is_dir():
        return []
    return sorted(
        path.relative_to(lang_dir).as_posix()
        for path in lang_dir.rglob("*")
        if path.is_file() and path.suffix in PAGE_SUFFIXES and ".ipynb_checkpoints" not in path.parts
    )


def missing_pages(docs: Path, lang: str) -> list[str]:
    """English pages with no file at the same path in ``docs/<lang>/``."""
    have = set(pages(docs / lang))
    return [page for page in pages(docs / SOURCE_LANG) if page not in have]


def _prose(path: Path) -> str:
    """What a translator translates in a page: a Markdown file's text, or a notebook's Markdown
    cells (code cells are the same in every language), with line ends and trailing spaces
    normalised so an editor's re-save does not count as a translation. The gallery's sections
    are read as the build writes them from the language's strings (content/gallery.py)."""
    text = expand_file(path, path.read_text(encoding="utf-8"))
    if path.suffix == ".ipynb":
        try:
            cells = json.loads(text).get("cells", [])
        except ValueError:
            return text  # not valid JSON: compared as it is
        sources = (cell.get("source", "") for cell in cells if cell.get("cell_type") == "markdown")
        text = "\n\n".join(source if isinstance(source, str) else "".join(source) for source in sources)
    return "\n".join(line.rstrip() for line in text.splitlines()).strip()


def is_copy(docs: Path, lang: str, page: str) -> bool:
    """True when ``docs/<lang>/<page>`` says exactly what the English page says: a copy not
    translated yet. Readers would get English without the note that says so."""
    source, target = docs / SOURCE_LANG / page, docs / lang / page
    return lang != SOURCE_LANG and source.is_file() and target.is_file() and _prose(source) == _prose(target)


def copied_pages(docs: Path, lang: str) -> list[str]:
    """Pages of ``docs/<lang>/`` that are unchanged copies of the English ones (``is_copy``)."""
    return [page for page in pages(docs / lang) if is_copy(docs, lang, page)]


# Lines of a page that are the same in every language: an API reference's ``::: name`` and a
# line that is only HTML tags (a widget's placeholder).
_NOT_PROSE = re.compile(r"^\s*(:::|(<[^>]*>\s*)+$)")
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)


def sections(path: Path) -> list[tuple[str | None, str]]:
    """(anchor, prose) of each section of a page: a heading's anchor and the text from the
    heading to the next one, without the front matter, fenced code, API directives or
    tag-only lines (the same in every language) or the heading line itself, normalised as
    ``_prose`` normalises a page. A notebook's Markdown cells are read as one page."""
    text = _FRONT_MATTER.sub("", _prose(path) + "\n")
    found: list[tuple[str | None, list[str]]] = [(None, [])]
    for line, code in fenced_lines(text.splitlines()):
        heading = None if code else _HEADING.match(line)
        if heading:
            found.append((_anchor(heading), []))
        elif not code and not _NOT_PROSE.match(line):
            found[-1][1].append(line)
    return [
        (anchor, "\n".join(lines).strip()) for anchor, lines in found if anchor is not None or "".join(lines).strip()
    ]


_WORD = re.compile(r"[^\W\d_]")


def english_sections(docs: Path, lang: str, page: str) -> list[str | None]:
    """Anchors of the sections of ``docs/<lang>/<page>`` still in English: those whose prose
    (``sections``) is the prose of a section of the English page. A language in progress may
    translate a page a section at a time; these sections, left in English, still say what
    English says (the learning article's tests hold them to it, the build marks them).

    A section without words (only a figure or a cell) is in no language and never listed;
    ``None`` is text before the page's first heading. Empty when either page is missing."""
    source, target = docs / SOURCE_LANG / page, docs / lang / page
    if not source.is_file() or not target.is_file():
        return []
    english = {text for _, text in sections(source) if _WORD.search(text)}
    return [anchor for anchor, text in sections(target) if text in english]


# --------------------------------------------------------------------------- anchors


def fenced_lines(lines: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """Each line, with whether it belongs to a fenced code block (its fences included): a
    block opened by ``` or ~~~ ends at a line of the same character, at least as many, and
    nothing else."""
    fence: str | None = None
    for line in lines:
        match = _FENCE.match(line)
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence) and not line.strip()[len(marker) :].strip():
                fence = None
            yield line, True
        else:
            yield line, fence is not None


def _anchor(heading: re.Match[str]) -> str | None:
    """The explicit ``{ #id }`` of a heading matched by _HEADING, if it has one."""
    attrs = _ATTR_ID.search(heading.group(2))
    return attrs.group(1) if attrs else None


def markdown_anchors(text: str) -> list[str | None]:
    """The explicit ``{ #id }`` of every ATX heading, in order (None for a heading without one).

    Headings inside fenced code blocks (Python comments!) are not headings.
    """
    headings = (_HEADING.match(line) for line, code in fenced_lines(text.splitlines()) if not code)
    return [_anchor(heading) for heading in headings if heading]


def page_anchors(path: Path) -> list[str | None]:
    """Heading anchors of a Markdown page, or of a notebook's Markdown cells."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".ipynb":
        return markdown_anchors(text)
    anchors: list[str | None] = []
    for cell in json.loads(text).get("cells", []):
        if cell.get("cell_type") == "markdown":
            source = cell.get("source", "")
            anchors.extend(markdown_anchors(source if isinstance(source, str) else "".join(source)))
    return anchors


def _show(anchors: Sequence[str | None]) -> str:
    return ", ".join(f"#{a}" if a else "(none)" for a in anchors) or "(no headings)"


def anchor_problems(docs: Path, lang: str) -> list[str]:
    """Pages of ``lang`` whose headings' anchors differ from the English page's (set or order)."""
    problems = []
    for page in pages(docs / lang):
        source = docs / SOURCE_LANG / page
        if not source.exists():
            continue  # a page English does not have is not ours to compare
        want, have = page_anchors(source), page_anchors(docs / lang / page)
        if want == have:
            continue
        lacking = [a for a in want if a not in have]
        extra = [a for a in have if a not in want]
        if None in have:
            detail = "a heading has no explicit { #id }"
        elif lacking or extra:
            parts = [f"missing {_show(lacking)}" if lacking else "", f"not in English {_show(extra)}" if extra else ""]
            detail = "; ".join(p for p in parts if p)
        else:
            detail = "same anchors in another order"
        problems.append(
            f"{lang}/{page}: heading anchors differ from English ({detail})\n"
            f"      English: {_show(want)}\n      {lang}: {' ' * (len('English') - len(lang))}{_show(have)}"
        )
    return problems
