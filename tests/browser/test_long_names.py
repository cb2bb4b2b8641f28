"""Long player names at a 390 px phone, five and eight at a table, in every language: the scores, the
hand-by-hand table and the standings need no sideways scrolling, and a name breaks only at a space or after a
hyphen, never inside a word; a part too long for its box ends in an ellipsis, with the whole name in the title
and in the cell's text."""

import json
import urllib.request

import pytest

from referee import rulebook
from tests.browser.browserkit import fits_phone, shot

pytestmark = pytest.mark.browser

# twenty-odd letters, with and without a hyphen; the German "gone down" column is the widest
LONG = ["Maximiliane-Josefine", "Bartholomäus-Friedrich", "Guadalupe-Esperanza", "Konstantinopolitanus",
        "Annemarie-Christiane", "Wilhelmina-Augustina", "Jean-Baptiste-Olivier", "Evangelina-Rosalind"]
RANKS = ["K", "7", "4", "9", "Q", "3", "5", "8"]

LAYOUT = """() => {
  const wide = e => e.scrollWidth - e.clientWidth;
  const names = [...document.querySelectorAll('#scores table:not(.by-hand-table) th[scope=row]')];
  return {
    scrolls: [...document.querySelectorAll('#scores .scroll')].map(wide),
    // each part of a name is one line: broken inside a word, it would be two
    split: [...document.querySelectorAll('#scores .pname > span, dl.deal .pname > span')]
             .filter(e => e.getClientRects().length !== 1 || e.getBoundingClientRect().height > 40)
             .map(e => e.textContent),
    untitled: names.filter(e => !e.querySelector('.pname[title]')).map(e => e.textContent.trim()),
    whole: names.map(e => e.querySelector('.pname')?.getAttribute('title')),
    text: names.map(e => e.querySelector('.pname')?.textContent),
    // the hand-by-hand headers: one line each (written upwards when the names are long), the name in the title
    headers: [...document.querySelectorAll('#by-hand thead th.name span')]
               .map(e => [e.getAttribute('title'), e.getClientRects().length]),
  };
}"""


def api(url, body, token=None):
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req) as resp:
        return json.loads(resp.read())


def a_game(base, n, hands):
    names = LONG[:n]
    g = api(f"{base}/api/v1/games", {"ruleset": "liverpool", "players": names})
    for h in range(1, hands + 1):
        out = names[h % n]
        left = {p: RANKS[i:i + (i + h) % 3 + 1] for i, p in enumerate(names) if p != out}
        api(f"{base}/api/v1/games/{g['id']}/hands", {"hand": h, "out": out, "leftovers": left}, g["edit_token"])
    return g


@pytest.fixture(scope="module")
def games(live_server):
    return {(n, done): a_game(live_server, n, 7 if done else 2) for n in (5, 8) for done in (False, True)}


@pytest.mark.parametrize("lang", rulebook.LANGS)
@pytest.mark.parametrize("n", [5, 8])
@pytest.mark.parametrize("done", [False, True], ids=["in-play", "finished"])
def test_long_names_fit_the_phone(page, live_server, games, lang, n, done):
    g = games[(n, done)]
    for token in (g["edit_token"], g["view_token"]):
        page.goto(f"{live_server}/g/{token}?lang={lang}")
        assert fits_phone(page), "the page scrolls sideways"
        got = page.evaluate(LAYOUT)
        assert got["scrolls"] and got["scrolls"] == [0] * len(got["scrolls"]), got["scrolls"]
        assert got["split"] == [], f"broken inside a word: {got['split']}"
        assert got["untitled"] == []
        players = LONG[:n]
        assert sorted(got["whole"]) == sorted(players) and sorted(got["text"]) == sorted(players)
        assert got["headers"] == [[p, 1] for p in players], got["headers"]
    page.evaluate("document.querySelector('#scores').scrollIntoView()")  # the board is swapped every 3 s
    shot(page, f"long-names-{n}-{'end' if done else 'play'}-{lang}")


@pytest.mark.parametrize("lang", ["es", "de"])
def test_short_names_read_whole_in_the_hand_table(page, live_server, lang):
    """Five everyday names sit side by side over the hand-by-hand table, each on one line: no column is so narrow
    that "Lucía" reads "Lu-cí-a"."""
    names = ["Lucía", "Mateo", "Sofía", "Martín", "Jürgen"]
    g = api(f"{live_server}/api/v1/games", {"ruleset": "liverpool", "players": names})
    api(f"{live_server}/api/v1/games/{g['id']}/hands", {"hand": 1, "out": "Mateo", "leftovers": {
        "Lucía": ["K"], "Sofía": ["7"], "Martín": ["9"], "Jürgen": ["Q"]}}, g["edit_token"])
    page.goto(f"{live_server}/g/{g['edit_token']}?lang={lang}")
    got = page.evaluate(LAYOUT)
    assert got["headers"] == [[n, 1] for n in names], got["headers"]
    assert page.locator("#by-hand table.many").count() == 0  # written across, as short names are
    assert got["scrolls"] == [0] * len(got["scrolls"]) and fits_phone(page)


@pytest.fixture(scope="module")
def group(live_server):
    grp = api(f"{live_server}/api/v1/groups", {"name": "Donnerstagsrunde bei Maximiliane"})
    names = LONG[:4] + ["Greta"]
    g = api(f"{live_server}/api/v1/games", {"ruleset": "liverpool", "players": names, "group": grp["id"],
                                            "group_token": grp["edit_token"]})
    for h in range(1, 8):
        out = names[h % len(names)]
        api(f"{live_server}/api/v1/games/{g['id']}/hands", {"hand": h, "out": out, "leftovers": {
            p: ["K", "7"] for p in names if p != out}}, g["edit_token"])
    return grp


@pytest.mark.parametrize("lang", rulebook.LANGS)
def test_a_groups_stats_fit_with_long_names(page, live_server, group, lang):
    """The group's stats table and head to head take long names without sideways scrolling: a name too long for
    its column ends in …, with the whole name in its title."""
    page.goto(f"{live_server}/groups/{group['edit_token']}?lang={lang}")
    assert fits_phone(page), "the page scrolls sideways"
    overflow = page.evaluate("[...document.querySelectorAll('main .scroll')].map(e => e.scrollWidth - e.clientWidth)")
    assert overflow and not any(overflow), overflow
    titles = page.evaluate("[...document.querySelectorAll('table.group-stats .pname, table.head-to-head .pname')]"
                           ".map(e => e.getAttribute('title'))")
    assert set(titles) == set(LONG[:4] + ["Greta"])
    page.locator("table.group-stats").scroll_into_view_if_needed()
    shot(page, f"long-names-group-{lang}")


CUT = """e => [...e.children].some(s => s.scrollWidth > s.clientWidth + 1)"""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_cut_name_shows_whole_when_tapped(page, live_server, games, lang):
    """A name cut with … in the scores reads whole while it is tapped (it wraps in its column), and the page
    still fits the phone; tapping elsewhere cuts it again."""
    page.goto(f"{live_server}/g/{games[(8, False)]['edit_token']}?lang={lang}")
    names = page.locator("#scores table:not(.by-hand-table) th[scope=row] .pname")
    cut = [i for i in range(names.count()) if names.nth(i).evaluate(CUT)]
    assert cut, "no name is cut at this width: the test shows nothing"
    name = names.nth(cut[0])
    before = name.bounding_box()["height"]
    name.click()
    assert not name.evaluate(CUT), "the tapped name is still cut"
    assert name.bounding_box()["height"] > before  # it wrapped onto another line instead
    assert fits_phone(page)
    shot(page, f"long-names-tapped-{lang}")
    page.mouse.click(2, 2)  # a tap on the page outside the name
    assert name.evaluate(CUT)


@pytest.mark.parametrize("lang", rulebook.LANGS)
def test_the_score_sheet_shows_every_player_without_scrolling(page, live_server, games, lang):
    """Eight long names on the printable score sheet at 390 px: a column per player, none off the screen."""
    page.goto(f"{live_server}/g/{games[(8, True)]['edit_token']}/sheet?lang={lang}")
    assert fits_phone(page)
    overflow = page.evaluate("[...document.querySelectorAll('main .scroll')].map(e => e.scrollWidth - e.clientWidth)")
    assert overflow == [0], overflow
    assert page.locator("table.sheet-table thead .pname[title]").count() == 8
    shot(page, f"sheet-8-{lang}")
