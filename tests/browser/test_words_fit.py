"""Every screen's words fit a 390×844 phone in every language: no page wider than the phone, and no button,
table header or cell, select or link whose words run out of its box (a German header, a Spanish joker
button, the family list on the setup screen)."""

import json
import urllib.request

import pytest

from referee import rulebook
from referee.families import FAMILIES
from tests.browser.browserkit import fits_phone, shot

pytestmark = pytest.mark.browser

FIVE = ["Anna", "Bruno", "Carla", "Dieter", "Eva"]

# boxes whose text must stay inside them; a clipped header hides its word, a clipped button its label
OVERFLOWING = """() => {
  const hidden = e => { for (; e; e = e.parentElement) { if (getComputedStyle(e).clip === 'rect(0px, 0px, 0px, 0px)')
    return true; } return false; };
  return [...document.querySelectorAll('button, th, td, select, .small-link, summary, dt, dd, legend')]
  .filter(e => e.offsetParent !== null && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1
               && !e.closest('.sr-only') && !hidden(e))
  .map(e => e.tagName + ': ' + (e.innerText || e.value || '').trim().slice(0, 40)); }"""


def api(url, body, token=None):
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req) as resp:
        return json.loads(resp.read())


@pytest.fixture(scope="module")
def game(live_server):
    g = api(f"{live_server}/api/v1/games", {"ruleset": "liverpool", "players": FIVE})
    api(f"{live_server}/api/v1/games/{g['id']}/hands", {"hand": 1, "out": "Carla", "leftovers": {
        "Anna": ["AH", "JK"], "Bruno": ["7"], "Dieter": ["K"], "Eva": ["2"]}}, g["edit_token"])
    api(f"{live_server}/api/v1/games/{g['id']}/buys", {"hand": 2, "player": "Dieter"}, g["edit_token"])
    return g


def check(page, name):
    assert fits_phone(page), name
    assert page.evaluate(OVERFLOWING) == [], name


@pytest.mark.parametrize("lang", rulebook.LANGS)
def test_screens_fit_in_every_language(page, live_server, game, lang):
    edit = f"{live_server}/g/{game['edit_token']}"
    page.goto(f"{edit}?lang={lang}")
    page.locator("#by-hand").scroll_into_view_if_needed()  # the hand-by-hand table, with its links, for five
    shot(page, f"words-game-{lang}")
    check(page, "game")
    # the scores table may scroll sideways, but for five players it must not need to: a column pushed out of
    # sight (the German "gone down" header) is a column nobody finds
    assert page.evaluate("(e => e.scrollWidth - e.clientWidth)(document.querySelector('#scores .scroll'))") == 0
    page.locator("#record").scroll_into_view_if_needed()
    shot(page, f"words-record-{lang}")
    for path in ("/", "/new", "/new?family=contract", "/referee/check", "/referee/buy", "/rules/compare",
                 "/rules/search?q=joker", f"/g/{game['view_token']}", f"/g/{game['edit_token']}/hands/1"):
        sep = "&" if "?" in path else "?"
        page.goto(f"{live_server}{path}{sep}lang={lang}")
        check(page, path)
    page.goto(f"{live_server}/new?lang={lang}")
    shot(page, f"words-new-{lang}")


@pytest.mark.parametrize("lang", rulebook.LANGS)
def test_rules_tables_fit_in_every_language(page, live_server, lang):
    """The rules pages' tables (decks, contracts, penalties, variants, house rules) fit the phone without sideways
    scrolling in every language, as they do in English: a long word (a German compound, "personalizados") that
    pushes a column out of sight is broken where it may be."""
    for family in FAMILIES:
        page.goto(f"{live_server}/rules/{family}?lang={lang}")
        overflow = page.evaluate(
            "[...document.querySelectorAll('main .scroll')].map(e => e.scrollWidth - e.clientWidth)")
        assert overflow and not any(overflow), (family, overflow)
        check(page, f"/rules/{family}")
