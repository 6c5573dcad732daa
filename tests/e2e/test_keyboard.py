"""A figure by keyboard, in Chromium: each group of choices is one Tab stop, arrows inside.

On the learning article, train_live draws nine groups of choices (its recipe). Tab meets
each once, on its pressed button; Left and Right (mirrored on a right-to-left page, not in
a group that is left to right on every page), Up, Down, Home and End move focus within the
group without pressing anything (no call to Python, the state as it was: a press would
restart the run); Enter presses the focused choice and focus stays on it through the
redraw. Python writes the Tab stops (tests/figures/test_figure_tab_stops.py); the arrow keys are
docs/widgets/figures/figure-roving.js (tests/js/figure-roving.test.mjs).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Locator, Page

from tests.e2e.conftest import PYTHON_READY_MS
from tests.languages import language

LANGS = ("en", "he")  # left to right, and right to left
GROUP = '[role="toolbar"]'


@pytest.fixture(scope="module")
def learning(module_context, site_url) -> Iterator[Callable[[str], Page]]:
    """The learning article of a language, its train_live figure live (once per module)."""
    context, guard = module_context
    pages: dict[str, Page] = {}

    def get(lang: str) -> Page:
        if lang not in pages:
            page = guard.watch(context.new_page())
            page.set_viewport_size({"width": 1366, "height": 768})
            page.goto(f"{site_url}/{language(lang).prefix}learning/")
            figure(page).scroll_into_view_if_needed()  # Python starts for a figure near the screen
            page.wait_for_function(
                """() => document.querySelector('.apy-fig[data-figure="train_live"]')?.hasAttribute('data-live')""",
                timeout=PYTHON_READY_MS,
            )
            pages[lang] = page
        pages[lang].bring_to_front()
        return pages[lang]

    yield get
    for page in pages.values():
        page.close()
    guard.check()


def figure(page: Page) -> Locator:
    return page.locator('.apy-fig[data-figure="train_live"]')


def settled(page: Page) -> None:
    page.wait_for_function(
        """() => attentionPy.figures.hosts.filter((h) => h.name === "train_live")
                   .every((h) => !h.inFlight && !h.pending)""",
        timeout=PYTHON_READY_MS,
    )


# What has focus: its group's label (or null) and its data-focus-key, and whether it is
# inside the figure.
FOCUSED = """(root) => {
    const el = document.activeElement;
    return {
        inside: root.contains(el) && el !== root,
        group: el.closest('[role="toolbar"]')?.getAttribute('aria-label') ?? null,
        key: el.getAttribute('data-focus-key'),
        pressed: el.getAttribute('aria-pressed'),
        x: el.getBoundingClientRect().left,
    };
}"""


def focused(fig: Locator) -> dict:
    return fig.evaluate(FOCUSED)


def enter_figure(page: Page, fig: Locator) -> None:
    """Focus the figure's root (by script, not a Tab stop), so the next Tab is its first control."""
    fig.evaluate("(root) => { root.setAttribute('tabindex', '-1'); root.focus(); }")


def tab_stops(page: Page, fig: Locator, key: str) -> list[dict]:
    """Every stop Tab (or Shift+Tab) makes inside the figure, from its root until focus leaves."""
    stops = []
    for _ in range(200):
        page.keyboard.press(key)
        now = focused(fig)
        if not now["inside"]:
            return stops
        stops.append(now)
    raise AssertionError("Tab never left the figure")


@pytest.mark.parametrize("lang", LANGS)
def test_each_group_of_choices_is_one_tab_stop(learning, lang):
    page = learning(lang)
    fig = figure(page)
    groups = fig.locator(GROUP).evaluate_all("(gs) => gs.map((g) => g.getAttribute('aria-label'))")
    assert len(groups) >= 9, groups
    buttons_in_groups = fig.locator(f"{GROUP} button").count()
    enter_figure(page, fig)
    forward = tab_stops(page, fig, "Tab")
    in_groups = [s["group"] for s in forward if s["group"]]
    assert sorted(in_groups) == sorted(groups), "each group exactly once"
    assert all(s["pressed"] == "true" for s in forward if s["group"]), "Tab lands on the choice in force"
    keys = [s["key"] for s in forward]
    assert "train" in keys[:5], f"Train within 5 Tab stops of the figure's first control: {keys[:6]}"
    print(f"\n{lang}: {len(forward)} Tab stops in train_live ({buttons_in_groups} buttons in {len(groups)} groups)")
    # and back again, from after the figure
    backward = tab_stops(page, fig, "Shift+Tab")
    assert [s["key"] for s in backward] == [s["key"] for s in reversed(forward)]


def group_buttons(fig: Locator, label: str) -> Locator:
    return fig.locator(f'{GROUP}[aria-label="{label}"] button')


def state(fig: Locator) -> dict:
    return json.loads(fig.get_attribute("data-state"))


def label_of(fig: Locator, key: str) -> str:
    """The label of the group whose first button sends ``key``."""
    return fig.locator(f'{GROUP}:has(button[data-focus-key="{key}:0"])').get_attribute("aria-label")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("key", ["positions", "learning_rate"])  # every group runs in the page's direction
def test_arrows_move_focus_in_a_group_without_pressing_and_enter_presses(learning, lang, key):
    page = learning(lang)
    fig = figure(page)
    settled(page)
    label = label_of(fig, key)
    buttons = group_buttons(fig, label)
    count = buttons.count()
    assert count >= 3
    before = state(fig)
    updates = page.evaluate("attentionPy.figures.hosts.find((h) => h.name === 'train_live').stats.updates")
    pressed = next(i for i in range(count) if buttons.nth(i).get_attribute("aria-pressed") == "true")
    buttons.nth(pressed).focus()

    # Right and Left follow the screen: in a right-to-left row, Right goes to the previous button
    rtl = buttons.nth(0).evaluate("(b) => getComputedStyle(b).direction") == "rtl"
    assert rtl == (lang == "he")
    xs = [buttons.nth(i).bounding_box()["x"] for i in range(count)]
    page.keyboard.press("Home")
    assert focused(fig)["key"] == f"{key}:0"
    page.keyboard.press("ArrowRight")
    assert focused(fig)["key"] == f"{key}:{count - 1 if rtl else 1}"
    assert (focused(fig)["x"] > xs[0]) == (not rtl) or count == 1
    page.keyboard.press("ArrowLeft")
    assert focused(fig)["key"] == f"{key}:0"
    page.keyboard.press("ArrowDown")
    assert focused(fig)["key"] == f"{key}:1"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("End")
    assert focused(fig)["key"] == f"{key}:{count - 1}"
    target = 1 if pressed != 1 else 2
    page.keyboard.press("Home")
    for _ in range(target):
        page.keyboard.press("ArrowDown")
    assert focused(fig)["key"] == f"{key}:{target}"
    # nothing was pressed: no call, the same state, the same choice pressed
    page.wait_for_timeout(200)
    assert state(fig) == before
    assert buttons.nth(pressed).get_attribute("aria-pressed") == "true"
    assert page.evaluate("attentionPy.figures.hosts.find((h) => h.name === 'train_live').stats.updates") == updates
    # the focused button is the group's one Tab stop while focus is in it
    assert [buttons.nth(i).get_attribute("tabindex") for i in range(count)] == [
        "0" if i == target else "-1" for i in range(count)
    ]

    page.keyboard.press("Enter")
    page.wait_for_function(
        "([el, key, old]) => JSON.stringify(JSON.parse(el.dataset.state)[key]) !== old",
        arg=[fig.element_handle(), key, json.dumps(before[key])],
        timeout=PYTHON_READY_MS,
    )
    settled(page)
    assert buttons.nth(target).get_attribute("aria-pressed") == "true"
    assert focused(fig)["key"] == f"{key}:{target}", "focus stays on the pressed choice through the redraw"
    assert [buttons.nth(i).get_attribute("tabindex") for i in range(count)] == [
        "0" if i == target else "-1" for i in range(count)
    ]
    # put the choice back as it was, by keyboard: Space presses too
    page.keyboard.press("Home")
    for _ in range(pressed):
        page.keyboard.press("ArrowDown")
    page.keyboard.press(" ")
    page.wait_for_function(
        "([el, key, old]) => JSON.stringify(JSON.parse(el.dataset.state)[key]) === old",
        arg=[fig.element_handle(), key, json.dumps(before[key])],
        timeout=PYTHON_READY_MS,
    )
    settled(page)


@pytest.mark.parametrize("lang", ["he"])
def test_leaving_a_group_puts_its_tab_stop_back_on_the_choice_in_force(learning, lang):
    page = learning(lang)
    fig = figure(page)
    settled(page)
    buttons = group_buttons(fig, label_of(fig, "positions"))
    pressed = next(i for i in range(buttons.count()) if buttons.nth(i).get_attribute("aria-pressed") == "true")
    buttons.nth(pressed).focus()
    page.keyboard.press("ArrowLeft")  # to another choice, not pressed
    moved = focused(fig)["key"]
    assert moved != f"positions:{pressed}"
    page.keyboard.press("Tab")  # out of the group, to the next one
    assert focused(fig)["group"] != label_of(fig, "positions")
    page.keyboard.press("Shift+Tab")  # back: on the choice in force, not where the reader left
    assert focused(fig)["key"] == f"positions:{pressed}"


# Each control of the figure wholly on screen below the header: is it the element at its
# centre and near its corners (nothing floating over it)? Returns those covered, and by what.
COVERED = """(root) => {
    const header = document.querySelector('.md-header').getBoundingClientRect().bottom;
    const covered = [];
    for (const el of root.querySelectorAll('button, input, select')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.top <= header || r.bottom >= innerHeight) continue;
        // its centre and four points just inside its corners
        const points = [[0.5, 0.5], [0.1, 0.2], [0.9, 0.2], [0.1, 0.8], [0.9, 0.8]];
        for (const [fx, fy] of points) {
            const top = document.elementFromPoint(r.left + fx * r.width, r.top + fy * r.height);
            if (!el.contains(top)) {
                covered.push(`${el.getAttribute('data-focus-key')} under ${top?.closest('[class]')?.getAttribute('class')}`);
                break;
            }
        }
    }
    return covered;
}"""


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_floats_over_the_figures_controls_when_scrolling_back_up(learning, lang):
    """A reader scrolls past the figure and back up to its controls (when Material showed its
    floating "Back to top" button, centred at the top of the content): every control on
    screen is the element at its own centre and corners, and there is no such button."""
    page = learning(lang)
    fig = figure(page)
    settled(page)
    top = fig.evaluate("(root) => root.getBoundingClientRect().top + scrollY")
    covered: list[str] = []
    for offset in range(40, 400, 60):  # the control rows at several heights under the header
        page.evaluate(f"window.scrollTo(0, {top - offset + 800})")
        page.mouse.move(683, 400)
        page.mouse.wheel(0, -400)
        page.mouse.wheel(0, -400)
        page.wait_for_function(f"Math.abs(scrollY - {top - offset}) < 2")
        page.wait_for_timeout(300)  # any button that shows on scrolling up has shown
        covered.extend(f"{offset} px: {c}" for c in fig.evaluate(COVERED))
    assert covered == []
    assert page.locator('[data-md-component="top"]').count() == 0


def test_arrows_while_training_runs_move_focus_and_leave_the_run_alone(learning):
    """While train_live trains (its markup redrawn many times a second, each time with Python's
    Tab stops), arrowing through a recipe group moves focus and keeps it, the focused button
    stays the group's Tab stop, and the run goes on with its recipe unchanged."""
    page = learning("he")
    fig = figure(page)
    settled(page)
    handle = fig.element_handle()
    if state(fig)["step"]:
        fig.locator('[data-focus-key="reset"]').click()
        page.wait_for_function("(el) => JSON.parse(el.dataset.state).step === 0", arg=handle, timeout=10_000)
        settled(page)
    recipe = state(fig)
    fig.locator('[data-focus-key="train"]').click()
    page.wait_for_function("(el) => JSON.parse(el.dataset.state).step >= 1", arg=handle, timeout=PYTHON_READY_MS)
    buttons = group_buttons(fig, label_of(fig, "seed"))
    count = buttons.count()
    pressed = next(i for i in range(count) if buttons.nth(i).get_attribute("aria-pressed") == "true")
    buttons.nth(pressed).focus()
    page.keyboard.press("ArrowDown")
    moved = f"seed:{(pressed + 1) % count}"
    step = state(fig)["step"]
    page.wait_for_function(
        "([el, at]) => JSON.parse(el.dataset.state).step > at + 2", arg=[handle, step], timeout=PYTHON_READY_MS
    )  # redrawn several times since
    now = state(fig)
    try:
        assert focused(fig)["key"] == moved
        assert fig.locator(f'[data-focus-key="{moved}"]').get_attribute("tabindex") == "0"
        assert [buttons.nth(i).get_attribute("tabindex") for i in range(count)].count("0") == 1
        assert now["running"] is True, "still training"
        assert {k: now[k] for k in ("seed", "positions", "heads")} == {
            k: recipe[k] for k in ("seed", "positions", "heads")
        }
    finally:
        fig.locator('[data-focus-key="reset"]').click()
        page.wait_for_function("(el) => JSON.parse(el.dataset.state).step === 0", arg=handle, timeout=10_000)
        settled(page)
