"""What a phone has typed or tapped for the hand being played survives a reload, a closed tab and Back
(static/outbox.js), at 390×844; it is gone once the hand is recorded, and another game never sees it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.browserkit import PHONE, block, fill_seat, shot, tap
from tests.kit import said_up_to

pytestmark = pytest.mark.browser

# the reader's letters for a king, typed as text (pt: rei, de: König)
KING = {"pt": "R", "de": "K", "en": "K"}
LOCALE = {"pt": "pt-BR", "de": "de-DE", "en": "en-GB"}


@pytest.fixture()
def phone(browser):
    """Opens pages as phones at 390x844 (one browser context each unless given one); a script error on any of
    them fails the test."""
    contexts, problems = [], []

    def open_page(lang: str = "en", ctx=None, storage_state=None):
        if ctx is None:
            ctx = browser.new_context(viewport=PHONE, locale=LOCALE[lang], storage_state=storage_state)
            contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: problems.append(str(e)))
        return page

    yield open_page
    for ctx in contexts:
        ctx.close()
    assert problems == [], problems


def new_game(page, base: str, lang: str) -> str:
    page.goto(f"{base}/new?lang={lang}")
    page.click("button[value=start]")
    expect(page.locator("#record")).to_be_visible()
    return page.url


def half_an_entry(page, lang: str) -> None:
    """Player 1 went out; player 2's cards tapped on the pad, player 3's typed, player 4's total typed."""
    page.locator("#record input[name=out]").first.check()
    tap(page, 1, "A", "7", "JK")
    fill_seat(page, 2, cards=f"{KING[lang]} 9")
    fill_seat(page, 3, total="35")


def expect_the_entry(page, lang: str) -> None:
    expect(page.locator("#record input[name=out]").first).to_be_checked()
    # the player who went out folds to one line, as when tapped
    expect(block(page, 0)).to_have_class(re.compile(r"\bwent-out\b"))
    expect(block(page, 0)).to_have_attribute("disabled", "")
    expect(block(page, 1).locator(".chip")).to_have_count(3)
    expect(block(page, 1).locator("output.penalty")).to_have_text("= 35")  # A 15, 7 5, joker 15: recomputed
    expect(page.locator("#cards_2")).to_have_value(f"{KING[lang]} 9")
    expect(block(page, 2).locator(".chip")).to_have_count(2)
    expect(block(page, 2).locator("output.penalty")).to_have_text("= 15")
    expect(page.locator("#total_3")).to_have_value("35")


def expect_empty(page) -> None:
    expect(page.locator("#record")).to_be_visible()
    assert page.locator("#record input[name=out]:checked").count() == 0
    assert page.locator("#record .chip").count() == 0
    for n in range(4):
        assert page.input_value(f"#cards_{n}") == "" and page.input_value(f"#total_{n}") == ""


@pytest.mark.parametrize("lang", ["pt", "de"])
def test_a_reload_mid_entry_keeps_every_card_and_who_went_out(phone, live_server, lang):
    page = phone(lang)
    new_game(page, live_server, lang)
    half_an_entry(page, lang)
    page.reload()
    expect_the_entry(page, lang)
    block(page, 1).scroll_into_view_if_needed()
    shot(page, f"entry-restored-{lang}")
    # what is changed after the reload is kept too: a chip taken off, the pad's undo
    block(page, 1).locator(".chip").first.click()
    page.reload()
    expect(block(page, 1).locator(".chip")).to_have_count(2)


def test_the_entry_is_back_in_a_new_tab_and_after_a_browser_restart(phone, live_server):
    page = phone("pt")
    url = new_game(page, live_server, "pt")
    half_an_entry(page, "pt")
    ctx = page.context
    page.close()  # the tab closed
    again = phone(ctx=ctx)
    again.goto(url)
    expect_the_entry(again, "pt")
    # the browser closed and opened again: what it stores on disk (cookies, localStorage) is all that is left
    kept = ctx.storage_state()
    ctx.close()
    restarted = phone("pt", storage_state=kept)
    restarted.goto(url)
    expect_the_entry(restarted, "pt")


def test_a_refused_save_then_another_page_and_back_keeps_the_tapped_cards(phone, live_server):
    page = phone("en")
    new_game(page, live_server, "en")
    half_an_entry(page, "en")
    fill_seat(page, 3, total="", cards="9 Z")  # refused: Z is not a card
    page.click("#record button.primary")
    expect(page.locator("#record-zone [role=alert]")).to_be_visible()  # said in place; the entry as it was
    expect(block(page, 1).locator(".chip")).to_have_count(3)
    page.click("a[href^='/rules']")  # off to read a rule, then Back
    page.go_back()
    expect(block(page, 1).locator(".chip")).to_have_count(3)
    expect(page.locator("#record input[name=out]").first).to_be_checked()
    expect(page.locator("#cards_3")).to_have_value("9 Z")


def test_a_recorded_hand_leaves_an_empty_entry_for_the_next(phone, live_server):
    page = phone("en")
    new_game(page, live_server, "en")
    half_an_entry(page, "en")
    page.reload()
    expect_the_entry(page, "en")  # kept until the save
    page.click("#record button.primary")
    expect(page.locator(".flash")).to_contain_text("Hand 1 saved")
    expect(page.locator("#record-title")).to_contain_text("2")
    page.reload()
    expect_empty(page)
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('rummy-entry:')).length") == 0


def test_another_phones_save_keeps_this_phones_entry_out_of_the_next_hand(phone, live_server):
    page = phone("en")
    url = new_game(page, live_server, "en")
    half_an_entry(page, "en")
    page.reload()
    expect_the_entry(page, "en")
    p2 = phone("en")
    p2.goto(url)
    p2.locator("#record input[name=out]").nth(1).check()
    for n in (0, 2, 3):
        tap(p2, n, "5")
    p2.click("#record button.primary")
    expect(p2.locator(".flash")).to_contain_text("Hand 1 saved")
    page.reload()
    expect(page.locator("#record-title")).to_contain_text("2")
    expect_empty(page)


def test_another_game_in_the_same_browser_sees_nothing_of_the_first(phone, live_server):
    page = phone("en")
    first = new_game(page, live_server, "en")
    half_an_entry(page, "en")
    second = new_game(page, live_server, "en")
    assert second != first
    expect_empty(page)
    tap(page, 2, "Q")
    page.goto(first)
    expect_the_entry(page, "en")
    expect(block(page, 2).locator(".chip")).to_have_count(2)  # the second game's queen stayed in the second game
    page.goto(second)
    expect(block(page, 2).locator(".chip")).to_have_count(1)


def test_after_a_save_the_new_totals_are_in_view(phone, live_server):
    page = phone("de")
    page.goto(f"{live_server}/new?lang=de")
    page.click("button[name=action][value=add]")  # five players: the scores run below the first screen
    page.click("button[value=start]")
    page.locator("#record input[name=out]").first.check()
    for n in range(1, 5):
        tap(page, n, "K")
    with page.expect_navigation():
        page.click("#record button.primary")
    expect(page.locator(".flash")).to_contain_text(said_up_to("Hand %(hand)s saved: %(list)s", "de", "list", hand=1))
    last = page.locator("#scores table.scores").first.locator("tbody tr").last
    expect(last.locator("td.total")).to_have_text("10")
    page.wait_for_timeout(400)
    box = last.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    shot(page, "after-save-totals-de")
    page.reload()  # a reload is not a save: the page opens at its top
    assert page.evaluate("() => window.scrollY") == 0
