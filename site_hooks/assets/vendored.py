"""Which files of the pinned npm packages the site serves, and where.

Why: nothing at run time may come from a third-party host (readers on filtered networks,
privacy), so the Python runtime, KaTeX and the fonts are copied from ``node_modules/``
(pinned by package-lock.json) into ``assets/``. Only what the browser actually fetches is
copied: the module build of Pyodide, KaTeX's stylesheet and woff2 files.

Fonts: each language's text face is its entry's ``extra.font`` (site_hooks/i18n/languages.py);
code (code blocks, inline code, the live cells' editor and output, notebook cells) is set in
one face for every language, ``CODE_FACE`` (Material's ``--md-code-font``). Noto Sans Mono
covers Latin, Cyrillic, Greek and Vietnamese; a character it lacks (Hebrew or Persian in a
string or comment, rare in code; a math sign such as √) is drawn by the browser, glyph by
glyph, in the system's monospace, and the code around it stays in the face. Which of its
subsets ship: languages.code_subsets.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import NamedTuple

from mkdocs.exceptions import PluginError

from site_hooks import ROOT

NODE_MODULES = ROOT / "node_modules"

# What a module worker needs for `loadPyodide({indexURL})` plus loading a local wheel.
# Not copied: pyodide.js (classic scripts), source maps, typings, the demo consoles.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
PYODIDE_LOCK = "pyodide-lock.json"  # served with no packages listed: pyodide_lock()

# KaTeX typesets the math when the site is built (site_hooks/content/formulas.py): pages with
# math link its stylesheet, which asks for woff2 first, which every browser we support takes,
# so the woff/ttf fallbacks are never fetched.
KATEX_FILES = ("katex.min.css",)


@dataclass(frozen=True)
class FontFace:
    """A face the site self-hosts: a pinned ``@fontsource/<name>`` package, its CSS family
    name and the unicode subsets it ships (see site_hooks/i18n/languages.py for scripts)."""

    name: str
    family: str
    subsets: tuple[str, ...]
    weights: tuple[int, ...] = (300, 400, 700)  # headings, body, bold


# The monospace face of code in every language (its @fontsource package, pinned in
# package.json), and the weights code is drawn in: regular, and bold for the keywords of
# notebook cells (JupyterLab's highlighting). Not offered as a text face. Noto Sans Mono:
# maintained; Latin, Cyrillic, Greek and Vietnamese; the smallest Latin file of the faces
# compared (11 KB a weight; JetBrains Mono 21, Fira Mono 17, IBM Plex Mono 15); no
# programming ligatures to switch off; drawn to go with Noto Sans.
CODE_FACE = "noto-sans-mono"
CODE_WEIGHTS = (400, 700)


# A CJK face's weights: each costs a Chinese page about 200 KB of slices, so it ships regular
# and bold only, and headings (light, 300, in Material) are drawn in the regular weight.
SLICED_WEIGHTS = (400, 700)


def _face(name: str, weights: tuple[int, ...] | None = None) -> FontFace:
    metadata = require(NODE_MODULES / "@fontsource" / name / "metadata.json", f"the {name} font")
    data = json.loads(metadata.read_text(encoding="utf-8"))
    face = FontFace(name, data["family"], tuple(data["subsets"]))
    if weights is None and is_sliced(face):
        weights = SLICED_WEIGHTS
    return face if weights is None else FontFace(face.name, face.family, face.subsets, weights)


def _pinned_faces() -> list[str]:
    """The names of the ``@fontsource/*`` packages pinned in package.json."""
    manifest = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    pinned = {**manifest.get("dependencies", {}), **manifest.get("devDependencies", {})}
    return [package.removeprefix("@fontsource/") for package in sorted(pinned) if package.startswith("@fontsource/")]


def offered_faces() -> dict[str, FontFace]:
    """Every ``@fontsource/*`` package pinned in package.json but the code face, by name: the
    faces a language's entry may choose (``extra: {font: <name>}``). Adding a face is
    ``npm install --save-dev --save-exact @fontsource/<name>``."""
    return {name: _face(name) for name in _pinned_faces() if name != CODE_FACE}


def code_face() -> FontFace:
    """The face code is set in (``CODE_FACE``), with the weights code uses."""
    if CODE_FACE not in _pinned_faces():
        raise PluginError(
            f"package.json does not pin @fontsource/{CODE_FACE}, the face of code (vendored.CODE_FACE): "
            f"run `npm install --save-dev --save-exact @fontsource/{CODE_FACE}`"
        )
    return _face(CODE_FACE, CODE_WEIGHTS)


def require(path: Path, why: str) -> Path:
    """``path`` if it exists; otherwise stop the build and say how to get it."""
    if not NODE_MODULES.is_dir():
        raise PluginError(
            f"node_modules/ is missing, so the site cannot self-host {why}. "
            "Run `./run build` (or `npm ci`) from the repository root."
        )
    if not path.is_file():
        raise PluginError(
            f"{path.relative_to(ROOT)} is missing ({why}). The pinned npm packages look "
            "incomplete or of another version: run `npm ci`."
        )
    return path


def pyodide_assets() -> dict[str, Path]:
    """``assets/pyodide/<name>`` -> file in node_modules/pyodide, for every file but the lock
    file (see ``pyodide_lock``)."""
    base = NODE_MODULES / "pyodide"
    files = (name for name in PYODIDE_FILES if name != PYODIDE_LOCK)
    return {f"assets/pyodide/{name}": require(base / name, "the Pyodide runtime") for name in files}


def pyodide_lock() -> str:
    """The lock file the site serves: Pyodide's own, with its list of packages emptied.

    Pyodide reads the lock file whenever it starts, but the site serves none of the packages
    it lists (attention_py needs only the standard library), so the whole list (26 KB gzipped
    of every first visit) would only make ``import numpy`` advise ``micropip.install``, which
    cannot work here; with the list empty, the error is Python's own ModuleNotFoundError.
    The rest (the ABI version Pyodide checks) is kept as it is.
    """
    path = require(NODE_MODULES / "pyodide" / PYODIDE_LOCK, "the Pyodide runtime")
    lock = json.loads(path.read_text(encoding="utf-8"))
    return json.dumps({**lock, "packages": {}}, sort_keys=True) + "\n"


def katex_assets() -> dict[str, Path]:
    """``assets/katex/...`` -> KaTeX's stylesheet and woff2 fonts."""
    dist = NODE_MODULES / "katex" / "dist"
    assets = {f"assets/katex/{name}": require(dist / name, "KaTeX") for name in KATEX_FILES}
    fonts = sorted((dist / "fonts").glob("*.woff2")) if (dist / "fonts").is_dir() else []
    if not fonts:
        require(dist / "fonts" / "KaTeX_Main-Regular.woff2", "KaTeX fonts")
    assets.update({f"assets/katex/fonts/{font.name}": font for font in fonts})
    return assets


@cache  # read once per face: the build asks for a CJK face's 100 KB of ranges many times
def _unicode_ranges(face: FontFace) -> dict[str, str]:
    path = require(NODE_MODULES / "@fontsource" / face.name / "unicode.json", f"the {face.family} font")
    return json.loads(path.read_text(encoding="utf-8"))


_SLICE = re.compile(r"\[(\d+)\]")


def pieces(face: FontFace, subset: str, ranges: Mapping[str, str]) -> list[tuple[str, str]]:
    """The files ``subset`` of ``face`` is shipped in, as (the part of the file's name after
    the face's, its unicode-range).

    One file for most subsets. A CJK face (@fontsource/noto-sans-sc...) names one subset that
    unicode.json gives no range for, ``chinese-simplified``: its single file (1.1 MB a weight)
    has no unicode-range, and the face ships the same characters as about a hundred numbered
    slices (``[0]``...``[119]`` in unicode.json, 10-60 KB each), of which a page downloads only
    the ones its characters fall in. Those slices are that subset's pieces.
    """
    if subset in ranges:
        return [(subset, ranges[subset])]
    unranged = [name for name in face.subsets if name not in ranges]
    slices = [(found.group(1), value) for key, value in ranges.items() if (found := _SLICE.fullmatch(key))]
    if subset in face.subsets and unranged == [subset] and slices:
        return sorted(slices, key=lambda piece: int(piece[0]))
    raise PluginError(f"@fontsource/{face.name} has no '{subset}' subset with a unicode-range")


def is_sliced(face: FontFace) -> bool:
    """Whether ``face`` ships a subset as numbered slices (a CJK face): its @font-face rules,
    a hundred or more, go in a stylesheet of their own, which only its languages' pages link."""
    return any(_SLICE.fullmatch(key) for key in _unicode_ranges(face))


class FontAssets(NamedTuple):
    """What font_assets publishes under ``assets/fonts/``."""

    files: dict[str, Path]  # destination -> woff2 file in node_modules
    stylesheet: str  # fonts.css, linked by every page: the unsliced faces and the rules that choose faces
    face_sheets: dict[str, str]  # a sliced face's stylesheet: its destination -> its text


def face_folder(face: FontFace) -> str:
    """Where ``face``'s files are published: ``assets/fonts/`` for most, and a folder of its
    own for a sliced face, with its stylesheet (``assets/fonts/noto-sans-sc/noto-sans-sc.css``),
    so that the offline copy can keep it with its languages only (assets/offline.py)."""
    return f"assets/fonts/{face.name}/" if is_sliced(face) else "assets/fonts/"


def face_sheet(face: FontFace) -> str:
    """Where a sliced face's own stylesheet is published (see ``face_folder``)."""
    return f"{face_folder(face)}{face.name}.css"


def _face_rules(face: FontFace, subsets: Iterable[str], files: dict[str, Path]) -> list[str]:
    """The @font-face rules of ``face`` in ``subsets``, adding the woff2 files they name to ``files``.
    A piece's weights are written together, so that gzip finds each unicode-range it repeats."""
    ranges = _unicode_ranges(face)
    folder = face_folder(face)
    rules = []
    for subset in subsets:
        for part, unicode_range in pieces(face, subset, ranges):
            for weight in face.weights:
                name = f"{face.name}-{part}-{weight}-normal.woff2"
                source = NODE_MODULES / "@fontsource" / face.name / "files" / name
                files[folder + name] = require(source, f"the {face.family} font")
                rules.append(
                    "@font-face{"
                    f"font-family:'{face.family}';font-style:normal;font-weight:{weight};"
                    f"font-display:swap;src:url({name}) format('woff2');"
                    f"unicode-range:{unicode_range}"
                    "}"
                )
    return rules


_GENERATED = (
    "/* Generated by site_hooks/assets/vendored.py from @fontsource (pinned), each language's",
    "   entry in mkdocs.yml (extra.font) and the code face (CODE_FACE). */",
)


def font_assets(
    languages: Iterable[tuple[str, FontFace, Iterable[str]]],
    code: tuple[FontFace, Iterable[str]] | None = None,
) -> FontAssets:
    """The woff2 files under ``assets/fonts/`` and the stylesheets that name them.

    ``languages`` gives, per built language, its code, its face and the subsets its pages
    need; ``code`` the code face and the subsets code needs in all of them. Each face is
    shipped once, with the union of its subsets, in its own weights; each @font-face carries
    its piece's unicode-range, so a page downloads only what it shows. Then one rule per
    language sets Material's text font on ``<html lang>`` (and on the 404 page's message in
    that language, ``.not-found [lang]``), and one rule sets Material's code font everywhere.
    A sliced face's rules are a stylesheet of their own (``is_sliced``), so that pages in
    other languages do not download them (33 KB gzipped for Noto Sans SC).
    """
    chosen: dict[str, tuple[FontFace, dict[str, None]]] = {}
    face_rules: list[str] = []
    for locale, face, subsets in languages:
        chosen.setdefault(face.name, (face, {}))[1].update(dict.fromkeys(subsets))
        face_rules += [
            f':root[lang="{locale}"]{{--md-text-font:"{face.family}"}}',
            f'.not-found [lang="{locale}"]{{font-family:"{face.family}",var(--md-text-font-family)}}',
        ]
    if code is not None:
        face, subsets = code
        chosen.setdefault(face.name, (face, {}))[1].update(dict.fromkeys(subsets))
        face_rules.append(f':root{{--md-code-font:"{face.family}"}}')
    files: dict[str, Path] = {}
    rules: list[str] = list(_GENERATED)
    face_sheets: dict[str, str] = {}
    for face, subsets in chosen.values():
        if is_sliced(face):
            face_sheets[face_sheet(face)] = "\n".join([*_GENERATED, *_face_rules(face, subsets, files)]) + "\n"
        else:
            rules += _face_rules(face, subsets, files)
    return FontAssets(files, "\n".join(rules + face_rules) + "\n", face_sheets)


def code_points(face: FontFace, subsets: Iterable[str]) -> list[tuple[int, int]]:
    """The code points ``face`` draws in ``subsets``, as (first, last) pairs: the unicode-ranges
    of their files, from the package's unicode.json."""
    ranges = _unicode_ranges(face)
    spans = []
    for subset in subsets:
        for _, unicode_range in pieces(face, subset, ranges):
            for part in unicode_range.split(","):
                first, _, last = part.strip().removeprefix("U+").partition("-")
                spans.append((int(first, 16), int(last or first, 16)))
    return sorted(spans)
