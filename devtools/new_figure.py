"""Writes a new figure, ready to run and to test, in every place a figure lives.

    .venv/bin/python -m devtools.new_figure NAME            # e.g. attention_heatmap
    .venv/bin/python -m devtools.new_figure NAME --dry-run  # say what it would write

What it writes (ARCHITECTURE.md, "Add a figure", says what to do with each):

- ``attention_py/figures/NAME.py``: a working figure (one score ``x`` and the softmax of
  ``[x, 0]``, drawn with attention_py's own softmax), to be replaced by the figure's own state,
  drawing and words;
- its entry in the registry (``attention_py/figures/__init__.py``: the import and the end of
  ``_ORDER``; move it to where the articles first show it);
- its strings in every language's ``docs/figure-strings/<lang>.yml``, in English: the
  translators' status lists them until they are translated;
- a fence at the end of every language's gallery (``docs/<lang>/gallery.md``), under a
  heading with the same anchor in every language;
- ``tests/test_figure_NAME.py``: the readout's numbers against the package's softmax, in every
  language;
- a row in the table of ``attention_py/figures/README.md``.

``./run check`` passes right after (``tests/test_new_figure.py`` runs this in a copy of the
repository). Nothing is overwritten: an existing figure, module, test or section stops it.
"""

from __future__ import annotations

import argparse
import keyword
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAME = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")

MODULE = '''"""{title}: one score x and the softmax of [x, 0].

A starting point (ARCHITECTURE.md, "Add a figure"): replace the state, the drawing and the
strings with the figure's own, and say here what it shows and why. Every number it draws
comes from attention_py (here its softmax), never from a copy of the arithmetic.
"""

from __future__ import annotations

from typing import Any

from .. import softmax
from ._controls import slider
from ._figure import Figure, Panel
from ._html import el, esc
from ._state import Number, StateSpec
from ._strings import Text

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

GALLERY = """
## {title} {{ #{anchor} }}

```figure name="{name}"
```
"""

TEST = '''"""The {name} figure: its readout is the package's softmax of [x, 0], in every language."""

from __future__ import annotations

import pytest

from attention_py import softmax
from attention_py.figures import FIGURES, Text
from tests.test_figures_support import LANGS, parse, strings


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


def problem(name: str, root: Path = ROOT) -> str | None:
    """Why ``name`` cannot be a new figure, or None."""
    if not NAME.match(name) or keyword.iskeyword(name):
        return f"{name!r} is not a figure name: lower-case words joined by underscores (attention_heatmap)"
    figures = root / "attention_py" / "figures"
    if any(f'name="{name}"' in module.read_text(encoding="utf-8") for module in figures.glob("*.py")):
        return f"a figure called {name!r} exists already"
    if (figures / f"{name}.py").exists():
        return f"attention_py/figures/{name}.py exists already"
    if (root / "tests" / f"test_figure_{name}.py").exists():
        return f"tests/test_figure_{name}.py exists already"
    for strings in sorted((root / "docs" / "figure-strings").glob("*.yml")):
        if re.search(rf"^{name}:", strings.read_text(encoding="utf-8"), re.MULTILINE):
            return f"{strings.relative_to(root)} has a section {name!r} already"
    return None


def _register(source: str, name: str) -> str:
    """The registry with ``name`` imported (in order) and last in ``_ORDER``."""
    imports = re.search(r"from \. import \(\n((?:    \w+,\n)+)\)", source)
    order = re.search(r"_ORDER = \(\n((?:    [\w.]+,\n)+)\)", source)
    if imports is None or order is None:
        raise SystemExit("attention_py/figures/__init__.py: the import list or _ORDER is not where it was expected")
    modules = sorted({*re.findall(r"    (\w+),", imports[1]), name})
    source = source.replace(imports[1], "".join(f"    {m},\n" for m in modules), 1)
    return source.replace(order[0], order[0][: -len(")")] + f"    {name}.FIGURE,\n)", 1)


def _readme_row(source: str, name: str, title: str) -> str:
    """The figures README with a row for ``name`` after the table's last row."""
    rows = list(re.finditer(r"^\| `\w+` \|.*\|\n", source, re.MULTILINE))
    if not rows:
        raise SystemExit("attention_py/figures/README.md: the table of figures is not where it was expected")
    row = f"| `{name}` | {title.lower()}: a score and its softmax against 0 (to be replaced) | `x: 1.0` (−5..5) |\n"
    end = rows[-1].end()
    return source[:end] + row + source[end:]


def writes(name: str, root: Path = ROOT) -> dict[Path, str]:
    """Every file the new figure ``name`` writes or changes, with its new text."""
    title = name.replace("_", " ").capitalize()
    values = {"name": name, "title": title, "anchor": name.replace("_", "-")}
    figures = root / "attention_py" / "figures"
    changed = {
        figures / f"{name}.py": MODULE.format(**values),
        figures / "__init__.py": _register((figures / "__init__.py").read_text(encoding="utf-8"), name),
        figures / "README.md": _readme_row((figures / "README.md").read_text(encoding="utf-8"), name, title),
        root / "tests" / f"test_figure_{name}.py": TEST.format(**values),
    }
    for strings in sorted((root / "docs" / "figure-strings").glob("*.yml")):
        changed[strings] = strings.read_text(encoding="utf-8").rstrip("\n") + "\n" + STRINGS.format(**values)
        gallery = root / "docs" / strings.stem / "gallery.md"
        if gallery.is_file():
            changed[gallery] = gallery.read_text(encoding="utf-8").rstrip("\n") + "\n" + GALLERY.format(**values)
    return changed


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    parser = argparse.ArgumentParser(prog="python -m devtools.new_figure", description=__doc__.splitlines()[0])
    parser.add_argument("name", help="the figure's name: lower-case words joined by underscores")
    parser.add_argument("--dry-run", action="store_true", help="list the files without writing them")
    args = parser.parse_args(argv)
    why = problem(args.name, root)
    if why:
        print(f"error: {why}", file=sys.stderr)
        return 2
    for path, text in writes(args.name, root).items():
        print(f"{'would write' if args.dry_run else 'wrote'} {path.relative_to(root)}")
        if not args.dry_run:
            path.write_text(text, encoding="utf-8")
    if not args.dry_run:
        print(
            f"next: `./run check`, then make {args.name} your own (ARCHITECTURE.md, 'Add a figure'); "
            "`./run serve` shows it at the end of the gallery"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
