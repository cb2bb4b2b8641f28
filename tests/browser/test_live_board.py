"""A phone left open on the table: the board survives its polls, and a hand recorded elsewhere shows up on an
edit page and a view page within seconds, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.browserkit import PHONE, shot
from tests.conftest import backends

pytestmark = pytest.mark.browser


@pytest.fixture(params=list(backends()))
def server(request, tmp_path):
    from werkzeug.serving import make_server

    from tests.conftest import make_app

    app = make_app(request, tmp_path, request.param)
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()


def api(url: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req) as resp:
        return json.loads(resp.read())


def mark(page) -> None:
    """Mark the board element as it is now: a re-drawn board is a new element, without the mark."""
    page.evaluate("document.getElementById('board').dataset.seen = '1'")


def marked(page) -> bool:
    return page.evaluate("document.getElementById('board').dataset.seen === '1'")


def test_board_lives_through_polls_and_shows_the_next_hand(browser, server):
    game = api(f"{server}/api/v1/games", {"ruleset": "liverpool", "players": ["Ann", "Ben", "Cy", "Dee"]})
    phones = []
    for link in (game["edit_url"], game["view_url"]):
        ctx = browser.new_context(viewport=PHONE, locale="en-GB")
        page = ctx.new_page()
        polls: list[int] = []
        page.on("response", lambda r, polls=polls: polls.append(r.status) if r.url.endswith("/board") else None)
        page.goto(f"{server}/g/{link.rsplit('/g/', 1)[1]}?lang=en")
        phones.append((ctx, page, polls))
        mark(page)
    opened = time.monotonic()

    while time.monotonic() - opened < 20:  # at least five polls, each answered 304, and the board stays
        for _, page, _ in phones:
            expect(page.locator("#now-title")).to_have_text("Hand 1 of 7")
        time.sleep(2)
    for _, page, polls in phones:
        assert polls.count(304) >= 5 and 200 not in polls, polls  # not even the first poll re-draws the board
        assert marked(page), "the board was re-drawn though nothing changed"
        expect(page.locator("#board table.scores").first).to_be_visible()

    api(f"{server}/api/v1/games/{game['id']}/hands",
        {"hand": 1, "out": "Ann", "leftovers": {"Ben": ["K"], "Cy": ["7"], "Dee": ["A"]}}, game["edit_token"])
    for _, page, _ in phones:
        expect(page.locator("#now-title")).to_have_text("Hand 2 of 7", timeout=5000)
        expect(page.locator("a", has_text="Referee for this hand")).to_have_attribute("href", re.compile(r"hand=2"))
    expect(phones[0][1].locator("#record-title")).to_have_text("End of hand 2", timeout=5000)
    edit = phones[0][1]
    edit.locator("tr", has_text="Ben").locator("button[aria-label^='Add a buy']").click()
    expect(edit.locator("#board tbody tr:nth-child(2) .count")).to_have_text(re.compile(r"^1/"))
    # the buy is shown at once as waiting, then drawn again from the server's answer: that is the last redraw
    edit.wait_for_function("() => window.rummyOutbox.pending() === 0")  # (a function: the page forbids eval)
    expect(edit.locator("#board td.waiting")).to_have_count(0)
    for _, page, _ in phones:
        expect(page.locator("#board tbody tr:nth-child(2) .count")).to_have_text(re.compile(r"^1/"), timeout=5000)
        mark(page)

    time.sleep(10)  # and the board is still there after more polls, not re-drawn again
    for i, (ctx, page, polls) in enumerate(phones):
        assert marked(page), "the board was re-drawn though nothing changed since"
        expect(page.locator("#now-title")).to_have_text("Hand 2 of 7")
        expect(page.locator("td.total").nth(1)).to_have_text("10")
        shot(page, f"live-board-{'edit' if i == 0 else 'view'}")
        ctx.close()

