"""Shared helpers for the figure tests (no tests here): strings files, markup checks."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

from tests.languages import CODES

ROOT = Path(__file__).resolve().parents[2]
STRINGS_DIR = ROOT / "docs" / "figure-strings"
LANGS = tuple(CODES)  # the built languages of mkdocs.yml, the default first
VOID = {"input", "br", "hr", "img", "meta", "link", "wbr", "area", "base", "col", "embed", "source", "track"}
NON_FINITE = re.compile(r"(?i)(?<![a-z_])(nan|[+-]?inf(inity)?)(?![a-z_])")


# A made-up language for numbers: English words, but a comma as decimal separator and a
# no-break space before the percent sign, as Russian and French write 0,56 and 99,2 %.
MADE_UP = "xx"
MADE_UP_NUMBERS = {"digits": "0123456789", "decimal": ",", "percent": "{value}\u00a0%", "measured": "prose"}


@cache
def strings(lang: str) -> dict:
    """A language's figure strings as the build hands them to the figures: its file, plus
    ``common.direction``, which the build derives from the language code. ``MADE_UP``: the
    English strings with ``MADE_UP_NUMBERS``."""
    from site_hooks.content.figures import strings_for

    if lang == MADE_UP:
        english = strings_for("en")
        return {**english, "common": {**english["common"], **MADE_UP_NUMBERS}}
    return strings_for(lang)


def figure_numbers(lang: str):
    """The format a figure of language ``lang`` writes its measured values in (``Text.numbers``)."""
    from attention_py.figures import Text

    return Text(strings(lang), lang, "common").numbers


def sentence_numbers(lang: str):
    """The format a figure of language ``lang`` writes the numbers of its sentences in
    (``Text.sentence``: the prose's digits, ``Text.prose_numbers``)."""
    from attention_py.figures import Text

    return Text(strings(lang), lang, "common").prose_numbers


class Element:
    """A parsed element: tag, attributes, children, and its text (own and descendants')."""

    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Element | None) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Element] = []
        self.parts: list[str | Element] = []

    @property
    def text(self) -> str:
        return "".join(p if isinstance(p, str) else p.text for p in self.parts)

    def iter(self):
        yield self
        for child in self.children:
            yield from child.iter()

    def find_all(self, predicate) -> list[Element]:
        return [e for e in self.iter() if predicate(e)]

    def has_class(self, name: str) -> bool:
        return name in (self.attrs.get("class") or "").split()

    def by_class(self, name: str) -> list[Element]:
        return self.find_all(lambda e: e.has_class(name))

    def inherited(self, attr: str) -> str | None:
        node: Element | None = self
        while node is not None:
            if attr in node.attrs:
                return node.attrs[attr]
            node = node.parent
        return None


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#root", {}, None)
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Element(tag, dict(attrs), self.stack[-1])
        self.stack[-1].children.append(node)
        self.stack[-1].parts.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        node = Element(tag, dict(attrs), self.stack[-1])
        self.stack[-1].children.append(node)
        self.stack[-1].parts.append(node)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.stack[-1].tag != tag:
            raise AssertionError(f"unbalanced markup: </{tag}> closes <{self.stack[-1].tag}>")
        self.stack.pop()

    def handle_data(self, data):
        self.stack[-1].parts.append(data)


def parse(markup: str) -> Element:
    """Parse a fragment, asserting balanced tags and that every <svg> is well-formed XML."""
    builder = _TreeBuilder()
    builder.feed(markup)
    builder.close()
    assert len(builder.stack) == 1, f"unclosed <{builder.stack[-1].tag}>"
    for svg in re.findall(r"<svg\b.*?</svg>", markup, flags=re.S):
        ElementTree.fromstring(svg)
    roots = builder.root.children
    assert len(roots) == 1, "a figure must be exactly one root element"
    return roots[0]


def skeleton(markup: str) -> list[str]:
    """Tags in document order: what the host's DOM morph relies on."""
    return [e.tag for e in parse(markup).iter()]


@contextmanager
def saved_resources() -> Iterator[None]:
    """Whatever the block does to attention_py.resources (``provide``, ``set_loader``) is
    undone after it: the data provided and the loader come back as they were."""
    from attention_py import resources

    provided, loader = dict(resources._PROVIDED), resources._loader
    try:
        yield
    finally:
        resources.set_loader(loader)
        resources._PROVIDED.clear()
        resources._PROVIDED.update(provided)
