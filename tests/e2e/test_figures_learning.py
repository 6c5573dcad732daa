"""The trained model's figures live in headless Chromium, in every language of the site.

training_replay, trained_reader and train_live read the model trained at build time
(assets/training/<lang>.json), which the generic host fetches and hands to Python once
(attention_py.figures.provide) when Python first asks for it. train_live trains in the
page's Python in short calls while its state says running; meanwhile another figure on the
same page must still answer the reader.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import Page

from tests.e2e.test_figures_live import PYTHON_READY_MS, RECORD_UPDATES, wait_until_live
from tests.languages import LANGUAGES

GALLERY = {lang.code: f"{lang.prefix}gallery/" for lang in LANGUAGES}


def root(page: Page, name: str):
    return page.locator(f'.apy-fig[data-figure="{name}"]')


def state(page: Page, name: str) -> dict:
    return json.loads(root(page, name).get_attribute("data-state"))


def settled(page: Page, name: str, timeout: float = PYTHON_READY_MS) -> None:
    page.wait_for_function(
        """(name) => attentionPy.figures.hosts.filter((h) => h.name === name)
                       .every((h) => !h.inFlight && !h.pending)""", arg=name, timeout=timeout)


@pytest.fixture(scope="module")
def gallery(module_context, site_url):
    context, guard = module_context
    pages: dict[str, Page] = {}

    def get(lang: str) -> Page:
        if lang not in pages:
            page = guard.watch(context.new_page())
            page.add_init_script(RECORD_UPDATES)
            page.goto(f"{site_url}/{GALLERY[lang]}")
            page.wait_for_function("window.attentionPy?.figures !== undefined")
            wait_until_live(page)
            pages[lang] = page
        return pages[lang]

    yield get
    for page in pages.values():
        page.close()


LANGS = [lang.code for lang in LANGUAGES]


@pytest.mark.parametrize("lang", LANGS)
def test_replay_slider_changes_the_map_and_the_mark(gallery, lang):
    page = gallery(lang)
    fig = root(page, "training_replay")
    assert fig.get_attribute("data-resource") == f"training/{lang}"
    slider = fig.locator('input[name="checkpoint"]')
    slider.focus()
    mark_before = fig.locator(".apy-mark").get_attribute("x1")
    cells_before = fig.locator(".apy-replay td").all_inner_texts()
    page.keyboard.press("Home")  # keyboard: the first checkpoint, the untrained model
    settled(page, "training_replay")
    page.wait_for_function("(el) => JSON.parse(el.dataset.state).checkpoint === 0", arg=fig.element_handle())
    assert fig.locator(".apy-mark").get_attribute("x1") != mark_before
    assert fig.locator(".apy-replay td").all_inner_texts() != cells_before
    assert page.evaluate("document.activeElement.getAttribute('name')") == "checkpoint", "focus stays on the slider"
    page.keyboard.press("ArrowRight")
    settled(page, "training_replay")
    page.wait_for_function("(el) => JSON.parse(el.dataset.state).checkpoint === 1", arg=fig.element_handle())
    fig.locator('select[name="sentence"]').select_option("1")
    settled(page, "training_replay")
    page.wait_for_function("(el) => JSON.parse(el.dataset.state).sentence === 1", arg=fig.element_handle())
    assert fig.locator(".apy-fig__error").is_hidden()


@pytest.mark.parametrize("lang", LANGS)
def test_reader_menus_change_the_sentence_and_the_verdict(gallery, lang):
    page = gallery(lang)
    fig = root(page, "trained_reader")
    before = fig.locator(".apy-reader__sentence q").inner_text()
    fig.locator('select[name="reason"]').select_option("5")  # the first reason of the other group
    settled(page, "trained_reader")
    page.wait_for_function("(el) => JSON.parse(el.dataset.state).reason === 5", arg=fig.element_handle())
    after = fig.locator(".apy-reader__sentence q").inner_text()
    assert after != before
    fig.locator('select[name="first"]').select_option("1")  # the same person as the second: moves on
    settled(page, "trained_reader")
    assert fig.locator(".apy-fig__readout").inner_text().strip()
    assert fig.locator(".apy-fig__error").is_hidden()


@pytest.mark.parametrize("lang", LANGS)
def test_train_live_trains_pauses_resets_and_the_page_keeps_answering(gallery, lang):
    page = gallery(lang)
    fig = root(page, "train_live")
    train = fig.locator('[data-focus-key="train"]')
    train.focus()
    page.keyboard.press("Enter")  # keyboard operation
    page.wait_for_function("(el) => JSON.parse(el.dataset.state).step >= 20", arg=fig.element_handle(),
                           timeout=60_000)
    assert state(page, "train_live")["running"] is True
    # While it trains, another figure answers the reader within a bounded time.
    other = root(page, "softmax")
    slider = other.locator('input[name="z.0"]')
    started = time.monotonic()
    slider.fill("-2")
    page.wait_for_function("(el) => JSON.parse(el.dataset.state).z[0] === -2", arg=other.element_handle(),
                           timeout=5_000)
    assert time.monotonic() - started < 3.0
    page.wait_for_function("(el) => JSON.parse(el.dataset.state).step >= 60", arg=fig.element_handle(),
                           timeout=60_000)
    assert state(page, "train_live")["running"] is True
    assert page.evaluate("document.activeElement.dataset.focusKey") == "train", "focus stays on the button"
    loss = fig.locator(".apy-fig__readout .apy-num").first.inner_text()
    page.keyboard.press("Enter")  # Pause
    page.wait_for_function("(el) => JSON.parse(el.dataset.state).running === false", arg=fig.element_handle(),
                           timeout=10_000)
    settled(page, "train_live")
    paused_at = state(page, "train_live")["step"]
    page.wait_for_timeout(800)
    assert state(page, "train_live")["step"] == paused_at, "no updates while paused"
    assert float(loss.replace("\u2212", "-")) >= 0
    fig.locator('[data-focus-key="reset"]').click()
    page.wait_for_function("(el) => JSON.parse(el.dataset.state).step === 0", arg=fig.element_handle(),
                           timeout=10_000)
    assert fig.locator(".apy-fig__error").is_hidden()


def test_train_live_loss_falls_and_accuracy_rises(gallery):
    page = gallery("en")
    fig = root(page, "train_live")

    def numbers():
        text = fig.locator(".apy-fig__readout").inner_text()
        return [float(x) for x in re.findall(r"\d+(?:\.\d+)?", text.replace("\u2212", "-"))]

    fig.locator('[data-focus-key="reset"]').click() if state(page, "train_live")["step"] else None
    settled(page, "train_live")
    start_accuracy = numbers()[-1]
    fig.locator('[data-focus-key="train"]').click()
    page.wait_for_function("(el) => JSON.parse(el.dataset.state).step >= 20", arg=fig.element_handle(), timeout=60_000)
    first = numbers()  # step, loss, accuracy
    page.wait_for_function("(el) => JSON.parse(el.dataset.state).step >= 60", arg=fig.element_handle(), timeout=90_000)
    fig.locator('[data-focus-key="train"]').click()
    page.wait_for_function("(el) => !JSON.parse(el.dataset.state).running", arg=fig.element_handle(), timeout=10_000)
    settled(page, "train_live")
    last = numbers()
    assert last[1] < first[1], f"the loss falls: {first} -> {last}"
    assert last[2] >= start_accuracy, f"held-out accuracy does not fall below the untrained model's: {start_accuracy} -> {last}"
