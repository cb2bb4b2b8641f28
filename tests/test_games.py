"""The scoreboard: games through the JSON API and through the pages, on SQLite and PostgreSQL."""

import json
import re
import threading

import pytest

from tests.conftest import auth
from tests.kit import said

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]


def create(client, ruleset="liverpool", players=PLAYERS, **extra):
    r = client.post("/api/v1/games", json={"ruleset": ruleset, "players": players} | extra)
    assert r.status_code == 201, r.json
    return r.json


def record(client, game, hand, out, leftovers, token=None):
    return client.post(f"/api/v1/games/{game['id']}/hands", json={"hand": hand, "out": out, "leftovers": leftovers},
                       headers=auth(token or game["edit_token"]))


class TestCreate:
    def test_created(self, client):
        g = create(client)
        assert set(g) == {"id", "edit_token", "view_token", "players", "edit_url", "view_url"}
        assert g["players"] == PLAYERS
        assert len(g["edit_token"]) >= 22 and g["edit_token"] != g["view_token"]  # ≥128 bits each
        state = client.get(f"/api/v1/games/{g['id']}", headers=auth(g["view_token"])).json
        assert state["players"] == PLAYERS and state["current_hand"] == 1 and state["dealer"] == "Ann"
        assert state["contract"]["notation"] == "S3 S3" and state["settings"]["decks"] == 2
        assert state["can_edit"] is False

    @pytest.mark.parametrize("players, code", [
        (["Ann", "Ben"], "players_out_of_range"),
        (["Ann", "ann ", "Cy"], "duplicate_name"),
        (["Ann", "  ", "Cy"], "empty_name"),
        (["Ann", "B" * 41, "Cy"], "long_name"),
        ("Ann", "bad_players"),
    ])
    def test_bad_players(self, client, players, code):
        r = client.post("/api/v1/games", json={"ruleset": "liverpool", "players": players})
        assert r.status_code in (400, 422) and r.json["error"]["code"] == code

    def test_names_in_any_script_are_trimmed(self, client):
        g = create(client, players=["  Zoë ", "Łukasz", "田中", "Αλέξης"])
        state = client.get(f"/api/v1/games/{g['id']}", headers=auth(g["edit_token"])).json
        assert state["players"] == ["Zoë", "Łukasz", "田中", "Αλέξης"]

    def test_contract_family_size(self, client):
        r = client.post("/api/v1/games", json={"ruleset": "contract", "players": PLAYERS + ["Eve", "Fay"]})
        assert r.status_code == 422 and r.json["error"]["code"] == "players_out_of_range"


class TestTokens:
    def test_no_token(self, client):
        g = create(client)
        assert client.get(f"/api/v1/games/{g['id']}").status_code == 401

    def test_wrong_token(self, client):
        g, other = create(client), create(client)
        assert client.get(f"/api/v1/games/{g['id']}", headers=auth(other["edit_token"])).status_code == 403

    def test_view_token_cannot_write(self, client):
        g = create(client)
        r = record(client, g, 1, "Ann", {"Ben": ["AH"], "Cy": ["2C"], "Dee": []}, token=g["view_token"])
        assert r.status_code == 403
        assert client.get(f"/api/v1/games/{g['id']}", headers=auth(g["edit_token"])).json["hands"] == []

    def test_view_page_has_no_forms(self, client):
        g = create(client)
        html = client.get(f"/g/{g['view_token']}").get_data(as_text=True)
        assert 'action="/g/' not in html and "<form" not in html.split('id="board"')[1]
        assert client.post(f"/g/{g['view_token']}/hand", data={"hand": 1}).status_code == 403


class TestHands:
    def test_penalties_and_totals(self, client):
        g = create(client)
        r = record(client, g, 1, "Ann", {"Ben": ["AH", "JK"], "Cy": ["7", "K"], "Dee": ["10D", "Q", "2"]})
        assert r.status_code == 201
        assert r.json["penalties"] == {"Ann": 0, "Ben": 30, "Cy": 15, "Dee": 25}
        state = client.get(f"/api/v1/games/{g['id']}", headers=auth(g["view_token"])).json
        assert state["current_hand"] == 2 and state["dealer"] == "Ben" and state["totals"]["Dee"] == 25

    def test_same_hand_twice_is_409_with_what_is_recorded(self, client):
        g = create(client)
        assert record(client, g, 1, "Ann", {"Ben": ["A"], "Cy": ["2"], "Dee": ["3"]}).status_code == 201
        r = record(client, g, 1, "Ben", {"Ann": ["K"], "Cy": ["2"], "Dee": ["3"]})
        assert r.status_code == 409 and r.json["error"]["code"] == "already_recorded"
        assert r.json["recorded"][0]["out"] == "Ann"

    @pytest.mark.parametrize("out, leftovers, code", [
        ("Ann", {"Ann": ["K"], "Ben": ["A"], "Cy": ["2"], "Dee": ["3"]}, "out_has_cards"),
        ("Ann", {"Ben": ["AH", "AH", "AH"], "Cy": ["2"], "Dee": ["3"]}, "too_many_copies_left"),
        ("Ann", {"Ben": ["JK"] * 3, "Cy": ["JK"] * 2, "Dee": ["3"]}, "too_many_copies_left"),
        ("Ann", {"Ben": ["A"] * 9, "Cy": [], "Dee": ["3"]}, "missing_cards"),
        ("Ann", {"Ben": 7, "Cy": ["2"], "Dee": ["3"]}, "impossible_total"),
        ("Ann", {"Ben": ["ZZ"], "Cy": ["2"], "Dee": ["3"]}, "bad_card"),
        ("Zed", {"Ben": ["A"], "Cy": ["2"], "Dee": ["3"]}, "unknown_player"),
        (None, {"Ben": ["A"], "Cy": ["2"], "Dee": ["3"]}, "nobody_out"),
        ("Ann", {"Ben": ["2"] * 12, "Cy": ["3"], "Dee": ["4"]}, "too_many_cards"),
    ])
    def test_refused_and_nothing_lost(self, client, out, leftovers, code):
        g = create(client)
        assert record(client, g, 1, "Ann", {"Ben": ["A"], "Cy": ["2"], "Dee": ["3"]}).status_code == 201
        r = record(client, g, 2, out, leftovers)
        assert r.status_code in (400, 422), r.json
        assert r.json["error"]["code"] == code and r.json["error"]["message"]
        state = client.get(f"/api/v1/games/{g['id']}", headers=auth(g["edit_token"])).json
        assert len(state["hands"]) == 1 and state["totals"]["Ben"] == 15

    def test_typed_total_that_cards_could_make(self, client):
        g = create(client)
        r = record(client, g, 1, "Ann", {"Ben": 45, "Cy": ["2"], "Dee": ["3"]})
        assert r.status_code == 201 and r.json["penalties"]["Ben"] == 45

    def test_hand_past_the_last_and_out_of_order(self, client):
        g = create(client)
        assert record(client, g, 2, "Ann", {"Ben": ["A"], "Cy": ["2"], "Dee": ["3"]}).json["error"]["code"] == \
            "not_next_hand"
        for n in range(1, 8):
            assert record(client, g, n, "Ann", {"Ben": ["A"], "Cy": ["2"], "Dee": ["3"]}).status_code == 201
        assert record(client, g, 8, "Ann", {"Ben": ["A"], "Cy": ["2"], "Dee": ["3"]}).json["error"]["code"] == \
            "past_last_hand"

    def test_stock_ran_out_where_the_house_rule_says(self, client):
        g = create(client, options={"stock_exhausted": "end_hand"})
        r = record(client, g, 1, None, {"Ann": ["K"], "Ben": ["A"], "Cy": ["2"], "Dee": ["3"]})
        assert r.status_code == 201 and r.json["penalties"]["Ann"] == 10

    def test_correction_and_stale_version(self, client):
        g = create(client)
        record(client, g, 1, "Ann", {"Ben": ["A"], "Cy": ["2"], "Dee": ["3"]})
        version = client.get(f"/api/v1/games/{g['id']}", headers=auth(g["edit_token"])).json["version"]
        body = {"out": "Ben", "leftovers": {"Ann": ["K"], "Cy": ["2"], "Dee": ["3"]}, "version": version}
        r = client.put(f"/api/v1/games/{g['id']}/hands/1", json=body, headers=auth(g["edit_token"]))
        assert r.status_code == 200 and r.json["penalties"] == {"Ann": 10, "Ben": 0, "Cy": 5, "Dee": 5}
        r = client.put(f"/api/v1/games/{g['id']}/hands/1", json=body, headers=auth(g["edit_token"]))
        assert r.status_code == 409 and r.json["error"]["code"] == "stale"


class TestBuys:
    def test_limit_with_ruling(self, client):
        g = create(client)
        for left in (2, 1, 0):
            r = client.post(f"/api/v1/games/{g['id']}/buys", json={"hand": 1, "player": "Cy"},
                            headers=auth(g["edit_token"]))
            assert r.status_code == 201 and r.json["buys_left"] == left
        r = client.post(f"/api/v1/games/{g['id']}/buys", json={"hand": 1, "player": "Cy"}, headers=auth(g["edit_token"]))
        assert r.status_code == 409 and r.json["reason_code"] == "limit_reached" and r.json["rule"] == "rule-buy-limit"

    def test_a_tap_that_is_refused_says_why_with_the_board(self, client):
        """A buy tapped through htmx is answered with the board and, out of band, the page's messages: a buy
        past the limit says so (in the reader's language, naming the rule), and the tap after it clears it."""
        g = create(client, players=["Ann", "Ben", "Cy"])
        url, hx = f"/g/{g['edit_token']}/buy", {"HX-Request": "true", "Accept-Language": "es"}
        for _ in range(3):
            r = client.post(url, data={"hand": 1, "seat": 2}, headers=hx)
            assert r.status_code == 200 and '<div id="flashes" role="status" hx-swap-oob="innerHTML"></div>' in r.text
        r = client.post(url, data={"hand": 1, "seat": 2}, headers=hx)
        flashes = r.text.split('<div id="flashes"', 1)[1]
        assert 'id="board"' in r.text and 'hx-swap-oob="innerHTML"><div class="flash warning">' in flashes
        assert "Cy" in flashes and said("(Rule: %(rule)s)", "es").split("%(")[0] + "<a href=" in flashes
        assert re.search(r'<a href="/rules/liverpool[^"]*#rule-buy-limit">[^<>]+</a>\)', flashes), flashes
        assert ">rule-buy-limit<" not in flashes  # the rule by its heading, not its anchor
        assert "3/3" in r.text  # the board: still three
        r = client.post(url, data={"hand": 1, "seat": 0}, headers=hx)
        assert '<div id="flashes" role="status" hx-swap-oob="innerHTML"></div>' in r.text
        assert client.get(f"/g/{g['edit_token']}").text.count('class="flash') == 0  # said once, not again later

    def test_no_buying_game(self, client):
        g = create(client, variants=["no_buying"])
        r = client.post(f"/api/v1/games/{g['id']}/buys", json={"hand": 1, "player": "Cy"}, headers=auth(g["edit_token"]))
        assert r.status_code == 409 and r.json["reason_code"] == "no_buying"

    def test_buys_widen_what_a_player_may_hold(self, client):
        g = create(client)
        for _ in range(2):
            client.post(f"/api/v1/games/{g['id']}/buys", json={"hand": 1, "player": "Ben"}, headers=auth(g["edit_token"]))
        r = record(client, g, 1, "Ann", {"Ben": ["2"] * 8 + ["3"] * 7, "Cy": ["4"], "Dee": ["5"]})
        assert r.status_code == 422 and r.json["error"]["code"] == "too_many_cards"  # 10 dealt + 2 × 2 bought
        r = record(client, g, 1, "Ann", {"Ben": ["2"] * 8 + ["3"] * 6, "Cy": ["4"], "Dee": ["5"]})
        assert r.status_code == 201 and r.json["penalties"]["Ben"] == 70


class TestPages:
    def test_new_game_in_two_taps(self, client):
        r = client.get("/new?family=progressive")
        assert r.status_code == 200
        names = re.findall(r'name="name" value="([^"]+)"', r.get_data(as_text=True))
        r = client.post("/new", data={"family": "progressive", "name": names, "first_dealer": "0",
                                      "action": "start"})
        assert r.status_code == 302 and r.location.startswith("/g/")
        page = client.get(r.location).get_data(as_text=True)
        assert "Hand 1 of 7" in page

    def test_record_by_form_and_refusal_keeps_entries(self, client):
        g = create(client)
        url = f"/g/{g['edit_token']}"
        bad = {"hand": "1", "out": "0", "cards_1": "A K", "cards_2": "AH AH AH", "cards_3": "2"}
        r = client.post(url + "/hand", data=bad)
        assert r.status_code == 422
        html = r.get_data(as_text=True)
        assert "AH AH AH" in html and 'value="A K"' in html
        good = bad | {"cards_2": "AH 7"}
        r = client.post(url + "/hand", data=good, follow_redirects=True)
        assert "Hand 1 saved" in r.get_data(as_text=True)

    def test_markup_in_names_stays_inert(self, client):
        g = create(client, players=["<b>x</b>", "<script>alert(1)</script>", "Cy"])
        record(client, g, 1, "Cy", {"<b>x</b>": ["A"], "<script>alert(1)</script>": ["K"]})
        for path in ("", "/sheet", "/history", "/share"):
            html = client.get(f"/g/{g['edit_token']}{path}").get_data(as_text=True)
            assert "<script>alert(1)</script>" not in html and "<b>x</b>" not in html
            assert "&lt;script&gt;" in html or path in ("/history", "/share")

    def test_board_polls_cheaply(self, client):
        g = create(client)
        url = f"/g/{g['view_token']}/board"
        first = client.get(url)
        tag = first.headers["ETag"]
        again = client.get(url, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.data == b""
        record(client, g, 1, "Ann", {"Ben": ["A"], "Cy": ["2"], "Dee": ["3"]})
        after = client.get(url, headers={"If-None-Match": tag})
        assert after.status_code == 200 and after.headers["ETag"] != tag and "Hand 2 of 7" in after.get_data(as_text=True)

    def test_undo_and_history(self, client):
        g = create(client)
        record(client, g, 1, "Ann", {"Ben": ["A"], "Cy": ["2"], "Dee": ["3"]})
        client.post(f"/g/{g['edit_token']}/undo", data={})
        state = client.get(f"/api/v1/games/{g['id']}", headers=auth(g["edit_token"])).json
        assert state["hands"] == []
        hist = client.get(f"/g/{g['edit_token']}/history").get_data(as_text=True)
        assert "Hand 1 recorded" in hist and "undone" in hist and "API" in hist

    def test_history_dates_put_the_day_first_in_every_language(self, client):
        """English dates are British ("02/12/2026, 21:05"): a table never reads the 2nd of December as the 12th
        of February. The other languages write theirs their own way."""
        from datetime import datetime, timezone

        g = create(client)
        days = {datetime.now(timezone.utc)}
        record(client, g, 1, "Ann", {"Ben": ["A"], "Cy": ["2"], "Dee": ["3"]})
        pages = {lang: client.get(f"/g/{g['edit_token']}/history?lang={lang}").get_data(as_text=True)
                 for lang in ("en", "de", "pt")}
        days.add(datetime.now(timezone.utc))
        written = {"en": "%d/%m/%Y, %H:", "de": "%d.%m.%y, %H:", "pt": "%d/%m/%Y %H:"}
        for lang, html in pages.items():
            assert any(d.strftime(written[lang]) in html for d in days), (lang, re.findall(r"[0-9][0-9/.,: ]+", html))
        assert client.get("/g/nope/history").status_code == 404

    def test_export_import_round_trip(self, client):
        g = create(client, variants=["nine_hands"])
        client.post(f"/api/v1/games/{g['id']}/buys", json={"hand": 1, "player": "Cy"}, headers=auth(g["edit_token"]))
        record(client, g, 1, "Ann", {"Ben": 45, "Cy": ["2", "JK"], "Dee": ["3H"]})
        exported = client.get(f"/g/{g['edit_token']}/export.json").json
        r = client.post("/import", data={"json": json.dumps(exported)})
        assert r.status_code == 302
        again = client.get(r.location.replace("/g/", "/g/", 1) + "/export.json").json
        for key in ("ruleset", "variants", "options", "players", "hands", "buys", "down", "totals"):
            assert again[key] == exported[key], key
        csv = client.get(f"/g/{g['edit_token']}/export.csv").get_data(as_text=True)
        assert csv.splitlines()[0] == "Hand,Went out,Ann,Ben,Cy,Dee,Buys: Ann,Buys: Ben,Buys: Cy,Buys: Dee"
        assert csv.splitlines()[1] == "1,Ann,0,45,20,5,0,0,1,0"

    def test_bad_import(self, client):
        assert client.post("/import", data={"json": "{nope"}).status_code == 400
        assert client.post("/import", data={"json": json.dumps({"format": 1, "ruleset": "gin"})}).status_code == 400

    def test_my_games(self, client):
        client.post("/new", data={"family": "liverpool", "name": ["A", "B", "C"], "action": "start"})
        html = client.get("/games").get_data(as_text=True)
        assert "A, B, C" in html

    def test_winner_and_chart(self, client):
        g = create(client, ruleset="progressive")
        for n in range(1, 8):
            record(client, g, n, "Ann", {"Ben": ["5"], "Cy": ["5"], "Dee": ["K"]})
        state = client.get(f"/api/v1/games/{g['id']}", headers=auth(g["view_token"])).json
        assert state["finished"] and state["winner"] == "Ann" and state["current_hand"] is None
        html = client.get(f"/g/{g['view_token']}").get_data(as_text=True)
        assert "Ann wins" in html and "<polyline" in html


def test_two_phones_save_the_same_hand(app, client):
    """Both phones press save at once: exactly one hand is recorded; the other is told."""
    g = create(client)
    barrier = threading.Barrier(2)
    codes = []

    def phone(out):
        c = app.test_client()
        barrier.wait()
        codes.append(record(c, g, 1, out, {n: ["5"] for n in PLAYERS if n != out}).status_code)

    threads = [threading.Thread(target=phone, args=(name,)) for name in ("Ann", "Ben")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [201, 409]
    state = client.get(f"/api/v1/games/{g['id']}", headers=auth(g["edit_token"])).json
    assert len(state["hands"]) == 1


def test_referee_opens_preset_to_the_game(client):
    g = create(client, ruleset="progressive", variants=["california"], options={"joker_swap": True})
    client.post(f"/g/{g['edit_token']}/down", data={"seat": "2", "hand": "1", "down": "1"})
    html = client.get(f"/g/{g['edit_token']}").get_data(as_text=True)
    link = re.search(r'href="(/referee/check\?[^"]+)"', html).group(1).replace("&amp;", "&")
    assert "family=progressive" in link and "variants=california" in link and "opt_joker_swap=yes" in link
    assert "gone_down=Cy" in link
    page = client.get(link).get_data(as_text=True)
    assert 'value="california" checked' in page and "Cy" in page
    assert re.search(r'<option value="yes" selected>', page)


def test_exact_cut_bonus(client):
    g = create(client, variants=["exact_cut_bonus"])
    r = client.post(f"/api/v1/games/{g['id']}/hands", json={"hand": 1, "out": "Ann", "exact_cut": True,
                    "leftovers": {"Ben": ["K"], "Cy": ["A"], "Dee": 5}}, headers=auth(g["edit_token"]))
    assert r.status_code == 201 and r.json["penalties"]["Ben"] == 0  # Ben cut (left of Ann, the dealer): 10 − 10
    exported = client.get(f"/g/{g['edit_token']}/export.json").json
    again = client.get(client.post("/import", data={"json": json.dumps(exported)}).location + "/export.json").json
    assert again["hands"] == exported["hands"] and again["totals"] == exported["totals"]
    html = client.get(f"/g/{g['edit_token']}/hands/1").get_data(as_text=True)
    assert 'name="exact_cut" value="1" checked' in html


def test_custom_contracts_from_the_setup_screen(client):
    r = client.post("/new", data={"family": "progressive", "name": ["A", "B", "C"], "variants": "custom_contracts",
                                  "opt_contracts": "R7\nS3 S3", "action": "start"})
    assert r.status_code == 302
    html = client.get(r.location).get_data(as_text=True)
    assert "Hand 1 of 2" in html and "a run of 7" in html


def test_liverpool_tie_is_replayed(client):
    g = create(client, players=["Ann", "Ben", "Cy"])
    for n in range(1, 7):  # Ann and Ben go out by turns …
        out, other = ("Ann", "Ben") if n % 2 else ("Ben", "Ann")
        assert record(client, g, n, out, {other: ["5"], "Cy": ["K"]}).status_code == 201
    assert record(client, g, 7, "Cy", {"Ann": ["5"], "Ben": ["5"]}).status_code == 201  # … and tie the last hand
    state = client.get(f"/api/v1/games/{g['id']}", headers=auth(g["view_token"])).json
    assert state["finished"] and state["decided_by"] == "replay" and state["winner"] is None
    html = client.get(f"/g/{g['edit_token']}").get_data(as_text=True)
    assert "replay the last hand" in html and "Save the replayed hand" in html
    r = record(client, g, 8, "Ben", {"Ann": ["K"], "Cy": ["A"]})
    assert r.status_code == 201
    state = client.get(f"/api/v1/games/{g['id']}", headers=auth(g["view_token"])).json
    assert state["winner"] == "Ben" and state["decided_by"] == "replayed" and len(state["replays"]) == 1
    assert state["totals"] == {n: sum(h["penalties"][n] for h in state["hands"]) for n in ["Ann", "Ben", "Cy"]}
    assert r.json["totals"] == state["totals"]  # the save's answer: the replayed hand does not count to them
    assert record(client, g, 9, "Ann", {"Ben": ["K"], "Cy": ["A"]}).json["error"]["code"] == "past_last_hand"
    exported = client.get(f"/g/{g['edit_token']}/export.json").json
    again = client.get(client.post("/import", data={"json": json.dumps(exported)}).location + "/export.json").json
    assert again["hands"] == exported["hands"] and again["winners"] == ["Ben"]
