"""Entries no deal could produce are refused on every path that records a hand (the form, the API, a
correction, an import): the refusal names the player in the reader's language, keeps what was typed, and
changes nothing recorded. The engine's side of it is tested in test_scoring.py."""

import json
from html import unescape

import pytest

from referee.families import resolve
from referee.pack import most_points
from referee.scoring import pack_points
from referee.web.models import Game, db
from tests.kit import refusal, said

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
SIX = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


def create(client, ruleset="liverpool", players=PLAYERS, **extra):
    r = client.post("/api/v1/games", json={"ruleset": ruleset, "players": players} | extra)
    assert r.status_code == 201, r.json
    return r.json


def auth(game):
    return {"Authorization": f"Bearer {game['edit_token']}"}


def record(client, game, hand, out, leftovers, **extra):
    return client.post(f"/api/v1/games/{game['id']}/hands", json={"hand": hand, "out": out, "leftovers": leftovers}
                       | extra, headers=auth(game))


def state(client, game):
    return client.get(f"/api/v1/games/{game['id']}", headers=auth(game)).json


def buy(client, game, hand, player):
    r = client.post(f"/api/v1/games/{game['id']}/buys", json={"hand": hand, "player": player}, headers=auth(game))
    assert r.status_code == 201


# (family, variants, players, buys for Ben in hand 1, leftovers, code): one entry of each kind in each family
REFUSED = [
    # a typed total above what the cards left could make
    ("liverpool", ["no_buying"], PLAYERS, 0, {"Ben": 155, "Cy": ["2"], "Dee": ["3"]}, "total_too_high"),
    ("progressive", [], PLAYERS, 3, {"Ben": 265, "Cy": ["2"], "Dee": ["3"]}, "total_too_high"),
    ("contract", [], PLAYERS, 0, {"Ben": 151, "Cy": ["2"], "Dee": ["3"]}, "total_too_high"),
    # more cards than a player holds: the deal plus two a buy
    ("liverpool", [], PLAYERS, 1, {"Ben": ["2"] * 8 + ["3"] * 5, "Cy": ["2"], "Dee": ["3"]}, "too_many_cards"),
    ("progressive", [], PLAYERS, 0, {"Ben": ["2"] * 8 + ["3"] * 3, "Cy": ["2"], "Dee": ["3"]}, "too_many_cards"),
    ("contract", [], PLAYERS, 2, {"Ben": ["2"] * 8 + ["3"] * 7, "Cy": ["2"], "Dee": ["3"]}, "too_many_cards"),
    # totals and cards that one pack cannot leave together
    ("liverpool", ["no_buying"], SIX, 0, {"Ben": 150, "Cy": 150, "Dee": 5, "Eve": 5, "Fay": 5}, "pack_cannot_make"),
    ("progressive", ["no_buying"], PLAYERS, 0, {"Ben": 190, "Cy": 190, "Dee": ["3"]}, "pack_cannot_make"),
    ("contract", [], PLAYERS, 0, {"Ben": ["A"] * 8 + ["JK"], "Cy": 150, "Dee": ["3"]}, "pack_cannot_make"),
]


class TestTheAPI:
    @pytest.mark.parametrize("family, variants, players, buys, leftovers, code", REFUSED)
    def test_refused_naming_the_player_and_nothing_changed(self, client, family, variants, players, buys, leftovers,
                                                           code):
        g = create(client, family, players, variants=variants)
        for _ in range(buys):
            buy(client, g, 1, "Ben")
        before = state(client, g)
        r = record(client, g, 1, "Ann", leftovers)
        assert r.status_code == 422, r.json
        error = r.json["error"]
        assert error["code"] == code and "Ben" in error["message"]
        assert error["field"] in ("leftovers.Ben", "leftovers.Cy", "cards_1", "total_1", "cards_2", "total_2")
        assert state(client, g) == before

    def test_the_same_entries_within_bounds_are_recorded(self, client):
        g = create(client, "contract")
        buy(client, g, 1, "Ben")
        buy(client, g, 1, "Ben")
        r = record(client, g, 1, "Ann", {"Ben": ["2"] * 8 + ["3"] * 6, "Cy": 150, "Dee": ["3"]})
        assert r.status_code == 201 and r.json["penalties"] == {"Ann": 0, "Ben": 34, "Cy": 150, "Dee": 3}

    def test_leftovers_as_one_string(self, client):
        g = create(client)
        r = record(client, g, 1, "Ann", {"Ben": "AD 9D 8C", "Cy": "K, JK", "Dee": ["3"]})
        assert r.status_code == 201 and r.json["penalties"] == {"Ann": 0, "Ben": 25, "Cy": 25, "Dee": 5}
        assert state(client, g)["hands"][0]["leftovers"]["Ben"] == ["AD", "9D", "8C"]

    def test_a_bad_card_in_one_string(self, client):
        g = create(client)
        r = record(client, g, 1, "Ann", {"Ben": "AD ZZ", "Cy": ["2"], "Dee": ["3"]})
        assert r.status_code == 422 and r.json["error"]["code"] == "bad_card" and state(client, g)["hands"] == []

    @pytest.mark.parametrize("lang", ["es", "pt", "de"])
    def test_in_the_readers_language(self, client, lang):
        g = create(client, players=SIX, variants=["no_buying"])
        r = record(client, g, 1, "Ann", {"Ben": 150, "Cy": 150, "Dee": 5, "Eve": 5, "Fay": 5}, lang=lang)
        six = resolve("liverpool", ["no_buying"], players=6)
        assert r.status_code == 422 and r.json["error"]["message"] == refusal(
            "pack_cannot_make", lang, players=["Ben", "Cy"], decks=six.decks, jokers=six.jokers)

    @pytest.mark.parametrize("lang, word", [("es", "como mucho"), ("pt", "no máximo"), ("de", "höchstens")])
    def test_too_high_in_the_readers_language(self, client, lang, word):
        g = create(client, variants=["no_buying"])
        r = record(client, g, 1, "Ann", {"Ben": 155, "Cy": ["2"], "Dee": ["3"]}, lang=lang)
        message = r.json["error"]["message"]
        assert "Ben" in message and word in message and "150" in message and "155" in message

    def test_a_correction_is_held_to_the_same_bounds(self, client):
        g = create(client, variants=["no_buying"])
        assert record(client, g, 1, "Ann", {"Ben": 150, "Cy": ["2"], "Dee": ["3"]}).status_code == 201
        before = state(client, g)
        body = {"out": "Ann", "leftovers": {"Ben": 155, "Cy": ["2"], "Dee": ["3"]}, "version": before["version"]}
        r = client.put(f"/api/v1/games/{g['id']}/hands/1", json=body, headers=auth(g))
        assert r.status_code == 422 and r.json["error"]["code"] == "total_too_high"
        assert state(client, g) == before

    def test_a_replayed_hand_is_held_to_the_last_hands_bounds(self, client):
        g = create(client, players=["Ann", "Ben", "Cy"])
        for n in range(1, 7):
            out, other = ("Ann", "Ben") if n % 2 else ("Ben", "Ann")
            assert record(client, g, n, out, {other: ["5"], "Cy": ["K"]}).status_code == 201
        assert record(client, g, 7, "Cy", {"Ann": ["5"], "Ben": ["5"]}).status_code == 201
        assert state(client, g)["decided_by"] == "replay"
        r = record(client, g, 8, "Ben", {"Ann": ["2"] * 8 + ["3"] * 5, "Cy": ["A"]})  # hand 7 again: twelve cards dealt
        assert r.status_code == 422 and r.json["error"]["code"] == "too_many_cards"
        assert record(client, g, 8, "Ben", {"Ann": ["2"] * 8 + ["3"] * 4, "Cy": ["A"]}).status_code == 201


class TestThePages:
    def test_a_refused_form_keeps_what_was_typed(self, client):
        g = create(client, variants=["no_buying"])
        url = f"/g/{g['edit_token']}"
        typed = {"hand": "1", "out": "0", "total_1": "155", "cards_2": "K 7", "cards_3": "2"}
        r = client.post(url + "/hand?lang=de", data=typed)
        assert r.status_code == 422
        html = r.get_data(as_text=True)
        assert 'value="155"' in html and 'value="K 7"' in html
        highest = most_points(pack_points(resolve("liverpool", ["no_buying"], {}, 4)), 10)
        assert refusal("total_too_high", "de", player="Ben", total=155, maximum=10, highest=highest) in unescape(html)
        assert state(client, g)["hands"] == []
        r = client.post(url + "/hand?lang=en", data=typed | {"total_1": "150"}, follow_redirects=True)
        assert "Hand 1 saved" in r.get_data(as_text=True)

    def test_a_total_that_is_not_a_number_names_the_player(self, client):
        g = create(client)
        r = client.post(f"/g/{g['edit_token']}/hand?lang=es",
                        data={"hand": "1", "out": "0", "total_1": "1x5", "cards_2": "2", "cards_3": "3"})
        html = r.get_data(as_text=True)
        assert r.status_code == 422 and refusal("impossible_total", "es", player="Ben", total="1x5") in html
        assert 'value="1x5"' in html

    def test_a_refused_correction_keeps_what_was_typed(self, client):
        g = create(client, players=SIX, variants=["no_buying"])
        assert record(client, g, 1, "Ann", {"Ben": 150, "Cy": 140, "Dee": 5, "Eve": 5, "Fay": 5}).status_code == 201
        before = state(client, g)
        form = {"out": "0", "total_1": "150", "total_2": "150", "total_3": "5", "total_4": "5", "total_5": "5",
                "version": str(before["version"])}
        r = client.post(f"/g/{g['edit_token']}/hands/1?lang=pt", data=form)
        html = r.get_data(as_text=True)
        six = resolve("liverpool", ["no_buying"], players=6)
        assert r.status_code == 422 and refusal(
            "pack_cannot_make", "pt", players=["Ben", "Cy"], decks=six.decks, jokers=six.jokers) in unescape(html)
        assert html.count('value="150"') == 2
        assert state(client, g) == before


class TestImport:
    def test_an_import_is_held_to_the_same_bounds(self, app, client):
        g = create(client, variants=["no_buying"])
        assert record(client, g, 1, "Ann", {"Ben": 150, "Cy": ["2"], "Dee": ["3"]}).status_code == 201
        exported = client.get(f"/g/{g['edit_token']}/export.json").json
        r = client.post("/import", data={"json": json.dumps(exported)})
        assert r.status_code == 302
        exported["hands"][0]["penalties"]["Ben"] = 155
        r = client.post("/import?lang=de", data={"json": json.dumps(exported)})
        assert r.status_code == 422 and "Ben: 155 Punkte" in r.get_data(as_text=True)
        exported["hands"][0]["penalties"]["Ben"] = 150
        exported["hands"][0]["leftovers"]["Cy"] = ["2"] * 11
        r = client.post("/import?lang=en", data={"json": json.dumps(exported)})
        assert r.status_code == 422 and "Cy cannot hold more than 10 cards" in r.get_data(as_text=True)
        with app.app_context():
            assert db.session.query(Game).count() == 2  # the game and its one good import: nothing left behind

    def test_an_exact_cut_at_the_top_survives_the_round_trip(self, client):
        g = create(client, variants=["exact_cut_bonus", "no_buying"])  # Ben cuts hand 1
        r = record(client, g, 1, "Ann", {"Ben": 150, "Cy": ["2"], "Dee": ["3"]}, exact_cut=True)
        assert r.status_code == 201 and r.json["penalties"]["Ben"] == 140
        exported = client.get(f"/g/{g['edit_token']}/export.json").json
        r = client.post("/import", data={"json": json.dumps(exported)})
        assert r.status_code == 302
        again = client.get(r.location + "/export.json").json
        assert again["hands"] == exported["hands"]


class TestBuyHint:
    """More cards than a player can hold: most often a buy not recorded. The refusal says so with the family's
    numbers and offers the buy in one tap, while the player may still buy."""

    ELEVEN = "2 3 4 5 6 7 8 9 10 J Q"

    def post(self, client, game, lang="en", **fields):
        data = {"hand": "1", "out": "0", "cards_2": "7", "cards_3": "7"} | fields
        return client.post(f"/g/{game['edit_token']}/hand?lang={lang}", data=data)

    @pytest.mark.parametrize("lang", ["en", "es", "pt", "de"])
    def test_too_many_cards_names_the_likely_buy(self, client, lang):
        words = said("Did %(player)s buy? Each buy adds %(n)s cards: with one more buy, %(player)s can hold "
                     "%(holds)s.", lang, player="Ben", n=2, holds=12)
        game = create(client)
        r = self.post(client, game, lang, cards_1=self.ELEVEN)
        html = r.get_data(as_text=True)
        assert r.status_code == 422 and words in unescape(html)
        assert f'action="/g/{game["edit_token"]}/buy" data-kind="buy" data-seat="1"' in html
        assert self.ELEVEN in html  # the cards typed, kept

    def test_the_hint_tap_records_the_buy_and_the_hand_then_goes_in(self, client):
        game = create(client)
        assert client.post(f"/g/{game['edit_token']}/buy", data={"hand": "1", "seat": "1"}).status_code in (302, 303)
        assert self.post(client, game, cards_1=self.ELEVEN).status_code in (302, 303)  # 11 of 12 now
        assert state(client, game)["totals"]["Ben"] > 0

    def test_no_hint_when_the_player_may_not_buy_more(self, client):
        game = create(client, options={"buy_limit": 0})
        html = self.post(client, game, cards_1=self.ELEVEN).get_data(as_text=True)
        assert "cannot hold more than 10 cards" in html and "buy-hint" not in html
