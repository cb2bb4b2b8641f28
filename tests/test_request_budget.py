"""No request can buy more than one budget of work (referee/budget.py): every search a request makes draws on
the same budget, charged for the work it really does; a save the pack check cannot settle within it is refused
once, before the turn to write, and records nothing. The tests count budgets and steps, never a wall time."""

from __future__ import annotations

from html import unescape

import pytest

from referee import budget as work
from referee.budget import STEPS, Budget
from tests.kit import refusal

CRAFTED = {"decks": 4, "jokers": 8, "joker_points": 99, "wild_ranks": ["JK", "2", "3"], "wild_rank_points": 98,
           "hand_size": 15}
EIGHT = [f"P{i}" for i in range(8)]


@pytest.fixture()
def budgets(monkeypatch):
    """Every budget made, in order."""
    made: list[Budget] = []
    real = Budget.__init__

    def counted(self, *args, **kwargs):
        real(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(Budget, "__init__", counted)
    return made


def auth(game: dict) -> dict:
    return {"Authorization": f"Bearer {game['edit_token']}"}


def crafted_game(client) -> dict:
    r = client.post("/api/v1/games", json={"ruleset": "liverpool", "players": EIGHT, "options": CRAFTED})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_the_crafted_save_spends_one_budget_and_records_nothing(client, budgets, monkeypatch):
    from referee.web.scoreboard import services

    game = crafted_game(client)
    scored, turns = [], []
    real_score, real_enter = services.score_hand, services.Write.__enter__
    monkeypatch.setattr(services, "score_hand", lambda *a, **k: scored.append(1) or real_score(*a, **k))
    monkeypatch.setattr(services.Write, "__enter__", lambda self: turns.append(1) or real_enter(self))
    budgets.clear()
    r = client.post(f"/api/v1/games/{game['id']}/hands", headers=auth(game),
                    json={"hand": 1, "out": "P0", "leftovers": {p: 1478 for p in EIGHT[1:]}})
    assert r.status_code == 422
    assert r.get_json()["error"]["code"] in ("too_much_work", "pack_cannot_make")
    assert len(budgets) == 1, len(budgets)  # one budget for every search of the request
    b = budgets[0]
    assert b.spent or b.left >= 0  # refused when it ran out, or finished within it
    assert b.charged - STEPS < 50_000  # (what ran over was charged before it was done, and not done)
    assert scored == [1] and turns == []  # scored once, and refused before the turn to write
    got = client.get(f"/api/v1/games/{game['id']}", headers=auth(game)).get_json()
    assert got["hands"] == []


def test_a_spent_budget_says_so_in_the_readers_language(client):
    game = crafted_game(client)
    r = client.post(f"/g/{game['edit_token']}/hand?lang=de", data={
        "hand": "1", "out": "0", **{f"total_{s}": "1478" for s in range(1, 8)}})
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert refusal("too_much_work", "de") in unescape(html)
    assert 'value="1478"' in html  # what was typed is still there


def test_a_plain_save_spends_little_of_its_budget(client, budgets):
    r = client.post("/api/v1/games", json={"ruleset": "liverpool", "players": EIGHT})
    game = r.get_json()
    budgets.clear()
    r = client.post(f"/api/v1/games/{game['id']}/hands", headers=auth(game),
                    json={"hand": 1, "out": "P0", "leftovers": {p: 45 + 5 * i for i, p in enumerate(EIGHT[1:])}})
    assert r.status_code == 201, r.get_json()
    assert len(budgets) == 1 and not budgets[0].spent and budgets[0].charged < STEPS // 2


def test_the_referee_draws_on_the_requests_budget(client, budgets):
    """An arrangement built to explode the search: one budget, its deadline from the request's start, and the
    work charged as it goes (the clock looked at between the lowest places of a suit's runs)."""
    body = {"ruleset": "liverpool", "hand": 1, "cards": "JS 3S QD AS KS 5C QS 8S JK 4D 9C 2C 3S 5C 8D 2H KH KH",
            "options": {"contracts": ["S3 R4 R4 R4"], "wild_ranks": ["JK", "2", "3"], "decks": 4, "jokers": 8,
                        "second_wild_needs_fixed_position": False}}
    budgets.clear()
    r = client.post("/api/v1/arrange", json=body)
    assert r.status_code == 200
    assert len(budgets) == 1
    answer = r.get_json()
    assert answer["decided"] or answer["search_exhausted"]
    b = budgets[0]
    assert b.spent or b.left >= 0


def test_outside_a_request_each_search_has_its_own_budget():
    assert work.current() is not work.current()
    with work.for_request() as b:
        assert work.current() is b


# ------------------------------------------------------------------ imports cost their size
def tied_game(hands: int) -> dict:
    """Liverpool with jokers worth nothing: every player holds a joker, every hand ties, and the last hand is
    replayed again and again."""
    return {"format": 1, "ruleset": "liverpool", "variants": [], "options": {"joker_points": 0},
            "players": ["Ann", "Ben", "Cy"], "first_dealer": 0, "buys": [], "down": [],
            "hands": [{"hand": i, "out": "Ann", "leftovers": {"Ben": ["JK"], "Cy": ["JK"]},
                       "penalties": {"Ann": 0, "Ben": 0, "Cy": 0}} for i in range(1, hands + 1)]}


def test_an_import_of_many_replayed_hands_costs_its_size(client, monkeypatch):
    import json

    from referee.web.scoreboard import gamestate, services, transfer

    looked_at: list[int] = []  # the hands each tie-break looked at
    states: list[int] = []  # whole reads of the game
    real_standings, real_state = gamestate.standings, gamestate.state
    # (the import plays back in ``transfer`` and checks each hand in ``services``; ``state`` tie-breaks)
    for module in (gamestate, transfer):
        monkeypatch.setattr(module, "standings", lambda r, n, hands, replays=(), **k: looked_at.append(
            len(hands) + len(replays)) or real_standings(r, n, hands, replays, **k))
    for module in (gamestate, services, transfer):
        monkeypatch.setattr(module, "state", lambda g: states.append(1) or real_state(g))
    n = 400
    r = client.post("/import", data={"json": json.dumps(tied_game(n))})
    assert r.status_code == 302, r.get_data(as_text=True)[:300]
    assert states == []  # never the whole game again, hand after hand
    assert looked_at and sum(looked_at) <= 10 * n, sum(looked_at)  # linear: the tied replays are not looked at again and again
    got = client.get(r.location + "/export.json").get_json()
    assert len(got["hands"]) == n


def test_an_import_writes_its_rows_in_a_few_statements_in_its_turn(app, client, monkeypatch):
    """An import's rows go in one burst while every other table's save waits for the write lock (SQLite): a
    statement a table, not one a hand (an INSERT returning each hand's id in order ran as 400 statements)."""
    import json

    from sqlalchemy import event

    from referee.web.models import db

    with app.app_context():
        engine = db.engine
    seen: list[tuple[str, bool]] = []  # each statement, and whether it was sent while holding the write lock
    held = {"now": False}
    event.listen(engine, "commit", lambda conn: held.update(now=False))
    event.listen(engine, "rollback", lambda conn: held.update(now=False))

    def listen(conn, cursor, statement, parameters, context, executemany):
        if statement.startswith("BEGIN IMMEDIATE") or statement.lstrip().upper().startswith(("INSERT", "UPDATE")):
            held["now"] = True  # (PostgreSQL: from the first row written to the commit)
        seen.append((statement, held["now"]))

    event.listen(engine, "before_cursor_execute", listen)
    try:
        r = client.post("/import", data={"json": json.dumps(tied_game(400))})
    finally:
        event.remove(engine, "before_cursor_execute", listen)
    assert r.status_code == 302, r.get_data(as_text=True)[:300]
    in_turn = [sql for sql, held in seen if held]
    assert any(sql.startswith("INSERT INTO hands") for sql in in_turn)
    assert len(in_turn) <= 12, len(in_turn)  # the game, its players, its hands, results, changes and reads
    assert len(seen) <= 20, len(seen)


# ------------------------------------------------------------------ a group page draws a bounded page
def test_a_big_groups_page_is_bounded_and_says_so(client):
    import re

    g = client.post("/api/v1/groups", json={"name": "Big"}).get_json()
    games = 40
    for i in range(games):  # eight new names a game: 320 people, each pair met once at most
        names = [f"N{i}-{k}" for k in range(8)]
        game = client.post("/api/v1/games", json={"ruleset": "liverpool", "players": names, "group": g["id"],
                                                  "group_token": g["edit_token"], "options": {"hands": 5}}).get_json()
        for hand in range(1, 6):
            client.post(f"/api/v1/games/{game['id']}/hands", headers=auth(game),
                        json={"hand": hand, "out": names[0], "leftovers": {n: ["K"] for n in names[1:]}})
    from referee.web.groups.routes import SHOWN_GAMES, SHOWN_PAIRS, SHOWN_PLAYERS

    html = client.get(f"/groups/{g['view_token']}?lang=en").get_data(as_text=True)
    stats_rows = re.search(r'<table class="data group-stats">.*?</table>', html, re.S).group(0).count("<tr>") - 1
    assert stats_rows == SHOWN_PLAYERS
    assert html.count('class="player-card"') <= SHOWN_PLAYERS
    pairs = re.search(r'<table class="data head-to-head">.*?</table>', html, re.S)
    assert pairs is None or pairs.group(0).count("<tr>") <= SHOWN_PAIRS
    assert html.count('class="big-link" href="/groups/') <= SHOWN_GAMES
    assert f"of {8 * games}" in html and f"of {games}" in html  # each cut says so
    # the API gives everything, head to head only among people who shared a game
    api = client.get(f"/api/v1/groups/{g['id']}", headers={"Authorization": f"Bearer {g['view_token']}"}).get_json()
    assert len(api["players"]) == 8 * games
    assert len(api["head_to_head"]) == 28 * games  # (8 choose 2) a game, never 320 choose 2


def test_a_roster_of_thousands_is_one_pass_and_one_commit(client, monkeypatch):
    import json

    from referee.web.models import db

    commits: list[int] = []
    real = db.session.commit
    monkeypatch.setattr(db.session, "commit", lambda: commits.append(1) or real())
    doc = {"format": 1, "kind": "group", "name": "Roster", "roster": [f"Person {i}" for i in range(4000)],
           "games": []}
    r = client.post("/groups/import", data={"json": json.dumps(doc)})
    assert r.status_code == 302
    assert len(commits) <= 3, len(commits)
    api_group = client.get(r.location + "?lang=en").get_data(as_text=True)
    assert "And 3920 more names." in api_group
