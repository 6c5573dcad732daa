"""No page of the site scrolls sideways on a 360 px wide phone, in any language.

Every HTML page of the built site, in every built language (tests/languages.py), is opened
at 360 x 740 in one browser tab; a page with figures or live cells is measured once Python
has loaded and the figures have gone live (their live markup may differ from the prerendered
one). Wide things scroll inside their own box (code blocks, display math, the figures'
matrices in ``.apy-scroll``, Material's tables) or wrap; nothing may stick out of the page.

Two checks, because one is not enough here: ``document.documentElement.scrollWidth`` must be
360, and no element may reach past the viewport's edges or past a figure's box, since
Material sets ``overflow-x: hidden`` on ``<html>`` and each figure contains its paint: a
too-wide element there is cut off rather than scrolled (and a phone that ignores the first
scrolls sideways after all). The failure names the outermost elements that stick out.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import PYTHON_READY_MS, PageGuard, wait_until_live
from tests.languages import LANGUAGES

WIDTH, HEIGHT = 360, 740

# The elements that stick out, outermost first: an element inside a box that scrolls
# sideways (overflow-x auto or scroll) or clips by design (overflow hidden: KaTeX's parts,
# visually hidden text) is that box's business; a fixed element (Material's drawer, off
# screen until opened) never widens the page. A figure (contain: paint) clips like the
# viewport: what leaves its box is cut off, so it counts too.
STICKING_OUT = """
() => {
  const width = document.documentElement.clientWidth;
  const name = (el) => el.tagName.toLowerCase() + (el.id ? `#${el.id}` : "")
    + [...el.classList].slice(0, 2).map((c) => `.${c}`).join("")
    + (el.dataset.figure ? `[data-figure="${el.dataset.figure}"]` : "");
  const path = (el) => {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 3; e = e.parentElement) parts.unshift(name(e));
    const figure = el.parentElement?.closest("[data-figure]");
    if (figure && !parts.some((part) => part.includes("[data-figure="))) parts.unshift(name(figure), "...");
    return parts.join(" > ");
  };
  const found = [];
  const walk = (parent, left, right) => {
    for (const el of parent.children) {
      const style = getComputedStyle(el);
      if (style.position === "fixed" || style.display === "none") continue;
      const box = el.getBoundingClientRect();
      if (box.width > 0 && style.visibility !== "hidden" && (box.right > right + 0.5 || box.left < left - 0.5)) {
        found.push({ what: path(el), left: Math.round(box.left), right: Math.round(box.right),
                     room: [Math.round(left), Math.round(right)] });
        continue;  // its children stick out with it: name the outermost only
      }
      if (style.overflowX !== "visible") continue;
      const clips = /paint|strict|content/.test(style.contain);
      walk(el, clips ? Math.max(left, box.left) : left, clips ? Math.min(right, box.right) : right);
    }
  };
  walk(document.body, 0, width);
  return { clientWidth: width, scrollWidth: document.documentElement.scrollWidth, found };
}
"""

HAS_PYTHON = "!!document.querySelector('.apy-fig[data-figure], .live-cell')"
CELLS_MOUNTED = "[...document.querySelectorAll('.live-cell')].every((cell) => cell.querySelector('.cm-editor'))"


def pages_of(site_dir: Path, prefix: str) -> list[str]:
    """The site's HTML pages of the language at ``prefix`` ("" for the default), as URL paths."""
    others = [lang.prefix for lang in LANGUAGES if lang.prefix and lang.prefix != prefix]
    found = []
    for path in sorted(site_dir.rglob("*.html")):
        url = path.relative_to(site_dir).as_posix().removesuffix("index.html")
        if url.startswith("assets/") or not url.startswith(prefix) or any(url.startswith(o) for o in others):
            continue
        found.append(url)
    return found


@pytest.fixture(scope="module")
def narrow_tab(browser) -> Iterator[tuple[object, PageGuard]]:
    """One tab at 360 x 740 for the whole module: pages share the cache (Python is fetched once)."""
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    guard = PageGuard(context)
    yield guard.watch(context.new_page()), guard
    context.close()


def measure(page, url: str) -> dict:
    page.goto(url)
    if page.evaluate(HAS_PYTHON):
        # Python starts when a cell or figure comes near the screen (docs/widgets/start-policy.js)
        page.evaluate("document.querySelector('.apy-fig[data-figure], .live-cell').scrollIntoView()")
        page.wait_for_function("window.attentionPy?.session !== undefined", timeout=PYTHON_READY_MS)
        wait_until_live(page)
        page.wait_for_function(CELLS_MOUNTED, timeout=PYTHON_READY_MS)
        page.evaluate("window.scrollTo(0, 0)")
    page.evaluate("document.fonts.ready.then(() => true)")
    return page.evaluate(STICKING_OUT)


def describe(url: str, result: dict) -> str:
    widest = sorted(
        result["found"], key=lambda f: max(f["right"] - f["room"][1], f["room"][0] - f["left"]), reverse=True
    )
    lines = [f"{url or '/'}: scrollWidth {result['scrollWidth']}"]
    lines += [
        f"    {f['what']} spans {f['left']}..{f['right']} px, room {f['room'][0]}..{f['room'][1]}" for f in widest[:5]
    ]
    if len(widest) > 5:
        lines.append(f"    ... and {len(widest) - 5} more")
    return "\n".join(lines)


@pytest.mark.parametrize("lang", LANGUAGES, ids=[lang.code for lang in LANGUAGES])
def test_no_page_scrolls_sideways_at_360_px(narrow_tab, site_dir, site_url, lang):
    page, guard = narrow_tab
    urls = pages_of(site_dir, lang.prefix)
    assert len(urls) >= 5, f"{lang.code}: only {urls} found in {site_dir}"
    too_wide = []
    for url in urls:
        result = measure(page, f"{site_url}/{url}")
        assert result["clientWidth"] == WIDTH, result
        if result["scrollWidth"] > WIDTH or result["found"]:
            too_wide.append(describe(url, result))
    guard.check()
    assert not too_wide, (
        f"{lang.code}: pages wider than {WIDTH} px (elements past the page's or their figure's edge):\n"
        + "\n".join(too_wide)
    )
