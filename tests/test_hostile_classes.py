"""Every class of hostile input a stranger on the network was seen to send (each was a 500 once), sent to every
JSON endpoint and every form on SQLite and PostgreSQL: never a 5xx, answers always UTF-8, a game changed only
as asked, an import all or nothing and checked as live entry is, and the caps on what one request may send.
(tests/test_hostile.py fuzzes the same classes.)"""

from __future__ import annotations

import io
import json
import re

import pytest
from sqlalchemy import func, select

from referee.web.models import Game, db
from tests.test_games import auth, create

DEEP = "[" * 100_000 + "]" * 100_000
SURROGATE = "Ann\ud800"
HUGE = 2**70


def deep_json(depth: int) -> str:
    return '{"a": ' * depth + "1" + "}" * depth


def raw_json(value) -> bytes:
    """Text as a hostile client writes it: lone surrogates as \\u escapes, Infinity as such."""
    return value.encode() if isinstance(value, str) else json.dumps(value).encode()


HOSTILE_BODIES = {
    "deeply nested": [DEEP, deep_json(5000), deep_json(60), '{"players": ' + "[" * 3000 + "]" * 3000 + "}"],
    "lone surrogates": [{"ruleset": SURROGATE, "players": [SURROGATE, "B", "C"]},
                        {"ruleset": "liverpool", "players": [SURROGATE, "Ben", "Cy"], "lang": SURROGATE},
                        {"ruleset": "liverpool", "hand": 1, "cards": [SURROGATE], "melds": [[SURROGATE]],
                         "meld": [SURROGATE], "card": SURROGATE, "player": SURROGATE, "out": SURROGATE,
                         "leftovers": {SURROGATE: ["K"]}, "seats": [SURROGATE], "current": SURROGATE,
                         "callers": [SURROGATE], "variants": [SURROGATE], "options": {SURROGATE: SURROGATE}}],
    "wrong types": [{"ruleset": "liverpool", "hand": 1, "player": [], "out": {}, "players": [[], {}, 1],
                     "leftovers": [], "seats": {}, "current": [], "callers": {}, "cards": {}, "melds": {},
                     "meld": 7, "card": [], "variants": {}, "options": [], "buys_used": [], "first_dealer": []},
                    {"ruleset": [], "hand": "1", "player": {"a": 1}, "out": [1], "leftovers": {"Ann": {}},
                     "players": "Ann", "version": "2", "exact_cut": "yes"},
                    {"ruleset": {}, "players": {"Ann": 1}, "out": True, "player": 1.5, "hand": True},
                    [], "text", 7, None],
    "integers past 64 bits": [{"ruleset": "liverpool", "hand": HUGE, "version": HUGE, "players": HUGE,
                               "first_dealer": HUGE, "cards_left": HUGE, "out": "Ann",
                               "leftovers": {"Ben": HUGE, "Cy": -HUGE}, "player": "Ann",
                               "buys_used": {"Ann": HUGE}, "options": {"buy_limit": HUGE, "decks": HUGE}},
                              {"ruleset": "liverpool", "hand": -HUGE, "version": -HUGE, "players": ["A", "B", "C"],
                               "first_dealer": -HUGE}],
    "non-finite numbers": ['{"ruleset": "liverpool", "hand": 1e400, "version": Infinity, "players": NaN}',
                           '{"ruleset": "liverpool", "hand": 1, "out": "Ann", "leftovers": {"Ben": -Infinity}}'],
    "NUL bytes": [{"ruleset": "liverpool\x00", "players": ["A\x00", "B", "C"]},
                  {"ruleset": "liverpool", "hand": 1, "out": "Ann\x00", "player": "\x00", "leftovers": {"\x00": ["K"]},
                   "cards": ["\x00"], "melds": [["7H\x00"]], "meld": ["\x00"], "card": "\x00"}],
}
JSON_ENDPOINTS = ["check", "layoff", "swap", "arrange", "penalty", "buy", "games"]


def game_paths(g):
    return [("POST", f"/api/v1/games/{g['id']}/hands"), ("POST", f"/api/v1/games/{g['id']}/buys"),
            ("PUT", f"/api/v1/games/{g['id']}/hands/1")]


def count_games(app) -> int:
    with app.app_context():
        return db.session.execute(select(func.count()).select_from(Game)).scalar_one()


@pytest.mark.parametrize("kind", list(HOSTILE_BODIES))
def test_every_hostile_class_on_every_json_endpoint(client, kind):
    g = create(client, players=["Ann", "Ben", "Cy"])
    for body in HOSTILE_BODIES[kind]:
        data = raw_json(body)
        for path in JSON_ENDPOINTS:
            r = client.post(f"/api/v1/{path}", data=data, content_type="application/json")
            assert r.status_code < 500 and (r.status_code in (200, 201) or "error" in r.json), (path, r.data[:200])
            r.get_data().decode("utf-8")  # the answer is UTF-8 whatever came in
        for method, path in game_paths(g):
            r = client.open(path, method=method, data=data, content_type="application/json",
                            headers=auth(g["edit_token"]))
            assert r.status_code < 500 and "error" in r.json, (path, r.json)
        for field in ("json",):
            r = client.post("/import", data={field: data.decode()})
            assert r.status_code in (400, 413, 422), r.status_code
        r = client.post("/import", data={"file": (io.BytesIO(data), "game.json")}, content_type="multipart/form-data")
        assert r.status_code in (400, 413, 422), r.status_code
    state = client.get(f"/api/v1/games/{g['id']}", headers=auth(g["view_token"])).json
    assert state["hands"] == [] and state["buys"] == {}


def urlencoded(pairs) -> bytes:
    return "&".join(f"{k}={v}" for k, v in pairs).encode()


# raw form values, already URL-encoded: NUL, a lone surrogate as UTF-8 bytes (invalid), huge numbers, markup
FORM_VALUES = ["%00", "A%00B", "%ED%A0%80", "Ann%ED%A0%80", "9" * 40, "-" + "9" * 40, "1e400", "Infinity",
               "%3Cscript%3E", "%F0%9F%83%8F" * 30, "", "%C0%80"]
API_FORM_FIELDS = ["name", "family", "hand", "version", "seat", "out", "cards_0", "cards_1", "total_0", "total_1",
               "exact_cut", "down", "action", "variants", "opt_buy_limit", "opt_decks", "opt_contracts", "first_dealer",
               "json", "token", "melds", "cards", "meld", "card", "seats", "current", "callers", "buys_used",
               "gone_down", "players"]


def test_every_hostile_form_value_on_every_form(client):
    g = create(client, players=["Ann", "Ben", "Cy"])
    before = client.get(f"/api/v1/games/{g['id']}", headers=auth(g["view_token"])).json["version"]
    paths = ["/new", "/import", "/games/forget", "/referee/check", "/referee/arrange", "/referee/layoff",
             "/referee/swap", "/referee/buy"] + [f"/g/{g['edit_token']}{p}" for p in
                                                 ("/hand", "/buy", "/down", "/undo", "/hands/1")]
    for value in FORM_VALUES:
        pairs = [(f, value) for f in API_FORM_FIELDS]
        for path in paths:
            r = client.post(path, data=urlencoded(pairs), content_type="application/x-www-form-urlencoded")
            assert r.status_code < 500, (path, value, r.status_code)
        for path in ("/", "/rules/search", "/new", "/referee/check", "/import"):
            r = client.get(path + "?" + urlencoded(pairs).decode())
            assert r.status_code < 500, (path, value)
    assert client.get(f"/api/v1/games/{g['id']}", headers=auth(g["view_token"])).json["version"] == before


@pytest.mark.parametrize("token", ["%00", "abc%00def", "%ED%A0%80", "a" * 65, "..%2F..", "%C0%80", "x" * 10_000])
def test_hostile_links_open_nothing(client, token):
    for path in ("", "/board", "/history", "/share", "/sheet", "/export.csv", "/export.json"):
        assert client.get(f"/g/{token}{path}").status_code == 404, (token, path)
    for path in ("/hand", "/undo", "/buy", "/down", "/delete"):
        assert client.post(f"/g/{token}{path}", data={"hand": "1"}).status_code == 404
    client.set_cookie("my_games", json.dumps(["a\x00b", "\ud800", token[:80]]))
    assert client.get("/games").status_code == 200


def test_names_with_nul_and_surrogates_are_cleaned_on_every_database(client):
    r = client.post("/api/v1/games", data=raw_json({"ruleset": "liverpool", "players": ["A\x00nn", "B\ud800en", "Cy\x07"]}),
                    content_type="application/json")
    assert r.status_code == 201, r.json
    state = client.get(f"/api/v1/games/{r.json['id']}", headers=auth(r.json["view_token"])).json
    assert state["players"] == ["Ann", "Ben", "Cy"]
    r = client.post("/api/v1/games", data=raw_json({"ruleset": "liverpool", "players": ["\x00", "Ben", "Cy"]}),
                    content_type="application/json")
    assert r.status_code == 422 and r.json["error"]["code"] == "empty_name"


# ------------------------------------------------------------------------------------ caps
def test_a_body_past_the_cap_gets_413_before_it_is_read(client):
    big = b'{"ruleset": "liverpool", "cards": ["' + b"7H " * 120_000 + b'"]}'
    for path in ("/api/v1/check", "/api/v1/games", "/api/v1/arrange"):
        r = client.post(path, data=big, content_type="application/json")
        assert r.status_code == 413 and r.json["error"]["code"] == "too_large"
    r = client.post("/new", data=urlencoded([("name", "x")] * 100_000), content_type="application/x-www-form-urlencoded",
                    headers={"Accept-Language": "de"})
    assert r.status_code == 413 and "KB" in r.get_data(as_text=True)


def test_new_caps_the_names_at_the_familys_most(client):
    r = client.post("/new", data=urlencoded([("family", "contract")] + [("name", f"P{i}") for i in range(5000)]),
                    content_type="application/x-www-form-urlencoded")
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and len(html) < 100_000
    kept = [int(n) for n in re.findall(r'name="name" value="P([0-9]+)"', html)]
    assert html.count('name="name"') <= 5 and all(n < 5 for n in kept)  # contract: 3-5 players
    assert count_games(client.application) == 0


def test_an_import_past_its_cap_is_refused(client):
    g = create(client, players=["Ann", "Ben", "Cy"])
    exported = json.loads(client.get(f"/g/{g['edit_token']}/export.json").data)
    padded = json.dumps(exported | {"padding": "x" * 210_000})
    r = client.post("/import", data={"file": (io.BytesIO(padded.encode()), "game.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 413
    assert count_games(client.application) == 1


# ------------------------------------------------------------------------------------ imports: all or nothing
def _exported(client):
    g = create(client, players=["Ann", "Ben", "Cy"])
    c = client
    c.post(f"/api/v1/games/{g['id']}/buys", json={"hand": 1, "player": "Ben"}, headers=auth(g["edit_token"]))
    c.post(f"/api/v1/games/{g['id']}/hands", json={"hand": 1, "out": "Ann", "leftovers": {"Ben": ["K"], "Cy": 20}},
           headers=auth(g["edit_token"]))
    c.post(f"/api/v1/games/{g['id']}/hands", json={"hand": 2, "out": "Cy", "leftovers": {"Ben": ["7"], "Ann": ["A"]}},
           headers=auth(g["edit_token"]))
    return json.loads(client.get(f"/g/{g['edit_token']}/export.json").data)


def _broken(data, how):
    d = json.loads(json.dumps(data))
    if how == "hands are text":
        d["hands"] = ["x"]
    elif how == "leftovers as a list":
        d["hands"][1]["leftovers"] = [["K"]]
    elif how == "a total of 1e400":
        return json.dumps(d).replace('"Cy": 20', '"Cy": 1e400')
    elif how == "a total of Infinity":
        return json.dumps(d).replace('"Cy": 20', '"Cy": Infinity')
    elif how == "a huge total":
        d["hands"][0]["penalties"]["Cy"] = HUGE
    elif how == "a huge buy hand":
        d["buys"] = [{"hand": HUGE, "player": "Ben"}]
    elif how == "60000 buys in one hand":
        d["buys"] = [{"hand": 1, "player": "Ben"}] * 60_000
    elif how == "more buys than the limit":
        d["buys"] = [{"hand": 1, "player": "Ben"}] * 4
    elif how == "a down in hand -5":
        d["down"] = [{"hand": -5, "player": "Ben"}]
    elif how == "a buy in a later hand":
        d["buys"] = [{"hand": 7, "player": "Ben"}]
    elif how == "a gap in the hands":
        d["hands"] = [d["hands"][1]]
    elif how == "a player who is not there":
        d["hands"][1]["out"] = "Zed"
    elif how == "a card nobody has":
        d["hands"][1]["leftovers"]["Ben"] = ["ZZ"]
    elif how == "deeply nested":
        d["options"] = json.loads(deep_json(15))
        return json.dumps(d)[:-1] + ', "x": ' + deep_json(30) + "}"
    elif how == "a bool as the hand":
        d["hands"][0]["hand"] = True
    elif how == "players as text":
        d["players"] = "Ann"
    return json.dumps(d)


BROKEN = ["hands are text", "leftovers as a list", "a total of 1e400", "a total of Infinity", "a huge total",
          "a huge buy hand", "60000 buys in one hand", "more buys than the limit", "a down in hand -5",
          "a buy in a later hand", "a gap in the hands", "a player who is not there", "a card nobody has",
          "deeply nested", "a bool as the hand", "players as text"]


def test_a_whole_import_restores_the_game(client):
    data = _exported(client)
    assert len(data["hands"]) == 2 and data["buys"] == [{"hand": 1, "player": "Ben"}]
    r = client.post("/import", data={"json": json.dumps(data)})
    assert r.status_code == 302
    again = json.loads(client.get(r.headers["Location"] + "/export.json").data)
    assert {k: v for k, v in again.items() if k != "created_at"} == {k: v for k, v in data.items() if k != "created_at"}


@pytest.mark.parametrize("how", BROKEN)
def test_a_malformed_import_leaves_nothing_behind(client, how):
    text = _broken(_exported(client), how)
    games = count_games(client.application)
    r = client.post("/import", data={"json": text}, headers={"Accept-Language": "es"})
    assert r.status_code in (400, 413, 422), (how, r.status_code)
    assert "error" in r.get_data(as_text=True) or "class=\"error" in r.get_data(as_text=True) or r.status_code
    assert count_games(client.application) == games, how  # all or nothing


def test_an_import_is_checked_as_live_entry_is(client):
    """The limit on buys (Liverpool: three a hand) and the hand being played hold for an import as for a phone."""
    data = _exported(client)
    live = create(client, players=["Ann", "Ben", "Cy"])
    for _ in range(4):
        last = client.post(f"/api/v1/games/{live['id']}/buys", json={"hand": 1, "player": "Ben"},
                           headers=auth(live["edit_token"]))
    assert last.status_code == 409 and last.json["reason_code"] == "limit_reached"
    r = client.post("/import", data={"json": _broken(data, "more buys than the limit")})
    assert r.status_code == 422 and "Ben" in r.get_data(as_text=True)
    assert count_games(client.application) == 2
    r = client.post("/import", data={"json": _broken(data, "a down in hand -5")})
    assert r.status_code == 422 and "-5" in r.get_data(as_text=True)
    assert count_games(client.application) == 2


