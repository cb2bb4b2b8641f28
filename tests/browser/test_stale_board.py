"""A phone left on a game's page for an evening, on a network that comes and goes: the board says when it is old
and why, in the reader's language, and clears by itself; an outage prints at most one line on the console; a
page never opened on the phone, asked for without a connection, is the app's own offline page."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.browserkit import PHONE, shot
from tests.kit import said, said_up_to

pytestmark = pytest.mark.browser

POLL_S = 3  # static/scoreboard.js polls the board every 3 s


def new_game(served, players: list[str]) -> dict:
    status, game = served.api("POST", "/api/v1/games", {"ruleset": "liverpool", "players": players})
    assert status == 201
    return game


def controlled(page) -> None:
    """The service worker has taken the page (and kept it): as on a phone after its first visit."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.reload()


def test_the_board_says_it_is_old_and_why_and_clears_by_itself(browser, served):
    game = new_game(served, ["Anna", "Ben", "Carla"])
    ctx = browser.new_context(viewport=PHONE, locale="de-DE")
    page = ctx.new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    page.goto(served.url + "/g/" + game["view_token"])
    controlled(page)
    note = page.locator("#board-stale")
    page.wait_for_timeout(POLL_S * 1000 + 500)
    expect(note).to_be_hidden()
    # the phone loses its connection: said within two polls, with the reason
    ctx.set_offline(True)
    expect(note).to_be_visible(timeout=2 * POLL_S * 1000)
    expect(note).to_contain_text(said("No connection", "de"))
    expect(note).to_contain_text("Sekunden")
    ctx.set_offline(False)
    expect(note).to_be_hidden(timeout=2 * POLL_S * 1000)
    # the laptop's server stops: the phone is online, the server does not answer
    console.clear()
    served.stop()
    expect(note).to_be_visible(timeout=3 * POLL_S * 1000)
    expect(note).to_contain_text(said_up_to(
        "Not up to date: the server does not answer; the scores were last checked %(ago)s.", "de", "ago"))
    page.wait_for_timeout(5 * POLL_S * 1000)  # several more polls fail meanwhile
    assert len([c for c in console if c.startswith("error")]) <= 1, console
    page.locator("#board").scroll_into_view_if_needed()
    shot(page, "stale-board-de")
    # the note stays in sight where the scores are entered, too
    page.locator("footer, #game-foot").last.scroll_into_view_if_needed()
    box = note.bounding_box()
    assert box is not None and 0 <= box["y"] < PHONE["height"], box
    served.start()
    expect(note).to_be_hidden(timeout=35_000)  # the next poll (at most 30 s apart after failures) clears it
    # and a hand saved elsewhere meanwhile shows without a reload
    assert served.api("POST", f"/api/v1/games/{game['id']}/hands",
                      {"hand": 1, "out": "Anna", "leftovers": {"Ben": ["K"], "Carla": ["5"]}},
                      game["edit_token"])[0] == 201
    expect(page.locator("#now-title")).to_contain_text("2", timeout=2 * POLL_S * 1000)
    ctx.close()


def test_how_old_the_board_is_counts_on_with_the_clock(browser, served):
    """40 seconds without a connection, on a moved clock: the note says so in the reader's words."""
    game = new_game(served, ["Ana", "Bruno", "Carla"])
    ctx = browser.new_context(viewport=PHONE, locale="pt-BR")
    page = ctx.new_page()
    page.clock.install()
    page.goto(served.url + "/g/" + game["view_token"])
    page.clock.run_for(POLL_S * 1000 + 100)
    note = page.locator("#board-stale")
    expect(note).to_be_hidden()
    ctx.set_offline(True)
    for _ in range(50):  # (the page hears it is offline a moment later: the clock runs on only after that)
        if page.evaluate("() => navigator.onLine") is False:
            break
        time.sleep(0.1)
    offline = said("Not up to date: no connection; the scores were last checked %(ago)s.", "pt")
    expect(note).to_contain_text(offline.split("%(ago)s")[0])  # (the page has heard it: its clock may run on now)
    page.clock.run_for(40_000)
    # the age in the reader's words, as the browser's Intl.RelativeTimeFormat says it in pt
    expect(note).to_contain_text(re.compile(r"há 4\d segundos"))  # (40 and the poll's few seconds before)
    page.clock.run_for(60_000)
    expect(note).to_contain_text(re.compile(r"há (1|2) minutos?"))
    ctx.close()


@pytest.mark.parametrize("locale, lang_visited, lang", [("de-DE", None, "de"), ("en-GB", "pt", "pt")])
def test_a_page_never_opened_offline_is_the_apps_offline_page(browser, served, locale, lang_visited, lang):
    """In the language of the last page the app sent (the reader's choice, ?lang=), else the browser's."""
    words = said("No connection", lang), said("Try again", lang)
    game = new_game(served, ["Anna", "Ben", "Carla"])
    ctx = browser.new_context(viewport=PHONE, locale=locale)
    page = ctx.new_page()
    page.goto(served.url + "/g/" + game["edit_token"] + (f"?lang={lang_visited}" if lang_visited else ""))
    controlled(page)
    ctx.set_offline(True)
    other = new_game(served, ["X", "Y", "Z"])
    for path in ("/referee", "/g/" + other["view_token"]):
        page.goto(served.url + path)
        expect(page.locator("h1")).to_have_text(words[0])
        assert page.url.endswith(path)  # the address asked for: "try again" reloads it
    shot(page, f"offline-page-{locale}")
    # the game opened before is still there, board and form
    page.goto(served.url + "/g/" + game["edit_token"])
    expect(page.locator("#record")).to_be_visible()
    # back online, "try again" opens the page asked for
    page.goto(served.url + "/referee")
    ctx.set_offline(False)
    page.get_by_role("link", name=words[1]).click()
    expect(page.locator("h1")).not_to_have_text(words[0])
    expect(page.locator("form").first).to_be_visible()
    ctx.close()
