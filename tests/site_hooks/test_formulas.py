"""The build's math (site_hooks/content/formulas.py): KaTeX's markup in place of the TeX,
its stylesheet linked by pages with math only, and a formula KaTeX cannot read failing the
build with the page named."""

from __future__ import annotations

import pytest
from mkdocs.exceptions import PluginError

from site_hooks.content import formulas

PAGE = (
    '<html><head><title>t</title><link rel="stylesheet" href="main.css"><script>boot()</script></head><body>'
    '<p>Scores <span class="arithmatex">\\(QK^\\top &lt; \\sqrt{d_k}\\)</span> and</p>'
    '<div class="arithmatex">\\[\\mathrm{softmax}(z)_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}\\]</div>'
    '<pre><code>&lt;span class="arithmatex"&gt;\\(x\\)&lt;/span&gt;</code></pre>'
    "</body></html>"
)


def test_formulas_become_katex_markup_with_the_stylesheet_linked_once():
    out = formulas.typeset_page(PAGE, "he/learning/", "he/learning.md", {})
    assert out.count('<link rel="stylesheet" href="../../assets/katex/katex.min.css">') == 1
    assert out.index("main.css") < out.index("katex.min.css") < out.index("<script>boot()")
    inline, display = out.split('class="arithmatex">')[1:3]
    assert inline.startswith('<span class="katex">')  # inline: no display wrapper
    assert display.startswith('<span class="katex-display">')
    # the MathML for screen readers carries the TeX, unescaped from arithmatex's markup
    assert "QK^\\top &lt; \\sqrt{d_k}" in inline  # KaTeX escapes it again in its annotation
    assert "<math" in inline
    assert 'aria-hidden="true"' in inline
    assert "\\(" not in out.split("<pre>")[0]  # no delimiter left in the text
    assert '&lt;span class="arithmatex"&gt;\\(x\\)' in out  # code that shows the markup is left alone


def test_a_page_without_math_is_unchanged():
    page = "<html><head></head><body><p>$5 and \\(no span\\)</p></body></html>"
    assert formulas.typeset_page(page, "index.html", "index.md", {}) == page


def test_delimiters_and_escapes_are_taken_off():
    assert formulas.formula_source(" \\(a &amp; b\\) ") == "a & b"
    assert formulas.formula_source("\\[x\\]") == "x"
    assert formulas.formula_source("$$y$$") == "y"
    assert formulas.formula_source("plain") == "plain"


def test_a_formula_katex_cannot_read_fails_the_build_naming_the_page():
    page = '<html><head></head><body><span class="arithmatex">\\(\\frac{a}{b\\)</span></body></html>'
    with pytest.raises(PluginError, match=r"(?s)fa/glossary\.md: KaTeX could not typeset a formula:.*\\frac\{a\}\{b"):
        formulas.typeset_page(page, "fa/glossary/", "fa/glossary.md", {})


def test_a_formula_typeset_once_in_a_build_is_not_typeset_again():
    known: dict[tuple[str, bool], str] = {}
    first = formulas.typeset_page(PAGE, "learning/", "en/learning.md", known)
    assert len(known) == 2  # the inline formula and the displayed one
    known[("QK^\\top < \\sqrt{d_k}", False)] = "<kept>"  # what the build typeset before
    assert "<kept>" in formulas.typeset_page(PAGE, "learning/", "en/learning.md", known)
    assert "<kept>" not in first
