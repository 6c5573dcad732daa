"""The figures of the gallery page, in headless Chromium, in every language of the site.

Every figure is in the page before any script runs (checked with JavaScript off, and
against the native rendering), comes alive once the page's Python is ready, and answers
input with exactly what attention_py computes natively: each test reads the state before
the input and the change the host sent (the host's `figure-updated` event), calls
``attention_py.figures.update`` natively with them, and compares the result with the
page. Only the seed example (softmax of 1.5, 2.0, 3.0 gives 14.0 / 23.1 / 62.9 %) is
written out by hand.

The pages of one language are shared by the tests of this module (figures only ever get
input meant for them), so Python loads once per language; tests that need a fresh session
open their own page.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from attention_py import dot, softmax
from attention_py.figures import FIGURES, update
from site_hooks.content.figures import strings_for as build_strings_for
from tests.e2e.conftest import GALLERY, PYTHON_READY_MS, RECORD_UPDATES, PythonGate, open_gallery, wait_until_live
from tests.languages import LANGUAGES, language, translated

LANGS = translated("gallery.md")  # a language in progress shows English's gallery, English's figures

NAMES = list(FIGURES)

# True when the live root, minus the host's own attributes and the focus-visible polyfill's,
# equals `html`, ignoring whitespace-only text. Otherwise both serialisations.
SAME_AS = """
([id, html]) => {
  const strip = (node) => {
    for (const child of [...node.childNodes]) {
      if (child.nodeType === Node.TEXT_NODE && !child.data.trim()) child.remove();
      else if (child.nodeType === Node.ELEMENT_NODE) strip(child);
    }
    return node;
  };
  const live = strip(document.getElementById(id).cloneNode(true));
  for (const name of ["data-live", "data-busy", "tabindex"]) live.removeAttribute(name);
  for (const el of live.querySelectorAll("[data-focus-visible-added], [class='']")) {
    // Material's focus-visible polyfill marks the focused control; not the figure's markup.
    el.removeAttribute("data-focus-visible-added");
    el.classList.remove("focus-visible");
    if (!el.getAttribute("class")) el.removeAttribute("class");
  }
  const template = document.createElement("template");
  template.innerHTML = html;  // a test's own, trusted: attention_py's native answer
  const expected = strip(template.content.firstElementChild);
  return live.isEqualNode(expected) ? null : { live: live.outerHTML, expected: expected.outerHTML };
}
"""


def strings_for(lang: str) -> dict:
    """The language's strings as the build hands them to the figures (its file, plus what the
    build derives, such as common.direction)."""
    return build_strings_for(lang)


def native_update(page: Page, fid: str, state: dict, changes: dict) -> dict:
    """What attention_py natively answers for this figure of the page, this state and change."""
    root = page.locator(f"#{fid}")
    return update(
        root.get_attribute("data-figure"),
        state,
        changes,
        root.get_attribute("lang"),
        json.loads(root.get_attribute("data-strings")),
        fid,
    )


def state_of(page: Page, fid: str) -> dict:
    return json.loads(page.locator(f"#{fid}").get_attribute("data-state"))


NAMED = {"train_live": "train"}  # figures the gallery's blocks name (id="..."): their links use it


def figure_id(page: Page, name: str) -> str:
    """The id of the page's figure `name` (its data-figure): the one its fence names, else
    the build's count on that page. Found by name, so a gallery fence may stand anywhere."""
    return page.locator(f'.apy-fig[data-figure="{name}"]').first.get_attribute("id")


def updates(page: Page) -> int:
    return page.evaluate("window.__figureUpdates.length")


def wait_for_update(page: Page, before: int) -> dict:
    """The first update applied after `before` updates, once no more are under way."""
    page.wait_for_function(
        f"""window.__figureUpdates.length > {before}
            && attentionPy.figures.hosts.every((host) => !host.inFlight && !host.pending)""",
        timeout=PYTHON_READY_MS,
    )
    return page.evaluate(f"window.__figureUpdates.slice({before})")


def merged_changes(new_updates: list[dict]) -> dict:
    changes: dict = {}
    for applied in new_updates:
        changes.update(applied["changes"])
    return changes


def assert_page_matches(page: Page, fid: str, html: str) -> None:
    difference = page.evaluate(SAME_AS, [fid, html])
    assert difference is None, f"{fid} differs from attention_py.figures.update:\n{difference}"


# --- before any script runs ---------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_figure_is_in_the_page_without_javascript(browser, site_url, site_dir, lang):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{site_url}/{GALLERY[lang]}")
        roots = page.locator(".apy-fig[data-figure]")
        expect(roots).to_have_count(len(NAMES))
        # every figure once, in whatever order the gallery shows them
        assert sorted(roots.nth(i).get_attribute("data-figure") for i in range(len(NAMES))) == sorted(NAMES)
        ids = {name: figure_id(page, name) for name in NAMES}
        assert len(set(ids.values())) == len(NAMES), ids
        for name, named in NAMED.items():
            assert ids[name] == named, f"{name}: links name it #{named}"
        for name in NAMES:
            root = page.locator(f"#{ids[name]}")
            assert root.get_attribute("lang") == lang
            assert root.get_attribute("dir") == language(lang).direction
            assert root.get_attribute("data-live") is None
            assert json.loads(root.get_attribute("data-state")) == FIGURES[name].default_state(lang)
            expect(root.locator("[data-role=static-hint]")).to_be_visible()
        if lang == "en":
            readout = page.locator(f"#{figure_id(page, 'softmax')} .apy-fig__readout")
            for percent in ("14.0%", "23.1%", "62.9%"):  # the seed example
                expect(readout).to_contain_text(percent)
    finally:
        context.close()
    # The very markup attention_py draws natively, byte for byte, in the built page.
    built = (site_dir / GALLERY[lang] / "index.html").read_text(encoding="utf-8")
    strings = strings_for(lang)
    for name in NAMES:
        native = FIGURES[name].render(None, lang=lang, strings=strings, instance=ids[name])
        assert native in built, f"{lang}: {name} is not prerendered as attention_py draws it"


# --- live -----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_figures_become_live(galleries, checked, lang):
    page = galleries(lang)
    for name in NAMES:
        root = page.locator(f"#{figure_id(page, name)}")
        expect(root).to_have_attribute("data-live", "")
        expect(root.locator("[data-role=static-hint]")).to_be_hidden()
        expect(root).to_have_attribute("dir", language(lang).direction)
    expect(page.locator(".apy-fig-status:visible")).to_have_count(0)


@pytest.mark.parametrize("lang", LANGS)
def test_softmax_slider_by_keyboard(galleries, checked, lang):
    page = galleries(lang)
    fid = figure_id(page, "softmax")
    slider = page.locator(f"#{fid} input[name='z.0']")
    before_state, before = state_of(page, fid), updates(page)
    slider.focus()
    page.keyboard.press("ArrowRight")
    changes = merged_changes(wait_for_update(page, before))
    expected = native_update(page, fid, before_state, changes)
    assert expected["ok"]
    z = expected["state"]["z"]
    # Right is "more" left to right; right-to-left sliders mirror, so there it is "less".
    assert (z[0] > before_state["z"][0]) == (language(lang).direction == "ltr")
    assert state_of(page, fid) == expected["state"]
    assert_page_matches(page, fid, expected["html"])
    # The numbers on screen are softmax of the new scores, as attention_py computes them.
    readout = page.locator(f"#{fid} .apy-fig__readout").inner_text()
    for i, p in enumerate(softmax(z)):
        assert f"p{'₀₁₂₃₄₅'[i]} = {100 * p:.1f}%" in readout, readout
    # Focus stayed on the slider: it was patched in place, not replaced.
    assert page.evaluate("document.activeElement.getAttribute('name')") == "z.0"


@pytest.mark.parametrize("lang", LANGS)
def test_dot_product_drag_changes_the_dot_product(galleries, checked, lang):
    page = galleries(lang)
    fid = figure_id(page, "dot_product")
    handle = page.locator(f"#{fid} [data-drag]").first
    handle.scroll_into_view_if_needed()
    before_state, before = state_of(page, fid), updates(page)
    box = handle.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 40, y + 30, steps=8)
    page.mouse.move(x - 90, y + 60, steps=8)
    page.mouse.up()
    changes = merged_changes(wait_for_update(page, before))
    expected = native_update(page, fid, before_state, changes)
    after = state_of(page, fid)
    assert after == expected["state"]
    assert after["a"] != before_state["a"]
    assert dot(after["a"], after["b"]) != dot(before_state["a"], before_state["b"])
    shown = f"a · b = {dot(after['a'], after['b']):.2f}".replace("-", "\u2212")  # a true minus sign
    assert shown in page.locator(f"#{fid} .apy-fig__readout").inner_text()
    assert_page_matches(page, fid, expected["html"])


@pytest.mark.parametrize("lang", LANGS)
def test_data_set_button_adds_a_score(galleries, checked, lang):
    page = galleries(lang)
    fid = figure_id(page, "softmax")
    before_state, before = state_of(page, fid), updates(page)
    button = page.locator(f"#{fid} [data-focus-key='add']")
    button.click()
    changes = merged_changes(wait_for_update(page, before))
    expected = native_update(page, fid, before_state, changes)
    assert len(expected["state"]["z"]) == len(before_state["z"]) + 1
    assert state_of(page, fid) == expected["state"]
    expect(page.locator(f"#{fid} input[type=range]")).to_have_count(len(before_state["z"]) + 1)
    assert_page_matches(page, fid, expected["html"])


@pytest.mark.parametrize("lang", LANGS)
def test_a_bad_number_shows_a_translated_error(galleries, checked, lang):
    page = galleries(lang)
    fid = figure_id(page, "dot_product")
    box = page.locator(f"#{fid} input[name='a.0']")
    error = page.locator(f"#{fid} [data-role=error]")
    before_state, before = state_of(page, fid), updates(page)
    box.fill("abc")
    box.press("Enter")
    wait_for_update(page, before)
    refused = native_update(page, fid, before_state, {"a.0": "abc"})
    assert not refused["ok"]
    expect(error).to_be_visible()
    expect(error).to_have_text(refused["error"])
    expect(box).to_have_attribute("aria-invalid", "true")
    expect(box).to_have_value("abc")  # the reader's text stays
    assert state_of(page, fid) == before_state
    # A good number clears both.
    before = updates(page)
    box.fill("1,5")  # a decimal comma: Python parses it
    box.press("Enter")
    changes = merged_changes(wait_for_update(page, before))
    expected = native_update(page, fid, before_state, changes)
    assert expected["ok"]
    assert expected["state"]["a"][0] == 1.5
    expect(error).to_be_hidden()
    expect(box).not_to_have_attribute("aria-invalid", "true")
    assert_page_matches(page, fid, expected["html"])


@pytest.mark.parametrize("lang", LANGS)
def test_a_query_cell_explains_itself_on_focus_and_a_key_cell_on_hover(galleries, checked, lang):
    page = galleries(lang)
    fid = figure_id(page, "information_flow")
    for key, how, table, row, col in (
        ("cell:apy-t-Q:1:2", "focus", "Q", 1, 2),
        ("cell:apy-t-K:2:0", "hover", "K", 2, 0),
    ):
        cell = page.locator(f"#{fid} [data-focus-key='{key}']")
        cell.scroll_into_view_if_needed()
        # The pointer out of the way: a cell scrolled under it would count as hovered.
        page.mouse.move(0, 0)
        page.wait_for_function("attentionPy.figures.hosts.every((host) => !host.inFlight && !host.pending)")
        before_state, before = state_of(page, fid), updates(page)
        assert (before_state["table"], before_state["row"], before_state["col"]) != (table, row, col)
        cell.focus() if how == "focus" else cell.hover()
        changes = merged_changes(wait_for_update(page, before))
        assert changes == {"table": table, "row": row, "col": col}
        expected = native_update(page, fid, before_state, changes)
        assert state_of(page, fid) == expected["state"]
        assert_page_matches(page, fid, expected["html"])
        formula = page.locator(f"#{fid} .apy-explain .apy-formula")
        expect(formula).to_contain_text(f"{table.lower()}{row + 1},{col + 1} = x{row + 1} · W_{table}[:, {col + 1}]")
        expect(cell).to_have_attribute("aria-pressed", "true")
        if how == "focus":  # patched in place: focus stays on the cell
            assert page.evaluate("document.activeElement.dataset.focusKey") == key


def test_focus_stays_in_the_figure_when_its_button_is_disabled(galleries, checked):
    page = galleries("en")
    fid = figure_id(page, "causal_attention")
    page.locator(f"#{fid} [data-focus-key='previous']").click()
    before = updates(page)
    next_button = page.locator(f"#{fid} [data-focus-key='next']")
    expect(next_button).to_be_enabled()
    next_button.focus()
    page.keyboard.press("Enter")  # to the last word: "Next" is disabled now
    wait_for_update(page, before)
    expect(next_button).to_be_disabled()
    assert page.evaluate(f"document.activeElement === document.getElementById('{fid}')")
    expect(page.locator(f"#{fid}")).to_have_attribute("tabindex", "-1")


def first_control(page: Page, fid: str):
    """The first control a reader meets that would change something once (not pressed already,
    and not one that sets the figure running: train_live's Train goes on updating by itself,
    which tests/e2e/test_figures_learning.py tests)."""
    key = page.evaluate(
        """(id) => {
            const root = document.getElementById(id);
            const sets = (el) => (el.dataset.set ? JSON.parse(el.dataset.set) : {});
            const el = [...root.querySelectorAll('[data-keys], input[name], select[name], [data-set]')]
              .find((el) => !el.disabled && el.getAttribute('aria-pressed') !== 'true' && sets(el).running !== true);
            return el.getAttribute('data-focus-key');
        }""",
        fid,
    )
    return page.locator(f"#{fid} [data-focus-key='{key}']")


def trigger(page: Page, control) -> None:
    """Uses a control as a reader would: keys for sliders and points, clicks for buttons."""
    kind = control.evaluate(
        "(el) => el.matches('[data-keys]') ? 'keys' : el.localName === 'select' ? 'select' : (el.type || el.localName)"
    )
    if kind in ("keys", "range"):
        at_max = kind == "range" and control.evaluate("(el) => Number(el.value) >= Number(el.max)")
        control.focus()
        page.keyboard.press("ArrowLeft" if at_max else "ArrowRight")
    elif kind == "select":
        values = control.evaluate("(el) => [...el.options].map((o) => o.value)")
        current = control.input_value()
        control.select_option(next(v for v in values if v != current))
    elif kind == "text":
        control.fill("0.5" if control.input_value() != "0.5" else "-0.5")
        control.press("Enter")
    else:  # buttons, check boxes, anything clickable
        control.click()


# One left-to-right and one right-to-left language: the host and the figures' code are the
# same in every language (the markup of each is compared byte for byte above).
ONE_EACH_WAY = [next(lang.code for lang in LANGUAGES if lang.direction == way) for way in ("ltr", "rtl")]


@pytest.mark.parametrize("lang", ONE_EACH_WAY)
@pytest.mark.parametrize("name", NAMES)
def test_each_figure_answers_its_first_control(galleries, checked, lang, name):
    page = galleries(lang)
    fid = figure_id(page, name)
    page.locator(f"#{fid}").scroll_into_view_if_needed()
    before_state, before = state_of(page, fid), updates(page)
    trigger(page, first_control(page, fid))
    new_updates = wait_for_update(page, before)
    assert all(applied["name"] == name for applied in new_updates)
    expected = native_update(page, fid, before_state, merged_changes(new_updates))
    assert expected["ok"], expected
    assert expected["state"] != before_state, "the first control changed nothing"
    assert state_of(page, fid) == expected["state"]
    assert_page_matches(page, fid, expected["html"])


# --- before Python is ready, and after it restarts ------------------------------------------


def test_input_before_python_is_ready_is_queued_and_merged(page, site_url):
    gate = PythonGate(page)  # Python may not get ready before the input
    open_gallery(page, site_url, "en")
    fid = figure_id(page, "softmax")
    slider = page.locator(f"#{fid} input[name='z.0']")
    slider.focus()
    assert page.evaluate("attentionPy.session.state") != "ready"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    status = page.locator(f"#{fid} + .apy-fig-status")
    expect(status).to_be_visible()
    expect(status).to_have_attribute("role", "status")
    expect(status).to_contain_text("Python is starting")
    # The drawing stays readable meanwhile.
    expect(page.locator(f"#{fid} .apy-fig__readout")).to_contain_text("14.0%")
    gate.release()
    new_updates = wait_for_update(page, 0)
    assert next(u for u in new_updates if u["name"] == "softmax")["inputs"] == 2  # one call for both
    expected = native_update(page, fid, FIGURES["softmax"].default_state(), {"z.0": "1.7"})
    assert state_of(page, fid) == expected["state"] == {"z": [1.7, 2.0, 3.0]}
    assert_page_matches(page, fid, expected["html"])
    expect(status).to_be_hidden()


def test_figure_recovers_when_the_session_restarts(page, site_url):
    open_gallery(page, site_url, "en")
    wait_until_live(page)
    fid = figure_id(page, "weighted_average")
    slider = page.locator(f"#{fid} input[name='w.0']")
    slider.focus()
    before_state = state_of(page, fid)
    before = updates(page)
    # As when a live cell's runaway code is stopped without cross-origin isolation.
    page.evaluate("attentionPy.session.restart()")
    page.keyboard.press("ArrowRight")
    changes = merged_changes(wait_for_update(page, before))
    assert page.evaluate("attentionPy.session.generation") == 2
    expected = native_update(page, fid, before_state, changes)
    assert expected["ok"]
    assert state_of(page, fid) == expected["state"] != before_state
    assert_page_matches(page, fid, expected["html"])


# --- after a reload ---------------------------------------------------------------------------


def test_a_figure_comes_back_where_the_reader_left_it_after_a_reload(page, site_url):
    open_gallery(page, site_url, "en")
    wait_until_live(page)
    fid = figure_id(page, "softmax")
    before = updates(page)
    # A button: its effect is nothing the browser's own form restoration would bring back.
    page.locator(f"#{fid} [data-focus-key='add']").click()
    wait_for_update(page, before)
    left = state_of(page, fid)
    assert len(left["z"]) == 4

    page.reload()
    page.wait_for_function("window.attentionPy?.figures !== undefined")
    restored = wait_for_update(page, 0)
    assert [u["name"] for u in restored if u["ok"]] == ["softmax"]  # only the figure that moved
    expected = native_update(page, fid, FIGURES["softmax"].default_state(), {"z": left["z"]})
    assert state_of(page, fid) == expected["state"] == left
    assert_page_matches(page, fid, expected["html"])

    # Back where the author started: the entry is forgotten, and the next reload draws nothing.
    before = updates(page)
    page.locator(f"#{fid} [data-focus-key='remove']").click()
    wait_for_update(page, before)
    assert state_of(page, fid) == FIGURES["softmax"].default_state()
    page.wait_for_function("!Object.keys(sessionStorage).some((k) => k.startsWith('attention_py:figure:'))")


def test_training_cut_by_a_reload_comes_back_paused_at_step_0(page, site_url):
    """The page keeps train_live's state (running, at step N) across the reload, but the
    run lived in the old Python: the figure comes back paused at step 0 instead of training
    again by itself (issue 33)."""
    open_gallery(page, site_url, "en")
    wait_until_live(page)
    fid = figure_id(page, "train_live")
    page.locator(f"#{fid} [data-focus-key='train']").click()
    page.wait_for_function(
        "(id) => JSON.parse(document.getElementById(id).dataset.state).step >= 2", arg=fid, timeout=PYTHON_READY_MS
    )
    page.reload()
    page.wait_for_function("window.attentionPy?.figures !== undefined")
    restored = wait_for_update(page, 0)
    assert "train_live" in [u["name"] for u in restored if u["ok"]]  # the kept state was sent back
    page.wait_for_timeout(1500)  # a run that went on by itself would have moved by now
    shown = state_of(page, fid)
    assert (shown["running"], shown["step"]) == (False, 0)
    assert page.locator(f"#{fid} [data-focus-key='train']").get_attribute("aria-pressed") == "false"


def test_a_saved_state_this_build_refuses_is_dropped_quietly(page, site_url):
    open_gallery(page, site_url, "en")
    fid = figure_id(page, "softmax")
    authored = page.locator(f"#{fid}").get_attribute("data-state")
    key = f"attention_py:figure:/gallery/#{fid}"
    page.evaluate(
        "([key, base]) => sessionStorage.setItem(key, JSON.stringify({ base, value: JSON.stringify({ z: ['x', 1] }) }))",
        [key, authored],
    )
    page.reload()
    page.wait_for_function("window.attentionPy?.figures !== undefined")
    refused = wait_for_update(page, 0)
    assert [u["ok"] for u in refused if u["name"] == "softmax"] == [False]
    assert page.locator(f"#{fid}").get_attribute("data-state") == authored
    expect(page.locator(f"#{fid} [data-role=error]")).to_be_hidden()
    assert page.evaluate("(key) => sessionStorage.getItem(key)", key) is None


# --- beside a running code cell -----------------------------------------------------------------


def test_a_figure_says_it_waits_for_a_running_code_cell(page, site_url):
    """Figures and cells share the page's one Python: while a cell runs, input to a figure
    waits, and the figure says why instead of looking broken."""
    page.add_init_script(RECORD_UPDATES)
    page.goto(f"{site_url}/what-matters/")
    page.wait_for_function("window.attentionPy?.figures !== undefined && window.attentionPy?.cells?.length > 0")
    page.evaluate("attentionPy.session.start()")
    page.wait_for_function("attentionPy.session.state === 'ready'", timeout=PYTHON_READY_MS)
    page.evaluate(
        """() => {
          const editor = attentionPy.cells[0].editor;
          const busy = "import time\\nstart = time.time()\\nwhile time.time() - start < 4:\\n    pass";
          editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: busy } });
          document.querySelector('.live-cell__run').click();
        }"""
    )
    page.wait_for_function("document.querySelector('.live-cell').dataset.busy === 'running'")
    root = page.locator(".apy-fig[data-figure='softmax']")
    fid = root.get_attribute("id")
    before_state, before = state_of(page, fid), updates(page)
    root.locator("input[name='z.0']").focus()
    page.keyboard.press("ArrowRight")
    status = page.locator(f"#{fid} + .apy-fig-status")
    expect(status).to_contain_text("A code cell is still running")
    changes = merged_changes(wait_for_update(page, before))  # once the cell has ended
    assert page.evaluate("document.querySelector('.live-cell').dataset.busy") == ""
    expected = native_update(page, fid, before_state, changes)
    assert state_of(page, fid) == expected["state"] != before_state
    expect(status).to_be_hidden()
