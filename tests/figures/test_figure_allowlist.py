"""The page's figure sanitiser keeps exactly what the figures draw (docs/widgets/figures/figure-allowlist.json).

In the page, a figure's new markup is Python's, and a live cell can replace the function that
draws it, so docs/widgets/figures/figure-sanitise.js removes every element and attribute the list does
not name before the markup reaches the page. Here, natively: every figure, in every state
shape and every language with figure strings, is rendered and its element and attribute
names collected (devtools/figure_allowlist.py); the list must be exactly those names, so a
real figure never loses anything in the browser and the list never keeps a name no figure
needs. The browser side (hostile markup from a live cell) is tests/e2e/test_figure_sanitising.py.
"""

from __future__ import annotations

import json
import re
from functools import cache

import pytest

from attention_py.figures import FIGURES
from devtools import figure_allowlist as allowlist_tool

ALLOWLIST = allowlist_tool.ALLOWLIST
SANITISER = ALLOWLIST.parent / "figure-sanitise.js"


@cache
def collected() -> tuple[dict, list[str]]:
    return allowlist_tool.collect()


def stored() -> dict:
    return json.loads(ALLOWLIST.read_text(encoding="utf-8"))


def test_the_figures_keep_the_fixed_rules():
    """No event handler, URL, inner id or non-numeric style in any figure, in any state."""
    _, problems = collected()
    assert not problems, "\n".join(problems)


def test_the_allowlist_is_exactly_what_the_figures_draw():
    wanted, _ = collected()
    have = stored()
    message = "docs/widgets/figures/figure-allowlist.json differs from what the figures draw: run .venv/bin/python -m devtools.figure_allowlist --write"
    for space in ("html", "svg"):
        missing = {tag: sorted(set(attrs) - set(have[space].get(tag, ()))) for tag, attrs in wanted[space].items()}
        missing = {tag: attrs for tag, attrs in missing.items() if attrs or tag not in have[space]}
        unused = {tag: sorted(set(attrs) - set(wanted[space].get(tag, ()))) for tag, attrs in have[space].items()}
        unused = {tag: attrs for tag, attrs in unused.items() if attrs or tag not in wanted[space]}
        assert not missing, f"{message}\n{space}: the figures draw these, the page would drop them: {missing}"
        assert not unused, f"{message}\n{space}: no figure draws these any more: {unused}"
    assert have["style"] == allowlist_tool.STYLE_PATTERN, message
    assert ALLOWLIST.read_text(encoding="utf-8") == allowlist_tool.dumps(wanted), message


def test_every_figure_was_drawn_in_several_shapes():
    """The collection really varies the state: every figure in more than one state (multi_head:
    1, 2 and 4 heads; softmax: 2 to 6 scores; embedding_space: none to all words)."""
    counts = {name: len(list(allowlist_tool.states(name))) for name in FIGURES}
    assert all(count >= 3 for count in counts.values()), counts
    assert {len(state["z"]) for state in allowlist_tool.states("softmax")} == {2, 3, 4, 5, 6}
    assert {state["heads"] for state in allowlist_tool.states("multi_head")} == {1, 2, 4}
    assert {len(state["words"]) for state in allowlist_tool.states("embedding_space")} >= {0, 1, 4, 8}
    assert len(allowlist_tool.languages()) >= 3


def test_nothing_on_the_list_can_run_script_or_load_anything():
    have = stored()
    for space in ("html", "svg"):
        for tag, attrs in have[space].items():
            assert tag not in allowlist_tool.FORBIDDEN_ELEMENTS, f"<{tag}> is on the list"
            for name in attrs:
                assert not allowlist_tool.FORBIDDEN_ATTRIBUTES.match(name), f"{name} on <{tag}> is on the list"
                assert name == name.lower(), "names are compared in lower case"


@pytest.mark.parametrize("style", ["--p:0.2500", "--w:1.000", "--w:0", "--p: .5;", "--p:0.1; --w:-0.3"])
def test_the_style_rule_accepts_what_figures_write(style):
    assert re.match(allowlist_tool.STYLE_PATTERN, style)


@pytest.mark.parametrize(
    "style",
    [
        "background:url(https://example.com/x.png)",
        "--p:url(https://example.com/x.png)",
        "--p:0.5;background-image:url(x)",
        "--p:0.5;position:fixed;inset:0",
        "--p:expression(alert(1))",
        "--p:var(--q)",
        "--p:0.5}body{display:none",
        "--p:0.5\n;x:url(y)",
        "",
    ],
)
def test_the_style_rule_refuses_anything_else(style):
    assert not re.match(allowlist_tool.STYLE_PATTERN, style)


def test_the_sanitiser_reads_this_list_and_the_morph_uses_the_sanitiser():
    source = SANITISER.read_text(encoding="utf-8")
    assert 'from "./figure-allowlist.json"' in source
    assert "new RegExp(ALLOWED.style)" in source
    morph = (ALLOWLIST.parent / "figure-morph.js").read_text(encoding="utf-8")
    assert "parseFigure(html)" in morph
    assert "innerHTML" not in morph


def test_no_widget_script_inserts_html_another_way():
    """The allow-list only protects the page if it is the one way in: no other page script
    turns a string into markup or code (output, errors and messages are set as text)."""
    sinks = re.compile(
        r"\.innerHTML\b|\.outerHTML\s*=|insertAdjacentHTML|document\.write|\beval\(|new Function\(|createContextualFragment|DOMParser"
    )
    found = []
    for script in sorted(ALLOWLIST.parent.glob("*.js")):
        for line in script.read_text(encoding="utf-8").splitlines():
            if sinks.search(line) and not line.lstrip().startswith("//"):
                found.append(f"{script.name}: {line.strip()}")
    assert found == ["figure-sanitise.js: template.innerHTML = html;"], found
