"""Recording a hand on a phone (390×844) as a person does it, counting what it costs: every tap, and every pixel
scrolled, a scroll going only as far as the next control needs to be fully in view and not under the pad docked
at the bottom. From "who went out" to save: at most cards + players + 2 taps and one screen (844 px) of
scrolling; afterwards the totals are in view."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.browserkit import PHONE, fits_phone, shot

pytestmark = pytest.mark.browser


class Person:
    """Taps and scrolls as a thumb does, and keeps count of both."""

    def __init__(self, page) -> None:
        self.page = page
        self.taps = 0
        self.scrolled = 0.0

    def _visible_bottom(self, control) -> float:
        """Where the screen ends for a control: the viewport's foot, or the docked pad's top when it covers it."""
        inside_dock = control.evaluate("el => !!el.closest('.pad-dock')")
        dock = self.page.locator("#record .pad-dock").bounding_box()
        if inside_dock or dock is None or dock["y"] >= PHONE["height"]:
            return PHONE["height"]
        return dock["y"]

    def reach(self, control, count: bool = True) -> None:
        for _ in range(3):  # (scrolling down brings the docked pad up over the page: a second, shorter scroll)
            box = control.bounding_box()
            assert box is not None, control
            bottom = self._visible_bottom(control)
            delta = 0.0
            if box["y"] < 0:
                delta = box["y"]
            elif box["y"] + box["height"] > bottom + 0.5:
                delta = box["y"] + box["height"] - bottom
            if not delta:
                return
            before = self.page.evaluate("() => window.scrollY")
            self.page.evaluate(f"() => window.scrollBy(0, {delta})")
            moved = abs(self.page.evaluate("() => window.scrollY") - before)
            if count:
                self.scrolled += moved
        raise AssertionError(f"cannot be scrolled fully into view: {control.bounding_box()}")

    def tap(self, control) -> None:
        self.reach(control)
        control.click()
        self.taps += 1


def record(page, person: Person, out: int, leftovers: dict[int, list[str]]) -> None:
    page.locator("#record fieldset.out").scroll_into_view_if_needed()
    person.reach(page.locator(f"#record input[name=out][value='{out}']"), count=False)  # the start line
    person.tap(page.locator(f"#record input[name=out][value='{out}']"))
    for seat, ranks in leftovers.items():
        tab = page.locator(f"#record .seat-tab[data-seat='{seat}']")
        if tab.get_attribute("aria-pressed") != "true":
            person.tap(tab)
        expect(tab).to_have_attribute("aria-pressed", "true")
        for rank in ranks:
            person.tap(page.locator(f"#record .rank-pad button[data-rank='{rank}']"))
        expect(page.locator(f"#record fieldset.leftovers[data-seat='{seat}'] .chip")).to_have_count(len(ranks))


FIVE = ["Ana", "Bruno", "Carla", "Duda", "Eva"]
# 13 leftover cards among four players, in the reader's pad (ranks as shown: the pad names them by rank)
THIRTEEN = {1: ["A", "K", "7"], 2: ["JK", "5", "5", "9"], 3: ["Q", "2", "3"], 4: ["10", "J", "4"]}
EIGHT_LONG = ["Maximiliana Fernandes", "Bartholomäus Schneider", "Carla Montenegro", "Duda Albuquerque",
              "Evangelina Ribeiro", "Friedrich Wilhelm", "Guilhermina Costa", "Henriqueta Souza"]


@pytest.mark.parametrize("lang, names, out, leftovers", [
    ("pt", FIVE, 0, THIRTEEN),
    ("de", FIVE, 2, {0: ["A", "K", "7"], 1: ["JK", "5", "5", "9"], 3: ["Q", "2", "3"], 4: ["10", "J", "4"]}),
    ("pt", EIGHT_LONG, 0, {1: ["A", "K"], 2: ["JK", "5"], 3: ["Q", "2"], 4: ["10"], 5: ["J", "4"], 6: ["3"],
                           7: ["9", "8"]}),
])
def test_a_hand_on_one_screen(browser, live_server, lang, names, out, leftovers):
    page = browser.new_page(viewport=PHONE, locale="en-GB")
    game = page.request.post(f"{live_server}/api/v1/games", data={"ruleset": "liverpool", "players": names}).json()
    page.goto(game["edit_url"] + f"?lang={lang}")
    person = Person(page)
    record(page, person, out, leftovers)
    cards = sum(len(r) for r in leftovers.values())
    shot(page, f"one-screen-{lang}-{len(names)}")
    assert fits_phone(page)
    person.tap(page.locator("#record button.primary"))
    page.wait_for_load_state()
    expect(page.locator(".flash")).to_be_visible()
    print(f"\n{lang}, {len(names)} players, {cards} cards: {person.taps} taps, {person.scrolled:.0f} px scrolled")
    assert person.taps <= cards + len(names) + 2, person.taps
    assert person.scrolled <= PHONE["height"], person.scrolled
    # the new totals in view, not the top of the page
    totals = page.locator("#scores table.scores").first.locator("tbody tr").last
    expect(totals.locator("td.total")).not_to_have_text("")
    page.wait_for_timeout(400)
    box = totals.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= person._visible_bottom(totals) + 1, box
    shot(page, f"one-screen-{lang}-{len(names)}-saved")
    api = page.request.get(f"{live_server}/api/v1/games/{game['id']}",
                           headers={"Authorization": f"Bearer {game['edit_token']}"}).json()
    assert api["totals"][names[out]] == 0
    assert all(api["totals"][names[s]] > 0 for s in leftovers)
    page.context.close()


def test_the_pad_follows_the_name_tapped_and_leaves_who_went_out(browser, live_server):
    page = browser.new_page(viewport=PHONE, locale="en-GB")
    game = page.request.post(f"{live_server}/api/v1/games", data={"ruleset": "liverpool", "players": FIVE}).json()
    page.goto(game["edit_url"] + "?lang=en")
    tab = lambda n: page.locator(f"#record .seat-tab[data-seat='{n}']")  # noqa: E731
    expect(tab(0)).to_have_attribute("aria-pressed", "true")  # nobody out yet: the first seat
    page.locator("#record input[name=out][value='0']").check()
    expect(tab(1)).to_have_attribute("aria-pressed", "true")  # Ana went out: the pad moves on to Bruno
    expect(tab(0)).to_be_disabled()
    page.click("#record .rank-pad button[data-rank='K']")
    tab(3).click()
    page.click("#record .rank-pad button[data-rank='7']")
    page.click("#record .rank-pad button[data-rank='7']")
    expect(page.locator("#record fieldset.leftovers[data-seat='1'] .chip")).to_have_text(["K"])
    expect(page.locator("#record fieldset.leftovers[data-seat='3'] .chip")).to_have_text(["7", "7"])
    expect(tab(1).locator("output.penalty")).to_have_text("= 10")
    expect(tab(3).locator("output.penalty")).to_have_text("= 10")
    # only the chosen seat's text fields show; typing there works as tapping does
    expect(page.locator("#cards_1")).to_be_hidden()
    page.fill("#cards_3", "7 7 A")
    expect(tab(3).locator("output.penalty")).to_have_text("= 25")
    page.click("#record .pick-undo")
    expect(page.locator("#cards_3")).to_have_value("7 7")
    # Carla goes out instead: her block folds, her tab is no longer a tab, the pad stays on Duda
    page.locator("#record input[name=out][value='2']").check()
    expect(tab(2)).to_be_disabled()
    expect(tab(3)).to_have_attribute("aria-pressed", "true")
    expect(tab(0)).to_be_enabled()
    # a refused entry opens on the block it names, with what was typed
    tab(4).click()
    page.fill("#cards_4", "9 Z")
    page.click("#record button.primary")
    expect(page.locator("#record-zone [role=alert]")).to_be_visible()
    expect(tab(4)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#cards_4")).to_be_visible()
    expect(page.locator("#cards_4")).to_have_value("9 Z")
    expect(page.locator("#record fieldset.leftovers[data-seat='3'] .chip")).to_have_text(["7", "7"])
    page.context.close()


def test_without_a_script_every_field_shows(browser, live_server):
    ctx = browser.new_context(viewport=PHONE, locale="en-GB", java_script_enabled=False)
    page = ctx.new_page()
    game = page.request.post(f"{live_server}/api/v1/games", data={"ruleset": "liverpool", "players": FIVE}).json()
    page.goto(game["edit_url"] + "?lang=en")
    for n in range(5):
        expect(page.locator(f"#cards_{n}")).to_be_visible()
        expect(page.locator(f"#total_{n}")).to_be_visible()
    expect(page.locator("#record .pad")).to_be_hidden()
    expect(page.locator("#record button.primary")).to_be_visible()
    ctx.close()
