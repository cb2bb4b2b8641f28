"""A typed total no deal could produce, on a phone: the refusal names the players, in the reader's language,
and everything typed is still there to fix."""

import pytest
from playwright.sync_api import expect

from tests.browser.browserkit import PHONE, block, fill_seat, fits_phone, save, shot, tap
from tests.kit import refusal, said_up_to

pytestmark = pytest.mark.browser

SIX = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_two_totals_the_pack_cannot_make(browser, live_server, lang):
    words = refusal("pack_cannot_make", lang, players=["Ben", "Cy"], decks=3, jokers=6)
    ctx = browser.new_context(viewport=PHONE, locale="en-GB")
    page = ctx.new_page()
    r = page.request.post(f"{live_server}/api/v1/games", data={"ruleset": "liverpool", "players": SIX,
                                                                 "variants": ["no_buying"]})
    game = r.json()
    page.goto(game["edit_url"] + f"?lang={lang}")
    page.locator("fieldset.out input[value='0']").check()
    typed = {1: "150", 2: "150", 3: "5", 4: "5"}
    for seat, total in typed.items():
        fill_seat(page, seat, total=total)
    fill_seat(page, 5, cards="K")
    page.locator("#record button[type=submit]").click()
    alert = page.locator("[role=alert]")
    expect(alert).to_contain_text(words)
    for seat, total in typed.items():
        assert page.input_value(f"#total_{seat}") == total
    assert page.locator("fieldset.leftovers.has-error").count() == 1
    assert fits_phone(page)
    shot(page, f"bounds-pack-{lang}")
    fill_seat(page, 2, total="140")
    save(page, "#record button[type=submit]")
    assert page.locator("[role=alert]").count() == 0
    assert page.request.get(f"{live_server}/api/v1/games/{game['id']}", headers={
        "Authorization": f"Bearer {game['edit_token']}"}).json()["totals"]["Cy"] == 140
    ctx.close()


def test_eleven_cards_without_a_buy_offer_the_buy_in_one_tap(browser, live_server):
    ctx = browser.new_context(viewport=PHONE, locale="pt-BR")
    page = ctx.new_page()
    game = page.request.post(f"{live_server}/api/v1/games", data={
        "ruleset": "liverpool", "players": ["Ana", "Carla", "Duda", "Eva"]}).json()
    page.goto(game["edit_url"] + "?lang=pt")
    page.locator("fieldset.out input[value='0']").check()
    tap(page, 1, "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")
    for seat in (2, 3):
        tap(page, seat, "K")
    page.click("#record button.primary")
    hint = page.locator(".buy-hint")
    expect(hint).to_contain_text(said_up_to(
        "Did %(player)s buy? Each buy adds %(n)s cards: with one more buy, %(player)s can hold %(holds)s.", "pt",
        "holds", player="Carla", n=2))
    shot(page, "bounds-buy-hint-pt")
    hint.locator("button").click()  # the buy, recorded; every card entered stays
    expect(page.locator("#board tbody tr", has_text="Carla").locator(".count")).to_have_text("1/3")
    expect(hint).to_have_count(0)
    expect(block(page, 1).locator(".chip")).to_have_count(11)
    save(page)
    expect(page.locator(".flash")).to_contain_text(said_up_to("Hand %(hand)s saved: %(list)s", "pt", "list", hand=1))
    ctx.close()
