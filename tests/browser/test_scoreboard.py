"""A whole evening at 390×844: set up, play all seven hands by tapping, while a second phone on the view
link sees each hand appear; then correct a hand, undo, and finish with the winner."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.browserkit import PHONE, block, fits_phone, save, shot, tap
from tests.kit import said

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Ben", "Cy", "Dee"]
POINTS = {"A": 15, "K": 10, "Q": 10, "J": 10, "10": 10, "JK": 15, **{str(n): 5 for n in range(2, 10)}}
# hand -> (who goes out, {player: ranks tapped})
PLAN = {
    1: ("Ann", {"Ben": ["A", "K"], "Cy": ["7"], "Dee": ["JK", "2", "3"]}),
    2: ("Ben", {"Ann": ["Q"], "Cy": ["A", "A"], "Dee": ["9"]}),
    3: ("Cy", {"Ann": ["5"], "Ben": ["10", "J"], "Dee": ["K", "K"]}),
    4: ("Dee", {"Ann": ["2"], "Ben": ["3"], "Cy": ["4", "JK"]}),
    5: ("Ann", {"Ben": ["8"], "Cy": ["9"], "Dee": ["A"]}),
    6: ("Ben", {"Ann": ["6"], "Cy": ["7"], "Dee": ["8", "9"]}),
    7: ("Ann", {"Ben": ["K"], "Cy": ["Q"], "Dee": ["J"]}),
}


def totals_after(n):
    t = {name: 0 for name in NAMES}
    for h in range(1, n + 1):
        for name, ranks in PLAN[h][1].items():
            t[name] += sum(POINTS[r] for r in ranks)
    return t


def test_a_whole_game(browser, live_server):
    host = browser.new_context(viewport=PHONE, locale="en-GB")
    page = host.new_page()
    page.goto(f"{live_server}/?lang=en")
    shot(page, "game-00-home")
    page.click("form.start button.primary")  # tap 1
    for i, name in enumerate(NAMES):
        page.locator("input[name=name]").nth(i).fill(name)
    assert "Shuffle 2 decks and 4 jokers" in page.inner_text(".pack")
    assert fits_phone(page)
    shot(page, "game-01-setup")
    page.click("button[value=start]")  # tap 2
    assert page.locator("#now-title").inner_text() == "Hand 1 of 7"
    assert fits_phone(page)
    shot(page, "game-02-hand1")

    page.click("a[href$='/share']")
    view_url = page.locator("textarea.link-text").first.input_value()  # the whole link, wrapped
    assert page.locator(".qr svg").count() == 2
    shot(page, "game-03-share")
    page.go_back()

    viewer = browser.new_context(viewport=PHONE, locale="de-DE")
    vpage = viewer.new_page()
    vpage.goto(view_url + "?lang=en")
    assert vpage.locator("#record").count() == 0 and vpage.locator("#board form").count() == 0
    shot(vpage, "game-04-viewer-start")

    for n in range(1, 8):
        out, leftovers = PLAN[n]
        if n == 2:  # Cy buys twice; Dee goes down
            page.locator("tr", has_text="Cy").locator("button[aria-label^='Add a buy']").click()
            expect(page.locator("#board tbody tr:nth-child(3) .count")).to_have_text(re.compile(r"^1/"))
            page.locator("tr", has_text="Cy").locator("button[aria-label^='Add a buy']").click()
            expect(page.locator("#board tbody tr:nth-child(3) .count")).to_have_text(re.compile(r"^2/"))
            page.locator("tr", has_text="Dee").locator("button.down-toggle").click()
            page.wait_for_selector("#board tr:nth-child(4) button[aria-pressed=true]")
            shot(page, "game-05-buys-and-down")
        page.get_by_label(out, exact=True).check()
        for name, ranks in leftovers.items():
            seat = NAMES.index(name)
            tap(page, seat, *ranks)
            fs = block(page, seat)
            assert fs.locator("output.penalty").inner_text() == f"= {sum(POINTS[r] for r in ranks)}"
        if n == 1:
            # a wrong tap, taken back by tapping the chip
            tap(page, 1, "Q")
            fs = block(page, 1)
            fs.locator(".chip").last.click()
            assert fs.locator(".chip").count() == 2
            page.locator("#record").scroll_into_view_if_needed()
            shot(page, "game-06-record-hand1")
        save(page)
        expect(page.locator(".flash")).to_contain_text(f"Hand {n} saved")
        expected = totals_after(n)
        for name in NAMES:
            row = page.locator("table.scores").first.locator("tr", has_text=name)
            assert row.locator("td.total").inner_text() == str(expected[name])
        # the other phone sees it without reloading
        if n < 7:
            vpage.wait_for_selector(f"#now-title:has-text('Hand {n + 1} of 7')", timeout=15000)
        else:
            vpage.wait_for_selector(".final .winner", timeout=15000)
        assert vpage.locator("table.scores").first.locator("tr", has_text="Ann").locator("td.total").inner_text() \
            == str(expected["Ann"])
        if n in (1, 4):
            shot(vpage, f"game-07-viewer-after-hand{n}")

    final = totals_after(7)
    winner = min(final, key=final.get)
    assert f"{winner} wins" in page.inner_text(".final")
    assert page.locator(".chart polyline").count() == 4
    shot(page, "game-08-final")
    page.locator(".chart").scroll_into_view_if_needed()
    shot(page, "game-09-chart")
    shot(vpage, "game-10-viewer-final")

    # a correction: hand 3, Dee had one king less
    page.locator("#hand-3 a.correct-link").click()  # the hand-by-hand table is on the screen, not behind a toggle
    block(page, 3).locator(".chip").last.click()
    shot(page, "game-11-correct")
    save(page)
    expect(page.locator(".flash")).to_contain_text("Hand 3 corrected")
    dee = page.locator("table.scores").first.locator("tr", has_text="Dee").locator("td.total").inner_text()
    assert int(dee) == final["Dee"] - 10
    # and undone
    page.click("form.undo button")
    expect(page.locator(".flash")).to_contain_text("Undone")  # (waits for the page the form opens)
    dee = page.locator("table.scores").first.locator("tr", has_text="Dee").locator("td.total").inner_text()
    assert int(dee) == final["Dee"]

    page.click("a[href$='/history']")
    expect(page.locator("ol.history li").nth(11)).to_be_attached()  # twelve lines at least, once the page is open
    shot(page, "game-12-history")
    page.go_back()
    page.click("a[href$='/sheet']")
    shot(page, "game-13-sheet")
    page.goto(f"{live_server}/games")
    assert page.locator(".my-game").count() >= 1
    shot(page, "game-14-my-games")
    assert re.search(r"/g/[A-Za-z0-9_-]{32}$", view_url)
    viewer.close()
    host.close()


def test_stale_second_phone_is_told(browser, live_server):
    """Two phones on the edit link record the same hand: the second is told, and shown what was saved."""
    a = browser.new_context(viewport=PHONE, locale="en-GB")
    p1 = a.new_page()
    p1.goto(f"{live_server}/new?lang=en")
    p1.click("button[value=start]")
    url = p1.url
    b = browser.new_context(viewport=PHONE, locale="en-GB")
    p2 = b.new_page()
    p2.goto(url)
    for page, out in ((p1, "Player 1"), (p2, "Player 2")):
        page.get_by_label(out, exact=True).check()
        for seat in range(4):
            if block(page, seat).get_attribute("disabled") is None:
                tap(page, seat, "5")
    save(p1)
    expect(p1.locator(".flash")).to_contain_text("Hand 1 saved")
    # phone 2 said Player 2 went out: both entries are shown, nothing of phone 2's is saved
    p2.click("#record button.primary")
    race = p2.locator("section.race")
    expect(race).to_contain_text("Hand 1 was saved by another phone first")
    assert race.locator("tr.differs").count() >= 2  # who went out, and the two players who went out
    assert p2.locator("#board td.total").first.inner_text() == "0"  # the board shows the saved hand
    shot(p2, "game-15-second-phone-told")
    # one tap puts phone 2's entry in place of the saved one
    save(p2, "section.race button.primary")
    expect(p2.locator(".flash")).to_contain_text("Hand 1 corrected")
    expect(p2.locator("#now-title")).to_have_text("Hand 2 of 7")
    totals = [p2.locator("#board td.total").nth(i).inner_text() for i in range(4)]
    assert totals == ["5", "0", "5", "5"]
    a.close()
    b.close()


def test_scoreboard_without_javascript(browser, live_server):
    """With JavaScript off the forms still work: typed leftovers, buys by plain form posts."""
    ctx = browser.new_context(viewport=PHONE, locale="pt-BR", java_script_enabled=False)
    page = ctx.new_page()
    page.goto(f"{live_server}/new")
    page.locator("input[name=name]").nth(0).fill("Ana")
    page.click("button[value=start]")
    assert page.locator(".rank-pad").first.is_hidden()  # the pad needs a script; the text box does not
    page.locator("tr", has_text="Ana").locator("button[aria-label]").first.click()  # a buy
    assert page.locator("tr", has_text="Ana").locator(".count").inner_text().startswith("1")
    page.get_by_label("Ana", exact=True).check()
    page.fill("#cards_1", "A K")
    page.fill("#cards_2", "7 JK")
    page.fill("#total_3", "15")
    page.click("#record button.primary")
    expect(page.locator("#now-title")).to_have_text(said("Hand %(n)s of %(total)s", "pt", n=2, total=7))
    totals = [page.locator("td.total").nth(i).inner_text() for i in range(4)]
    assert totals == ["0", "25", "20", "15"]
    shot(page, "game-16-no-javascript-pt")
    ctx.close()
