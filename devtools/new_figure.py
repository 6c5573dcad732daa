"""Writes a new figure, ready to run and to test, in every place a figure lives, and finds
what it wrote that is still to be rewritten or translated.

    .venv/bin/python -m devtools.new_figure NAME --article PAGE   # e.g. attention_heatmap --article what-matters
    .venv/bin/python -m devtools.new_figure NAME --article PAGE --dry-run  # say what it would write
    .venv/bin/python -m devtools.new_figure --leftovers     # the scaffold's text still in place
    .venv/bin/python -m devtools.new_figure --table         # the README's table of figures, again

What it writes (ARCHITECTURE.md, "Recipe: add a figure", says what to do with each):

- ``attention_py/figures/ARTICLE/NAME.py``, in the folder of the article (the page) that will
  show it: a working figure (one score ``x`` and the softmax of ``[x, 0]``, drawn with
  attention_py's own softmax and the kit's controls), to be replaced by the figure's own
  state, drawing and words;
- its entry in the registry (``attention_py/figures/__init__.py``: the import from its article's
  folder, and in ``_ORDER`` after that article's other figures);
- its strings in every language's ``docs/figure-strings/<lang>.yml``, in English, with its
  gallery heading and line (``gallery_headings``, ``gallery_lines``): the build writes every
  language's gallery page from them (site_hooks/content/gallery.py), and the translators'
  status counts the section as untranslated while they are the English ones;
- ``tests/figures/test_figure_NAME.py``: the readout's numbers against the package's softmax, in every
  language;
- its row in the table of ``attention_py/figures/README.md``; ``--table`` writes the table
  again from the registry's modules (their docstrings and default states).

``./run check`` passes right after (``tests/tools/test_new_figure.py`` runs this in a copy of the
repository). Nothing is overwritten: an existing figure, module, test or section stops it.

The scaffold's English gallery line is a placeholder, found again while it stays
(``leftovers``, ``--leftovers``), with a README table out of date.
"""

from __future__ import annotations

import argparse
import json
import keyword
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from site_hooks.i18n.translation_checks import SOURCE_LANG

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
from ..kit.state import Number, StateSpec
from ..kit.strings import Pct, Text

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
    readout = t.sentence("readout", first=Pct(100 * shares[0]), second=Pct(100 * shares[1]))
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
INTRO = "Move the score x and see its share of the softmax against zero."  # its gallery line

TEST = '''"""The {name} figure: its readout is the package's softmax of [x, 0], in every language."""

from __future__ import annotations

import pytest

from attention_py import softmax
from attention_py.figures import FIGURES, Text
from attention_py.figures.kit.strings import Pct
from tests.figures.support import LANGS, parse, strings


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("x", [-5.0, 0.0, 1.0, 4.5])
def test_the_readout_gives_the_softmax_of_the_score_against_zero(lang, x):
    root = parse(FIGURES["{name}"].render({{"x": x}}, lang=lang, strings=strings(lang)))
    readout = root.by_class("apy-fig__readout")[0].text
    t = Text(strings(lang), lang, "{name}")
    first, second = softmax([x, 0.0])
    assert parse(t.sentence_part(Pct(100 * first))).text in readout
    assert parse(t.sentence_part(Pct(100 * second))).text in readout
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


def _register(source: str, name: str, article: str, after: str | None = None) -> str:
    """The registry with ``name`` imported from its article's folder (in order) and in ``_ORDER``
    right after the figure ``after`` (else after its article's other figures)."""
    imports = re.search(rf"from \.{article} import \(\n((?:    \w+,\n)+)\)", source)
    order = re.search(r"_ORDER = \(\n((?:    [\w.]+,\n)+)\)", source)
    if imports is None or order is None:
        raise SystemExit(
            f"attention_py/figures/__init__.py: the import list of {article} or _ORDER is not where it was expected"
        )
    own = set(re.findall(r"    (\w+),", imports[1]))
    modules = sorted({*own, name})
    entries = order[1].splitlines(keepends=True)
    if after is not None:
        from attention_py.figures import FIGURES

        maker = home(FIGURES[after])
        wanted = next(
            f"    {maker.__name__.rsplit('.', 1)[1]}.{key},\n"
            for key, value in vars(maker).items()
            if value is FIGURES[after]
        )
        last = entries.index(wanted)
    else:
        last = max(
            (i for i, entry in enumerate(entries) if entry.strip().split(".")[0] in own), default=len(entries) - 1
        )
    entries.insert(last + 1, f"    {name}.FIGURE,\n")
    source = source.replace(order[1], "".join(entries), 1)
    return source.replace(imports[1], "".join(f"    {m},\n" for m in modules), 1)


def figure_of_entry(entry: str) -> str | None:
    """The name of the figure an entry of ``_ORDER`` names ("softmax_bars.SOFTMAX" -> "softmax")."""
    from attention_py.figures import FIGURES

    module, attribute = entry.split(".")
    for name, figure in FIGURES.items():
        made = home(figure)
        if made.__name__.endswith(f".{module}") and getattr(made, attribute, None) is figure:
            return name
    return None


def _with_fence(page: str, name: str, after: str) -> str:
    """An article with the fence of ``name`` right after the fence of the figure ``after``."""
    fence = re.search(rf'^```figure name="{after}"[^\n]*\n(?:(?!```)[^\n]*\n)*```\n', page, re.MULTILINE)
    if fence is None:
        raise SystemExit(f"the article has no fence of {after!r}")
    return page[: fence.end()] + f'\n```figure name="{name}"\n```\n' + page[fence.end() :]


# --------------------------------------------------------------------------- the README's table

TABLE_START = "<!-- the figures, written by `python -m devtools.new_figure --table` from the registry -->"
TABLE_END = "<!-- end of the figures -->"


def table_row(name: str, module: str, summary: str, defaults: dict[str, Any]) -> str:
    """One figure's row: its name, its module, the first paragraph of its docstring, its defaults."""
    shown = ", ".join(f"`{key}: {json.dumps(value, ensure_ascii=False)}`" for key, value in defaults.items())
    return f"| `{name}` | `{module}` | {summary.replace('|', '/')} | {shown} |"


def home(figure: object) -> ModuleType:
    """The module of an article's folder that makes ``figure`` (one of its names is the figure)."""
    articles = (m for n, m in list(sys.modules.items()) if n.startswith("attention_py.figures.") and ".kit" not in n)
    found = [module for module in articles if any(value is figure for value in vars(module).values())]
    if len(found) != 1:
        raise SystemExit(f"figure {getattr(figure, 'name', figure)!r}: made in {len(found)} modules, not one")
    return found[0]


def figure_table() -> str:
    """The README's table of every registered figure, in the registry's order."""
    from attention_py.figures import FIGURES

    rows = ["| name | module | what it shows (its docstring; the state's meaning is there too) | defaults |"]
    rows.append("|---|---|---|---|")
    for name, figure in FIGURES.items():
        module = home(figure)
        where = Path(module.__file__ or "").relative_to(ROOT / "attention_py" / "figures").as_posix()
        summary = " ".join((module.__doc__ or "").strip().split("\n\n")[0].split())
        rows.append(table_row(name, where, summary, figure.default_state()))
    return "\n".join(rows)


def _table_span(readme: str) -> tuple[int, int]:
    """Where the figures' table starts and ends in the README (its two markers)."""
    start, end = readme.find(TABLE_START), readme.find(TABLE_END)
    if start < 0 or end < start:
        raise SystemExit("attention_py/figures/README.md: the markers of the figures' table are missing")
    return start, end


def with_table(readme: str, table: str) -> str:
    """The figures' README with ``table`` between its markers."""
    start, end = _table_span(readme)
    return readme[: start + len(TABLE_START)] + "\n" + table + "\n" + readme[end:]


def _readme_with_row(readme: str, name: str, folder: str, title: str, before: str | None) -> str:
    """The README's table with the scaffold's row after the row of ``before`` (the figure before it
    in the registry; its module is not written yet, so the row comes from the template;
    ``--table`` writes it again from the module)."""
    start, end = _table_span(readme)
    row = table_row(name, f"{folder}/{name}.py", f"{title}: one score x and the softmax of [x, 0].", {"x": 1.0})
    previous = readme.find(f"| `{before}` |", start, end) if before else -1
    at = end if previous < 0 else readme.index("\n", previous) + 1
    return readme[:at] + row + "\n" + readme[at:]


def title_of(name: str) -> str:
    """The heading the scaffold gives figure ``name`` ("Attention heatmap")."""
    return name.replace("_", " ").capitalize()


def _with_gallery_entry(strings: str, name: str, title: str) -> str:
    """A strings file with the figure's gallery heading and line added at the end of the
    ``gallery_headings`` and ``gallery_lines`` sections (in English: translators translate them)."""
    for section, text in (("gallery_headings", title), ("gallery_lines", INTRO)):
        table = re.search(rf"^{section}:\n(?:  .*\n)*", strings, re.MULTILINE)
        if table is None:
            raise SystemExit(f"a strings file has no {section} section")
        entry = f"  {name}: {json.dumps(text, ensure_ascii=False)}\n"
        strings = strings[: table.end()] + entry + strings[table.end() :]
    return strings


def _with_strings(text: str, values: dict[str, str]) -> str:
    """A strings file with the figure's section before the gallery's sections (and the comment over them)."""
    lines = text.splitlines(keepends=True)
    at = next((i for i, line in enumerate(lines) if line.startswith("gallery_headings:")), len(lines))
    while at > 0 and lines[at - 1].startswith("#"):
        at -= 1
    head = "".join(lines[:at]).rstrip("\n") + "\n" + STRINGS.format(**values)
    return head + ("\n" if at < len(lines) else "") + "".join(lines[at:])


def writes(name: str, article: str, root: Path = ROOT, after: str | None = None) -> dict[Path, str]:
    """Every file the new figure ``name`` of ``article`` (its page or folder) writes or changes,
    with its new text; with ``after``, its fence right after that figure's in every language's
    article."""
    why = problem(name, root)
    if why:
        raise SystemExit(f"error: {why}")
    title = title_of(name)
    values = {"name": name, "title": title}
    figures = root / "attention_py" / "figures"
    folder = article_folder(article, root)
    registry = _register((figures / "__init__.py").read_text(encoding="utf-8"), name, folder, after)
    order = re.findall(r"^    (\w+\.\w+),$", registry.split("_ORDER = (", 1)[1].split(")", 1)[0], re.MULTILINE)
    position = order.index(f"{name}.FIGURE")
    before = figure_of_entry(order[position - 1]) if position else None
    readme = (figures / "README.md").read_text(encoding="utf-8")
    changed = {
        figures / folder / f"{name}.py": MODULE.format(**values),
        figures / "__init__.py": registry,
        figures / "README.md": _readme_with_row(readme, name, folder, title, before),
        root / "tests" / "figures" / f"test_figure_{name}.py": TEST.format(**values),
    }
    for strings in sorted((root / "docs" / "figure-strings").glob("*.yml")):
        text = _with_strings(strings.read_text(encoding="utf-8"), values)
        changed[strings] = _with_gallery_entry(text, name, title)
        page = root / "docs" / strings.stem / f"{folder.replace('_', '-')}.md"
        if after is not None and page.is_file():
            changed[page] = _with_fence(page.read_text(encoding="utf-8"), name, after)
    return changed


# --------------------------------------------------------------------------- leftovers


@dataclass(frozen=True)
class Leftover:
    """A piece of the scaffold's text still in place: where, and what to do about it."""

    path: str  # from the repository's root: "docs/figure-strings/en.yml"
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def leftovers(root: Path = ROOT) -> list[Leftover]:
    """What the scaffold wrote that is still to be rewritten: the gallery line it wrote, in
    English in every language's strings file (a shipped language shows no English section:
    translate the line and its heading), and a README table that no longer says what the
    registry's modules say (``--table`` writes it again). The figure's other strings, still
    English in other languages, are listed by ``python -m devtools.translation_status``."""
    found = []
    english = root / "docs" / "figure-strings" / f"{SOURCE_LANG}.yml"
    for number, line in enumerate(english.read_text(encoding="utf-8").splitlines(), 1):
        if line.endswith(f" {json.dumps(INTRO)}"):
            what = f"{line.split(':')[0].strip()}'s gallery line is the scaffold's: say what the reader can do"
            found.append(Leftover(english.relative_to(root).as_posix(), number, what))
    for strings in sorted(english.parent.glob("*.yml")):
        if strings == english:
            continue
        for number, line in enumerate(strings.read_text(encoding="utf-8").splitlines(), 1):
            if line.endswith(f" {json.dumps(INTRO)}"):
                what = f"{line.split(':')[0].strip()}'s gallery line is the scaffold's English: translate it and its heading"
                found.append(Leftover(strings.relative_to(root).as_posix(), number, what))
    readme = root / "attention_py" / "figures" / "README.md"
    if root == ROOT and with_table(readme.read_text(encoding="utf-8"), figure_table()) != readme.read_text(
        encoding="utf-8"
    ):
        found.append(Leftover("attention_py/figures/README.md", 1, "the figures' table is out of date: run --table"))
    return found


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    parser = argparse.ArgumentParser(prog="python -m devtools.new_figure", description=__doc__.splitlines()[0])
    parser.add_argument("name", nargs="?", help="the figure's name: lower-case words joined by underscores")
    parser.add_argument(
        "--article",
        help="the page that will show it (what-matters, information-flow, learning, induction): "
        "its module goes into that article's folder of attention_py/figures/",
    )
    parser.add_argument(
        "--after",
        help="a figure of the same article: the new figure's fence goes right after that figure's, in the "
        "article of every language, and its registry entry right after it",
    )
    parser.add_argument("--dry-run", action="store_true", help="list the files without writing them")
    parser.add_argument(
        "--leftovers", action="store_true", help="list the scaffold's text still to rewrite or translate, and stop"
    )
    parser.add_argument(
        "--table", action="store_true", help="write the figures' table of attention_py/figures/README.md, and stop"
    )
    args = parser.parse_args(argv)
    if args.table:
        readme = root / "attention_py" / "figures" / "README.md"
        readme.write_text(with_table(readme.read_text(encoding="utf-8"), figure_table()), encoding="utf-8")
        print(f"wrote the table of {readme.relative_to(root)}")
        return 0
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
    for path, text in writes(args.name, args.article, root, args.after).items():
        print(f"{'would write' if args.dry_run else 'wrote'} {path.relative_to(root)}")
        if not args.dry_run:
            path.write_text(text, encoding="utf-8")
    if not args.dry_run:
        print(
            f"next: make {args.name} your own (ARCHITECTURE.md, 'Recipe: add a figure'): its module, its test, "
            "its English strings and gallery line in docs/figure-strings/en.yml, and its gallery heading and line "
            "in every other language's file (a shipped language shows no English section); then the quick "
            "test loop, `--table`, `--leftovers` and `./run check`"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
