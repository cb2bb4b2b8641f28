"""The setup screen at 390×844: "who deals first" follows the names as they are typed."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.browserkit import shot
from tests.kit import said

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["pt", "de"])
def test_the_first_dealer_list_follows_the_names_as_typed(page, live_server, lang):
    page.goto(f"{live_server}/new?lang={lang}")
    names = page.locator("#setup input[name=name]")
    options = page.locator("#first_dealer option")
    expect(options).to_have_count(names.count())
    for i, name in enumerate(["Ana", "Bruno", "Carla"]):
        names.nth(i).fill(name)
    names.nth(3).fill("")
    expect(options.nth(0)).to_have_text("Ana")
    expect(options.nth(2)).to_have_text("Carla")
    expect(options.nth(3)).to_have_text(said("Player %(n)s", lang, n=4))  # an empty seat keeps its number
    page.select_option("#first_dealer", label="Bruno")
    names.nth(3).fill("Dora")
    expect(options.nth(3)).to_have_text("Dora")
    page.locator("#first_dealer").scroll_into_view_if_needed()
    shot(page, f"setup-dealer-names-{lang}")
    page.click("button[value=start]")
    dealer = page.locator("#board dt", has_text=said("Dealer", lang)).locator("xpath=..")
    expect(dealer.locator("dd")).to_have_text("Bruno")  # the name chosen, in its seat
