"""A group's evenings at 390×844, in English and in German: make a group and its roster, play a whole game
and half of another with overlapping players, see the stats, the charts and the head to head, and rematch."""

import pytest
from playwright.sync_api import expect

from tests.browser.browserkit import PHONE, fill_seat, fits_phone, save, shot

pytestmark = pytest.mark.browser

# hand -> (seat that went out, {seat: typed total}); seats Ann, Ben, Cy, Dee: Ann 50, Ben 90, Cy 75, Dee 130
FIRST = {1: (0, {1: 20, 2: 10, 3: 35}), 2: (1, {0: 5, 2: 30, 3: 15}), 3: (2, {0: 10, 1: 15, 3: 20}),
         4: (3, {0: 5, 1: 5, 2: 5}), 5: (0, {1: 10, 2: 20, 3: 25}), 6: (1, {0: 25, 2: 10, 3: 5}),
         7: (2, {0: 5, 1: 40, 3: 30})}
# seats Ben, Cy, Dee, Eve
SECOND = {1: (2, {0: 10, 1: 15, 3: 5}), 2: (3, {0: 5, 1: 20, 2: 10})}


def play(page, plan):
    for hand, (out, totals) in plan.items():
        page.locator(f"#record input[name=out][value='{out}']").check()
        for seat, total in totals.items():
            fill_seat(page, seat, total=str(total))
        save(page)
        page.wait_for_selector(".flash.saved")


def stats_row(page, name):
    for row in page.locator("table.group-stats tbody tr").all():
        if row.locator("th").inner_text().strip() == name:
            return [c.inner_text() for c in row.locator("td").all()]
    raise AssertionError(f"no row for {name}")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_groups_evenings(browser, live_server, lang):
    ctx = browser.new_context(viewport=PHONE, locale="en-GB" if lang == "en" else "de-DE")
    page = ctx.new_page()
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"{live_server}/?lang={lang}")
    page.click("a[href='/groups']")
    page.click("a[href='/groups/new']")
    page.fill("#name", "Donnerstag" if lang == "de" else "Thursday table")
    assert fits_phone(page)
    shot(page, f"group-{lang}-01-new")
    page.click("button.primary")
    group_url = page.url
    for name in ("Ann", "Ben", "Cy"):
        page.fill("form.add-member input[name=name]", name)
        page.click("form.add-member button")
    assert page.locator("ul.roster li").all_inner_texts() == ["Ann", "Ben", "Cy"]
    shot(page, f"group-{lang}-02-roster")

    # the first game: three from the roster and one new name
    page.click(".group-actions a[href$='/new']")
    for name in ("Ann", "Ben", "Cy"):
        page.check(f"input[name=players][value='{name}']")
    page.fill("#new_name", "Dee")
    page.click("button[name=add]")
    assert page.locator("input[name=players][value='Dee']").is_checked()
    assert fits_phone(page)
    shot(page, f"group-{lang}-03-new-game")
    page.click("button[name=start]")
    assert page.locator(".group-link a").count() == 1
    play(page, FIRST)
    assert page.locator(".final .winner").inner_text().count("Ann") == 1
    assert page.locator("form.rematch button").count() == 1  # this phone holds the group's edit link
    shot(page, f"group-{lang}-04-first-game-over")

    # the second game: back to the group, Ann is not here tonight, Eve is new; two hands
    page.click(".group-link a")
    assert page.url == group_url
    page.click(".group-actions a[href$='/new']")
    assert page.locator("input[name=players][value='Dee']").is_checked()  # the last table, by default
    page.uncheck("input[name=players][value='Ann']")
    page.fill("#new_name", "eve")
    page.select_option("#first_dealer", "Cy")
    page.click("button[name=start]")
    assert page.locator("dl.deal div:nth-child(2) dd").inner_text() == "Cy"  # Cy deals the first hand
    play(page, SECOND)
    page.click(".group-link a")

    # the stats: Ann won the finished game; the unfinished one counts no win
    assert fits_phone(page)
    shot(page, f"group-{lang}-05-group")
    assert page.locator("table.group-stats tbody tr").count() == 5
    assert stats_row(page, "Ann")[:2] == ["1", "1"]  # games, wins
    assert stats_row(page, "Ben")[:2] == ["2", "0"]
    assert stats_row(page, "eve")[:2] == ["1", "0"] and stats_row(page, "eve")[2] == "—"
    assert page.locator(".player-chart svg").count() == 5 and page.locator(".player-chart polyline").count() == 5
    assert page.locator("script:not([src])").count() == 0
    page.locator("table.group-stats").scroll_into_view_if_needed()
    shot(page, f"group-{lang}-06-stats")
    page.locator("#player-1").scroll_into_view_if_needed()
    shot(page, f"group-{lang}-07-player-chart")
    page.locator("#head-to-head").scroll_into_view_if_needed()
    assert page.locator("table.head-to-head tr").count() == 6  # the four players of the finished game, in pairs
    shot(page, f"group-{lang}-08-head-to-head")

    # rematch: the same four in the same seats, the first deal moved on from Cy to Dee
    page.locator("form.rematch button").click()
    assert page.locator("#record input[name=out]").count() == 4
    names = page.locator("#record fieldset.out label").all_inner_texts()
    assert [n.strip() for n in names] == ["Ben", "Cy", "Dee", "eve"]
    assert page.locator("dl.deal div:nth-child(2) dd").inner_text() == "Dee"
    shot(page, f"group-{lang}-09-rematch")
    page.click(".group-link a")
    expect(page.locator("ul.group-games li")).to_have_count(3)  # waits for the group's page to load
    page.click("a[href$='/share']")
    assert page.locator(".qr svg").count() == 2
    shot(page, f"group-{lang}-10-share")
    assert problems == []
    ctx.close()
