"""Every kind of page of the site, in each language and in both colour schemes, checked by
axe-core (pinned in package.json, injected from node_modules: nothing leaves the machine).

A page is checked as a reader first sees it: the live cells mounted (editor, toolbar,
progress bar) and the figures as prerendered. Python is kept from starting (the worker
script is replaced by one that never answers), so the scan sees the "Python is loading"
state and no page spends seconds of CPU on a runtime the check does not need; the figures'
live markup is the same function's output (tests/e2e/test_figures_live.py compares them).

Every violation axe reports fails the test, whatever its impact, with its rule, its help
text and the first elements it concerns.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from devtools.wheels import ROOT
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
CASES = [(lang, path) for lang in PREFIX for path in PAGES if lang == DEFAULT.code or path != "reference/"]
CASES.append((DEFAULT.code, "404.html"))  # the one "not found" page, for every language folder
SILENT_WORKER = "// a Python worker that never answers: the page stays in its loading state\n"


@pytest.fixture(scope="module", params=["light", "dark"])
def scheme_page(request, browser) -> Iterator[object]:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` (./run test does)")
    context = browser.new_context(color_scheme=request.param)
    context.route(
        "**/assets/widgets/python-worker.js",
        lambda route: route.fulfill(body=SILENT_WORKER, content_type="text/javascript"),
    )
    page = context.new_page()
    page.scheme = request.param
    yield page
    context.close()


@pytest.mark.parametrize(("lang", "path"), CASES, ids=[f"{lang}-{path or 'home'}" for lang, path in CASES])
def test_page_has_no_accessibility_violations(scheme_page, site_url, lang, path):
    page = scheme_page
    page.goto(f"{site_url}/{PREFIX[lang]}{path}")
    page.wait_for_load_state("load")
    if page.locator(".live-cell").count():
        page.locator(".live-cell--mounted").first.wait_for()
    # Colours are checked as they settle: Material fades colours in (transition: color
    # 125-250 ms), and a scan in the middle of a fade measures a colour no reader sees.
    page.add_style_tag(content="*, *::before, *::after { transition: none !important; animation: none !important; }")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.add_script_tag(path=str(AXE))
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
