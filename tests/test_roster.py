"""A group kept tidy: the group renamed or deleted, a roster name respelled, renamed, merged with its typo twin
or removed, through the API and through the group's pages; the view link can do none of it. On SQLite and
PostgreSQL."""

from html import unescape

from referee.web.models import Game, Player, db
from tests.conftest import auth
from tests.kit import refusal, said
from tests.test_groups import group_state, make_group, player, record, start


def rename(client, group, old, new, token=None, **extra):
    return client.post(f"/api/v1/groups/{group['id']}/roster/rename", json={"from": old, "to": new} | extra,
                       headers=auth(token or group["edit_token"]))


def remove(client, group, name, token=None):
    return client.post(f"/api/v1/groups/{group['id']}/roster/remove", json={"name": name},
                       headers=auth(token or group["edit_token"]))


def game_state(client, game):
    r = client.get(f"/api/v1/games/{game['id']}", headers=auth(game["view_token"]))
    assert r.status_code == 200, r.json
    return r.json


def two_games(client):
    """Ana and Beto play twice, once with "Anna" (a typo of Ana's) and once with Carla; Ana wins the first."""
    group = make_group(client)
    first = start(client, group, ["Anna", "Beto", "Dani"])
    record(client, first, 1, "Anna", {"Beto": ["K"], "Dani": ["7"]})
    second = start(client, group, ["Ana", "Beto", "Carla"])
    record(client, second, 1, "Beto", {"Ana": ["A"], "Carla": ["2"]})
    return group, first, second


class TestTheApi:
    def test_rename_the_group(self, client):
        group = make_group(client)
        r = client.patch(f"/api/v1/groups/{group['id']}", json={"name": "  Friday   table "},
                         headers=auth(group["edit_token"]))
        assert r.status_code == 200 and r.json["name"] == "Friday table"
        assert group_state(client, group)["name"] == "Friday table"
        r = client.patch(f"/api/v1/groups/{group['id']}", json={"name": ""}, headers=auth(group["edit_token"]))
        assert r.status_code == 400 and r.json["error"]["code"] == "group_name_missing"
        r = client.patch(f"/api/v1/groups/{group['id']}", json={"name": "x" * 61}, headers=auth(group["edit_token"]))
        assert r.status_code == 422 and r.json["error"]["code"] == "group_name_long"
        assert group_state(client, group)["name"] == "Friday table"

    def test_the_view_link_changes_nothing(self, client):
        group, first, _ = two_games(client)
        before = group_state(client, group)
        view = group["view_token"]
        answers = [client.patch(f"/api/v1/groups/{group['id']}", json={"name": "Mine"}, headers=auth(view)),
                   rename(client, group, "Anna", "Ana", token=view, merge=True),
                   remove(client, group, "Dani", token=view),
                   client.delete(f"/api/v1/groups/{group['id']}", headers=auth(view))]
        assert [(r.status_code, r.json["error"]["code"]) for r in answers] == [(403, "group_view_only")] * 4
        other = make_group(client, "Another table")  # another group's edit token opens nothing here
        r = rename(client, group, "Anna", "Ana", token=other["edit_token"])
        assert r.status_code == 404 and r.json["error"]["code"] == "no_such_group"
        assert group_state(client, group) == before

    def test_a_respelled_name_follows_into_every_game_and_the_figures(self, client):
        group, first, second = two_games(client)
        version = game_state(client, first)["version"]
        r = rename(client, group, "beto", "Roberto")
        assert r.status_code == 200 and r.json["roster"] == ["Anna", "Roberto", "Dani", "Ana", "Carla"]
        assert game_state(client, first)["players"] == ["Anna", "Roberto", "Dani"]
        assert game_state(client, second)["players"] == ["Ana", "Roberto", "Carla"]
        assert game_state(client, first)["version"] == version + 1  # every phone on it redraws its board
        st = group_state(client, group)
        assert player(st, "Roberto")["games"] == 2 and player(st, "Roberto")["hands"] == 2
        assert all(p["name"] != "Beto" for p in st["players"])
        assert [g["players"] for g in st["games"]] == [["Anna", "Roberto", "Dani"], ["Ana", "Roberto", "Carla"]]
        # the next game of the same person is on the same line
        third = start(client, group, ["roberto", "Ana", "Carla"])
        assert game_state(client, third)["players"] == ["Roberto", "Ana", "Carla"]
        assert player(group_state(client, group), "Roberto")["games"] == 3

    def test_a_taken_name_asks_to_merge_and_merging_joins_the_figures(self, client):
        group, first, second = two_games(client)
        r = rename(client, group, "Anna", "ana")
        assert r.status_code == 409 and r.json["error"]["code"] == "name_taken"
        assert r.json["error"]["message"] == refusal("name_taken", "en", name="Ana", old="Anna")
        assert group_state(client, group)["roster"] == ["Anna", "Beto", "Dani", "Ana", "Carla"]
        r = rename(client, group, "Anna", "ana", merge=True)
        assert r.status_code == 200 and r.json["roster"] == ["Beto", "Dani", "Ana", "Carla"]
        assert game_state(client, first)["players"] == ["Ana", "Beto", "Dani"]
        ana = player(group_state(client, group), "Ana")
        assert (ana["games"], ana["hands"], ana["times_out"], ana["best_hand"]) == (2, 2, 1, 0)

    def test_two_names_at_one_table_are_two_people(self, client):
        group, first, second = two_games(client)
        before = group_state(client, group)
        r = rename(client, group, "Beto", "Carla", merge=True)
        assert r.status_code == 409 and r.json["error"]["code"] == "merge_same_game"
        assert r.json["error"]["message"] == refusal("merge_same_game", "en", name="Beto", other="Carla", games=1)
        assert group_state(client, group) == before
        assert game_state(client, second)["players"] == ["Ana", "Beto", "Carla"]

    def test_remove_a_name_without_games_only(self, client):
        group, first, second = two_games(client)
        client.post(f"/groups/{group['edit_token']}/roster", data={"name": "Eva"})  # on the roster, no game
        assert group_state(client, group)["roster"][-1] == "Eva"
        r = remove(client, group, "eva")
        assert r.status_code == 200 and "Eva" not in r.json["roster"]
        r = remove(client, group, "Dani")
        assert r.status_code == 409 and r.json["error"]["code"] == "member_has_games"
        assert "Dani" in group_state(client, group)["roster"]
        r = remove(client, group, "Zoe")
        assert r.status_code == 404 and r.json["error"]["code"] == "not_on_roster"

    def test_refusals_in_the_readers_language(self, client):
        group, _, _ = two_games(client)
        r = rename(client, group, "Anna", "Ana", lang="pt")
        assert r.json["error"]["message"] == refusal("name_taken", "pt", name="Ana", old="Anna")
        r = client.post(f"/api/v1/groups/{group['id']}/roster/remove", json={"name": "Dani", "lang": "de"},
                        headers=auth(group["edit_token"]))
        assert r.json["error"]["message"] == refusal("member_has_games", "de", name="Dani", games=1)

    def test_delete_the_group_and_keep_its_games(self, client, app):
        group, first, second = two_games(client)
        deleted = start(client, group, ["Ana", "Beto", "Dani"])
        r = client.post(f"/g/{deleted['edit_token']}/delete")
        assert r.status_code in (302, 303)
        r = client.delete(f"/api/v1/groups/{group['id']}", headers=auth(group["edit_token"]))
        assert r.status_code == 204
        r = client.get(f"/api/v1/groups/{group['id']}", headers=auth(group["view_token"]))
        assert r.status_code == 404
        assert client.get(f"/groups/{group['view_token']}").status_code == 404
        for game in (first, second):  # each game still opens by its own links, to edit and to view
            assert game_state(client, game)["players"]
            assert record(client, game, 2, game_state(client, game)["players"][0],
                          {n: ["3"] for n in game_state(client, game)["players"][1:]}).status_code == 201
            assert client.get(f"/g/{game['edit_token']}").status_code == 200
        with app.app_context():  # the game deleted before, kept only for the group's figures, went with it
            assert db.session.get(Game, deleted["id"]) is None
            assert db.session.query(Player).filter_by(game_id=deleted["id"]).count() == 0


class TestThePages:
    def roster_page(self, client, group, lang="en"):
        r = client.get(f"/groups/{group['edit_token']}/roster?lang={lang}")
        assert r.status_code == 200
        return unescape(r.get_data(as_text=True))

    def member_id(self, client, app, group, name):
        from referee.web.models import Member
        with app.app_context():
            return db.session.query(Member).filter_by(group_id=group["id"], name=name).one().id

    def test_only_the_edit_link_opens_the_roster_page(self, client):
        group, _, _ = two_games(client)
        assert client.get(f"/groups/{group['view_token']}/roster").status_code == 403
        html = unescape(client.get(f"/groups/{group['edit_token']}").get_data(as_text=True))
        assert f"/groups/{group['edit_token']}/roster" in html
        view = unescape(client.get(f"/groups/{group['view_token']}").get_data(as_text=True))
        assert "/roster" not in view
        for path, data in (("name", {"name": "Mine"}), ("delete", {"confirm": "1"})):
            assert client.post(f"/groups/{group['view_token']}/{path}", data=data).status_code == 403
        assert group_state(client, group)["name"] == "Thursday table"

    def test_rename_then_merge_after_asking(self, client, app):
        group, first, _ = two_games(client)
        anna = self.member_id(client, app, group, "Anna")
        r = client.post(f"/groups/{group['edit_token']}/roster/{anna}?lang=es", data={"name": "Ana"})
        html = unescape(r.get_data(as_text=True))
        assert r.status_code == 409 and refusal("name_taken", "es", name="Ana", old="Anna") in html
        assert 'name="merge" value="1"' in html and 'value="Ana"' in html  # the question, with what was typed
        assert group_state(client, group)["roster"][0] == "Anna"
        r = client.post(f"/groups/{group['edit_token']}/roster/{anna}?lang=es", data={"name": "Ana", "merge": "1"})
        assert r.status_code in (302, 303)
        assert game_state(client, first)["players"][0] == "Ana"
        page = unescape(client.get(f"/groups/{group['edit_token']}/roster?lang=es").get_data(as_text=True))
        assert said("%(old)s and %(new)s are one person now: %(new)s.", "es", old="Anna", new="Ana") in page

    def test_respell_remove_and_refusals_keep_what_was_typed(self, client, app):
        group, _, second = two_games(client)
        carla = self.member_id(client, app, group, "Carla")
        r = client.post(f"/groups/{group['edit_token']}/roster/{carla}", data={"name": "Karla"})
        assert r.status_code in (302, 303) and game_state(client, second)["players"][2] == "Karla"
        r = client.post(f"/groups/{group['edit_token']}/roster/{carla}", data={"name": "x" * 41})
        html = unescape(r.get_data(as_text=True))
        assert r.status_code == 422 and refusal("long_name", "en", maximum=40) in html and "x" * 41 in html
        r = client.post(f"/groups/{group['edit_token']}/roster/{carla}/remove?lang=de")
        html = unescape(r.get_data(as_text=True))
        assert r.status_code == 409 and refusal("member_has_games", "de", name="Karla", games=1) in html
        client.post(f"/groups/{group['edit_token']}/roster", data={"name": "Eva"})
        html = self.roster_page(client, group)
        eva = self.member_id(client, app, group, "Eva")
        assert f"/roster/{eva}/remove" in html and f"/roster/{carla}/remove" not in html  # offered where it can be
        r = client.post(f"/groups/{group['edit_token']}/roster/{eva}/remove")
        assert r.status_code in (302, 303) and "Eva" not in group_state(client, group)["roster"]
        assert client.post(f"/groups/{group['edit_token']}/roster/99999", data={"name": "A"}).status_code == 404

    def test_rename_and_delete_the_group_after_confirming(self, client):
        group, first, _ = two_games(client)
        r = client.post(f"/groups/{group['edit_token']}/name", data={"name": "Friday table"})
        assert r.status_code in (302, 303) and group_state(client, group)["name"] == "Friday table"
        r = client.post(f"/groups/{group['edit_token']}/name?lang=pt", data={"name": " "})
        assert r.status_code == 400 and refusal("group_name_missing", "pt") in unescape(r.get_data(as_text=True))
        r = client.post(f"/groups/{group['edit_token']}/delete")  # not confirmed: asked again, nothing deleted
        assert r.status_code == 422 and group_state(client, group)["name"] == "Friday table"
        r = client.post(f"/groups/{group['edit_token']}/delete", data={"confirm": "1"})
        assert r.status_code in (302, 303)
        assert client.get(f"/groups/{group['edit_token']}").status_code == 404
        assert client.get(f"/g/{first['edit_token']}").status_code == 200

    def test_a_large_roster_comes_a_page_at_a_time_and_each_answer_returns_to_its_page(self, client, app):
        import json

        from referee.web.groups.manage import ROSTER_PAGE
        names = [f"Person {i}" for i in range(2 * ROSTER_PAGE + 10)]
        r = client.post("/groups/import", data={"json": json.dumps(
            {"format": 1, "kind": "group", "name": "Club", "roster": names, "games": []})})
        token = r.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
        page = unescape(client.get(f"/groups/{token}/roster?lang=de").get_data(as_text=True))
        assert said("Names %(first)s–%(last)s of %(count)s", "de", first=1, last=ROSTER_PAGE,
                    count=len(names)) in page
        assert 'value="Person 0"' in page and f'value="Person {ROSTER_PAGE}"' not in page
        assert f"/groups/{token}/roster?page=2" in page
        last = unescape(client.get(f"/groups/{token}/roster?page=99").get_data(as_text=True))  # the last page
        assert f'value="Person {len(names) - 1}"' in last and 'value="Person 0"' not in last
        assert client.get(f"/groups/{token}/roster?page=x").status_code == 200  # the first page
        from referee.web.models import Member
        with app.app_context():  # (the only group of the test's database)
            ids = {m.name: m.id for m in db.session.query(Member)}
        # a rename on the second page goes back to the second page
        second = ids[f"Person {ROSTER_PAGE + 1}"]
        r = client.post(f"/groups/{token}/roster/{second}?page=2", data={"name": "Zoe"})
        assert r.status_code in (302, 303) and r.headers["Location"].endswith("/roster?page=2")
        # a refusal about a name on the third page shows the third page, with what was typed
        third = ids[f"Person {2 * ROSTER_PAGE + 1}"]
        r = client.post(f"/groups/{token}/roster/{third}", data={"name": "Person 0"})
        html = unescape(r.get_data(as_text=True))
        assert r.status_code == 409 and 'name="merge" value="1"' in html
        assert f'value="Person {2 * ROSTER_PAGE}"' in html and 'value="Person 1"' not in html
        # a name removed from the second page: back to the second page
        r = client.post(f"/groups/{token}/roster/{ids[f'Person {ROSTER_PAGE}']}/remove?page=2")
        assert r.status_code in (302, 303) and r.headers["Location"].endswith("/roster?page=2")
