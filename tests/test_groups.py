"""Groups: links, roster, games started from the group, rematch, stats across games (after corrections, undos
and deletions), the API, export and import, on SQLite and PostgreSQL."""

import csv
import io
import json

import pytest
from sqlalchemy import event

from referee.families import FAMILIES
from referee.web.groups import services, stats
from referee.web.models import Game, Group, GroupGame, db
from tests.conftest import auth
from tests.kit import said


def make_group(client, name="Thursday table"):
    r = client.post("/api/v1/groups", json={"name": name})
    assert r.status_code == 201, r.json
    return r.json


def start(client, group, players, ruleset="liverpool", **extra):
    r = client.post("/api/v1/games", json={"ruleset": ruleset, "players": players, "group": group["id"],
                                           "group_token": group["edit_token"]} | extra)
    assert r.status_code == 201, r.json
    return r.json


def record(client, game, hand, out, leftovers):
    r = client.post(f"/api/v1/games/{game['id']}/hands", json={"hand": hand, "out": out, "leftovers": leftovers},
                    headers=auth(game["edit_token"]))
    assert r.status_code == 201, r.json
    return r


def group_state(client, group, token=None, **params):
    r = client.get(f"/api/v1/groups/{group['id']}", headers=auth(token or group["view_token"]),
                   query_string=params)
    assert r.status_code == 200, r.json
    return r.json


def player(state, name):
    return next(p for p in state["players"] if p["name"] == name)


# hand -> (who went out, the others' penalties): Ann 45, Ben 90, Cy 75 after seven hands
FIRST = {1: ("Ann", {"Ben": 20, "Cy": 10}), 2: ("Ben", {"Ann": 5, "Cy": 30}), 3: ("Cy", {"Ann": 10, "Ben": 15}),
         4: ("Ann", {"Ben": 5, "Cy": 5}), 5: ("Ann", {"Ben": 10, "Cy": 20}), 6: ("Ben", {"Ann": 25, "Cy": 10}),
         7: ("Cy", {"Ann": 5, "Ben": 40})}
SECOND = {1: ("Dee", {"Ben": 10, "Cy": 15}), 2: ("Ben", {"Cy": 5, "Dee": 20})}


@pytest.fixture()
def evening(client):
    """A group and two games with overlapping players: one finished (Ann wins), one in its third hand, where
    Ben has bought a card."""
    group = make_group(client)
    first = start(client, group, ["Ann", "Ben", "Cy"])
    for hand, (out, left) in FIRST.items():
        record(client, first, hand, out, left)
    second = start(client, group, ["Ben", "cy", "Dee"])  # "cy" is Cy
    for hand, (out, left) in SECOND.items():
        record(client, second, hand, out, left)
    r = client.post(f"/api/v1/games/{second['id']}/buys", json={"hand": 3, "player": "Ben"},
                    headers=auth(second["edit_token"]))
    assert r.status_code == 201
    return group, first, second


class TestLinks:
    def test_created(self, client, app):
        g = make_group(client)
        assert set(g) == {"id", "edit_token", "view_token", "edit_url", "view_url"}
        assert len(g["edit_token"]) >= 22 and len(g["view_token"]) >= 22 and g["edit_token"] != g["view_token"]
        assert g["edit_url"].endswith(f"/groups/{g['edit_token']}")
        with app.app_context():
            stored = db.session.get(Group, g["id"])
            assert stored.edit_hash == services.token_hash(g["edit_token"]) and g["edit_token"] not in (
                stored.edit_hash, stored.view_token)

    def test_edit_and_view_links(self, client):
        g = make_group(client)
        edit = client.get(f"/groups/{g['edit_token']}").get_data(as_text=True)
        view = client.get(f"/groups/{g['view_token']}").get_data(as_text=True)
        assert "Rematch" not in edit and "/new" in edit and "roster" in edit  # nothing to rematch yet
        assert "<form" not in view.split("<main")[1] and "view only" in view
        assert client.post(f"/groups/{g['view_token']}/roster", data={"name": "Eve"}).status_code == 403
        assert client.post(f"/groups/{g['view_token']}/rematch", data={}).status_code == 403
        assert client.get(f"/groups/{g['view_token']}/new").status_code == 403
        assert client.get("/groups/not-a-token").status_code == 404

    def test_no_token_leaves_in_a_referer(self, client, evening):
        group, first, _ = evening
        r = client.get(f"/groups/{group['edit_token']}")
        assert r.headers["Referrer-Policy"] == "no-referrer" and 'content="no-referrer"' in r.get_data(as_text=True)
        assert r.headers["Cache-Control"] == "no-store"

    def test_share_page_has_qr_codes(self, client):
        g = make_group(client)
        html = client.get(f"/groups/{g['edit_token']}/share").get_data(as_text=True)
        assert html.count("<svg") == 2 and g["view_token"] in html and g["edit_token"] in html
        view = client.get(f"/groups/{g['view_token']}/share").get_data(as_text=True)
        assert view.count("<svg") == 1 and g["edit_token"] not in view

    def test_group_games_open_with_the_links_the_group_link_allows(self, client, evening):
        group, first, _ = evening
        r = client.get(f"/groups/{group['edit_token']}/games/{first['id']}")
        assert r.status_code == 302 and r.headers["Location"].endswith(f"/g/{first['edit_token']}")
        r = client.get(f"/groups/{group['view_token']}/games/{first['id']}")
        assert r.status_code == 302 and r.headers["Location"].endswith(f"/g/{first['view_token']}")
        other = make_group(client, "Other")
        assert client.get(f"/groups/{other['edit_token']}/games/{first['id']}").status_code == 404

    def test_a_games_edit_token_is_derived_not_stored(self, client, app, evening):
        group, first, _ = evening
        assert first["edit_token"] == services.game_token(group["edit_token"], first["id"])
        assert first["edit_token"] != services.game_token(make_group(client)["edit_token"], first["id"])

    def test_game_screen_links_to_its_group(self, client, evening):
        group, first, second = evening
        client.get(f"/groups/{group['edit_token']}")  # this device opened the group's edit link
        html = client.get(f"/g/{first['edit_token']}").get_data(as_text=True)
        assert f"/groups/{group['edit_token']}" in html and "Rematch" in html
        fresh = client.application.test_client()  # a phone that only has the game's link: nothing of the group
        for link in (first["edit_token"], first["view_token"]):
            html = fresh.get(f"/g/{link}").get_data(as_text=True)
            assert "/groups/" not in html and group["view_token"] not in html and "Rematch" not in html
        viewer = client.application.test_client()  # a phone that opened the group's view link: that link
        viewer.get(f"/groups/{group['view_token']}")
        html = viewer.get(f"/g/{first['view_token']}").get_data(as_text=True)
        assert f"/groups/{group['view_token']}" in html and group["edit_token"] not in html and "Rematch" not in html
        assert "Rematch" not in client.get(f"/g/{second['edit_token']}").get_data(as_text=True)  # not finished


class TestRoster:
    def test_names_are_one_person_whatever_the_case(self, client, evening):
        group, _, second = evening
        state = group_state(client, group)
        assert state["roster"] == ["Ann", "Ben", "Cy", "Dee"]
        game = client.get(f"/api/v1/games/{second['id']}", headers=auth(second["view_token"])).json
        assert game["players"] == ["Ben", "Cy", "Dee"]  # spelled as the roster has it
        client.post(f"/groups/{group['edit_token']}/roster", data={"name": "  ANN "})
        client.post(f"/groups/{group['edit_token']}/roster", data={"name": "Eve"})
        assert group_state(client, group)["roster"] == ["Ann", "Ben", "Cy", "Dee", "Eve"]

    def test_bad_names(self, client):
        g = make_group(client)
        r = client.post(f"/groups/{g['edit_token']}/roster", data={"name": "x" * 41}, follow_redirects=True)
        assert "at most 40" in r.get_data(as_text=True)
        assert group_state(client, g)["roster"] == []


class TestNewGame:
    def test_defaults_are_the_last_game(self, client, evening):
        group, first, second = evening
        html = client.get(f"/groups/{group['edit_token']}/new").get_data(as_text=True)
        for name in ("Ben", "Cy", "Dee"):
            assert f'name="players" value="{name}" checked' in html
        assert 'name="players" value="Ann">' in html  # on the roster, not picked
        assert 'value="liverpool" selected' in html or '<option selected value="liverpool">' in html

    def test_house_rules_default_to_the_familys_last_game(self, client):
        g = make_group(client)
        start(client, g, ["Ann", "Ben", "Cy"], ruleset="progressive", options={"buy_limit": 2})
        html = client.get(f"/groups/{g['edit_token']}/new").get_data(as_text=True)
        assert 'id="opt_buy_limit" name="opt_buy_limit" value="2"' in html

    def test_pick_players_and_add_a_name(self, client, evening):
        group, *_ = evening
        r = client.post(f"/groups/{group['edit_token']}/new", data={
            "players": ["Ann", "Dee"], "new_name": " eve ", "family": "liverpool", "first_dealer": "Dee",
            "shown_family": "liverpool", "start": "1"})
        assert r.status_code == 302
        token = r.headers["Location"].rsplit("/", 1)[1]
        state = group_state(client, group)
        # seated as the screen lists them: the last game's table first, then the rest of the roster, then the new
        assert state["roster"][-1] == "eve" and state["games"][-1]["players"] == ["Dee", "Ann", "eve"]
        html = client.get(f"/g/{token}").get_data(as_text=True)
        assert "Save hand 1" in html  # the edit link
        game_id = state["games"][-1]["id"]
        game = client.get(f"/api/v1/games/{game_id}", headers=auth(token)).json
        assert game["dealer"] == "Dee" and game["can_edit"] is True

    def test_too_few_players_keeps_the_choices(self, client, evening):
        group, *_ = evening
        r = client.post(f"/groups/{group['edit_token']}/new", data={
            "players": ["Ann"], "family": "liverpool", "shown_family": "liverpool", "start": "1",
            "opt_buy_limit": "1"})
        html = r.get_data(as_text=True)
        assert r.status_code == 422 and "3" in html and 'value="Ann" checked' in html
        assert 'id="opt_buy_limit" name="opt_buy_limit" value="1"' in html
        assert len(group_state(client, group)["games"]) == 2

    def test_add_button_puts_the_name_on_the_roster_and_picks_it(self, client, evening):
        group, *_ = evening
        r = client.post(f"/groups/{group['edit_token']}/new", data={
            "players": ["Ann"], "new_name": "Fay", "family": "liverpool", "shown_family": "liverpool", "add": "1"})
        assert r.status_code == 200 and 'value="Fay" checked' in r.get_data(as_text=True)
        assert "Fay" in group_state(client, group)["roster"]


class TestRematch:
    def test_same_players_rules_and_the_first_deal_moved_on(self, client, app):
        g = make_group(client)
        first = start(client, g, ["Ann", "Ben", "Cy", "Dee"], options={"buy_limit": 1}, first_dealer=3)
        r = client.post(f"/groups/{g['edit_token']}/rematch", data={"game": first["id"]})
        assert r.status_code == 302
        token = r.headers["Location"].rsplit("/", 1)[1]
        state = group_state(client, g)
        new_id = state["games"][-1]["id"]
        game = client.get(f"/api/v1/games/{new_id}", headers=auth(token)).json
        assert game["players"] == ["Ann", "Ben", "Cy", "Dee"] and game["options"] == {"buy_limit": 1}
        assert game["settings"]["first_dealer"] == "Ann" and game["can_edit"]  # after Dee (seat 3) comes Ann
        r = client.post(f"/groups/{g['edit_token']}/rematch", data={})  # the last game by default
        game = client.get(f"/api/v1/games/{group_state(client, g)['games'][-1]['id']}",
                          headers=auth(r.headers["Location"].rsplit("/", 1)[1])).json
        assert game["settings"]["first_dealer"] == "Ben"

    def test_nothing_to_rematch(self, client):
        g = make_group(client)
        r = client.post(f"/groups/{g['edit_token']}/rematch", data={}, follow_redirects=True)
        assert "no game to play again" in r.get_data(as_text=True)


class TestStats:
    def test_two_games_with_overlapping_players(self, client, evening):
        group, *_ = evening
        state = group_state(client, group)
        ann, ben, cy, dee = (player(state, n) for n in ("Ann", "Ben", "Cy", "Dee"))
        assert (ann["games"], ann["wins"], ann["win_rate"], ann["hands"], ann["times_out"]) == (1, 1, 1.0, 7, 3)
        assert (ann["average_per_hand"], ann["best_hand"], ann["worst_hand"]) == (round(45 / 7, 2), 0, 25)
        assert (ben["games"], ben["finished"], ben["wins"], ben["win_rate"], ben["hands"]) == (2, 1, 0, 0.0, 9)
        assert (ben["average_per_hand"], ben["times_out"], ben["worst_hand"], ben["buys"]) == (
            round(100 / 9, 2), 3, 40, 1)
        assert (cy["games"], cy["hands"], cy["average_per_hand"], cy["worst_hand"]) == (2, 9, round(95 / 9, 2), 30)
        assert (dee["games"], dee["finished"], dee["wins"], dee["win_rate"], dee["hands"]) == (1, 0, 0, None, 2)
        assert (dee["average_per_hand"], dee["times_out"], dee["best_hand"], dee["worst_hand"]) == (10.0, 1, 0, 20)
        assert [p["name"] for p in state["players"]][0] == "Ann"
        h2h = {frozenset(p["players"]): p["ahead"] for p in state["head_to_head"]}
        assert h2h[frozenset({"Ann", "Ben"})] == {"Ann": 1, "Ben": 0}
        assert h2h[frozenset({"Ann", "Cy"})] == {"Ann": 1, "Cy": 0}
        assert h2h[frozenset({"Ben", "Cy"})] == {"Ben": 0, "Cy": 1}
        assert frozenset({"Ben", "Dee"}) not in h2h and len(h2h) == 3  # only games played to the end count
        assert [g["winners"] for g in state["games"]] == [["Ann"], []]

    def test_a_game_ended_early_counts_as_its_screen_shows_it(self, client, evening):
        """The table stopped after hand 2: the game's screen crowns its leader, so the group counts that win
        (decided once for every column: docs/decisions.md), and its list says so in the same words."""
        group, _, second = evening
        r = client.post(f"/api/v1/games/{second['id']}/end", json={}, headers=auth(second["edit_token"]))
        assert r.status_code in (200, 201), r.json
        game_page = client.get(f"/g/{second['view_token']}").get_data(as_text=True)
        assert "Ben wins." in game_page
        state = group_state(client, group)
        ben, dee = player(state, "Ben"), player(state, "Dee")
        assert (ben["finished"], ben["wins"], dee["finished"], dee["wins"]) == (2, 1, 1, 0)
        assert (dee["hands"], dee["times_out"]) == (2, 1)  # its hands count
        assert [g["winners"] for g in state["games"]] == [["Ann"], ["Ben"]]
        assert [g["ended_early"] for g in state["games"]] == [False, True]
        html = client.get(f"/groups/{group['view_token']}").get_data(as_text=True)
        assert "★ Ben wins. Ended after hand 2 of 7." in html and "tied" not in html
        for p in state["players"]:  # a rate never divides by another count than the one shown
            assert p["win_rate"] is None or 0 <= p["win_rate"] <= 1
            assert p["win_rate"] is None or p["win_rate"] == round(p["wins"] / p["finished"], 4)

    def test_one_family(self, client, evening):
        group, *_ = evening
        progressive = start(client, group, ["Ann", "Dee", "Eve"], ruleset="progressive")
        record(client, progressive, 1, "Eve", {"Ann": 50, "Dee": 5})
        everything = group_state(client, group)
        assert player(everything, "Ann")["hands"] == 8 and player(everything, "Eve")["games"] == 1
        liverpool = group_state(client, group, ruleset="liverpool")
        assert player(liverpool, "Ann")["hands"] == 7 and player(liverpool, "Eve")["games"] == 0
        only = group_state(client, group, ruleset="progressive")
        assert player(only, "Ann")["average_per_hand"] == 50.0 and len(only["games"]) == 1
        html = client.get(f"/groups/{group['view_token']}?family=progressive").get_data(as_text=True)
        assert "(Progressive Rummy)" in html

    def test_a_correction_changes_the_stats(self, client, evening):
        group, first, _ = evening
        r = client.put(f"/api/v1/games/{first['id']}/hands/7", json={"out": "Cy", "leftovers": {"Ann": 50, "Ben": 40}},
                       headers=auth(first["edit_token"]))
        assert r.status_code == 200, r.json
        state = group_state(client, group)  # Ann 90, Ben 90, Cy 75: Cy wins now
        assert state["games"][0]["winners"] == ["Cy"]
        assert player(state, "Ann")["wins"] == 0 and player(state, "Cy")["wins"] == 1
        assert player(state, "Ann")["worst_hand"] == 50 and player(state, "Ann")["average_per_hand"] == round(90 / 7, 2)
        # undo the correction on the game's page: Ann wins again
        client.post(f"/g/{first['edit_token']}/undo", data={})
        state = group_state(client, group)
        assert state["games"][0]["winners"] == ["Ann"] and player(state, "Ann")["worst_hand"] == 25

    def test_undo_in_the_unfinished_game(self, client, evening):
        group, _, second = evening
        client.post(f"/g/{second['edit_token']}/undo", data={})  # the buy
        assert player(group_state(client, group), "Ben")["buys"] == 0
        client.post(f"/g/{second['edit_token']}/undo", data={})  # hand 2
        state = group_state(client, group)
        assert player(state, "Dee")["hands"] == 1 and player(state, "Dee")["worst_hand"] == 0
        assert player(state, "Ben")["times_out"] == 2 and player(state, "Ben")["hands"] == 8

    def test_a_deleted_game_leaves_the_stats(self, client, evening):
        group, first, _ = evening
        before = group_state(client, group)
        r = client.post(f"/g/{first['edit_token']}/delete")
        assert r.status_code == 302
        assert client.get(f"/g/{first['edit_token']}").status_code == 404
        assert client.get(f"/g/{first['view_token']}").status_code == 404
        assert client.get(f"/groups/{group['edit_token']}/games/{first['id']}").status_code == 404
        after = group_state(client, group)
        assert after["players"] == before["players"] and after["head_to_head"] == before["head_to_head"]
        assert after["games"][0]["deleted"] is True and after["games"][0]["view_token"] is None
        html = client.get(f"/groups/{group['edit_token']}").get_data(as_text=True)
        assert "deleted (its hands still count)" in html
        # the rematch now starts from the last game that is not deleted
        client.post(f"/groups/{group['edit_token']}/rematch", data={})
        assert group_state(client, group)["games"][-1]["players"] == ["Ben", "Cy", "Dee"]

    def test_a_game_outside_a_group_is_still_deleted(self, client, app):
        r = client.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["Ann", "Ben", "Cy"]})
        client.post(f"/g/{r.json['edit_token']}/delete")
        with app.app_context():
            from referee.web.models import Game
            assert db.session.get(Game, r.json["id"]) is None

    def test_a_bounded_number_of_queries(self, client, app, evening):
        group, *_ = evening

        def count():
            with app.app_context():
                statements = []
                listener = lambda *args: statements.append(args[2])  # noqa: E731
                event.listen(db.engine, "before_cursor_execute", listener)
                try:
                    g = db.session.get(Group, group["id"])
                    db.session.expire_all()
                    statements.clear()
                    stats._stats(g, None)  # (worked out: kept ones cost the two queries below)
                    worked = len(statements)
                    stats.stats(g)
                    statements.clear()
                    stats.stats(g)  # kept: two short queries say nothing changed
                    kept = len(statements)
                finally:
                    event.remove(db.engine, "before_cursor_execute", listener)
                return worked, kept

        two = count()
        for _ in range(4):
            more = start(client, group, ["Ann", "Eve", "Fay", "Gus"])
            record(client, more, 1, "Eve", {"Ann": 5, "Fay": 10, "Gus": 15})
        assert count() == two and two[0] <= 9 and two[1] == 2  # the group, its roster, one query a table

    def test_page_shows_the_stats_and_a_chart_per_player(self, client, evening):
        group, *_ = evening
        html = client.get(f"/groups/{group['view_token']}").get_data(as_text=True)
        assert html.count('class="chart player-chart"') == 4 and "<script>" not in html.split("<main")[1]
        assert "Head to head" in html and "★ Ann wins." in html and "hand 3 of 7" in html
        assert "<polyline" in html


class TestApi:
    def test_group_needs_a_name(self, client):
        for body in ({}, {"name": "  "}, {"name": 5}, {"name": "x" * 61}):
            r = client.post("/api/v1/groups", json=body)
            assert r.status_code in (400, 422) and r.json["error"]["field"] == "name"

    def test_tokens(self, client, evening):
        group, *_ = evening
        other = make_group(client, "Other")
        url = f"/api/v1/groups/{group['id']}"
        assert client.get(url).status_code == 401
        assert client.get(url, headers=auth(other["edit_token"])).status_code == 404
        assert client.get(url, headers=auth("x" * 40)).status_code == 404
        assert client.get("/api/v1/groups/nope", headers=auth(group["view_token"])).status_code == 404
        assert client.get(url, headers=auth(group["edit_token"])).json["can_edit"] is True
        assert client.get(url, headers=auth(group["view_token"])).json["can_edit"] is False

    def test_game_in_a_group_needs_the_groups_edit_token(self, client):
        g = make_group(client)
        body = {"ruleset": "liverpool", "players": ["Ann", "Ben", "Cy"], "group": g["id"]}
        assert client.post("/api/v1/games", json=body).status_code == 401
        r = client.post("/api/v1/games", json=body | {"group_token": g["view_token"]})
        assert r.status_code == 403 and r.json["error"]["code"] == "group_forbidden"
        other = make_group(client, "Other")
        assert client.post("/api/v1/games", json=body | {"group_token": other["edit_token"]}).status_code == 404
        assert group_state(client, g)["games"] == [] and group_state(client, g)["roster"] == []

    def test_refused_game_adds_nobody(self, client):
        g = make_group(client)
        r = client.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["Ann", "Ben"], "group": g["id"],
                                                 "group_token": g["edit_token"]})
        assert r.status_code == 422 and group_state(client, g)["roster"] == []

    def test_unknown_family_filter(self, client):
        g = make_group(client)
        r = client.get(f"/api/v1/groups/{g['id']}", headers=auth(g["view_token"]), query_string={"ruleset": "x"})
        assert r.status_code == 400

    def test_answers_in_the_bodys_language(self, client):
        r = client.post("/api/v1/groups", json={"name": "", "lang": "de"})
        assert r.status_code == 400 and "Gruppe" in r.json["error"]["message"]


class TestFiles:
    def test_export_and_import_keep_the_stats(self, client, evening):
        group, first, _ = evening
        client.post(f"/g/{first['edit_token']}/delete")
        exported = client.get(f"/groups/{group['view_token']}/export.json")
        assert exported.headers["Content-Disposition"].startswith("attachment")
        data = exported.json
        assert data["kind"] == "group" and len(data["games"]) == 2 and data["games"][0]["deleted"] is True
        r = client.post("/groups/import", data={"json": json.dumps(data)})
        assert r.status_code == 302
        token = r.headers["Location"].rsplit("/", 1)[1]
        copy_id = client.get(f"/groups/{token}").get_data(as_text=True)  # remembered, opens
        assert "Thursday table" in copy_id
        with client.application.app_context():
            found = services.find(token)
            assert found is not None and found[1] is True
            copy = {"id": found[0].id, "view_token": found[0].view_token}
        before, after = group_state(client, group), group_state(client, copy)
        assert after["players"] == before["players"] and after["head_to_head"] == before["head_to_head"]
        assert [g["deleted"] for g in after["games"]] == [True, False]
        assert [g["created_at"][:19] for g in after["games"]] == [g["created_at"][:19] for g in before["games"]]
        # the imported game opens for editing from the imported group
        second_copy = after["games"][1]["id"]
        r = client.get(f"/groups/{token}/games/{second_copy}")
        assert "Save hand 3" in client.get(r.headers["Location"]).get_data(as_text=True)

    @pytest.mark.parametrize("text", ["not json", "[]", '{"format": 1}', '{"format": 1, "kind": "group"}',
                                      '{"format": 1, "kind": "group", "name": "X", "games": [{"format": 1}]}',
                                      '{"format": 1, "kind": "group", "name": "X", "roster": [3]}'])
    def test_bad_imports_leave_nothing(self, client, app, text):
        r = client.post("/groups/import", data={"json": text})
        assert r.status_code in (400, 422) and "✗" in r.get_data(as_text=True)
        with app.app_context():
            assert db.session.query(Group).count() == 0 and db.session.query(GroupGame).count() == 0

    def test_an_impossible_hand_refuses_the_whole_file(self, client, app, evening):
        group, *_ = evening
        data = client.get(f"/groups/{group['edit_token']}/export.json").json
        data["games"][1]["hands"][0]["penalties"]["Ben"] = 7
        data["games"][1]["hands"][0]["leftovers"]["Ben"] = None
        r = client.post("/groups/import", data={"json": json.dumps(data)})
        assert r.status_code == 422
        with app.app_context():
            assert db.session.query(Group).count() == 1 and db.session.query(GroupGame).count() == 2

    def test_csv_of_the_stats_neutralises_formulas(self, client):
        g = make_group(client)
        game = start(client, g, ["=HYPERLINK(\"x\")", "+1", "@me", "-2", "Ann"])
        record(client, game, 1, "Ann", {"=HYPERLINK(\"x\")": 5, "+1": 10, "@me": 15, "-2": 20})
        r = client.get(f"/groups/{g['view_token']}/stats.csv")
        assert r.headers["Content-Type"].startswith("text/csv")
        rows = list(csv.reader(io.StringIO(r.get_data(as_text=True))))
        assert rows[0][0] == "Player" and len(rows) == 6
        names = {row[0] for row in rows[1:]}
        assert names == {"'=HYPERLINK(\"x\")", "'+1", "'@me", "'-2", "Ann"}
        ann = next(row for row in rows if row[0] == "Ann")
        assert ann[1:] == ["1", "0", "", "1", "0.0", "1", "0", "0", "0"]

    def test_csv_header_in_the_readers_language(self, client):
        g = make_group(client)
        r = client.get(f"/groups/{g['view_token']}/stats.csv?lang=de")
        assert r.get_data(as_text=True).startswith(said("Player", "de"))


class TestLanguages:
    @pytest.mark.parametrize("lang", ["es", "pt", "de"])
    def test_group_page(self, client, evening, lang):
        word = said("Rematch", lang)
        group, *_ = evening
        html = client.get(f"/groups/{group['edit_token']}?lang={lang}").get_data(as_text=True)
        assert word in html and "Head to head" not in html and "Average per hand" not in html


def test_the_migration_makes_the_models_tables(app):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with app.app_context(), db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
    assert [d for d in diff if "group" in repr(d)] == []


@pytest.mark.parametrize("text, safe", [("=1+2", "'=1+2"), ("+1", "'+1"), ("-1", "'-1"), ("@SUM(A1)", "'@SUM(A1)"),
                                        ("\tx", "'\tx"), ("\rx", "'\rx"), ("Ann", "Ann"), ("a=b", "a=b"), (5, 5)])
def test_csv_cells_that_look_like_formulas(text, safe):
    assert stats.cell(text) == safe


class TestFirstGame:
    def test_the_first_game_of_a_group_starts_with_the_roster_ticked(self, client):
        g = make_group(client)
        for name in ("Ann", "Ben", "Cy", "Dee"):
            r = client.post(f"/groups/{g['edit_token']}/new", data={"new_name": name, "family": "liverpool",
                                                                     "shown_family": "liverpool", "add": "1"})
            assert r.status_code == 200
        html = client.get(f"/groups/{g['edit_token']}/new").get_data(as_text=True)
        for name in ("Ann", "Ben", "Cy", "Dee"):
            assert f'name="players" value="{name}" checked' in html

    def test_nobody_ticked_is_asked_who_is_playing(self, client):
        g = make_group(client)
        for lang in ("en", "pt", "de", "es"):
            words = said("Who is playing? Tick everyone at the table (%(family)s: %(lo)s to %(hi)s players).", lang,
                         family=FAMILIES["liverpool"].name, lo=3, hi=8)
            r = client.post(f"/groups/{g['edit_token']}/new?lang={lang}", data={
                "family": "liverpool", "shown_family": "liverpool", "start": "1"})
            assert r.status_code == 422 and words in r.get_data(as_text=True), lang
        assert group_state(client, g)["games"] == []


class TestDoubleTaps:
    def test_two_rematch_taps_make_one_game(self, client, evening):
        group, first, _ = evening
        before = len(group_state(client, group)["games"])
        one = client.post(f"/groups/{group['edit_token']}/rematch", data={"game": first["id"]})
        two = client.post(f"/groups/{group['edit_token']}/rematch", data={"game": first["id"]})
        assert one.status_code == two.status_code == 302 and one.location == two.location  # the same game
        assert len(group_state(client, group)["games"]) == before + 1

    def test_two_taps_on_a_groups_new_game_make_one_game(self, client, evening):
        group, *_ = evening
        before = len(group_state(client, group)["games"])
        for _ in range(2):
            r = client.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["Ann", "Zed", "Cy"],
                                                     "group": group["id"], "group_token": group["edit_token"]})
            assert r.status_code == 201
        assert len(group_state(client, group)["games"]) == before + 1
        assert group_state(client, group)["roster"].count("Zed") == 1

    @staticmethod
    def _new_group_form(c) -> dict:
        """The new group form as a browser holds it: its form token and the tap's own field."""
        import re

        html = c.get("/groups/new").get_data(as_text=True)
        fields = dict(re.findall(r'name="(csrf_token|once)" type="hidden" value="([^"]+)"', html))
        assert set(fields) == {"csrf_token", "once"}, html[:2000]
        return fields

    def test_two_taps_on_the_new_group_form_make_one_group(self, app):
        from referee.web.models import Group, db

        app.config.update(WTF_CSRF_ENABLED=True)
        c = app.test_client()
        form = self._new_group_form(c)
        one = c.post("/groups/new", data={**form, "name": "Thursday"})
        two = c.post("/groups/new", data={**form, "name": "Thursday"})
        assert one.status_code == two.status_code == 302 and one.location == two.location
        again = self._new_group_form(c)  # a new form: a new group, even of the same name
        three = c.post("/groups/new", data={**again, "name": "Thursday"})
        assert three.status_code == 302 and three.location != one.location
        edited = c.post("/groups/new", data={**form, "name": "Friday"})  # the old form, another name: its own
        assert edited.status_code == 302 and edited.location not in (one.location, three.location)
        other = app.test_client()  # another browser that learnt the form's field makes its own group
        theirs = other.post("/groups/new", data={**self._new_group_form(other), "once": form["once"],
                                                 "name": "Thursday"})
        assert theirs.status_code == 302 and theirs.location not in (one.location, three.location)
        with app.app_context():
            assert sorted(db.session.execute(db.select(Group.name)).scalars()) == [
                "Friday", "Thursday", "Thursday", "Thursday"]

    def test_taps_at_once_on_the_new_group_form_make_one_group(self, app):
        import threading

        from referee.web.models import Group, db

        app.config.update(WTF_CSRF_ENABLED=True)
        c = app.test_client()
        form = self._new_group_form(c)
        cookie = c.get_cookie("session")
        assert cookie is not None
        answers: list[tuple[int, str]] = []

        def tap() -> None:
            t = app.test_client()
            t.set_cookie("session", cookie.value)
            r = t.post("/groups/new", data={**form, "name": "Thursday"})
            answers.append((r.status_code, r.location))

        threads = [threading.Thread(target=tap) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert len(answers) == 4 and {code for code, _ in answers} == {302}
        assert len({where for _, where in answers}) == 1, answers
        with app.app_context():
            assert db.session.execute(db.select(db.func.count(Group.id))).scalar() == 1

    def test_starts_at_once_with_the_same_new_name_make_one_game_and_no_orphan(self, app, client):
        import threading

        group = make_group(client)
        answers: list[int] = []

        def start_one() -> None:
            c = app.test_client()
            answers.append(c.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["New", "Ann", "Ben"],
                                                         "group": group["id"],
                                                         "group_token": group["edit_token"]}).status_code)

        threads = [threading.Thread(target=start_one) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert answers == [201] * 4
        state = group_state(client, group)
        assert len(state["games"]) == 1 and state["roster"].count("New") == 1
        from referee.web.models import Game, GroupGame, db

        with app.app_context():
            games = db.session.execute(db.select(Game.id)).scalars().all()
            linked = set(db.session.execute(db.select(GroupGame.game_id)).scalars().all())
            assert set(games) <= linked  # no game outside its group


class TestOnePersonWhateverTheCase:
    """A group treats "ana" and "Ana" as one person: so do its games, through the API and the pages."""

    def test_the_api_answers_with_the_rosters_spelling_and_takes_any_case(self, client):
        group = make_group(client)
        client.post(f"/groups/{group['edit_token']}/roster", data={"name": "Ana"})
        game = start(client, group, ["ana", "Beto", "Carla"])
        assert game["players"] == ["Ana", "Beto", "Carla"]  # as stored, and said so
        record(client, game, 1, "ana", {"beto": ["K"], " CARLA ": ["7"]})
        r = client.post(f"/api/v1/games/{game['id']}/buys", json={"hand": 2, "player": "ANA"},
                        headers=auth(game["edit_token"]))
        assert r.status_code == 201 and r.json["added"]
        r = client.put(f"/api/v1/games/{game['id']}/hands/1", json={"out": "BETO", "leftovers": {
            "ana": ["Q"], "carla": ["7"]}}, headers=auth(game["edit_token"]))
        assert r.status_code == 200, r.json
        exported = client.get(f"/g/{game['edit_token']}/export.json").get_json()
        exported["players"] = ["Ana", "Beto", "Carla"]
        for h in exported["hands"]:  # an export edited by hand in another case imports as the same people
            h["leftovers"] = {k.lower(): v for k, v in h["leftovers"].items()}
            h["penalties"] = {k.upper(): v for k, v in h["penalties"].items()}
            h["out"] = h["out"].lower()
        exported["buys"] = [{**b, "player": b["player"].lower()} for b in exported["buys"]]
        r = client.post("/import", data={"json": json.dumps(exported)})
        assert r.status_code == 302, r.get_data(as_text=True)[-500:]
        imported = client.get(r.location + "/export.json").get_json()
        assert imported["totals"] == client.get(f"/g/{game['edit_token']}/export.json").get_json()["totals"]
        assert len(imported["buys"]) == 1

    def test_a_rename_in_a_groups_game_renames_the_person_in_the_group(self, client):
        group = make_group(client)
        first = start(client, group, ["Ana", "Beto", "Carla"])
        record(client, first, 1, "Ana", {"Beto": ["K"], "Carla": ["7"]})
        second = start(client, group, ["Ana", "Beto", "Dani"])
        record(client, second, 1, "Beto", {"Ana": ["Q"], "Dani": ["7"]})
        version = client.get(f"/api/v1/games/{first['id']}", headers=auth(first["edit_token"])).json["version"]
        r = client.post(f"/g/{second['edit_token']}/players/rename", data={"seat": "0", "name": "Anna"})
        assert r.status_code == 302
        state = group_state(client, group)
        assert "Anna" in state["roster"] and "Ana" not in state["roster"]
        assert player(state, "Anna")["games"] == 2 and all(p["name"] != "Ana" for p in state["players"])
        again = client.get(f"/api/v1/games/{first['id']}", headers=auth(first["edit_token"])).json
        assert again["players"][0] == "Anna" and again["version"] > version  # its phones are told
        # renamed to another person of the roster: that seat becomes them, nobody else is renamed
        r = client.post(f"/g/{second['edit_token']}/players/rename", data={"seat": "2", "name": "carla"})
        state = group_state(client, group)
        assert player(state, "Carla")["games"] == 2 and "Dani" in state["roster"]


def test_a_file_refused_as_its_last_game_is_written_leaves_nothing(client, app, evening, monkeypatch):
    """A group's file is written in one transaction: when the tables refuse its last game as it is written,
    its group, roster and first games are not kept either."""
    from sqlalchemy.exc import IntegrityError

    from referee.web.scoreboard import transfer

    group, *_ = evening
    data = client.get(f"/groups/{group['edit_token']}/export.json").json
    written = []
    real = transfer.Imported.write

    def write(self):
        written.append(self.game.id)
        if len(written) == len(data["games"]):
            raise IntegrityError("INSERT", {}, Exception("refused"))
        real(self)

    monkeypatch.setattr(transfer.Imported, "write", write)
    r = client.post("/groups/import", data={"json": json.dumps(data)})
    assert r.status_code == 400 and len(written) == 2
    with app.app_context():
        assert db.session.query(Group).count() == 1 and db.session.query(GroupGame).count() == 2
        assert db.session.query(Game).count() == 2
