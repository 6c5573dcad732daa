"""Every kind of page of the site, in each language (and in the dark scheme, one language of
each direction), checked by axe-core (pinned in package.json, injected from node_modules: nothing leaves the machine).

A page is checked as a reader first sees it: the live cells mounted (editor, toolbar,
progress bar) and the figures as prerendered. Python is kept from starting (the worker
script is replaced by one that never answers), so the scan sees the "Python is loading"
state and no page spends seconds of CPU on a runtime the check does not need; the figures'
live markup is the same function's output (tests/e2e/test_figures_live.py compares them).

Every violation axe reports fails the test, whatever its impact, with its rule, its help
text and the first elements it concerns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from devtools.wheels import ROOT
from tests.e2e.conftest import add_test_script
from tests.languages import DEFAULT, LANGUAGES

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PREFIX = {lang.code: lang.prefix for lang in LANGUAGES}  # every built language (mkdocs.yml)
PAGES = (
    "",
    "what-matters/",
    "information-flow/",
    "learning/",
    "gallery/",
    "playground/",
    "glossary/",
    "translate/",
    "notebooks/first-steps/",
    "notebooks/information-flow/",
    "notebooks/learning/",
    "reference/",
)
# The reference is generated from the English docstrings in every language: English only.
PAGES_OF = {lang: [path for path in PAGES if lang == DEFAULT.code or path != "reference/"] for lang in PREFIX}
PAGES_OF[DEFAULT.code].append("404.html")  # the one "not found" page, for every language folder
# Light: every page of every language. Dark changes colours only, the same in every language
# (one stylesheet), so it is scanned in one language of each direction: what depends on the
# language (labels, landmarks, direction) is the same in both schemes.
DARK = {DEFAULT.code, next((lang.code for lang in LANGUAGES if lang.direction == "rtl"), DEFAULT.code)}
CASES = [("light", lang, path) for lang in PREFIX for path in PAGES_OF[lang]]
CASES += [("dark", lang, path) for lang in PREFIX if lang in DARK for path in PAGES_OF[lang]]
SILENT_WORKER = "// a Python worker that never answers: the page stays in its loading state\n"


@pytest.fixture(scope="module")
def scheme_pages(browser) -> Iterator[Callable[[str], object]]:
    """One page per colour scheme, made when first asked for: ``scheme_pages("dark")``."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` (./run test does)")
    contexts: dict[str, object] = {}
    pages: dict[str, object] = {}

    def get(scheme: str) -> object:
        if scheme not in pages:
            context = contexts[scheme] = browser.new_context(color_scheme=scheme)
            context.route(
                "**/assets/widgets/python-worker.js",
                lambda route: route.fulfill(body=SILENT_WORKER, content_type="text/javascript"),
            )
            pages[scheme] = context.new_page()
            pages[scheme].scheme = scheme
        return pages[scheme]

    yield get
    for context in contexts.values():
        context.close()


@pytest.mark.parametrize(
    ("scheme", "lang", "path"), CASES, ids=[f"{scheme}-{lang}-{path or 'home'}" for scheme, lang, path in CASES]
)
def test_page_has_no_accessibility_violations(scheme_pages, site_url, scheme, lang, path):
    page = scheme_pages(scheme)
    page.bring_to_front()
    page.goto(f"{site_url}/{PREFIX[lang]}{path}")
    page.wait_for_load_state("load")
    if page.locator(".live-cell").count():
        page.locator(".live-cell--mounted").first.wait_for()
    # Colours are checked as they settle: Material fades colours in (transition: color
    # 125-250 ms), and a scan in the middle of a fade measures a colour no reader sees.
    page.add_style_tag(content="*, *::before, *::after { transition: none !important; animation: none !important; }")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    add_test_script(page, AXE)
    violations = page.evaluate(
        """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations.map((v) => ({
             rule: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
             where: v.nodes.slice(0, 3).map((node) => node.target.join(" ") + " :: " + (node.failureSummary || "").split("\\n").slice(1, 2).join("")),
           }))"""
    )
    report = "\n".join(
        f"[{v['impact']}] {v['rule']} x{v['count']}: {v['help']}\n" + "\n".join(f"    {w}" for w in v["where"])
        for v in violations
    )
    assert not violations, f"{page.scheme} /{PREFIX[lang]}{path}:\n{report}"
