"""A write sent again with the same request id (``static/outbox.js`` retrying a send whose answer was lost) is
applied once, on SQLite and on PostgreSQL: a hand, a buy, a buy taken back, a player going down, a correction.
A write sent with a new id, or with none, is a new write, as before."""

from __future__ import annotations

from tests.conftest import auth, new_api_game
from tests.kit import said
from tests.test_races import PLAYERS, together

FORM = {"out": "0", "cards_1": "K", "cards_2": "7"}
HX = {"HX-Request": "true"}


def new_game(app) -> dict:
    return new_api_game(app.test_client(), PLAYERS)


def read(app, g) -> dict:
    return app.test_client().get(f"/api/v1/games/{g['id']}", headers=auth(g["view_token"])).json


def test_a_hand_sent_twice_with_one_id_is_recorded_once(app):
    g = new_game(app)
    c = app.test_client()
    body = {"hand": "1", **FORM, "request_id": "hand-one-abc"}
    first = c.post(f"/g/{g['edit_token']}/hand", data=body, headers=HX)
    assert first.status_code == 204 and first.headers["HX-Redirect"].endswith(f"/g/{g['edit_token']}")
    again = c.post(f"/g/{g['edit_token']}/hand", data=body, headers=HX)
    assert again.status_code == 204  # answered as the first send was: the phone opens the game, nothing is said wrong
    state = read(app, g)
    assert [h["hand"] for h in state["hands"]] == [1] and state["totals"] == {"Ann": 0, "Ben": 10, "Cy": 5}
    # the same request replayed after hand 2 is on: still hand 1's save, hand 2 untouched
    assert c.post(f"/g/{g['edit_token']}/hand", data={"hand": "2", **FORM, "request_id": "hand-two-abc"},
                  headers=HX).status_code == 204
    assert c.post(f"/g/{g['edit_token']}/hand", data=body, headers=HX).status_code == 204
    assert len(read(app, g)["hands"]) == 2
    # without an id, the same entry sent again is another phone's save of a recorded hand: said so
    plain = c.post(f"/g/{g['edit_token']}/hand", data={"hand": "2", **FORM})
    assert plain.status_code in (302, 303, 409)


def test_a_hand_sent_twice_at_once_is_recorded_once(app):
    g = new_game(app)
    body = {"hand": "1", **FORM, "request_id": "both-at-once"}
    answers = together(*[lambda: app.test_client().post(f"/g/{g['edit_token']}/hand", data=body, headers=HX)] * 2)
    assert [a.status_code for a in answers] == [204, 204]
    assert len(read(app, g)["hands"]) == 1


def test_another_phones_different_entry_is_shown_beside_the_saved_one(app):
    g = new_game(app)
    c = app.test_client()
    assert c.post(f"/g/{g['edit_token']}/hand", data={"hand": "1", **FORM, "request_id": "phone-one-x"},
                  headers=HX).status_code == 204
    mine = {"hand": "1", "out": "0", "cards_1": "K 7", "cards_2": "7", "request_id": "phone-two-x"}
    r = c.post(f"/g/{g['edit_token']}/hand?lang=en", data=mine, headers=HX)
    assert r.status_code == 409
    html = r.get_data(as_text=True)
    assert said("Hand %(hand)s was saved by another phone first, with other entries.", hand=1) in html
    assert 'class="differs"' in html and "K 7" in html  # Ben's row: 10 saved, 15 on this phone
    assert f'action="/g/{g["edit_token"]}/hands/1"' in html  # one tap to correct
    assert read(app, g)["totals"]["Ben"] == 10


def test_a_buy_sent_twice_with_one_id_is_one_buy(app):
    g = new_game(app)
    c = app.test_client()
    buy = {"hand": "1", "seat": "1", "request_id": "buy-ben-1"}
    for _ in range(3):
        assert c.post(f"/g/{g['edit_token']}/buy", data=buy, headers=HX).status_code == 200
    assert read(app, g)["buys"] == {"Ben": 1}
    assert c.post(f"/g/{g['edit_token']}/buy", data={**buy, "request_id": "buy-ben-2"}, headers=HX).status_code == 200
    assert read(app, g)["buys"] == {"Ben": 2}
    take_back = {"hand": "1", "seat": "1", "action": "remove", "request_id": "take-back-1"}
    for _ in range(2):
        assert c.post(f"/g/{g['edit_token']}/buy", data=take_back, headers=HX).status_code == 200
    assert read(app, g)["buys"] == {"Ben": 1}  # one taken back, not both


def test_a_buy_sent_twice_at_once_is_one_buy(app):
    g = new_game(app)
    buy = {"hand": "1", "seat": "2", "request_id": "buy-cy-at-once"}
    answers = together(*[lambda: app.test_client().post(f"/g/{g['edit_token']}/buy", data=buy, headers=HX)] * 2)
    assert sorted(a.status_code for a in answers) == [200, 200]
    assert read(app, g)["buys"] == {"Cy": 1}


def test_going_down_sent_twice_is_said_once_in_the_history(app):
    g = new_game(app)
    c = app.test_client()
    down = {"hand": "1", "seat": "2", "down": "1", "request_id": "cy-down-1"}
    for _ in range(2):
        assert c.post(f"/g/{g['edit_token']}/down", data=down, headers=HX).status_code == 200
    assert read(app, g)["down"] == ["Cy"]
    history = c.get(f"/g/{g['edit_token']}/history?lang=en").get_data(as_text=True)
    assert history.count("went down") == 1


def test_a_correction_sent_twice_is_one_change(app):
    g = new_game(app)
    c = app.test_client()
    assert c.post(f"/g/{g['edit_token']}/hand", data={"hand": "1", **FORM}).status_code in (302, 303)
    fix = {"out": "0", "cards_1": "K K", "cards_2": "7", "request_id": "fix-hand-1"}
    for _ in range(2):
        r = c.post(f"/g/{g['edit_token']}/hands/1", data=fix, headers=HX)
        assert r.status_code == 204, r.get_data(as_text=True)[:300]
    assert read(app, g)["totals"]["Ben"] == 20
    c.post(f"/g/{g['edit_token']}/undo")  # one undo takes the one correction back
    assert read(app, g)["totals"]["Ben"] == 10


def test_an_id_that_is_not_one_is_ignored_not_trusted(app):
    g = new_game(app)
    c = app.test_client()
    for bad in ("x", "a" * 41, "bad id with spaces", "<script>alert(1)</script>"):
        r = c.post(f"/g/{g['edit_token']}/buy", data={"hand": "1", "seat": "1", "request_id": bad}, headers=HX)
        assert r.status_code == 200
    assert read(app, g)["buys"] == {"Ben": 3}  # four taps, each a buy of its own, up to the limit of three


# ------------------------------------------------------------------------------------------ the JSON API
def api_post(app, g, path, body, method="post"):
    r = getattr(app.test_client(), method)(f"/api/v1/games/{g['id']}{path}", json=body, headers=auth(g["edit_token"]))
    return r.status_code, r.json


def test_the_api_answers_a_hand_sent_twice_with_one_id_as_the_first_time(app):
    g = new_game(app)
    body = {"hand": 1, "out": "Ann", "leftovers": {"Ben": ["K"], "Cy": ["7"]}, "request_id": "api-hand-1"}
    first = api_post(app, g, "/hands", body)
    again = api_post(app, g, "/hands", body)
    assert first[0] == again[0] == 201
    assert first[1] == again[1] and first[1]["totals"] == {"Ann": 0, "Ben": 10, "Cy": 5}
    assert len(read(app, g)["hands"]) == 1
    # the same hand sent without an id is another client's save of a recorded hand: refused, as before
    status, refused = api_post(app, g, "/hands", {k: v for k, v in body.items() if k != "request_id"})
    assert status == 409 and refused["error"]["code"] == "already_recorded"


def test_the_api_counts_a_buy_sent_twice_with_one_id_once(app):
    g = new_game(app)
    body = {"hand": 1, "player": "Ben", "request_id": "api-buy-ben-1"}
    first = api_post(app, g, "/buys", body)
    again = api_post(app, g, "/buys", body)
    assert first == again and first[0] == 201 and first[1]["buys_left"] == 2
    assert read(app, g)["buys"] == {"Ben": 1}
    assert api_post(app, g, "/buys", {**body, "request_id": "api-buy-ben-2"})[1]["buys_left"] == 1
    assert read(app, g)["buys"] == {"Ben": 2}


def test_the_api_makes_a_correction_sent_twice_with_one_id_once(app):
    g = new_game(app)
    assert api_post(app, g, "/hands", {"hand": 1, "out": "Ann", "leftovers": {"Ben": ["K"], "Cy": ["7"]}})[0] == 201
    fix = {"out": "Ann", "leftovers": {"Ben": ["K", "K"], "Cy": ["7"]}, "request_id": "api-fix-1", "version": 2}
    first = api_post(app, g, "/hands/1", fix, method="put")
    again = api_post(app, g, "/hands/1", fix, method="put")  # its version is old now: still not a conflict
    assert first[0] == again[0] == 200 and first[1]["totals"] == again[1]["totals"] == {"Ann": 0, "Ben": 20, "Cy": 5}
    history = app.test_client().get(f"/g/{g['edit_token']}/history?lang=en").get_data(as_text=True)
    assert history.count("corrected") == 1


def test_the_api_refuses_a_request_id_that_is_not_one(app):
    g = new_game(app)
    for bad in ("short", "a" * 41, "with spaces here", 12345678):
        status, body = api_post(app, g, "/buys", {"hand": 1, "player": "Ben", "request_id": bad})
        assert status == 400 and body["error"]["field"] == "request_id", body
    assert read(app, g)["buys"] == {}


def test_a_tap_that_waited_while_its_hand_was_recorded_is_said_not_dropped(app):
    g = new_game(app)
    c = app.test_client()
    assert c.post(f"/g/{g['edit_token']}/hand", data={"hand": "1", **FORM}).status_code in (302, 303)
    for path, body in (("down", {"hand": "1", "seat": "2", "down": "1", "request_id": "late-down-1"}),
                       ("buy", {"hand": "1", "seat": "1", "request_id": "late-buy-1"})):
        r = c.post(f"/g/{g['edit_token']}/{path}?lang=en", data=body, headers=HX)
        assert r.status_code == 200
        assert "kept for the hand being played (hand 1 is not)" in r.get_data(as_text=True), path
    state = read(app, g)
    assert state["down"] == [] and state["buys"] == {}
