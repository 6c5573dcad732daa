"""The induction article's figures as a reader sees them (issue 45, item 4): on a wide screen
the readout stands beside the controls and the maps beside the curves, mirrored in a
right-to-left page, and no figure is a column of maps; on a 360 px phone every map fits and
whatever scrolls sideways shows that it does.

Measured in Chromium on the built article of every language, once its figures are live.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.conftest import PYTHON_READY_MS, PageGuard, wait_until_live
from tests.languages import LANGUAGES

FIGURES = ("induction_replay", "induction_heads", "induction_live")
TALLEST = 1300  # px at 1280: the figures were 1,400 to 1,750 px tall as a column of maps and curves

# Each figure's parts, as boxes in CSS px: the controls (a replay's stepper), the readout,
# the chart, the maps' part (LAYOUT in figures/induction/views.py), the maps themselves.
BOXES = """
(name) => {
  const fig = document.querySelector(`.apy-fig[data-figure="${name}"]`);
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height }; };
  return {
    figure: box(fig),
    dir: getComputedStyle(fig).direction,
    controls: box(fig.querySelector(".apy-induction__controls") || fig.querySelector(".apy-fig__body > .apy-row")),
    readout: box(fig.querySelector(".apy-fig__readout")),
    chart: box(fig.querySelector(".apy-induction__chart")),
    maps: [...fig.querySelectorAll(".apy-induction__map")].map(box),
  };
}
"""

# At 360 px: each sideways-scrolling box of a figure, whether it overflows, and the shadow
# that says so (figures.css, .apy-scroll); and each map's fit inside its box.
SCROLLERS = """
(name) => {
  const fig = document.querySelector(`.apy-fig[data-figure="${name}"]`);
  return [...fig.querySelectorAll(".apy-scroll")].map((el) => ({
    overflows: el.scrollWidth > el.clientWidth + 1,
    map: !!el.querySelector(".apy-induction__map"),
    signs: (getComputedStyle(el).backgroundImage.match(/radial-gradient/g) || []).length,
    attachment: getComputedStyle(el).backgroundAttachment,
  }));
}
"""


def induction_url(site_url: str, lang) -> str:
    return f"{site_url}/{lang.prefix}induction/"


@pytest.fixture(scope="module")
def tabs(browser) -> Iterator[dict[int, tuple[object, PageGuard]]]:
    """A tab at 1280 x 900 and one at 360 x 740, each in its own context for the module."""
    opened = {}
    contexts = []
    for width, height in ((1280, 900), (360, 740)):
        context = browser.new_context(viewport={"width": width, "height": height})
        guard = PageGuard(context)
        opened[width] = (guard.watch(context.new_page()), guard)
        contexts.append(context)
    yield opened
    for context in contexts:
        context.close()


def open_live(page, url: str) -> None:
    page.goto(url)
    page.evaluate("document.querySelector('.apy-fig[data-figure]').scrollIntoView()")
    page.wait_for_function("window.attentionPy?.session !== undefined", timeout=PYTHON_READY_MS)
    wait_until_live(page)
    page.evaluate("document.fonts.ready.then(() => true)")


def beside(a: dict, b: dict) -> bool:
    """Two boxes side by side: apart across, overlapping down."""
    apart = a["right"] <= b["left"] + 1 or b["right"] <= a["left"] + 1
    return apart and a["top"] < b["bottom"] and b["top"] < a["bottom"]


@pytest.mark.parametrize("lang", LANGUAGES, ids=[lang.code for lang in LANGUAGES])
def test_on_a_wide_screen_the_readout_and_the_maps_stand_beside(tabs, site_url, lang):
    page, guard = tabs[1280]
    open_live(page, induction_url(site_url, lang))
    for name in FIGURES:
        boxes = page.evaluate(BOXES, name)
        assert boxes["figure"]["height"] < TALLEST, (name, boxes["figure"])
        maps = boxes["maps"]
        assert len(maps) == 2
        # the readout beside what the reader works: a replay's slider is one row over the
        # figure's width, so its readout stands just under it, beside the curves
        neighbour = boxes["chart"] if name == "induction_replay" else boxes["controls"]
        assert beside(boxes["readout"], neighbour), (name, "readout", boxes)
        if boxes["chart"]:
            assert beside(maps[0], boxes["chart"]), (name, "maps", boxes)
            first_side = maps[0]["left"] > boxes["chart"]["left"]
            assert first_side == (boxes["dir"] == "ltr"), f"{name}: the maps follow the page's direction"
        else:  # induction_heads: the two maps side by side, layer 1 first in reading order
            assert beside(maps[0], maps[1])
            assert (maps[0]["left"] < maps[1]["left"]) == (boxes["dir"] == "ltr")
    guard.check()


@pytest.mark.parametrize("lang", LANGUAGES, ids=[lang.code for lang in LANGUAGES])
def test_on_a_phone_the_maps_fit_and_what_scrolls_shows_it(tabs, site_url, lang):
    page, guard = tabs[360]
    open_live(page, induction_url(site_url, lang))
    for name in FIGURES:
        scrollers = page.evaluate(SCROLLERS, name)
        assert scrollers, name
        assert not [s for s in scrollers if s["map"] and s["overflows"]], f"{name}: a map is cut at 360 px"
        for s in scrollers:
            assert s["signs"] == 2, (name, s)
            assert "local" in s["attachment"], (name, s)
    guard.check()
