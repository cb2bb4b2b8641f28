"""Races between phones: every write to a game is serialised and checks what it read under the game's lock.

Each race starts two requests at the same moment (a barrier) from two threads and runs many times, on SQLite
and on PostgreSQL. Whatever order the database lets them in, the game never holds a gap, never gets stuck, and
no request gets a 500: each either does its work (200/201, or the redirect of a form) or is refused (409/422).
"""

from __future__ import annotations

import threading
from html import unescape

from tests.kit import refusal, said
from tests.test_games import auth

PLAYERS = ["Ann", "Ben", "Cy"]
HAND = {"out": "Ann", "leftovers": {"Ben": ["K"], "Cy": ["7"]}}
FORM = {"out": "0", "cards_1": "K", "cards_2": "7"}


def together(*calls):
    """Run the calls at the same moment, one thread each; their answers in order."""
    barrier = threading.Barrier(len(calls))
    answers: list = [None] * len(calls)
    failures: list = []

    def run(i, call):
        try:
            barrier.wait(timeout=10)
            answers[i] = call()
        except BaseException as e:  # noqa: BLE001 - reported below, with the thread's answer missing
            failures.append(e)

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not failures, failures
    return answers


def game_with_hands(app, n):
    c = app.test_client()
    g = c.post("/api/v1/games", json={"ruleset": "liverpool", "players": PLAYERS}).json
    for number in range(1, n + 1):
        r = c.post(f"/api/v1/games/{g['id']}/hands", json={"hand": number, **HAND}, headers=auth(g["edit_token"]))
        assert r.status_code == 201, r.json
    return g


def read(app, g):
    return app.test_client().get(f"/api/v1/games/{g['id']}", headers=auth(g["view_token"])).json


def assert_whole_and_playable(app, g):
    """The hands are 1..n with no gap, and the next one can be recorded."""
    state = read(app, g)
    numbers = [h["hand"] for h in state["hands"]]
    assert numbers == list(range(1, len(numbers) + 1)), numbers
    assert state["current_hand"] == len(numbers) + 1
    nxt = app.test_client().post(f"/api/v1/games/{g['id']}/hands", json={"hand": len(numbers) + 1, **HAND},
                                 headers=auth(g["edit_token"]))
    assert nxt.status_code == 201, nxt.json
    return numbers


def test_undo_racing_the_next_hand_leaves_no_gap(app):
    """Hands 1-3 recorded; one phone undoes (hand 3) while another saves hand 4, 50 times over. Half the time
    the forms carry the version they were drawn from (as the pages send it), half the time they do not."""
    seen = set()
    for trial in range(50):
        g = game_with_hands(app, 3)
        version = read(app, g)["version"]
        with_version = trial % 2 == 0
        extra = {"version": str(version)} if with_version else {}
        edit = g["edit_token"]
        undo, record = together(
            lambda: app.test_client().post(f"/g/{edit}/undo", data=extra),
            lambda: app.test_client().post(f"/g/{edit}/hand", data={"hand": "4", **FORM, **extra}))
        assert undo.status_code == 302
        assert record.status_code in (302, 409, 422), record.get_data(as_text=True)[:300]
        numbers = assert_whole_and_playable(app, g)
        if record.status_code == 302:  # the hand came first: the undo was refused (stale), or undid hand 4
            assert numbers == ([1, 2, 3, 4] if with_version else [1, 2, 3])
            seen.add("record first")
        else:  # the undo came first: hand 4 is refused (the page is stale, or hand 3 comes first)
            assert numbers == [1, 2]
            assert record.status_code == (409 if with_version else 422)
            seen.add("undo first")
    assert seen  # at least one order happened (which ones, the databases decide)


def test_two_corrections_without_a_version(app):
    """Two clients correct the same hand at once with no version: both are applied in turn, or one is refused;
    never a 500, and the hand holds one of the two corrections whole."""
    bodies = [{"out": "Ben", "leftovers": {"Ann": ["K"], "Cy": ["2"]}},
              {"out": "Cy", "leftovers": {"Ann": ["A"], "Ben": ["Q"]}}]
    for _ in range(20):
        g = game_with_hands(app, 2)
        answers = together(*[lambda b=b: app.test_client().put(f"/api/v1/games/{g['id']}/hands/2", json=b,
                                                               headers=auth(g["edit_token"])) for b in bodies])
        assert all(a.status_code in (200, 409) for a in answers), [(a.status_code, a.json) for a in answers]
        assert any(a.status_code == 200 for a in answers)
        hand = read(app, g)["hands"][1]
        assert (hand["out"], set(hand["penalties"])) in (("Ben", {"Ann", "Ben", "Cy"}), ("Cy", {"Ann", "Ben", "Cy"}))
        assert hand["penalties"][hand["out"]] == 0
        assert_whole_and_playable(app, g)


def test_a_correction_racing_an_undo(app):
    """One phone undoes hand 3 while a client corrects it: the correction lands (then the undo is stale or
    undoes it), or the hand is gone and the correction gets 409 (or 404 if the undo was over before the
    correction arrived). Never a 500."""
    for trial in range(20):
        g = game_with_hands(app, 3)
        version = read(app, g)["version"]
        extra = {"version": str(version)} if trial % 2 == 0 else {}
        correction = {"out": "Ben", "leftovers": {"Ann": ["K"], "Cy": ["2"]}}
        undo, correct = together(
            lambda: app.test_client().post(f"/g/{g['edit_token']}/undo", data=extra),
            lambda: app.test_client().put(f"/api/v1/games/{g['id']}/hands/3", json=correction,
                                          headers=auth(g["edit_token"])))
        assert undo.status_code == 302
        assert correct.status_code in (200, 404, 409), correct.json
        numbers = assert_whole_and_playable(app, g)
        if correct.status_code == 409:  # the undo came first, while the correction waited for the lock
            assert correct.json["error"]["code"] == "stale" and numbers == [1, 2]
        if correct.status_code == 404:  # the undo was over before the correction was read: no such hand
            assert correct.json["error"]["code"] == "no_such_hand" and numbers == [1, 2]


def test_a_stale_record_form_is_refused_and_keeps_what_was_typed(client):
    """The record form carries the version it was drawn from: if the game changed since (an undo elsewhere),
    nothing is saved, the answer says so, and the typed cards are still in the form."""
    g = game_with_hands(client.application, 2)
    version = read(client.application, g)["version"]
    assert client.post(f"/g/{g['edit_token']}/undo", data={"version": str(version)}).status_code == 302
    r = client.post(f"/g/{g['edit_token']}/hand", data={"hand": "3", "version": str(version), "out": "0",
                                                         "cards_1": "K Q", "cards_2": "7"})
    assert r.status_code == 409
    html = r.get_data(as_text=True)
    assert refusal("stale") in unescape(html) and 'value="K Q"' in html
    assert [h["hand"] for h in read(client.application, g)["hands"]] == [1]


def test_a_stale_correction_is_refused_and_keeps_what_was_typed(client):
    """The correction page, opened before someone else changed the game, saves nothing, says why, keeps the
    typed correction and carries the game's new version, so sending it again saves it."""
    g = game_with_hands(client.application, 2)
    version = read(client.application, g)["version"]
    r = client.put(f"/api/v1/games/{g['id']}/hands/2", json={**HAND, "version": version}, headers=auth(g["edit_token"]))
    assert r.status_code == 200, r.json  # another phone corrects hand 2 meanwhile
    typed = {"version": str(version), "out": "0", "cards_1": "K Q", "cards_2": "7"}
    r = client.post(f"/g/{g['edit_token']}/hands/1", data=typed)
    assert r.status_code == 409
    html = r.get_data(as_text=True)
    assert said("Someone changed this game since you opened this page.") in html and 'value="K Q"' in html
    now = read(client.application, g)
    assert now["version"] != version and f'name="version" value="{now["version"]}"' in html
    assert client.post(f"/g/{g['edit_token']}/hands/1", data={**typed, "version": str(now["version"])}
                       ).status_code == 302
    assert read(client.application, g)["hands"][0]["penalties"] == {"Ann": 0, "Ben": 20, "Cy": 5}


def test_versions_no_game_has_are_refused_not_a_crash(client):
    g = game_with_hands(client.application, 1)
    for version in (2**70, -(2**70), 0, -3):
        r = client.put(f"/api/v1/games/{g['id']}/hands/1", json={**HAND, "version": version},
                       headers=auth(g["edit_token"]))
        assert r.status_code == 409 and r.json["error"]["code"] == "stale", version
        r = client.post(f"/api/v1/games/{g['id']}/hands", json={"hand": 2, **HAND, "version": version},
                        headers=auth(g["edit_token"]))
        assert r.status_code == 409 and r.json["error"]["code"] == "stale", version
    for version in ("99999999999999999999999", "x", "-1"):
        r = client.post(f"/g/{g['edit_token']}/undo", data={"version": version})
        assert r.status_code == 302
    assert len(read(client.application, g)["hands"]) == 1


def test_a_hand_scored_before_its_turn_is_scored_again_if_another_phone_wrote_meanwhile(app, monkeypatch):
    """A save scores the hand before it takes the turn to write (the turn is then held for the writes only);
    what it scored is kept only if the turn finds the version it read."""
    from referee.web.scoreboard import services

    g = game_with_hands(app, 0)
    scored = []
    real = services.score

    def score(*args, **kwargs):
        scored.append(args[2])
        if len(scored) == 1 and meanwhile:  # another phone writes between this read and this save's turn
            r = app.test_client().post(f"/api/v1/games/{g['id']}/buys", json={"player": "Ben", "hand": 2},
                                       headers=auth(g["edit_token"]))
            assert r.status_code == 201, r.json
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "score", score)
    meanwhile = False
    r = app.test_client().post(f"/api/v1/games/{g['id']}/hands", json={"hand": 1, **HAND},
                               headers=auth(g["edit_token"]))
    assert r.status_code == 201 and scored == [1]  # nothing written meanwhile: scored once, before the turn
    scored.clear()
    meanwhile = True
    r = app.test_client().post(f"/api/v1/games/{g['id']}/hands", json={"hand": 2, **HAND},
                               headers=auth(g["edit_token"]))
    assert r.status_code == 201 and scored == [2, 2]  # the buy came in between: scored again under the turn
    assert [h["hand"] for h in read(app, g)["hands"]] == [1, 2]


def test_the_same_hand_saved_by_two_phones_at_once(app):
    """Two phones save the same hand through the API at the same moment, 20 times over: one is recorded, the other
    is told so (409) with the hands as the game's lock found them, the one just recorded among them: the game
    the second one read first is read again under the lock."""
    for _ in range(20):
        g = game_with_hands(app, 1)
        answers = together(*[lambda: app.test_client().post(f"/api/v1/games/{g['id']}/hands",
                                                            json={"hand": 2, **HAND}, headers=auth(g["edit_token"]))
                             for _ in range(2)])
        assert sorted(a.status_code for a in answers) == [201, 409], [(a.status_code, a.json) for a in answers]
        told = next(a for a in answers if a.status_code == 409).json
        assert told["error"]["code"] == "already_recorded"
        assert [h["hand"] for h in told["recorded"]] == [1, 2]
        assert assert_whole_and_playable(app, g) == [1, 2]
