"""The referee at 390×844: every ruling, in at least two languages, by tapping as at the table."""

import pytest

from tests.browser.browserkit import fits_phone, shot
from tests.kit import said, said_n

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


@pytest.mark.parametrize("lang", ["es", "de"])
def test_a_valid_meld_is_never_under_a_red_headline(page, live_server, lang):
    """7♥ 7♣ Joker for hand 1 (two sets of 3): the meld is said valid first, in green; then the contract, in red,
    says what is missing and links its rule."""
    page.goto(f"{live_server}/referee/check?lang={lang}")
    page.fill("#melds", "7H 7C JK")
    page.fill("#hand", "1")
    page.click("button.primary")
    v = verdict(page)
    valid_set, needs = said("a valid set", lang), said_n("one more set", "%(num)s more sets", 1, lang)
    meld = v.locator(".melds li")
    assert meld.count() == 1 and "ok" in meld.get_attribute("class").split()
    assert valid_set in meld.locator(".kind").inner_text() and "✓" in meld.locator(".kind").inner_text()
    contract = v.locator(".contract-verdict")
    assert "bad" in contract.get_attribute("class").split() and needs in contract.inner_text()
    assert contract.locator("a[href$='#rule-contract']").count() == 1
    # the first headline of the verdict is the contract's, and it comes after the meld
    assert v.locator(".headline").count() == 1 and v.locator(".contract-verdict .headline").count() == 1
    below = page.evaluate("() => { const m = document.querySelector('#verdict .melds li'); "
                          "const h = document.querySelector('#verdict .headline'); "
                          "return m.getBoundingClientRect().bottom <= h.getBoundingClientRect().top; }")
    assert below
    colours = page.evaluate("() => [getComputedStyle(document.querySelector('#verdict .melds li .kind')).color, "
                            "getComputedStyle(document.querySelector('#verdict .headline')).color, "
                            "getComputedStyle(document.querySelector('#verdict .verdict')).borderTopColor]")
    assert colours[0] != colours[1]  # the valid meld green, the contract red
    assert colours[2] not in (colours[1],)  # the frame around both is not red
    assert fits_phone(page)
    shot(page, f"referee-two-levels-{lang}")


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


@pytest.mark.parametrize("lang", ["es", "de"])
def test_this_tables_rules_follow_a_house_rule(page, live_server, lang):
    """From a game, one tap opens each dispute answered for its table; a house rule changed there changes the
    answer at once."""
    game = page.request.post(f"{live_server}/api/v1/games", data={
        "ruleset": "liverpool", "players": ["Ana", "Beto", "Carla", "Dani"]}).json()
    page.goto(f"{live_server}/g/{game['edit_token']}?lang={lang}")
    page.click(".game-links a[href*='/referee/table']")
    yes = said("Yes: once your contract is down, you may lay off in the same turn.", lang)
    no = said("No: you lay off from your next turn on, not in the turn you go down.", lang)
    answer = page.locator("#q-lay-off-same-turn dd p").first
    assert answer.inner_text().startswith(yes)
    assert page.locator(".table-rules .ruling").count() >= 14
    assert page.locator("#q-lay-off-same-turn .house-note").count() == 1  # the document leaves it to the table
    shot(page, f"table-rules-{lang}")
    page.select_option("select[name=opt_lay_off_same_turn]", "no")
    page.click("button.primary")
    page.wait_for_function("() => document.querySelector('#q-lay-off-same-turn dd p').textContent.startsWith("
                           f"{no!r})")
    assert page.locator("#q-lay-off-same-turn .house-note").inner_text().strip() != ""
    assert fits_phone(page)
    shot(page, f"table-rules-changed-{lang}")
