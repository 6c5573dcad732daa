"""The reader's own puzzle in Chromium: typed into train_live's boxes, a puzzle with a
give-away is refused naming its cue (Train stays off); a fair one trains to its end on the
reader's words, in English and in Persian."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from attention_py.figures.learning.training_app.own_puzzle import MAX_BOX, MAX_TEXT
from tests.e2e.conftest import PYTHON_READY_MS, wait_until_live
from tests.e2e.test_figures_learning import root, settled, state, train_to_the_end
from tests.languages import language

PEOPLE = {"en": "cat\ndog\nfox\nowl", "fa": "گربه\nسگ\nروباه\nجغد"}


def type_into(page, fig, name: str, text: str) -> None:
    """Replaces a box's text as a reader would, then leaves the box (its change is sent)."""
    box = fig.locator(f'textarea[name="{name}"]')
    box.fill(text)
    box.press("Tab")
    page.wait_for_function(
        "([el, key, want]) => JSON.parse(el.dataset.state)[key] === want",
        arg=[fig.element_handle(), name, text],
        timeout=30_000,
    )
    settled(page, "train_live")


def open_own_boxes(page, site_url: str, lang: str):
    """Opens train_live's own-puzzle boxes on the learning page once Python is live; returns
    the figure and its strings."""
    page.goto(f"{site_url}/{language(lang).prefix}learning/#train")
    page.wait_for_function("window.attentionPy?.figures !== undefined")
    wait_until_live(page)
    fig = root(page, "train_live")
    texts = json.loads(fig.get_attribute("data-strings"))["train_live"]
    fig.locator('[data-focus-key="own_open"]').click()
    fig.locator('textarea[name="own_patient"]').wait_for(timeout=PYTHON_READY_MS)
    return fig, texts


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_giveaway_is_refused_naming_its_cue_and_a_fair_puzzle_trains(browser, site_url, lang):
    context = browser.new_context()
    try:
        page = context.new_page()
        fig, texts = open_own_boxes(page, site_url, lang)
        site_patient = fig.locator('textarea[name="own_patient"]').input_value()
        longer = "\n".join(f"{line} {line.split()[-1]}" for line in site_patient.split("\n"))
        type_into(page, fig, "own_patient", longer)
        check = fig.locator(".apy-own__check").inner_text()
        assert check.startswith(texts["own_cue_lengths"].split("{")[0]), check
        assert fig.locator('[data-focus-key="own_use"]').is_disabled()

        type_into(page, fig, "own_patient", site_patient)
        type_into(page, fig, "own_people", PEOPLE[lang])
        assert fig.locator(".apy-own__check").inner_text().startswith(texts["own_ready"].split("{")[0])
        fig.locator('[data-focus-key="own_use"]').click()
        settled(page, "train_live")
        for key in ("steps:0", "d_model:0"):  # the short, cheap run
            fig.locator(f'[data-focus-key="{key}"]').click()
            settled(page, "train_live")
        shown = state(page, "train_live")
        assert (shown["data"], shown["steps"], shown["d_model"], shown["step"]) == ("own", 60, 8, 0)
        train_to_the_end(page, fig)
        assert state(page, "train_live")["step"] == 60
        assert fig.locator(".apy-verdict").inner_text().strip()
        menu = fig.locator('select[name="sentence"] option').all_inner_texts()
        assert any(PEOPLE[lang].split("\n")[0] in option for option in menu), menu
        assert fig.locator(".apy-fig__error").is_hidden()
    finally:
        context.close()


def test_a_megabyte_pasted_into_a_box_is_refused_under_the_boxes(browser, site_url):
    """A reader pastes a million characters: the box takes at most ``MAX_BOX`` of them, and the
    check under the boxes says the text is too long (Train on this puzzle off), where before
    the figure refused the whole paste out of sight and kept offering the old puzzle."""
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        fig, texts = open_own_boxes(page, site_url, "en")
        box = fig.locator('textarea[name="own_patient"]')
        page.evaluate("navigator.clipboard.writeText('x'.repeat(1_000_000))")
        box.focus()
        page.keyboard.press("ControlOrMeta+a")
        page.keyboard.press("ControlOrMeta+v")
        assert len(box.input_value()) == MAX_BOX
        box.press("Tab")
        check = fig.locator(".apy-own__check")
        expect(check).to_have_class(re.compile("apy-own__check--refused"), timeout=30_000)
        field = (
            fig.locator('textarea[name="own_patient"]').locator("xpath=..").locator(".apy-field__label").inner_text()
        )
        said = texts["own_text_too_long"].replace("{field}", field.strip()).replace("{limit}", str(MAX_TEXT))
        assert check.inner_text() == said, check.inner_text()
        assert fig.locator('[data-focus-key="own_use"]').is_disabled()
        assert fig.locator(".apy-fig__error").is_hidden()
    finally:
        context.close()
