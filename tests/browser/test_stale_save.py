"""Two phones on one game at 390×844: a save after a buy tapped on the same phone goes through; a save made
after another phone's undo is refused with what was typed still there, in the reader's language."""

import pytest
from playwright.sync_api import expect

from referee.cards import Rank
from tests.browser.browserkit import PHONE, shot, tap
from tests.kit import reading, refusal, said_up_to

pytestmark = pytest.mark.browser



def tap_leftovers(page, ranks):
    for seat, rank in ranks.items():
        tap(page, seat, rank)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_save_after_another_phones_undo_is_refused_and_keeps_the_cards(browser, live_server, lang):
    stale, saved = refusal("stale", lang), said_up_to("Hand %(hand)s saved: %(list)s", lang, "list", hand=1)
    a = browser.new_context(viewport=PHONE, locale="de-DE" if lang == "de" else "en-GB")
    p1 = a.new_page()
    p1.goto(f"{live_server}/new?lang={lang}")
    p1.click("button[value=start]")
    url = p1.url
    # a buy tapped on this phone (the board is redrawn in place), then the hand saved: it goes through
    p1.locator("#board form[action$='/buy'] button").first.click()
    p1.wait_for_timeout(300)
    p1.locator("#record input[name=out]").first.check()
    tap_leftovers(p1, {1: "K", 2: "7", 3: "A"})
    p1.click("#record button.primary")
    expect(p1.locator(".flash")).to_contain_text(saved)
    # phone 1 starts hand 2; meanwhile phone 2 undoes hand 1
    p1.locator("#record input[name=out]").first.check()
    tap_leftovers(p1, {1: "Q", 2: "9", 3: "JK"})
    b = browser.new_context(viewport=PHONE, locale="en-GB")
    p2 = b.new_page()
    p2.goto(url)
    p2.click("form.undo button")
    p1.click("#record button.primary")
    expect(p1.locator("#record-zone")).to_contain_text(stale)
    queen, joker = reading(lang).rank_text(Rank.QUEEN), reading(lang).joker  # typed cards, in the reader's letters
    assert p1.locator("#cards_1").input_value().split() == [queen]
    assert p1.locator("#cards_3").input_value().split() == [joker]
    shot(p1, f"stale-save-{lang}")
    a.close()
    b.close()
