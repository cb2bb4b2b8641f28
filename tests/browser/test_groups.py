"""A group's evenings at 390×844, in English and in German: make a group and its roster, play a whole game
and half of another with overlapping players, see the stats, the charts and the head to head, and rematch."""

import pytest
from playwright.sync_api import expect

from tests.browser.browserkit import PHONE, fill_seat, fits_phone, save, shot
from tests.kit import said

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
    expect(page.locator("ul.roster li")).to_have_text(["Ann", "Ben", "Cy"])  # (waits for the last name's page)
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
    expect(page.locator(".group-link a")).to_have_count(1)  # waits for the game's page to load
    play(page, FIRST)
    assert page.locator(".final .winner").inner_text().count("Ann") == 1
    assert page.locator("form.rematch button").count() == 1  # this phone holds the group's edit link
    shot(page, f"group-{lang}-04-first-game-over")

    # the second game: back to the group, Ann is not here tonight, Eve is new; two hands
    page.click(".group-link a")
    expect(page).to_have_url(group_url)
    page.click(".group-actions a[href$='/new']")
    assert page.locator("input[name=players][value='Dee']").is_checked()  # the last table, by default
    page.uncheck("input[name=players][value='Ann']")
    page.fill("#new_name", "eve")
    page.select_option("#first_dealer", "Cy")
    page.click("button[name=start]")
    assert page.locator("dl.deal div:nth-child(2) dd").inner_text() == "Cy"  # Cy deals the first hand
    play(page, SECOND)
    page.click(".group-link a")

    # the stats: Ann won the finished game; the one still being played is not decided, so not counted yet
    assert fits_phone(page)
    shot(page, f"group-{lang}-05-group")
    assert page.locator("table.group-stats tbody tr").count() == 5
    assert stats_row(page, "Ann")[:2] == ["1", "1"]  # games, wins
    assert stats_row(page, "Ben")[:2] == ["1", "0"]
    assert stats_row(page, "eve")[:2] == ["0", "0"] and stats_row(page, "eve")[2] == "—"
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
    expect(page.locator("#record input[name=out]")).to_have_count(4)  # waits for the new game's page to load
    names = page.locator("#record fieldset.out label").all_inner_texts()
    assert [n.strip() for n in names] == ["Ben", "Cy", "Dee", "eve"]
    assert page.locator("dl.deal div:nth-child(2) dd").inner_text() == "Dee"
    shot(page, f"group-{lang}-09-rematch")
    page.click(".group-link a")
    expect(page.locator("ul.group-games li")).to_have_count(3)  # waits for the group's page to load
    page.click("a[href$='/share']")
    expect(page.locator(".qr svg")).to_have_count(2)
    shot(page, f"group-{lang}-10-share")
    assert problems == []
    ctx.close()


# seats Ana, Beto, Carla: Ana leads after three hands (Ana 15, Beto 35, Carla 45)
ENDED = {1: (0, {1: 20, 2: 10}), 2: (1, {0: 5, 2: 30}), 3: (2, {0: 10, 1: 15})}
# seats Ana, Beto, Dany (a typo for Dani): Beto leads after two hands (Beto 5, Ana 10, Dani 40)
RENAMED = {1: (1, {0: 10, 2: 20}), 2: (0, {1: 5, 2: 20})}


def wins(lang, name):
    """A game's winner as its screen and its group's list say it."""
    return "★ " + said("%(name)s wins.", lang, name=name)


@pytest.mark.parametrize("lang", ["pt", "de"])
def test_a_group_tells_each_games_real_result(browser, live_server, lang):
    """Two games of a group that the table ended early, the second with a name fixed on the way: the group's
    list says each game's result as its screen does, and its figures count what the screens show."""
    ctx = browser.new_context(viewport=PHONE, locale="pt-BR" if lang == "pt" else "de-DE")
    page = ctx.new_page()
    page.goto(f"{live_server}/groups/new?lang={lang}")
    page.fill("#name", "Quinta" if lang == "pt" else "Donnerstag")
    page.click("button.primary")
    group_url = page.url
    for names, plan, ended in ((["Ana", "Beto", "Carla"], ENDED, "ana"), (["Ana", "Beto", "Dany"], RENAMED, "beto")):
        page.goto(group_url)
        page.click(".group-actions a[href$='/new']")
        boxes = page.locator("input[name=players]")
        for i in range(boxes.count()):
            boxes.nth(i).uncheck()
        for name in names:
            if page.locator(f"input[name=players][value='{name}']").count():
                page.check(f"input[name=players][value='{name}']")
            else:
                page.fill("#new_name", name)
                page.click("button[name=add]")
        page.click("button[name=start]")
        play(page, plan)
        if "Dany" in names:  # a typo fixed on the game's players page
            game_url = page.url
            page.goto(game_url + "/players")
            page.fill("#name-2", "Dani")
            page.locator("form.rename").nth(2).locator("button").click()
            page.goto(game_url)
        page.locator("details.end-early summary").click()
        page.locator("details.end-early button").click()
        expect(page.locator(".final .winner")).to_contain_text(wins(lang, ended.capitalize())[2:])
    page.goto(group_url)
    items = [" ".join(t.split()) for t in page.locator("ul.group-games li p.muted").all_inner_texts()]
    assert len(items) == 2
    ended = [said("Ended after hand %(n)s of %(total)s.", lang, n=n, total=7) for n in (2, 3)]
    assert wins(lang, "Beto") in items[0] and ended[0] in items[0]  # (the latest first)
    assert wins(lang, "Ana") in items[1] and ended[1] in items[1]
    assert page.locator("ul.roster li").all_inner_texts() == ["Ana", "Beto", "Carla", "Dani"]
    assert stats_row(page, "Ana")[:3] == ["2", "1", "50%"] or stats_row(page, "Ana")[:3] == ["2", "1", "50 %"]
    assert stats_row(page, "Beto")[:2] == ["2", "1"] and stats_row(page, "Dani")[:2] == ["1", "0"]
    assert all(page.locator("table.group-stats th").all_inner_texts().count(n) <= 1 for n in ("Dany", "Dani"))
    assert fits_phone(page)
    page.locator("ul.group-games").scroll_into_view_if_needed()
    shot(page, f"group-truth-{lang}-games")
    page.locator("table.group-stats").scroll_into_view_if_needed()
    shot(page, f"group-truth-{lang}-stats")
    ctx.close()
