"""Writes a new figure, ready to run and to test, in every place a figure lives, and finds
what it wrote that is still to be rewritten or translated.

    .venv/bin/python -m devtools.new_figure NAME --article PAGE   # e.g. attention_heatmap --article what-matters
    .venv/bin/python -m devtools.new_figure NAME --article PAGE --dry-run  # say what it would write
    .venv/bin/python -m devtools.new_figure --leftovers     # the scaffold's text still in place

What it writes (ARCHITECTURE.md, "Recipe: add a figure", says what to do with each):

- ``attention_py/figures/ARTICLE/NAME.py``, in the folder of the article (the page) that will
  show it: a working figure (one score ``x`` and the softmax of ``[x, 0]``, drawn with
  attention_py's own softmax and the kit's controls), to be replaced by the figure's own
  state, drawing and words;
- its entry in the registry (``attention_py/figures/__init__.py``: the import from its article's
  folder and the end of ``_ORDER``; move it to where the articles first show it);
- its strings in every language's ``docs/figure-strings/<lang>.yml``, in English: the
  translators' status lists them until they are translated;
- a section at the end of every language's gallery (``docs/<lang>/gallery.md``): a heading
  with the same anchor in every language, a line that says what the reader can do, and the
  fence. In English the line describes the starting figure; in the other languages an HTML
  comment stands in its place and the heading is English, both for a translator to replace;
- ``tests/figures/test_figure_NAME.py``: the readout's numbers against the package's softmax, in every
  language;
- a row in the table of ``attention_py/figures/README.md`` that ends ``(to be replaced)``.

``./run check`` passes right after (``tests/tools/test_new_figure.py`` runs this in a copy of the
repository). Nothing is overwritten: an existing figure, module, test or section stops it.

The scaffold's words are placeholders, found again wherever they stay (``leftovers``,
``--leftovers``): a README row still ending ``(to be replaced)``, the English gallery line as
written here, and in the other languages a section that still holds the scaffold's comment
or line, or has no line where English has one (``untranslated_sections``, which
``python -m devtools.translation_status`` counts as untranslated). They are recognised by
what this module writes, not by comparing with English, which loses them as soon as the
English line is rewritten.
"""

from __future__ import annotations

import argparse
import keyword
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from site_hooks.i18n.translation_checks import SOURCE_LANG, fenced_lines, pages

ROOT = Path(__file__).resolve().parents[1]
NAME = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")

MODULE = '''"""{title}: one score x and the softmax of [x, 0].

A starting point (ARCHITECTURE.md, "Recipe: add a figure"): replace the state, the
drawing and the strings with the figure's own, and say here what it shows and why. Every
number it draws comes from attention_py (here its softmax), never from a copy of the
arithmetic.
"""

from __future__ import annotations

from typing import Any

from ... import softmax
from ..kit.controls import slider
from ..kit.figure import Figure, Panel
from ..kit.html import el, esc
from ..kit.state import Number, StateSpec
from ..kit.strings import Text

STRINGS = ("title", "score", "readout", "caption")


def draw(state: dict[str, Any], t: Text) -> Panel:
    x = state["x"]
    shares = softmax([x, 0.0])
    body = slider(
        "x",
        x,
        lo=-5.0,
        hi=5.0,
        step=0.1,
        label=t.html("score"),
        aria_label=t.plain("score"),
        shown=t.num(x, 1),
        digits=1,
    )
    readout = t.html(
        "readout",
        first=el("span", {{"dir": "ltr"}}, esc(t.pct(100 * shares[0]))),
        second=el("span", {{"dir": "ltr"}}, esc(t.pct(100 * shares[1]))),
    )
    return Panel(body, readout, [t.html("caption")])


FIGURE = Figure(
    name="{name}",
    spec=StateSpec({{"x": Number(-5.0, 5.0, 1.0, quantum=0.1)}}),
    strings=STRINGS,
    draw=draw,
)
'''

STRINGS = """
{name}:
  title: "{title}"
  score: "Score x"
  readout: "Softmax gives x {{first}} and zero {{second}}."
  caption: "Drag the slider: the larger x, the larger its share."
"""

# What the scaffold writes for someone to replace, and how it is found again (leftovers).
PLACEHOLDER = "(to be replaced)"
INTRO = "Move the score x and see its share of the softmax against zero."
NOTE = "<!-- new_figure:"  # how the comment below is recognised
TRANSLATE = (
    f"{NOTE} translate the heading above, and in place of this comment write what the "
    "reader can do here, as the English gallery does -->"
)

GALLERY = """
## {title} {{ #{anchor} }}

{intro}

```figure name="{name}"
```
"""

TEST = '''"""The {name} figure: its readout is the package's softmax of [x, 0], in every language."""

from __future__ import annotations

import pytest

from attention_py import softmax
from attention_py.figures import FIGURES, Text
from tests.figures.support import LANGS, parse, strings


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("x", [-5.0, 0.0, 1.0, 4.5])
def test_the_readout_gives_the_softmax_of_the_score_against_zero(lang, x):
    root = parse(FIGURES["{name}"].render({{"x": x}}, lang=lang, strings=strings(lang)))
    readout = root.by_class("apy-fig__readout")[0].text
    t = Text(strings(lang), lang, "{name}")
    first, second = softmax([x, 0.0])
    assert t.pct(100 * first) in readout
    assert t.pct(100 * second) in readout
'''


def articles(root: Path = ROOT) -> list[str]:
    """The figures' article folders (``what_matters``, ...): every folder of
    ``attention_py/figures/`` but the kit."""
    figures = root / "attention_py" / "figures"
    return sorted(path.parent.name for path in figures.glob("*/__init__.py") if path.parent.name != "kit")


def article_folder(article: str, root: Path = ROOT) -> str:
    """The folder of ``article``, given as its page (``what-matters``) or its folder
    (``what_matters``); SystemExit naming the articles otherwise."""
    folder = article.replace("-", "_")
    if folder not in articles(root):
        raise SystemExit(
            f"error: no article folder {article!r} in attention_py/figures/; the articles: {', '.join(articles(root))} "
            "(a new article's figures need its folder first: an __init__.py that names the page)"
        )
    return folder


def problem(name: str, root: Path = ROOT) -> str | None:
    """Why ``name`` cannot be a new figure, or None."""
    if not NAME.match(name) or keyword.iskeyword(name):
        return f"{name!r} is not a figure name: lower-case words joined by underscores (attention_heatmap)"
    figures = root / "attention_py" / "figures"
    if any(f'name="{name}"' in module.read_text(encoding="utf-8") for module in figures.rglob("*.py")):
        return f"a figure called {name!r} exists already"
    modules = sorted(figures.rglob(f"{name}.py"))
    if modules:
        return f"{modules[0].relative_to(root).as_posix()} exists already"
    if (figures / name).exists() or name in ("kit", "views"):
        return f"{name!r} names a folder or module of attention_py/figures/ already"
    if (root / "tests" / "figures" / f"test_figure_{name}.py").exists():
        return f"tests/figures/test_figure_{name}.py exists already"
    for strings in sorted((root / "docs" / "figure-strings").glob("*.yml")):
        if re.search(rf"^{name}:", strings.read_text(encoding="utf-8"), re.MULTILINE):
            return f"{strings.relative_to(root)} has a section {name!r} already"
    return None


def _register(source: str, name: str, article: str) -> str:
    """The registry with ``name`` imported from its article's folder (in order) and last in ``_ORDER``."""
    imports = re.search(rf"from \.{article} import \(\n((?:    \w+,\n)+)\)", source)
    order = re.search(r"_ORDER = \(\n((?:    [\w.]+,\n)+)\)", source)
    if imports is None or order is None:
        raise SystemExit(
            f"attention_py/figures/__init__.py: the import list of {article} or _ORDER is not where it was expected"
        )
    modules = sorted({*re.findall(r"    (\w+),", imports[1]), name})
    source = source.replace(imports[1], "".join(f"    {m},\n" for m in modules), 1)
    return source.replace(order[0], order[0][: -len(")")] + f"    {name}.FIGURE,\n)", 1)


def _readme_row(source: str, name: str, title: str) -> str:
    """The figures README with a row for ``name`` after the table's last row."""
    rows = list(re.finditer(r"^\| `\w+` \|.*\|\n", source, re.MULTILINE))
    if not rows:
        raise SystemExit("attention_py/figures/README.md: the table of figures is not where it was expected")
    row = f"| `{name}` | {title.lower()}: a score and its softmax against 0 {PLACEHOLDER} | `x: 1.0` (−5..5) |\n"
    end = rows[-1].end()
    return source[:end] + row + source[end:]


def title_of(name: str) -> str:
    """The heading the scaffold gives figure ``name`` ("Attention heatmap")."""
    return name.replace("_", " ").capitalize()


def anchor_of(name: str) -> str:
    """The anchor of the scaffold's gallery section for ``name`` ("attention-heatmap")."""
    return name.replace("_", "-")


def gallery_section(name: str, lang: str) -> str:
    """The section the scaffold appends to ``docs/<lang>/gallery.md`` for figure ``name``."""
    intro = INTRO if lang == SOURCE_LANG else TRANSLATE
    return GALLERY.format(name=name, title=title_of(name), anchor=anchor_of(name), intro=intro)


def writes(name: str, article: str, root: Path = ROOT) -> dict[Path, str]:
    """Every file the new figure ``name`` of ``article`` (its page or folder) writes or changes,
    with its new text."""
    title = title_of(name)
    values = {"name": name, "title": title, "anchor": anchor_of(name)}
    figures = root / "attention_py" / "figures"
    folder = article_folder(article, root)
    changed = {
        figures / folder / f"{name}.py": MODULE.format(**values),
        figures / "__init__.py": _register((figures / "__init__.py").read_text(encoding="utf-8"), name, folder),
        figures / "README.md": _readme_row((figures / "README.md").read_text(encoding="utf-8"), name, title),
        root / "tests" / "figures" / f"test_figure_{name}.py": TEST.format(**values),
    }
    for strings in sorted((root / "docs" / "figure-strings").glob("*.yml")):
        changed[strings] = strings.read_text(encoding="utf-8").rstrip("\n") + "\n" + STRINGS.format(**values)
        gallery = root / "docs" / strings.stem / "gallery.md"
        if gallery.is_file():
            section = gallery_section(name, strings.stem)
            changed[gallery] = gallery.read_text(encoding="utf-8").rstrip("\n") + "\n" + section
    return changed


# --------------------------------------------------------------------------- leftovers


@dataclass(frozen=True)
class Leftover:
    """A piece of the scaffold's text still in place: where, and what to do about it."""

    path: str  # from the repository's root: "docs/he/gallery.md"
    line: int
    anchor: str | None  # the section it is in, for a page
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


_HEADING = re.compile(r"^#{1,6}[ \t]+(?P<text>.*?)[ \t]*\{[ \t]*#(?P<anchor>[^\s}]+)[ \t]*\}[ \t]*$")
_FIGURE = re.compile(r'^\s*(?:`{3,}|~{3,})\s*figure\b.*?\bname="(?P<name>[^"]+)"')
_WORDS = re.compile(r"[^\W\d_]")
_TAGS_ONLY = re.compile(r"^\s*(<[^>]*>\s*)+$")  # an HTML comment or tag: no words a reader sees


@dataclass
class _Section:
    line: int  # of its heading (0: before the first heading)
    heading: str
    anchor: str | None
    figures: list[str]
    prose: list[tuple[int, str]]  # (line, text) of the lines with words
    notes: list[int]  # lines of the scaffold's comment (TRANSLATE)


def _sections(text: str) -> list[_Section]:
    """A Markdown page's sections: heading, figures fenced in it, lines of prose and the
    scaffold's comments."""
    found = [_Section(0, "", None, [], [], [])]
    for number, (line, code) in enumerate(fenced_lines(text.splitlines()), 1):
        heading = None if code else _HEADING.match(line)
        figure = _FIGURE.match(line) if code else None
        if heading:
            found.append(_Section(number, heading["text"], heading["anchor"], [], [], []))
        elif figure:
            found[-1].figures.append(figure["name"])
        elif not code and line.strip().startswith(NOTE):
            found[-1].notes.append(number)
        elif not code and _WORDS.search(line) and not _TAGS_ONLY.match(line):
            found[-1].prose.append((number, line.strip()))
    return found


def untranslated_sections(docs: Path, lang: str) -> list[Leftover]:
    """Sections of ``docs/<lang>/`` (a language other than English) that still hold what the
    scaffold wrote there, one each, at its heading: the scaffold's comment (a translator
    writes the section's line in its place), a line still the English one the scaffold
    wrote, or a figure with no line of its own where the English section of the same anchor
    has one. The heading is named too while it is the scaffold's English title. Read from
    the text alone, so found however much English has changed since."""
    if lang == SOURCE_LANG:
        return []
    found = []
    for page in pages(docs / lang):
        source, target = docs / SOURCE_LANG / page, docs / lang / page
        if target.suffix != ".md":
            continue
        english = {s.anchor: s for s in _sections(source.read_text(encoding="utf-8"))} if source.is_file() else {}
        for section in _sections(target.read_text(encoding="utf-8")):
            theirs = english.get(section.anchor)
            reasons = []
            if section.notes:
                reasons.append("the scaffold's comment is still there: write the line in its place")
            if any(line == INTRO for _, line in section.prose):
                reasons.append("its line is still the scaffold's English")
            elif not section.notes and section.figures and not section.prose and theirs and theirs.prose:
                reasons.append("no line says what the reader can do here, as English does")
            if reasons and any(
                section.heading == title_of(n) and section.anchor == anchor_of(n) for n in section.figures
            ):
                reasons.insert(0, "the heading is still English")
            if reasons:
                named = f"#{section.anchor}: " if section.anchor else ""
                found.append(Leftover(f"docs/{lang}/{page}", section.line, section.anchor, named + "; ".join(reasons)))
    return found


def leftovers(root: Path = ROOT) -> list[Leftover]:
    """Everything the scaffold wrote that is still to be replaced, for every figure: rows of
    the figures' README still ending ``(to be replaced)``, English lines still the scaffold's,
    and every other language's sections still untranslated (``untranslated_sections``)."""
    readme = root / "attention_py" / "figures" / "README.md"
    found = [
        Leftover(
            "attention_py/figures/README.md",
            number,
            None,
            f"{line.split('|')[1].strip()}'s row still ends {PLACEHOLDER}: say what the figure shows",
        )
        for number, line in enumerate(readme.read_text(encoding="utf-8").splitlines(), 1)
        if line.startswith("| `") and PLACEHOLDER in line
    ]
    docs = root / "docs"
    for page in pages(docs / SOURCE_LANG):
        if page.endswith(".md"):
            for section in _sections((docs / SOURCE_LANG / page).read_text(encoding="utf-8")):
                found += [
                    Leftover(
                        f"docs/{SOURCE_LANG}/{page}",
                        number,
                        section.anchor,
                        "the scaffold's line: say what the reader can do with the figure",
                    )
                    for number, line in section.prose
                    if line == INTRO
                ]
    for strings in sorted((docs / "figure-strings").glob("*.yml")):
        found += untranslated_sections(docs, strings.stem)
    return found


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    parser = argparse.ArgumentParser(prog="python -m devtools.new_figure", description=__doc__.splitlines()[0])
    parser.add_argument("name", nargs="?", help="the figure's name: lower-case words joined by underscores")
    parser.add_argument(
        "--article",
        help="the page that will show it (what-matters, information-flow, learning, induction): "
        "its module goes into that article's folder of attention_py/figures/",
    )
    parser.add_argument("--dry-run", action="store_true", help="list the files without writing them")
    parser.add_argument(
        "--leftovers", action="store_true", help="list the scaffold's text still to rewrite or translate, and stop"
    )
    args = parser.parse_args(argv)
    if args.leftovers:
        left = leftovers(root)
        print("\n".join(map(str, left)) if left else "nothing the scaffold wrote is left to rewrite or translate")
        return 1 if left else 0
    if args.name is None:
        parser.error("a figure's name is needed (or --leftovers)")
    if args.article is None:
        parser.error(f"--article is needed: the page that will show the figure ({', '.join(articles(root))})")
    why = problem(args.name, root)
    if why:
        print(f"error: {why}", file=sys.stderr)
        return 2
    for path, text in writes(args.name, args.article, root).items():
        print(f"{'would write' if args.dry_run else 'wrote'} {path.relative_to(root)}")
        if not args.dry_run:
            path.write_text(text, encoding="utf-8")
    if not args.dry_run:
        print(
            f"next: `./run check`, then make {args.name} your own (ARCHITECTURE.md, 'Recipe: add a figure'): "
            "rewrite its README row and gallery line, and translate its gallery heading and line in every "
            "language; `--leftovers` lists what is still the scaffold's. `./run serve` shows it at the end "
            "of the gallery"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
