"""A player who sits down after the game began: the engine's side (the deal passes to them, they score from
the hand they join, with the starting score the table gave them, and the tie-break counts them)."""

import json
import re
from html import unescape

import pytest

from referee.families import resolve
from referee.scoring import Entry, Leftover, running_totals, score_hand, standings, totals
from referee.table import deal_order
from tests.conftest import auth, new_api_game
from tests.kit import refusal, said
from tests.test_groups import group_state, make_group, player, record, start

LIVERPOOL = resolve("liverpool")


class TestTheDeal:
    def test_without_late_players_the_deal_is_as_before(self):
        for n in (3, 4, 5):
            seats = "ABCDE"[:n]
            for first in range(n):
                for hand in range(1, 9):
                    assert deal_order(LIVERPOOL, seats, hand, first, joined=[1] * n) == \
                        deal_order(LIVERPOOL, seats, hand, first)

    @pytest.mark.parametrize("family", ["liverpool", "progressive", "contract"])
    def test_the_deal_passes_to_the_next_seat_playing(self, family):
        rules = resolve(family)
        # Dee sits down between Ben and Cy before hand 3; Ann dealt hand 1
        seats, joined = ["Ann", "Ben", "Dee", "Cy"], [1, 1, 3, 1]
        dealers = [deal_order(rules, seats, h, 0, joined).dealer for h in range(1, 8)]
        assert dealers == ["Ann", "Ben", "Dee", "Cy", "Ann", "Ben", "Dee"]  # Dee sat at Ben's left
        for h in (1, 2):  # before Dee plays, nobody cuts or plays first at Dee's seat
            order = deal_order(rules, seats, h, 0, joined)
            assert "Dee" not in (order.dealer, order.cutter, order.first)
        order = deal_order(rules, seats, 6, 0, joined)  # Ben deals: Dee is at his left, Ann at his right
        assert {order.cutter, order.first} <= {"Dee", "Ann"}

    def test_a_player_sitting_at_the_last_dealers_left_deals_next(self):
        seats, joined = ["Ann", "Dee", "Ben", "Cy"], [1, 3, 1, 1]  # Ann dealt hand 2 (first dealer: Cy)
        assert [deal_order(LIVERPOOL, seats, h, 3, joined).dealer for h in (1, 2, 3)] == ["Cy", "Ann", "Dee"]


class TestTheScore:
    def test_a_late_player_scores_from_the_hand_they_join(self):
        names = ["Ann", "Ben", "Dee", "Cy"]
        early = score_hand(LIVERPOOL, 2, names, 0, {1: Entry(Leftover.parse_all("K")), 3: Entry(total=5)},
                           absent={2})
        assert early.valid and [s.player for s in early.seats] == ["Ann", "Ben", "Cy"]
        late = score_hand(LIVERPOOL, 3, names, 0, {1: Entry(total=10), 2: Entry(total=15), 3: Entry(total=5)})
        assert late.valid and [s.penalty for s in late.seats] == [0, 10, 15, 5]

    def test_an_entry_for_a_player_not_yet_seated_is_refused(self):
        names = ["Ann", "Ben", "Dee", "Cy"]
        typed = score_hand(LIVERPOOL, 2, names, 0, {1: Entry(total=5), 2: Entry(total=5), 3: Entry(total=5)},
                           absent={2})
        assert [(v.code, v.field, v.params) for v in typed.violations] == [
            ("not_in_this_hand", "cards_2", {"player": "Dee", "hand": 2})]
        out = score_hand(LIVERPOOL, 2, names, 2, {0: Entry(total=5), 1: Entry(total=5), 3: Entry(total=5)},
                         absent={2})
        assert [(v.code, v.field) for v in out.violations] == [("not_in_this_hand", "out")]

    def test_the_starting_score_counts_in_the_totals_and_the_standings(self):
        names = ["Ann", "Ben", "Dee"]
        hands = [{"Ann": 0, "Ben": 40}, {"Ann": 30, "Ben": 0}, {"Ann": 5, "Ben": 10, "Dee": 0}]
        start = {"Dee": 40}  # the highest total before Dee sat down
        assert totals(names, hands, start) == {"Ann": 35, "Ben": 50, "Dee": 40}
        assert running_totals(names, hands, start)["Dee"] == [40, 40, 40]
        result = standings(LIVERPOOL, names, hands, start=start)
        assert result.winners == ("Ann",) and [s.player for s in result.standings] == ["Ann", "Dee", "Ben"]
        assert totals(names, hands) == {"Ann": 35, "Ben": 50, "Dee": 0}  # (no start: as before)

    def test_a_player_without_a_score_in_the_tie_hand_loses_the_tie_break_to_one_who_has(self):
        # nine hands of Liverpool, the tie broken by hand 7; Eve sat down for hand 8 with Ann's total
        nine = resolve("liverpool", options={"hands": 9})
        names = ["Ann", "Ben", "Eve"]
        hands = [{"Ann": 5, "Ben": 10} for _ in range(6)] + [{"Ann": 20, "Ben": 0}] + \
                [{"Ann": 0, "Ben": 10, "Eve": 0}, {"Ann": 0, "Ben": 10, "Eve": 0}]
        result = standings(nine, names, hands, start={"Eve": 50})
        assert totals(names, hands, {"Eve": 50}) == {"Ann": 50, "Ben": 80, "Eve": 50}
        assert result.winners == ("Ann",) and result.decided_by == "tie_hand" and result.tie_hand == 7
        assert [(s.player, s.place, s.tie_score) for s in result.standings] == [
            ("Ann", 1, 20), ("Eve", 2, None), ("Ben", 3, 0)]
        # two players who both sat down after it: the hand breaks nothing between them
        both = standings(nine, ["Eve", "Fay"], [{} for _ in range(7)] + [{"Eve": 0, "Fay": 0}] * 2,
                         start={"Eve": 10, "Fay": 10})
        assert both.decided_by in ("shared", "replay") and set(both.winners) == {"Eve", "Fay"}


# ------------------------------------------------------------------------------------------ the game's side
def join(client, game, name, **fields):
    return client.post(f"/api/v1/games/{game['id']}/players", json={"name": name} | fields,
                       headers=auth(game["edit_token"]))


def hand(client, game, number, out, leftovers, expect=201):
    r = client.post(f"/api/v1/games/{game['id']}/hands", json={"hand": number, "out": out, "leftovers": leftovers},
                    headers=auth(game["edit_token"]))
    assert r.status_code == expect, r.json
    return r.json


def state(client, game):
    return client.get(f"/api/v1/games/{game['id']}", headers=auth(game["view_token"])).json


class TestAGameInProgress:
    def two_hands(self, client):
        game = new_api_game(client, players=["Ann", "Ben", "Cy"])
        hand(client, game, 1, "Ann", {"Ben": ["K", "Q"], "Cy": ["7"]})  # Ben 20, Cy 5
        hand(client, game, 2, "Cy", {"Ann": ["A"], "Ben": ["2"]})  # Ann 15, Ben 5
        return game

    def test_a_player_sits_down_with_the_highest_total_and_plays_from_the_next_hand(self, client):
        game = self.two_hands(client)
        r = join(client, game, "  dee ", after="Ben")
        assert r.status_code == 201, r.json
        st = r.json
        assert st["players"] == ["Ann", "Ben", "dee", "Cy"]
        assert st["joined_late"] == [{"player": "dee", "hand": 3, "start": 25}]
        assert st["totals"] == {"Ann": 15, "Ben": 25, "dee": 25, "Cy": 5}
        # the past hands are theirs as they were; the deal goes on to the left of the last dealer
        assert [h["penalties"] for h in st["hands"]] == [{"Ann": 0, "Ben": 20, "Cy": 5}, {"Ann": 15, "Ben": 5, "Cy": 0}]
        assert st["dealer"] == deal_order(resolve("liverpool", players=4), st["players"], 3, 0, [1, 1, 3, 1]).dealer
        hand(client, game, 3, "dee", {"Ann": ["3"], "Ben": ["4"], "Cy": ["K"]})
        st = state(client, game)
        assert st["totals"] == {"Ann": 20, "Ben": 30, "dee": 25, "Cy": 15}
        # a hand before they sat down, corrected: nothing for them, and an entry for them refused
        r = client.put(f"/api/v1/games/{game['id']}/hands/1", json={"out": "Ann", "leftovers": {
            "Ben": ["K"], "Cy": ["7"], "dee": ["2"]}}, headers=auth(game["edit_token"]))
        assert r.status_code == 422 and r.json["error"]["code"] == "not_in_this_hand"
        r = client.put(f"/api/v1/games/{game['id']}/hands/1", json={"out": "Ann", "leftovers": {
            "Ben": ["K"], "Cy": ["7"]}}, headers=auth(game["edit_token"]))
        assert r.status_code == 200 and state(client, game)["totals"]["Ben"] == 20

    @pytest.mark.parametrize("start, expected", [("lowest", 5), ("zero", 0), (12, 12), ("highest", 25)])
    def test_the_table_chooses_the_starting_score(self, client, start, expected):
        game = self.two_hands(client)
        assert join(client, game, "Dee", start=start).json["totals"]["Dee"] == expected

    def test_refused_with_nothing_changed(self, client):
        game = self.two_hands(client)
        before = state(client, game)
        cases = [({"name": "ann"}, 422, "duplicate_name"), ({"name": ""}, 422, "empty_name"),
                 ({"name": "Dee", "after": "Zed"}, 422, "unknown_player"),
                 ({"name": "Dee", "start": "half"}, 400, "wrong_type"),
                 ({"name": "Dee", "start": -5}, 400, "wrong_type")]
        for body, status, code in cases:
            r = client.post(f"/api/v1/games/{game['id']}/players", json=body, headers=auth(game["edit_token"]))
            assert (r.status_code, r.json["error"]["code"]) == (status, code), body
        client.post(f"/api/v1/games/{game['id']}/buys", json={"player": "Ben", "hand": 3},
                    headers=auth(game["edit_token"]))
        r = join(client, game, "Dee", lang="de")
        assert r.status_code == 409 and r.json["error"]["code"] == "hand_under_way"
        assert r.json["error"]["message"] == refusal("hand_under_way", "de", hand=3)
        r = client.post(f"/api/v1/games/{game['id']}/players", json={"name": "Dee"}, headers=auth(game["view_token"]))
        assert r.status_code == 403
        after = state(client, game)
        assert after["players"] == before["players"] and after["totals"] == before["totals"]

    def test_undo_takes_the_player_out_again_and_redo_seats_them(self, client):
        game = self.two_hands(client)
        client.post(f"/api/v1/games/{game['id']}/buys", json={"player": "Cy", "hand": 2},
                    headers=auth(game["edit_token"]))  # (refused: hand 2 is recorded; nothing to undo there)
        join(client, game, "Dee", after="Ann", start="zero")
        page = client.post(f"/g/{game['edit_token']}/undo")
        assert page.status_code in (302, 303)
        st = state(client, game)
        assert st["players"] == ["Ann", "Ben", "Cy"] and st["totals"] == {"Ann": 15, "Ben": 25, "Cy": 5}
        client.post(f"/g/{game['edit_token']}/redo", data={"version": st["version"]})
        st = state(client, game)
        assert st["players"] == ["Ann", "Dee", "Ben", "Cy"] and st["totals"]["Dee"] == 0
        # and undo reaches the hands before the join once the join is undone: seats stay where they were
        client.post(f"/g/{game['edit_token']}/undo")
        client.post(f"/g/{game['edit_token']}/undo")
        st = state(client, game)
        assert st["players"] == ["Ann", "Ben", "Cy"] and len(st["hands"]) == 1
        assert st["totals"] == {"Ann": 0, "Ben": 20, "Cy": 5}

    def test_the_whole_game_with_a_late_player_crowns_by_the_tie_break(self, client):
        game = self.two_hands(client)
        join(client, game, "Dee", after="Cy", start="lowest")
        for n in range(3, 8):
            hand(client, game, n, "Dee", {"Ann": ["5"], "Ben": ["5"], "Cy": ["5"]})
        st = state(client, game)
        assert st["finished"] and st["totals"]["Dee"] == 5 and st["winner"] == "Dee"
        assert [s["player"] for s in st["standings"]][0] == "Dee"


class TestThePlayersPage:
    def test_a_player_sits_down_from_the_players_page(self, client):
        game = TestAGameInProgress().two_hands(client)
        html = unescape(client.get(f"/g/{game['edit_token']}/players?lang=pt").get_data(as_text=True))
        assert said("A player sits down", "pt") in html
        assert said("The highest total so far (%(points)s)", "pt", points=25) in html
        r = client.post(f"/g/{game['edit_token']}/players/join?lang=pt", data={"name": "Duda", "after": "0",
                                                                               "start": "number", "points": "30"})
        assert r.status_code in (302, 303)
        st = state(client, game)
        assert st["players"] == ["Ann", "Duda", "Ben", "Cy"] and st["totals"]["Duda"] == 30
        page = unescape(client.get(r.headers["Location"]).get_data(as_text=True))
        assert said("%(name)s sits down and plays from hand %(hand)s, starting on %(points)s points.", "pt",
                    name="Duda", hand=3, points=30) in page
        history = unescape(client.get(f"/g/{game['edit_token']}/history?lang=pt").get_data(as_text=True))
        assert said("%(player)s sat down before hand %(hand)s", "pt", player="Duda", hand=3) in history

    def test_a_refusal_keeps_what_was_typed(self, client):
        game = TestAGameInProgress().two_hands(client)
        r = client.post(f"/g/{game['edit_token']}/players/join?lang=de", data={"name": "BEN", "after": "1",
                                                                               "start": "number", "points": "7"})
        html = unescape(r.get_data(as_text=True))
        assert r.status_code == 422 and refusal("duplicate_name", "de") in html
        assert 'value="BEN"' in html and 'value="7"' in html
        r = client.post(f"/g/{game['edit_token']}/players/join", data={"name": "Dee", "start": "number"})
        assert r.status_code == 400 and state(client, game)["players"] == ["Ann", "Ben", "Cy"]
        assert client.post(f"/g/{game['view_token']}/players/join", data={"name": "Dee"}).status_code == 403

    def test_no_seat_is_offered_once_the_game_is_over(self, client):
        game = TestAGameInProgress().two_hands(client)
        client.post(f"/api/v1/games/{game['id']}/end", json={}, headers=auth(game["edit_token"]))
        html = unescape(client.get(f"/g/{game['edit_token']}/players").get_data(as_text=True))
        assert said("A player sits down") not in html


class TestFiles:
    def test_a_game_with_a_late_player_goes_out_to_a_file_and_back(self, client):
        game = TestAGameInProgress().two_hands(client)
        join(client, game, "Dee", after="Ann", start="lowest")
        client.post(f"/api/v1/games/{game['id']}/buys", json={"player": "Dee", "hand": 3},
                    headers=auth(game["edit_token"]))
        hand(client, game, 3, "Ben", {"Ann": ["K"], "Dee": ["2"], "Cy": ["JK"]})
        exported = client.get(f"/g/{game['edit_token']}/export.json").json
        assert exported["joined_late"] == [{"player": "Dee", "hand": 3, "start": 5}]
        r = client.post("/import", data={"json": json.dumps(exported)})
        assert r.status_code == 302
        again = client.get(r.location + "/export.json").json
        for key in ("players", "first_dealer", "hands", "buys", "totals", "joined_late"):
            assert again[key] == exported[key], key
        copy = client.get(r.location + "/history").get_data(as_text=True)
        assert said("%(player)s sat down before hand %(hand)s", player="Dee", hand=3) in unescape(copy)

    def test_an_import_holds_a_late_player_to_the_hands_they_played(self, client):
        game = TestAGameInProgress().two_hands(client)
        join(client, game, "Dee", after="Ann")
        exported = client.get(f"/g/{game['edit_token']}/export.json").json
        early = json.loads(json.dumps(exported))
        early["buys"] = [{"hand": 2, "player": "Dee"}]
        r = client.post("/import", data={"json": json.dumps(early)})
        assert r.status_code == 422 and refusal("not_in_this_hand", player="Dee", hand=2) in unescape(
            r.get_data(as_text=True))
        scored = json.loads(json.dumps(exported))
        scored["hands"][0]["leftovers"]["Dee"] = ["K"]
        assert client.post("/import", data={"json": json.dumps(scored)}).status_code == 422
        for bad in ([{"player": "Dee", "hand": 1, "start": 0}], [{"player": "Zed", "hand": 3, "start": 0}],
                    [{"player": "Dee", "hand": 3, "start": -1}], "Dee"):
            broken = json.loads(json.dumps(exported)) | {"joined_late": bad}
            assert client.post("/import", data={"json": json.dumps(broken)}).status_code == 400, bad

    def test_a_groups_file_keeps_its_late_players(self, client):
        group = make_group(client)
        first = start(client, group, ["Ann", "Ben", "Cy"])
        record(client, first, 1, "Ann", {"Ben": ["K"], "Cy": ["7"]})
        join(client, first, "dee", after="Cy", start=0)
        record(client, first, 2, "dee", {"Ann": ["2"], "Ben": ["3"], "Cy": ["4"]})
        assert group_state(client, group)["roster"] == ["Ann", "Ben", "Cy", "dee"]
        data = client.get(f"/groups/{group['edit_token']}/export.json").json
        r = client.post("/groups/import", data={"json": json.dumps(data)})
        assert r.status_code == 302
        token = r.headers["Location"].rsplit("/", 1)[1]
        again = client.get(f"/groups/{token}/export.json").json
        assert again["games"][0]["joined_late"] == [{"player": "dee", "hand": 2, "start": 0}]
        assert again["games"][0]["totals"] == data["games"][0]["totals"]
        dee = player(group_state(client, group), "dee")
        assert (dee["games"], dee["hands"], dee["times_out"]) == (1, 1, 1)


def test_a_hand_before_the_late_player_sat_down_is_corrected_without_them(client):
    game = TestAGameInProgress().two_hands(client)
    join(client, game, "Dee", after="Ben")
    html = client.get(f"/g/{game['edit_token']}/hands/1").get_data(as_text=True)
    assert 'data-seat="2"' not in html and 'name="out" value="2"' not in html  # Dee's seat: not in hand 1
    assert 'data-seat="3"' in html and 'name="out" value="3"' in html  # Cy, a seat along now
    r = client.post(f"/g/{game['edit_token']}/hands/1", data={"out": "0", "cards_1": "K", "cards_3": "7 7",
                                                               "version": str(state(client, game)["version"])})
    assert r.status_code in (302, 303, 204), r.get_data(as_text=True)[-500:]
    assert state(client, game)["hands"][0]["penalties"] == {"Ann": 0, "Ben": 10, "Cy": 10}
    live = client.get(f"/g/{game['edit_token']}").get_data(as_text=True)
    assert 'data-seat="2"' in live and 'name="out" value="2"' in live  # hand 3: Dee plays


def test_the_chart_draws_a_late_players_line_from_their_starting_score(client):
    game = TestAGameInProgress().two_hands(client)
    join(client, game, "Dee", start=40)  # the last seat
    hand(client, game, 3, "Dee", {"Ann": ["K"], "Ben": ["7"], "Cy": ["7"]})
    html = client.get(f"/g/{game['edit_token']}").get_data(as_text=True)
    lines = re.findall(r'<polyline points="([^"]+)"', html)
    assert [len(points.split()) for points in lines] == [4, 4, 4, 2]  # hands 0-3; Dee: after hand 2, after hand 3
    start, after = lines[3].split()
    assert start.split(",")[1] == after.split(",")[1]  # 40 both: Dee went out in hand 3


def test_a_hand_played_before_a_late_player_keeps_its_own_pack(client):
    """Four players play Liverpool with two decks (four jokers); a fifth sits down and the pack grows to three
    decks (six jokers). A correction of hand 1 is checked against the pack of hand 1, hand 3's against the new."""
    game = new_api_game(client, players=["Ann", "Ben", "Cy", "Dee"])
    hand(client, game, 1, "Ann", {"Ben": ["K"], "Cy": ["7"], "Dee": ["5"]})
    hand(client, game, 2, "Ben", {"Ann": ["A"], "Cy": ["2"], "Dee": ["3"]})
    assert join(client, game, "Eve", after="Dee").status_code == 201
    five = {"Ben": ["JK", "JK"], "Cy": ["JK", "JK"], "Dee": ["JK"]}  # five jokers: more than two decks hold
    r = client.put(f"/api/v1/games/{game['id']}/hands/1", json={"out": "Ann", "leftovers": five},
                   headers=auth(game["edit_token"]))
    assert r.status_code == 422 and r.json["error"]["code"] == "too_many_copies_left", r.json
    assert state(client, game)["hands"][0]["penalties"]["Ben"] == 10  # as recorded
    hand(client, game, 3, "Ann", five | {"Eve": ["K"]})  # three decks now: six jokers
    # the correction page's card pad counts the jokers of hand 1's pack; the game's page, of the pack now
    def pad_jokers(path):
        html = client.get(path).get_data(as_text=True)
        return json.loads(unescape(re.search(r'class="picker[^"]*" data-facts="([^"]+)"', html).group(1)))["jokers"]
    assert pad_jokers(f"/g/{game['edit_token']}/hands/1") == 4
    assert pad_jokers(f"/g/{game['edit_token']}") == 6
