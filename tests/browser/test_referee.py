"""The referee at 390×844: every ruling, in at least two languages, by tapping as at the table."""

import pytest

from tests.browser.browserkit import fits_phone, shot

pytestmark = pytest.mark.browser


def pick(page, *cards):
    """Tap cards into the picker's chosen field: the suit (it stays chosen), then the rank."""
    for card in cards:
        if card == "JK":
            page.click(".pick-joker")
            continue
        page.click(f".pick-suit[data-suit='{card[-1]}']")
        page.click(f".pick-rank[data-rank='{card[:-1]}']")


def verdict(page):
    page.wait_for_selector("#verdict .verdict")
    return page.locator("#verdict .verdict")


def test_check_by_tapping_cards(page, live_server):
    page.goto(f"{live_server}/referee/check?lang=en")
    pick(page, "7H", "7D", "JK")
    page.click(".pick-newline")
    pick(page, "5C", "6C", "8C", "9C")
    assert page.input_value("#melds") == "7♥ 7♦ Joker\n5♣ 6♣ 8♣ 9♣"  # as the reader writes them
    page.fill("#hand", "2")
    page.click("button.primary")
    v = verdict(page)
    assert "bad" in v.get_attribute("class")
    assert "gap" in v.inner_text()
    assert v.locator(".problems a[href$='#rule-run']").count() == 1
    assert v.locator(".rules-cited a[href$='#rule-run']").count() == 1  # and among the rules it rests on
    assert "Joker stands for a 7" in v.inner_text()
    assert fits_phone(page)
    shot(page, "referee-check-en")


def test_check_typed_in_spanish(page, live_server):
    page.goto(f"{live_server}/referee/check?lang=es")
    page.fill("#melds", "7h 7♦ JK\n5♣ 6♣ 7♣ 8♣")
    page.fill("#hand", "2")
    page.click("button.primary")
    v = verdict(page)
    assert "good" in v.get_attribute("class")
    assert "Valid" not in v.inner_text()  # in Spanish
    shot(page, "referee-check-es")


def test_bad_card_is_named_and_the_input_kept(page, live_server):
    page.goto(f"{live_server}/referee/check?lang=en")
    page.fill("#melds", "7H 7D 7X")
    page.click("button.primary")
    v = verdict(page)
    assert "7X" in v.inner_text()
    assert page.input_value("#melds") == "7H 7D 7X"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_can_i_go_down(page, live_server, lang):
    page.goto(f"{live_server}/referee/arrange?lang={lang}")
    page.fill("#cards", "7h 7d kc kd ks 2h 9s")
    page.click("button.primary")
    v = verdict(page)
    assert "bad" in v.get_attribute("class")
    text = v.inner_text()
    assert "7" in text and ("1" in text)
    shot(page, f"referee-arrange-{lang}")
    page.fill("#cards", "7h 7d JK kc kd ks 2h")
    page.click("button.primary")
    page.wait_for_selector("#verdict .verdict.good")


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_lay_off(page, live_server, lang):
    page.goto(f"{live_server}/referee/layoff?lang={lang}&family=contract")
    page.fill("#meld", "5H 6H 7H 8H")
    page.click(".pick-target[data-name='cards'] .pick-to")
    pick(page, "9H")
    page.check("#same_turn")
    page.click("button.primary")
    v = verdict(page)
    assert "bad" in v.get_attribute("class")  # contract rummy: not in the turn you go down
    assert v.locator(".problems a[href$='#rule-lay-off']").count() == 1
    assert v.locator(".rules-cited a[href$='#rule-lay-off']").count() == 1
    page.uncheck("#same_turn")
    page.click("button.primary")
    page.wait_for_selector("#verdict .verdict.good")
    assert verdict(page).locator(".rules-cited a[href$='#rule-lay-off']").count() == 1  # a yes cites it too
    shot(page, f"referee-layoff-{lang}")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_joker_swap(page, live_server, lang):
    page.goto(f"{live_server}/referee/swap?lang={lang}")
    page.fill("#meld", "5H JK 7H 8H")
    page.fill("#card", "6H")
    page.click("button.primary")
    page.wait_for_selector("#verdict .verdict.good")
    assert "6♥" in verdict(page).inner_text()
    page.select_option("#family", "progressive")
    page.click("button.primary")
    page.wait_for_selector("#verdict .verdict.bad")
    assert verdict(page).locator(".problems a[href$='#rule-joker-swap']").count() == 1
    assert verdict(page).locator(".rules-cited a[href$='#rule-joker-swap']").count() == 1
    shot(page, f"referee-swap-{lang}")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_buy(page, live_server, lang):
    page.goto(f"{live_server}/referee/buy?lang={lang}")
    page.fill("#seats", "Ann\nBen\nCy\nDee")
    page.fill("#current", "Ben")
    page.fill("#callers", "Cy, Dee")
    page.fill("#buys_used", "Cy 3")
    page.click("button.primary")
    v = verdict(page)
    assert "good" in v.get_attribute("class") and "Dee" in v.inner_text()
    shot(page, f"referee-buy-{lang}")


def test_works_without_javascript(browser, live_server):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = ctx.new_page()
    page.goto(f"{live_server}/referee/check?lang=en")
    assert page.locator(".picker .pad").is_hidden()  # the pad needs a script; the fields do not
    page.fill("#melds", "7H 7D 7S | KC KD KS")
    page.click("button.primary")
    page.wait_for_selector("#verdict .verdict.good")
    assert "/referee/check" in page.url
    assert page.input_value("#melds") == "7H 7D 7S | KC KD KS"
    shot(page, "referee-nojs")
    ctx.close()


def test_tabs_keep_the_table(page, live_server):
    page.goto(f"{live_server}/referee/check?lang=en&family=contract&hand=4&players=5")
    page.get_by_role("link", name="Lay off").click()
    assert page.input_value("#family") == "contract" and page.input_value("#hand") == "4"
