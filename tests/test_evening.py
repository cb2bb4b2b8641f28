"""A game kept all evening on a phone: the end of a hand, the standings, corrections, undo and redo, ending
early, players renamed and reseated, the setup screen's limits, sharing and the app's own error pages — on
SQLite and PostgreSQL, in the languages the table reads."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from referee.families import resolve
from referee.scoring import standings
from tests.conftest import auth
from tests.kit import refusal, said

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]


def create(client, ruleset="liverpool", players=PLAYERS, **extra):
    r = client.post("/api/v1/games", json={"ruleset": ruleset, "players": players} | extra)
    assert r.status_code == 201, r.json
    return r.json


def record(client, game, hand, out, leftovers):
    r = client.post(f"/api/v1/games/{game['id']}/hands", json={"hand": hand, "out": out, "leftovers": leftovers},
                    headers=auth(game["edit_token"]))
    assert r.status_code == 201, r.json
    return r


def state(client, game):
    return client.get(f"/api/v1/games/{game['id']}", headers=auth(game["edit_token"])).json


def page(client, game, path="", lang="en", view=False):
    token = game["view_token"] if view else game["edit_token"]
    return client.get(f"/g/{token}{path}?lang={lang}").get_data(as_text=True)


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# ------------------------------------------------------------------------------------------ the end of a hand
class TestRecordForm:
    def test_the_player_who_went_out_is_folded_to_one_line(self, client):
        g = create(client)
        r = client.post(f"/g/{g['edit_token']}/hand?lang=es", data={"hand": "1", "out": "1", "cards_0": "A",
                                                                     "cards_2": "ZZ", "cards_3": "2"})
        assert r.status_code == 422
        html = r.get_data(as_text=True)
        out_block = re.search(r'<fieldset class="leftovers([^"]*)" data-seat="1"([^>]*)>(.*?)</fieldset>', html, re.S)
        assert "went-out" in out_block.group(1) and "disabled" in out_block.group(2)
        assert said("%(name)s went out: 0 points", "es", name="Ben") in out_block.group(3)
        for seat in (0, 2, 3):  # the others keep their blocks open, and what was typed
            other = re.search(rf'<fieldset class="leftovers([^"]*)" data-seat="{seat}"', html)
            assert "went-out" not in other.group(1)
        assert 'value="ZZ"' in html

    @pytest.mark.parametrize("lang", ["en", "es", "de", "pt"])
    def test_gone_down_says_both_states(self, client, lang):
        down, not_down = (said(w, lang).replace("\u00ad", "") for w in ("Down", "Not down"))
        g = create(client)
        client.post(f"/g/{g['edit_token']}/down", data={"seat": "2", "hand": "1", "down": "1"})
        for view in (False, True):
            html = page(client, g, lang=lang, view=view)
            cells = re.findall(r'<td class="down">(.*?)</td>', html, re.S)
            words = [text(c).replace("\u00ad", "").strip() for c in cells]  # a soft hyphen is not seen
            assert [not_down in w and down not in w.replace(not_down, "") for w in words] == [True, True, False, True]
            assert down in words[2] and "✓" in words[2]
        edit = page(client, g, lang=lang)
        assert edit.count('aria-pressed="true"') == 1 and edit.count('aria-pressed="false"') >= 3


# ------------------------------------------------------------------------------------------ standings
class TestStandings:
    def test_engine_places_follow_the_tie_break(self):
        rules = resolve("liverpool")
        r = standings(rules, ["Carla", "Diego", "Eva"], [{"Carla": 20, "Diego": 30, "Eva": 5},
                                                         {"Carla": 10, "Diego": 0, "Eva": 40}])
        assert r.winners == ("Diego",) and r.decided_by == "tie_hand" and set(r.tied) == {"Carla", "Diego"}
        assert [(s.player, s.place) for s in r.standings] == [("Diego", 1), ("Carla", 2), ("Eva", 3)]

    def test_engine_ended_early_tie_is_shared_not_replayed(self):
        rules = resolve("liverpool")
        hands = [{"A": 10, "B": 10, "C": 20}]
        assert standings(rules, ["A", "B", "C"], hands).decided_by == "replay"
        r = standings(rules, ["A", "B", "C"], hands, ended_early=True)
        assert r.decided_by == "shared" and r.winners == ("A", "B")
        assert [s.place for s in r.standings] == [1, 1, 3]

    def test_one_winner_marked_and_why(self, client):
        # Diego and Carla tie on the total; Diego scored less in hand 7 (the last)
        g = create(client, ruleset="progressive", players=["Carla", "Diego", "Eva"])
        record(client, g, 1, "Carla", {"Diego": ["10", "K"], "Eva": ["K", "K"]})
        for n in range(2, 7):
            if n % 2:
                record(client, g, n, "Carla", {"Diego": ["5"], "Eva": ["K", "K"]})
            else:
                record(client, g, n, "Diego", {"Carla": ["5"], "Eva": ["K", "K"]})
        record(client, g, 7, "Diego", {"Carla": ["10", "5"], "Eva": ["K"]})
        st = state(client, g)
        assert st["totals"]["Carla"] == st["totals"]["Diego"] and st["winner"] == "Diego"
        for view in (False, True):
            html = page(client, g, view=view)
            board = html[html.index('id="board"'):html.index('id="by-hand"')]
            rows_html = board[board.index("<tbody>"):board.index("</tbody>")]
            assert rows_html.count("★") == 1, "only the winner has a star"
            rows = re.findall(r'<tr[^>]*>\s*<td class="num place">([^<]*)</td>\s*<th scope="row">(.*?)</th>', board,
                              re.S)
            assert [(p.strip(), text(n).replace("★", "").replace("winner:", "").strip()) for p, n in rows] == \
                [("1", "Diego"), ("2", "Carla"), ("3", "Eva")]
            words = text(board)
            assert said("%(name)s wins.", name="Diego") in words
            assert said("%(names)s tied on %(total)s points; the lowest score in hand %(n)s breaks the tie "
                        "(%(scores)s).", names="Diego and Carla", total=st["totals"]["Diego"], n=7,
                        scores="Diego 0, Carla 15") in words
        es = text(page(client, g, lang="es"))
        assert said("%(name)s wins.", "es", name="Diego") in es

    def test_shared_win_where_the_family_shares_it(self, client):
        g = create(client, ruleset="contract", players=["Ann", "Ben", "Cy"])
        for n in range(1, 7):
            out, other = ("Ann", "Ben") if n % 2 else ("Ben", "Ann")
            record(client, g, n, out, {other: ["5"], "Cy": ["K"]})
        record(client, g, 7, "Cy", {"Ann": ["5"], "Ben": ["5"]})
        st = state(client, g)
        assert st["decided_by"] == "shared" and st["winners"] == ["Ann", "Ben"] and st["winner"] is None
        html = page(client, g, lang="de")
        board = html[html.index('id="board"'):html.index('id="by-hand"')]
        rows_html = board[board.index("<tbody>"):board.index("</tbody>")]
        assert rows_html.count("★") == 2  # the two who share the win
        assert "Cy" in board and re.search(r'class="num place">\s*=1\s*<', board)
        words = text(board)
        assert said("%(names)s share the win.", "de", names="Ann und Ben") in words


# ------------------------------------------------------------------------------------------ corrections
class TestCorrections:
    def test_correct_a_hand_is_on_the_game_screen(self, client):
        g = create(client)
        record(client, g, 1, "Ann", {"Ben": ["A"], "Cy": ["2"], "Dee": ["3"]})
        record(client, g, 2, "Ben", {"Ann": ["A"], "Cy": ["2"], "Dee": ["3"]})
        html = page(client, g)
        assert "<details class=\"by-hand\"" not in html  # no longer behind a toggle
        links = re.findall(r'<a href="(/g/[^"]+/hands/(\d))" class="correct-link" aria-label="Correct hand \2"', html)
        assert [n for _, n in links] == ["1", "2"]
        assert said("Something wrong? Tap the hand's number to correct it.") in unescape(html)
        assert client.get(links[0][0]).status_code == 200
        assert "correct-link" not in page(client, g, view=True)

    def test_eight_players_table_has_no_extra_column(self, client):
        names = ["Alejandra", "Guillermo", "Carla", "Diego", "Eva", "Fernando", "Gabriela", "Héctor"]
        g = create(client, players=names)
        record(client, g, 1, "Carla", {n: ["K"] for n in names if n != "Carla"})
        html = page(client, g)
        table = html[html.index('class="scores by-hand-table many"'):]
        table = table[:table.index("</table>")]
        head = re.findall(r"<th\b[^>]*>", table[:table.index("</thead>")])
        assert len(head) == 1 + len(names)  # the hand's number is the link: no column left to clip
        assert all(f'<span title="{n}">{n}</span>' in table for n in names)  # each name whole, and in its title


# ------------------------------------------------------------------------------------------ undo and redo
class TestUndoRedo:
    def test_undone_hand_refills_the_form_and_redo_brings_it_back(self, client):
        g = create(client)
        record(client, g, 1, "Ann", {"Ben": ["A", "K"], "Cy": 25, "Dee": ["3H"]})
        url = f"/g/{g['edit_token']}"
        v = state(client, g)["version"]
        client.post(url + "/undo", data={"version": v})
        assert state(client, g)["hands"] == []
        html = page(client, g)
        assert 'value="A K"' in html and 'value="25"' in html and 'value="3♥"' in html  # in the reader's notation
        assert re.search(r'name="out" value="0" checked', html)
        assert "Redo: Hand 1 recorded" in html
        r = client.post(url + "/redo", data={"version": state(client, g)["version"]}, follow_redirects=True)
        assert "Redone: Hand 1 recorded" in r.get_data(as_text=True)
        st = state(client, g)
        assert st["totals"] == {"Ann": 0, "Ben": 25, "Cy": 25, "Dee": 5} and st["current_hand"] == 2
        assert "Redo:" not in page(client, g)  # nothing left to redo, and undo is offered again
        recorded = said("Hand %(hand)s recorded", hand=1)
        assert said("Undo: %(what)s", what=recorded) in page(client, g)
        hist = text(page(client, g, "/history"))
        assert f'{said("Redo")}: {recorded}' in hist and f'{said("Undo")}: {recorded}' in hist

    def test_redo_in_order_and_a_new_change_ends_it(self, client):
        g = create(client)
        url = f"/g/{g['edit_token']}"
        client.post(url + "/buy", data={"seat": "1", "hand": "1"})
        client.post(url + "/down", data={"seat": "2", "hand": "1", "down": "1"})
        client.post(url + "/undo", data={})
        client.post(url + "/undo", data={})
        st = state(client, g)
        assert st["buys"] == {} and st["down"] == []
        client.post(url + "/redo", data={})
        assert state(client, g)["buys"] == {"Ben": 1} and state(client, g)["down"] == []
        client.post(url + "/redo", data={})
        assert state(client, g)["down"] == ["Cy"]
        client.post(url + "/undo", data={})
        client.post(url + "/buy", data={"seat": "3", "hand": "1"})  # something new: the undone change stays undone
        r = client.post(url + "/redo", data={}, follow_redirects=True)
        assert refusal("nothing_to_redo") in r.get_data(as_text=True)
        assert state(client, g)["down"] == []

    def test_stale_redo_is_refused(self, client):
        g = create(client)
        url = f"/g/{g['edit_token']}"
        record(client, g, 1, "Ann", {"Ben": ["A"], "Cy": ["2"], "Dee": ["3"]})
        client.post(url + "/undo", data={})
        r = client.post(url + "/redo", data={"version": 1}, follow_redirects=True)
        assert refusal("stale") in r.get_data(as_text=True)
        assert state(client, g)["hands"] == []


# ------------------------------------------------------------------------------------------ ending early
class TestEndEarly:
    def test_end_early_everywhere_the_game_shows(self, client):
        g = create(client)
        record(client, g, 1, "Ann", {"Ben": ["A"], "Cy": ["2"], "Dee": ["3"]})
        record(client, g, 2, "Dee", {"Ann": ["K"], "Ben": ["K"], "Cy": ["2"]})
        url = f"/g/{g['edit_token']}"
        assert said("End the game after hand %(n)s", n=2) in page(client, g)
        r = client.post(url + "/end", data={"version": state(client, g)["version"]}, follow_redirects=True)
        assert said("The game was ended after hand %(n)s. Undo takes that back.", n=2) in r.get_data(as_text=True)
        st = state(client, g)
        assert st["finished"] and st["ended_early"] and st["current_hand"] is None and st["winner"] == "Dee"
        assert [(s["player"], s["place"]) for s in st["standings"]] == [("Dee", 1), ("Cy", 2), ("Ann", 2), ("Ben", 4)]
        for view in (False, True):
            words = text(page(client, g, lang="de", view=view))
            assert said("Ended after hand %(n)s of %(total)s.", "de", n=2, total=7) in words
        assert said("Ended after hand %(n)s of %(total)s.", n=2, total=7) in text(page(client, g, "/sheet"))
        assert said("Game ended after hand %(hand)s", hand=2) in text(page(client, g, "/history"))
        assert said("ended early after hand %(n)s", n=2) in text(client.get("/games").get_data(as_text=True))
        exported = client.get(url + "/export.json").json
        assert exported["ended_early"] is True and exported["winners"] == ["Dee"]
        again = client.get(client.post("/import", data={"json": json.dumps(exported)}).location + "/export.json").json
        assert again["ended_early"] is True and again["hands"] == exported["hands"]
        r = client.post(f"/api/v1/games/{g['id']}/hands", json={"hand": 3, "out": "Ann", "leftovers": {}},
                        headers=auth(g["edit_token"]))
        assert r.status_code == 409 and r.json["error"]["code"] == "game_ended"
        # undo takes the ending back and the game goes on
        client.post(url + "/undo", data={})
        st = state(client, g)
        assert not st["finished"] and not st["ended_early"] and st["current_hand"] == 3

    def test_refusals(self, client):
        g = create(client)
        r = client.post(f"/api/v1/games/{g['id']}/end", json={"lang": "es"}, headers=auth(g["edit_token"]))
        assert r.status_code == 409 and r.json["error"]["code"] == "nothing_to_end"
        assert r.json["error"]["message"] == refusal("nothing_to_end", "es")
        record(client, g, 1, "Ann", {"Ben": ["A"], "Cy": ["2"], "Dee": ["3"]})
        r = client.post(f"/api/v1/games/{g['id']}/end", json={}, headers=auth(g["view_token"]))
        assert r.status_code == 403
        r = client.post(f"/api/v1/games/{g['id']}/end", json={}, headers=auth(g["edit_token"]))
        assert r.status_code == 200 and r.json["ended_early"] is True and r.json["finished"] is True
        r = client.post(f"/api/v1/games/{g['id']}/end", json={}, headers=auth(g["edit_token"]))
        assert r.status_code == 409 and r.json["error"]["code"] == "game_over"

    def test_an_ended_liverpool_tie_is_shared(self, client):
        g = create(client, players=["Ann", "Ben", "Cy"])
        record(client, g, 1, "Ann", {"Cy": ["5"], "Ben": ["K", "K", "K"]})
        record(client, g, 2, "Cy", {"Ann": ["5"], "Ben": ["K", "K", "K"]})
        record(client, g, 3, "Ben", {"Ann": ["5"], "Cy": ["5"]})  # tied on the total and on the last hand
        client.post(f"/g/{g['edit_token']}/end", data={})
        st = state(client, g)
        assert st["decided_by"] == "shared" and st["winners"] == ["Ann", "Cy"]
        words = text(page(client, g))
        assert said("%(names)s share the win.", names="Ann and Cy") in words
        assert said("A game ended early is not replayed.") in words


# ------------------------------------------------------------------------------------------ players
class TestPlayers:
    def test_rename_during_the_game(self, client):
        g = create(client)
        record(client, g, 1, "Ann", {"Ben": ["A"], "Cy": ["2"], "Dee": ["3"]})
        url = f"/g/{g['edit_token']}"
        assert f'href="{url}/players"' in page(client, g)
        r = client.post(url + "/players/rename", data={"seat": "1", "name": "  Benjamín  "}, follow_redirects=True)
        assert said("%(old)s is now %(new)s.", old="Ben", new="Benjamín") in r.get_data(as_text=True)
        st = state(client, g)
        assert st["players"] == ["Ann", "Benjamín", "Cy", "Dee"] and st["totals"]["Benjamín"] == 15
        for lang in ("en", "es"):
            assert said("%(old)s renamed %(new)s", lang, old="Ben", new="Benjamín") in \
                text(page(client, g, "/history", lang=lang))
        assert "Benjamín" in page(client, g, view=True)

    @pytest.mark.parametrize("name, code, params", [("cy", "duplicate_name", {}), ("   ", "empty_name", {}),
                                                    ("x" * 41, "long_name", {"maximum": 40})])
    def test_rename_refused_in_the_readers_language(self, client, name, code, params):
        g = create(client)
        r = client.post(f"/g/{g['edit_token']}/players/rename?lang=es", data={"seat": "0", "name": name})
        assert r.status_code in (400, 422)
        assert refusal(code, "es", **params) in r.get_data(as_text=True) and state(client, g)["players"] == PLAYERS

    def test_view_link_cannot_rename(self, client):
        g = create(client)
        r = client.post(f"/g/{g['view_token']}/players/rename", data={"seat": "0", "name": "Zed"})
        assert r.status_code == 403 and state(client, g)["players"] == PLAYERS

    def test_seat_order_until_the_first_hand(self, client):
        g = create(client, first_dealer=1)  # Ben deals first
        url = f"/g/{g['edit_token']}"
        client.post(url + "/buy", data={"seat": "3", "hand": "1"})  # Dee buys
        r = client.post(url + "/players/move", data={"seat": "3", "move": "up"}, follow_redirects=True)
        assert r.status_code == 200
        st = state(client, g)
        assert st["players"] == ["Ann", "Ben", "Dee", "Cy"]
        assert st["buys"] == {"Dee": 1} and st["settings"]["first_dealer"] == "Ben"
        client.post(url + "/players/move", data={"seat": "0", "move": "down"})
        assert state(client, g)["players"] == ["Ben", "Ann", "Dee", "Cy"]
        assert state(client, g)["dealer"] == "Ben"
        assert said("Seat order: %(names)s", names="Ben, Ann, Dee, Cy") in text(page(client, g, "/history"))
        # the history still names the buyer
        assert said("Buy for %(player)s in hand %(hand)s", player="Dee", hand=1) in text(page(client, g, "/history"))
        record(client, g, 1, "Ann", {"Ben": ["A"], "Cy": ["2"], "Dee": ["3"]})
        r = client.post(url + "/players/move?lang=pt", data={"seat": "1", "move": "up"})
        assert r.status_code == 409 and refusal("seats_fixed", "pt") in r.get_data(as_text=True)
        assert state(client, g)["players"] == ["Ben", "Ann", "Dee", "Cy"]
        assert "seat-order fixed" in page(client, g, "/players")


# ------------------------------------------------------------------------------------------ setup
class TestSetup:
    def test_changing_the_family_shows_the_limit_at_once(self, client):
        names = [f"P{i}" for i in range(1, 9)]
        r = client.post("/new?lang=es", data={"family": "contract", "name": names, "action": "update"})
        html = r.get_data(as_text=True)
        assert r.status_code == 200
        family = said("Contract Rummy", "es")
        assert said("%(family)s is for %(lo)s to %(hi)s players; this table has %(n)s.", "es", family=family, lo=3,
                    hi=5, n=8) in text(html)
        assert 'class="pack"' not in html  # no pack line for a table the family cannot seat
        assert 'value="add"' not in html and html.count('value="remove:') == 8
        r = client.post("/new?lang=es", data={"family": "contract", "name": names, "action": "start"})
        assert r.status_code == 422  # still refused on Start, with every name kept
        assert all(f'value="{n}"' in r.get_data(as_text=True) for n in names)
        r = client.post("/new?lang=es", data={"family": "contract", "name": names[:5], "action": "update"})
        contract = resolve("contract", [], {}, 5)
        assert said("Shuffle %(decks)s decks and %(jokers)s jokers together (%(cards)s cards) for %(n)s players.",
                    "es", decks=contract.decks, jokers=contract.jokers, cards=contract.pack_size, n=5) in \
            text(r.get_data(as_text=True))


# ------------------------------------------------------------------------------------------ share
def test_share_links_whole_with_copy_and_send(client):
    g = create(client)
    html = page(client, g, "/share", lang="pt")
    links = re.findall(r'<textarea id="link-(edit|view)"[^>]*class="link-text"[^>]*>([^<]+)</textarea>', html)
    assert [k for k, _ in links] == ["view", "edit"]  # the guests' link first; the edit link one tap further
    assert links[0][1].endswith(g["view_token"]) and links[1][1].endswith(g["edit_token"])
    assert html.index("<details") < html.index('id="link-edit"')
    assert html.count('class="copy-link" hidden') == 2 and html.count('class="send-link quiet" hidden') == 2
    assert said("Copy link", "pt") in html and "table.js" in html


# ------------------------------------------------------------------------------------------ dead links
class TestErrorPages:
    @pytest.mark.parametrize("lang", ["es", "de", "pt"])
    def test_unknown_game_link(self, client, lang):
        r = client.get(f"/g/{'x' * 32}?lang={lang}")
        html = unescape(r.get_data(as_text=True))
        assert r.status_code == 404 and refusal("page_not_found", lang) in html
        assert 'class="top"' in html and f'lang="{lang}"' in html

    def test_method_not_allowed_keeps_allow(self, client):
        g = create(client)
        r = client.get(f"/g/{g['edit_token']}/undo", headers={"Accept-Language": "de"})
        assert r.status_code == 405 and "Allow" in r.headers
        assert refusal("page_not_allowed", "de") in unescape(r.get_data(as_text=True))

    def test_view_link_on_an_edit_form(self, client):
        g = create(client)
        r = client.post(f"/g/{g['view_token']}/undo?lang=es", data={})
        assert r.status_code == 403 and refusal("page_forbidden", "es") in unescape(r.get_data(as_text=True))

    def test_server_error_page(self, app):
        app.config["PROPAGATE_EXCEPTIONS"] = False

        def broken():
            raise RuntimeError("boom")

        app.add_url_rule("/broken-for-test", "broken_for_test", broken)
        client = app.test_client()
        r = client.get("/broken-for-test?lang=pt")
        assert r.status_code == 500 and refusal("server_error", "pt") in unescape(r.get_data(as_text=True))
        r = client.get("/api/v1/games/nope", headers={"Authorization": "Bearer x"})
        assert r.status_code == 403  # the API keeps its JSON answers
        assert r.json["error"]["code"] == "forbidden"
