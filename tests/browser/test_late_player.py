"""A player who arrives after the game began, at a phone's size in Portuguese: seated at hand 3 from the players
page, dealt in at once, and the game played to its end with them; a second phone follows."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from referee.cards import Leftover
from referee.families import resolve
from referee.scoring import standings
from referee.table import deal_order
from tests.browser.browserkit import PHONE, save, shot, tap
from tests.kit import said

pytestmark = pytest.mark.browser

RULES = resolve("liverpool", players=4)
POINTS = {str(left): RULES.rank_points(left.rank) for left in Leftover.parse_all("2 3 4 5 6 7 8 9 10 J Q K A JK")}
# hand -> (who went out, what the others left); Duda sits down before hand 3, at Bruno's left
BEFORE = {1: ("Ana", {"Bruno": ["K", "Q"], "Carla": ["7"]}), 2: ("Carla", {"Ana": ["A"], "Bruno": ["2"]})}
AFTER = {3: ("Duda", {"Ana": ["3"], "Bruno": ["4"], "Carla": ["K"]}),
         4: ("Ana", {"Bruno": ["5"], "Duda": ["9", "9"], "Carla": ["2"]}),
         5: ("Bruno", {"Ana": ["A"], "Duda": ["2"], "Carla": ["3"]}),
         6: ("Duda", {"Ana": ["8"], "Bruno": ["JK"], "Carla": ["4"]}),
         7: ("Carla", {"Ana": ["2"], "Bruno": ["K"], "Duda": ["3"]})}


def play(page, names, plan):
    out, left = plan
    page.locator(f"#record fieldset.out input[value='{names.index(out)}']").check()
    for name, ranks in left.items():
        tap(page, names.index(name), *ranks)
    save(page)


def test_a_late_player_sits_down_at_hand_3_and_plays_to_the_end(browser, live_server):
    ctx = browser.new_context(viewport=PHONE, locale="pt-BR")
    page = ctx.new_page()
    game = page.request.post(f"{live_server}/api/v1/games", data={
        "ruleset": "liverpool", "players": ["Ana", "Bruno", "Carla"]}).json()
    viewer = browser.new_context(viewport=PHONE, locale="pt-BR").new_page()
    viewer.goto(f"{live_server}/g/{game['view_token']}?lang=pt")
    page.goto(f"{live_server}/g/{game['edit_token']}?lang=pt")
    names = ["Ana", "Bruno", "Carla"]
    for n, plan in BEFORE.items():
        play(page, names, plan)
    # the players page: Duda sits down at Bruno's left with the highest total so far
    page.get_by_role("link", name=said("Players", "pt")).click()
    highest = max(sum(POINTS[r] for h in BEFORE.values() for r in h[1].get(n, [])) for n in names)
    expect(page.locator("#join")).to_contain_text(said("The highest total so far (%(points)s)", "pt",
                                                       points=highest))
    page.fill("#join-name", "Duda")
    page.select_option("#join-after", label="Bruno")
    page.locator("#join").scroll_into_view_if_needed()
    shot(page, "late-player-pt-join")
    with page.expect_navigation():
        page.get_by_role("button", name=said("Seat them", "pt")).click()
    expect(page.locator(".flash")).to_have_text(said(
        "%(name)s sits down and plays from hand %(hand)s, starting on %(points)s points.", "pt", name="Duda", hand=3,
        points=highest))
    names = ["Ana", "Bruno", "Duda", "Carla"]
    joined = [1, 1, 3, 1]
    rules = RULES
    dealer = deal_order(rules, names, 3, 0, joined).dealer
    assert dealer == "Duda"  # at the left of Bruno, who dealt hand 2
    expect(page.locator("#board")).to_contain_text("Duda")
    expect(viewer.locator("#board")).to_contain_text("Duda", timeout=15000)  # the other phone, within a poll
    page.locator("#record").scroll_into_view_if_needed()
    shot(page, "late-player-pt-hand3")
    for n, plan in AFTER.items():
        play(page, names, plan)
        if n < 7:
            expect(page.locator("#board")).to_have_attribute("data-hand", re.compile(rf"^{n + 1}-"))
    hands = [{n: 0 for n in names if n != "Duda" or h >= 3} | {p: sum(POINTS[r] for r in rs) for p, rs in plan[1].items()}
             for h, plan in sorted({**BEFORE, **AFTER}.items())]
    result = standings(rules, names, hands, start={"Duda": highest})
    winner = result.winners[0]
    expect(page.locator(".final .winner")).to_contain_text(said("%(name)s wins.", "pt", name=winner))
    totals = [int(page.locator("#board table.scores tbody tr", has_text=n).locator("td.total").inner_text())
              for n in names]
    assert totals == [s.total for n in names for s in result.standings if s.player == n]
    start = page.locator("#by-hand tr.start-row td")  # the score sheet shows where Duda's total began
    assert start.all_inner_texts() == ["", "", str(highest), ""]
    expect(viewer.locator(".final .winner")).to_contain_text(winner, timeout=15000)
    shot(page, "late-player-pt-final")
    page.locator("#by-hand").scroll_into_view_if_needed()
    shot(page, "late-player-pt-by-hand")
    shot(viewer, "late-player-pt-viewer-final")
    ctx.close()
