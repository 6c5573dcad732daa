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

import json
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
        # Python starts when a cell or figure comes near the screen (docs/widgets/boot/start-policy.js)
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


# --- the learning article's figures at 360 px: the words that decide, and labels to read -------

LEARNING_FIGURES = ("training_replay", "trained_reader", "train_live")
SMALLEST_LABEL_PX = 12

# Each of a figure's maps (or, in trained_reader, each layer's bars): is every cell of the reason's
# words (`index` in sentence order) inside the box the reader sees (its scroll box, the figure)?
REASON_IN_SIGHT = """
([name, indices]) => {
  const fig = document.querySelector(`.apy-fig[data-figure="${name}"]`);
  const figBox = fig.getBoundingClientRect();
  const inside = (cell, box) => {
    const r = cell.getBoundingClientRect();
    return r.width > 0 && r.left >= Math.max(box.left, figBox.left, 0) - 0.5
      && r.right <= Math.min(box.right, figBox.right, innerWidth) + 0.5;
  };
  const maps = [...fig.querySelectorAll(".apy-maps .apy-scroll")].map((scroll) => {
    const table = scroll.querySelector("table");
    const heads = [...table.querySelectorAll("thead th")].slice(1);  // after the corner
    const pronoun = table.querySelector("tbody tr:has(.apy-cell--selected)") || table.querySelector("tbody tr");
    const cells = [...pronoun.querySelectorAll("td")];
    const box = scroll.getBoundingClientRect();
    return indices.map((j) => ({ word: heads[j].textContent, head: inside(heads[j], box), cell: inside(cells[j], box) }));
  });
  const bars = [...fig.querySelectorAll(".apy-layer .apy-sentence")].map((list) => {
    const tokens = [...list.querySelectorAll(".apy-token")];
    return indices.map((j) => ({ word: tokens[j].textContent, head: inside(tokens[j], list.getBoundingClientRect()), cell: true }));
  });
  return [...maps, ...bars];
}
"""

# The curves' axis labels as drawn: their font size times the drawing's scale, in CSS px.
LABEL_SIZES = """
(name) => {
  const svg = document.querySelector(`.apy-fig[data-figure="${name}"] svg.apy-curves`);
  if (!svg) return [];
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll(".apy-tick")].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
}
"""

# The chosen sentence's name in its menu: as wide as the menu's text room, or cut off?
MENU_FITS = """
(name) => {
  const select = document.querySelector(`.apy-fig[data-figure="${name}"] select[name="sentence"]`);
  if (!select) return null;
  const style = getComputedStyle(select);
  const context = document.createElement("canvas").getContext("2d");
  context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const text = select.selectedOptions[0].textContent;
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return { text, width: context.measureText(text).width, room };
}
"""


def reason_indices(site_dir: Path, lang: str, name: str, state: dict) -> list[int]:
    """The token indices of the reason in the sentence the figure shows (from the site's own
    training file, through the figures' code)."""

    from attention_py.figures import trained_reader
    from attention_py.figures.learning import views as views
    from attention_py.resources import provide
    from tests.figures.support import saved_resources

    with saved_resources():
        data = json.loads((site_dir / "assets" / "training" / f"{lang}.json").read_text(encoding="utf-8"))
        provide(views.key(lang), data)
        if name == "trained_reader":
            first, action, second, reason, _ = trained_reader.picked(state, lang)
            s = views.puzzle(lang).sentence(first, action, second, reason)
        else:
            s = views.examples(lang)[min(state["sentence"], views.EXAMPLES - 1)]
        return list(views.reason_span(s))


def learning_page(page, site_url: str, lang) -> None:
    page.goto(f"{site_url}/{lang.prefix}learning/")
    page.evaluate("document.querySelector('.apy-fig[data-figure]').scrollIntoView()")
    page.wait_for_function("window.attentionPy?.session !== undefined", timeout=PYTHON_READY_MS)
    wait_until_live(page)


@pytest.mark.parametrize("lang", LANGUAGES, ids=[lang.code for lang in LANGUAGES])
def test_the_learning_figures_show_the_reason_and_readable_labels_at_360_px(narrow_tab, site_dir, site_url, lang):
    """In every map of the learning article, in both views, the reason's words (which decide
    whom the pronoun means) are in sight without scrolling; the sentence menu names the
    chosen sentence whole, reason included; the curves' labels are at least 12 px; and the
    whole map says why the last layer's rows are 1.00."""
    page, guard = narrow_tab
    learning_page(page, site_url, lang)
    problems = []
    for name in LEARNING_FIGURES:
        fig = page.locator(f'.apy-fig[data-figure="{name}"]')
        views = ["pronoun", "full"] if name != "trained_reader" else ["bars"]
        for view in views:
            if view == "full":
                fig.locator('[data-set=\'{"view":"full"}\']').click()
                page.wait_for_function(
                    f"document.querySelector('.apy-fig[data-figure={name}] .apy-attn--full') !== null"
                    f" && !document.querySelector('.apy-fig[data-figure={name}]').hasAttribute('data-busy')"
                )
                why = fig.locator(".apy-maps__why")
                if not why.is_visible():
                    problems.append(f"{name}: the whole map says nothing of why the last layer is 1.00")
            state = json.loads(fig.get_attribute("data-state"))
            indices = reason_indices(site_dir, lang.code, name, state)
            assert indices, f"{name}: no reason found in the sentence shown"
            maps = page.evaluate(REASON_IN_SIGHT, [name, indices])
            assert maps, f"{name}: no map found"
            for k, cells in enumerate(maps):
                hidden = [c["word"] for c in cells if not (c["head"] and c["cell"])]
                if hidden:
                    problems.append(f"{name} ({view}), map {k + 1}: the reason's {hidden} out of sight")
        sizes = page.evaluate(LABEL_SIZES, name)
        if sizes and min(sizes) < SMALLEST_LABEL_PX:
            problems.append(f"{name}: curve labels {min(sizes):.1f} px, under {SMALLEST_LABEL_PX}")
        menu = page.evaluate(MENU_FITS, name)
        if menu and menu["width"] > menu["room"]:
            problems.append(f"{name}: the menu cuts {menu['text']!r} ({menu['width']:.0f} px in {menu['room']:.0f})")
    result = page.evaluate(STICKING_OUT)
    guard.check()
    assert not problems, f"{lang.code} at {WIDTH} px:\n" + "\n".join(problems)
    assert result["scrollWidth"] <= WIDTH, describe("learning/", result)
