"""The card picker at 390×844, counted in taps: a suit stays chosen, so a hand sorted by suit is one tap a card
and one a suit; in the reader's letters (pt V D R, de B D K); the pack's copies; lay-off and swap."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.browserkit import block, fill_seat, fits_phone, save, shot, tap
from tests.kit import cards, reading, refusal, said, said_up_to

pytestmark = pytest.mark.browser

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


class Taps:
    """Taps on the page, counted."""

    def __init__(self, page):
        self.page, self.n = page, 0

    def __call__(self, selector):
        self.page.locator(selector).click()
        self.n += 1

    def hand(self, text, picker="#main .picker"):
        """Cards written as a person reads a sorted hand: a suit symbol, then its ranks (``♥ 4 5 6``); the
        suit is tapped only where it changes."""
        for token in text.split():
            if token in SUITS.values():
                self(f"{picker} .pick-suit[data-suit='{next(k for k, v in SUITS.items() if v == token)}']")
            elif token == "JK":
                self(f"{picker} .pick-joker")
            else:
                self(f"{picker} .pick-rank[data-rank='{token}']")


def shown(text, lang):
    """A hand in notation (``KS 10H JK``) as the reader's language writes it (pt ``R♠ 10♥`` and the joker's
    name), from the catalogs' letters."""
    return [reading(lang).card_text(c) for c in cards(text)]


def verdict(page):
    page.wait_for_selector("#verdict .verdict")
    return page.locator("#verdict .verdict")


# A 12-card hand for Liverpool's hand 5 (two sets of 3 and a run of 4, 12 dealt), in four suits, with two
# copies of one card (two decks): ♠ starts chosen, so three suit taps and twelve card taps.
HAND5 = "7 K 2 ♥ 4 5 6 7 7 ♦ 7 K ♣ K 3"
HAND5_CARDS = "7S KS 2S 4H 5H 6H 7H 7H 7D KD KC 3C"


@pytest.mark.parametrize("lang", ["de", "pt"])
def test_a_twelve_card_hand_in_sixteen_taps(page, live_server, lang):
    page.goto(f"{live_server}/referee/arrange?lang={lang}&hand=5")
    assert page.locator(".pick-suit[data-suit='S']").get_attribute("aria-pressed") == "true"  # a suit is chosen
    taps = Taps(page)
    taps.hand(HAND5)
    chips = page.locator("#main .chips .chip")
    assert chips.count() == 12
    # chips in suit order, in the reader's letters, whatever order they were tapped in
    expected = shown("2S 7S KS 4H 5H 6H 7H 7H 7D KD 3C KC", lang)
    assert chips.all_inner_texts() == expected
    assert page.input_value("#cards") == " ".join(shown(HAND5_CARDS, lang))
    assert page.inner_text(".pick-count").count("12") == 2  # 12 cards of the 12 dealt in hand 5
    assert fits_phone(page)
    shot(page, f"picker-arrange-{lang}")
    taps("button.primary")
    assert taps.n <= 16, taps.n
    v = verdict(page)
    assert "good" in v.get_attribute("class"), v.inner_text()
    assert " ".join(shown("2S 3C", lang)) in v.inner_text()  # what stays in hand, in the reader's letters
    v.scroll_into_view_if_needed()
    shot(page, f"picker-arrange-{lang}-verdict")


@pytest.mark.parametrize("lang", ["de", "pt"])
def test_lay_off_onto_a_run_by_tapping(page, live_server, lang):
    page.goto(f"{live_server}/referee/layoff?lang={lang}")
    taps = Taps(page)
    taps.hand("♥ 5 6 7 8")  # the meld on the table: the first field takes the taps
    taps(".pick-target[data-name='cards'] .pick-to")
    assert page.locator(".pick-suit[data-suit='H']").get_attribute("aria-pressed") == "true"  # the suit stayed
    taps.hand("9 K")
    assert page.input_value("#meld") == " ".join(shown("5H 6H 7H 8H", lang))
    assert page.input_value("#cards") == " ".join(shown("9H KH", lang))
    # a wrong card, taken back by tapping its chip
    page.locator(".pick-target[data-name='cards'] .chip", has_text=shown("KH", lang)[0]).click()
    assert page.input_value("#cards") == shown("9H", lang)[0]
    shot(page, f"picker-layoff-{lang}")
    taps("button.primary")
    assert taps.n <= 10
    v = verdict(page)
    assert "good" in v.get_attribute("class"), v.inner_text()
    assert shown("9H", lang)[0] in v.inner_text()


def test_swap_by_tapping(page, live_server):
    page.goto(f"{live_server}/referee/swap?lang=es")
    taps = Taps(page)
    taps.hand("♥ 5 JK 7 8")
    taps(".pick-target[data-name='card'] .pick-to")
    assert page.locator(".pick-joker").get_attribute("aria-disabled") == "true"  # your card is a natural one
    taps.hand("9 6")  # one card: the second tap replaces the first
    assert page.input_value("#meld") == " ".join(shown("5H JK 7H 8H", "es"))
    assert page.input_value("#card") == "6♥"
    taps("button.primary")
    v = verdict(page)
    assert "good" in v.get_attribute("class"), v.inner_text()
    assert "6♥" in v.inner_text()
    shot(page, "picker-swap-es")


def test_typed_letters_of_the_reader(page, live_server):
    """German B is a jack and D a queen, typed or tapped; Portuguese V D R; the hint says so."""
    page.goto(f"{live_server}/referee/check?lang=de")
    assert "B D K" in page.inner_text(".picker .hint")
    page.fill("#melds", "B♥ bd B♠\nDH DD Joker")
    assert page.locator(".chip").all_inner_texts() == ["B♠", "B♥", "B♦", "D♥", "D♦", "Joker"]
    page.click(".pick-rank[data-rank='J']")  # the jack's button says B, and writes B
    assert page.inner_text(".pick-rank[data-rank='J']").startswith("B")
    assert page.input_value("#melds").endswith("Joker B♠")
    page.click(".pick-undo")
    page.click("button.primary")
    v = verdict(page)
    assert "good" in v.get_attribute("class"), v.inner_text()
    assert "B♥" in v.inner_text() and "J♥" not in v.inner_text()
    shot(page, "picker-letters-de")
    page.goto(f"{live_server}/referee/check?lang=pt")
    assert "V D R" in page.inner_text(".picker .hint")
    page.fill("#melds", " ".join(shown("JH JD JS", "pt")) + " | " + " ".join(shown("KC KD JK", "pt")))
    page.click("button.primary")
    v = verdict(page)
    assert "good" in v.get_attribute("class"), v.inner_text()
    assert "R♣" in v.inner_text()
    shot(page, "picker-letters-pt")


def test_a_copy_more_than_the_pack_holds_is_refused(page, live_server):
    page.goto(f"{live_server}/referee/arrange?lang=en&hand=5")
    taps = Taps(page)
    taps.hand("♥ 7 7 7")
    assert page.locator(".chip").count() == 2
    status = page.locator(".pick-status")
    assert "only 2" in status.inner_text() and "7♥" in status.inner_text()
    shot(page, "picker-pack-refused")
    taps.hand("8")  # another card is fine, and the words go
    assert status.inner_text() == ""
    # six players: three decks, from the engine's data, asked for when the table changes
    page.locator("details.table-settings summary").click()
    page.fill("#players", "6")
    page.locator("#players").dispatch_event("change")
    expect(page.locator(".picker")).to_have_attribute("data-facts", re.compile(r'"copies": ?3[,}]'))
    taps.hand("7")
    assert page.locator(".chip").count() == 4 and status.inner_text() == ""
    taps.hand("7")
    assert "only 3" in status.inner_text()
    # typed beyond the pack: said too (the server rules on it as sent)
    page.fill("#cards", "JK JK JK JK JK JK JK")
    assert "jokers" in status.inner_text()


def test_melds_one_after_another(page, live_server):
    page.goto(f"{live_server}/referee/check?lang=en&hand=2")
    taps = Taps(page)
    taps.hand("♥ 7 ♦ 7 JK")
    taps(".pick-newline")
    taps.hand("♣ 5 6 7 8")
    assert page.input_value("#melds") == "7♥ 7♦ Joker\n5♣ 6♣ 7♣ 8♣"
    assert page.locator(".meld-chips").count() == 2
    assert page.inner_text(".pick-count") == "Cards: 7 of 10"  # hand 2 deals 10
    taps(".pick-undo")
    assert page.input_value("#melds") == "7♥ 7♦ Joker\n5♣ 6♣ 7♣"
    taps.hand("8")
    taps("button.primary")
    assert "good" in verdict(page).get_attribute("class")
    shot(page, "picker-check-en")


def test_typed_in_german_without_javascript(browser, live_server):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = ctx.new_page()
    page.goto(f"{live_server}/referee/arrange?lang=de&hand=5")
    assert page.locator(".pad").is_hidden()
    page.fill("#cards", " ".join(shown(HAND5_CARDS, "de")))
    page.click("button.primary")
    v = verdict(page)
    assert "good" in v.get_attribute("class"), v.inner_text()
    assert page.input_value("#cards") == " ".join(shown(HAND5_CARDS, "de"))
    shot(page, "picker-nojs-de")
    ctx.close()


def test_the_pad_at_200_percent_text(browser, live_server):
    """The phone's text size at 200%: the pad reflows in 390 px, every target at least 44 px, and a hand still
    goes in one tap a card."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="pt-BR", bypass_csp=True)
    page = ctx.new_page()
    page.goto(f"{live_server}/referee/layoff?lang=pt")
    page.add_style_tag(content="html { font-size: 200% !important; }")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    sizes = page.evaluate("""() => [...document.querySelectorAll('.pad button, .pick-to')].map(b => {
        const r = b.getBoundingClientRect(); return [b.textContent.trim(), r.width, r.height]; })""")
    assert sizes and all(w >= 44 and h >= 44 for _, w, h in sizes), [s for s in sizes if s[1] < 44 or s[2] < 44]
    taps = Taps(page)
    taps.hand("♥ 5 6 7 8")
    taps(".pick-target[data-name='cards'] .pick-to")
    taps.hand("9")
    assert page.input_value("#cards") == "9♥"
    page.locator(".pad").scroll_into_view_if_needed()
    shot(page, "picker-text-200-pt")
    ctx.close()


def test_leftovers_in_german_by_rank(page, live_server):
    """The scoreboard's leftovers: ranks only, in the reader's letters, the pack counted across the players."""
    page.goto(f"{live_server}/new?lang=de")
    page.click("button[value=start]")  # four players: two decks, eight cards of each rank
    page.locator("input[name=out][value='0']").check()
    ben, cy = (block(page, s) for s in (1, 2))
    pad, status = page.locator("#record .pad"), page.locator("#record .pick-status")
    assert pad.locator(".pick-suit").count() == 0  # suits do not count for penalties
    assert pad.locator(".pick-rank[data-rank='J']").inner_text() == "B"
    tap(page, 1, *["J"] * 5)
    tap(page, 2, *["J"] * 3)
    pad.locator(".pick-rank[data-rank='J']").click()  # the ninth jack: the pack holds eight
    assert cy.locator(".chip").count() == 3
    assert "8" in status.inner_text() and "B" in status.inner_text()
    pad.locator(".pick-rank[data-rank='Q']").click()
    assert page.input_value("#cards_2") == "B B B D"
    assert ben.locator("output.penalty").inner_text() == "= 50"
    cy.locator(".chip", has_text="D").click()
    fill_seat(page, 3, cards="b k Joker")  # typed: a ninth jack is said at once, and the server refuses it in words
    assert "8" in status.inner_text()
    page.click("#record button.primary")
    players = [said("Player %(n)s", "de", n=n) for n in (2, 3, 4)]
    expect(page.locator("#record-zone [role=alert]")).to_contain_text(
        refusal("too_many_copies_left", "de", card="J", players=players, count=9, copies=8))
    assert page.input_value("#cards_3") == "b k Joker" and page.input_value("#cards_1") == "B B B B B"
    fill_seat(page, 3, cards="7 k Joker")
    assert block(page, 3).locator(".chip").all_inner_texts() == ["7", "K", "Joker"]
    block(page, 2).scroll_into_view_if_needed()
    shot(page, "picker-leftovers-de")
    save(page)
    expect(page.locator(".flash")).to_contain_text(said_up_to("Hand %(hand)s saved: %(list)s", "de", "list", hand=1))
    totals = page.locator("table.scores").first
    assert totals.locator("tr", has_text=said("Player %(n)s", "de", n=2)).locator("td.total").inner_text() == "50"
    assert totals.locator("tr", has_text=said("Player %(n)s", "de", n=4)).locator("td.total").inner_text() == "30"  # 7, K, joker
