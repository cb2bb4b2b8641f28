import pytest


def post(client, path, body, **kw):
    return client.post("/api/v1/" + path, json=body, **kw)


class TestHealth:
    def test_healthz(self, client):
        r = client.get("/healthz")
        assert r.status_code == 200 and r.data == b"ok\n"


class TestRulesets:
    def test_presets(self, client):
        data = client.get("/api/v1/rulesets").json
        ids = [f["id"] for f in data["rulesets"]]
        assert ids == ["liverpool", "progressive", "contract"]
        lv = data["rulesets"][0]
        assert lv["options"]["buy_limit"] == 3 and lv["penalties"]["JK"] == 15
        assert [h["notation"] for h in lv["hands"]][-1] == "R7"
        assert {v["id"] for v in lv["variants"]} >= {"nine_hands", "five_hands", "no_buying", "may_i"}
        assert "ace" in data["options"]


class TestCheck:
    def test_valid(self, client):
        r = post(client, "check", {"ruleset": "liverpool", "hand": 2,
                                   "melds": [["7H", "7D", "JK"], ["5♣", "6♣", "7♣", "8♣"]]})
        assert r.status_code == 200
        assert r.json["valid"] is True
        assert r.json["melds"][0]["wilds"] == [{"card": "JK", "as": "7"}]
        assert r.json["contract"]["notation"] == "S3 R4"

    def test_violation_shape_and_language(self, client):
        body = {"ruleset": "liverpool", "hand": 1, "melds": [["7H", "7D", "8S"], ["KC", "KD", "KS"]]}
        en = post(client, "check", body).json["violations"][0]
        assert en["code"] == "set_mixed_ranks" and en["meld"] == 0 and en["rule"] == "rule-set"
        assert en["rule_url"].startswith("/rules/liverpool") and en["rule_url"].endswith("#rule-set")
        es = post(client, "check", body | {"lang": "es"}).json["violations"][0]
        assert es["code"] == "set_mixed_ranks"
        assert isinstance(es["message"], str) and es["message"]

    def test_options_and_players(self, client):
        body = {"ruleset": "liverpool", "hand": 1, "melds": [["7H", "7H", "7H"], ["KC", "KD", "KS"]]}
        assert post(client, "check", body | {"players": 3}).json["violations"][0]["code"] == "too_many_copies"
        assert post(client, "check", body | {"players": 6}).json["valid"]
        assert post(client, "check", body | {"players": 3, "options": {"decks": 3}}).json["valid"]

    def test_cards_left(self, client):
        body = {"ruleset": "progressive", "hand": 7, "cards_left": 1,
                "melds": [["3S", "4S", "5S", "6S"], ["3H", "4H", "5H", "6H"], ["3D", "4D", "5D", "6D"]]}
        assert [v["code"] for v in post(client, "check", body).json["violations"]] == ["final_hand_cards_left"]


class TestOthers:
    def test_layoff(self, client):
        r = post(client, "layoff", {"ruleset": "liverpool", "meld": ["5H", "6H", "7H", "8H"], "cards": ["9H"]})
        assert r.json["valid"] and r.json["placed"] == [{"card": "9H", "end": "high"}]

    def test_swap(self, client):
        r = post(client, "swap", {"ruleset": "liverpool", "meld": ["5H", "JK", "7H", "8H"], "card": "6H"})
        assert r.json["valid"] and r.json["represents"] == [{"card": "JK", "as": "6H"}]

    def test_arrange(self, client):
        r = post(client, "arrange", {"ruleset": "liverpool", "hand": 1, "cards": "7h 7d kc kd ks 2h 9s"})
        assert r.json["possible"] is False and r.json["missing"] == 1 and r.json["needs"] == ["7"]

    def test_penalty(self, client):
        r = post(client, "penalty", {"ruleset": "contract", "cards": ["AH", "7C", "JK"]})
        assert r.json["penalty"] == 37 and r.json["cards"][1] == {"card": "7C", "points": 7}

    def test_buy(self, client):
        r = post(client, "buy", {"ruleset": "liverpool", "seats": ["A", "B", "C", "D"], "current": "B",
                                 "callers": ["D", "C"], "buys_used": {"C": 3}})
        assert r.json["winner"] == "D" and r.json["penalty_card"] is True and r.json["reason_code"] == "nearest_caller"


class TestBadRequests:
    @pytest.mark.parametrize("path, body, code, field", [
        ("check", {"hand": 1, "melds": []}, "missing", "ruleset"),
        ("check", {"ruleset": "gin", "hand": 1, "melds": []}, "unknown_ruleset", "ruleset"),
        ("check", {"ruleset": "liverpool", "hand": 9, "melds": []}, "hand_out_of_range", "hand"),
        ("check", {"ruleset": "liverpool", "hand": "1", "melds": []}, "wrong_type", "hand"),
        ("check", {"ruleset": "liverpool", "hand": True, "melds": []}, "wrong_type", "hand"),
        ("check", {"ruleset": "liverpool", "hand": 1}, "missing", "melds"),
        ("check", {"ruleset": "liverpool", "hand": 1, "melds": [["7X"]]}, "bad_card", "melds[0][0]"),
        ("check", {"ruleset": "liverpool", "hand": 1, "melds": "7H"}, "wrong_type", "melds"),
        ("check", {"ruleset": "liverpool", "hand": 1, "melds": [[7]]}, "wrong_type", "melds[0][0]"),
        ("check", {"ruleset": "liverpool", "hand": 1, "melds": [], "options": {"ace": 1}}, "option_choice",
         "options.ace"),
        ("check", {"ruleset": "liverpool", "hand": 1, "melds": [], "players": 12}, "players_out_of_range",
         "players"),
        ("arrange", {"ruleset": "liverpool", "hand": 1, "cards": ["AH"] * 30}, "too_many", "cards"),
        ("swap", {"ruleset": "liverpool", "meld": ["5H", "6H"], "card": "7H"}, "meld_invalid", "meld"),
        ("buy", {"ruleset": "liverpool", "seats": ["A", "B", "C"], "current": "Z", "callers": []}, "unknown_player",
         "current"),
        ("penalty", {"ruleset": "liverpool", "cards": {"a": 1}}, "wrong_type", "cards"),
    ])
    def test_400(self, client, path, body, code, field):
        r = post(client, path, body)
        assert r.status_code == 400, r.json
        assert r.json["error"]["code"] == code and r.json["error"]["field"] == field
        assert r.json["error"]["message"]

    @pytest.mark.parametrize("data", [b"", b"nope", b"[1, 2]", b"\xff\xfe", b'"text"'])
    def test_not_an_object(self, client, data):
        r = client.post("/api/v1/check", data=data, content_type="application/json")
        assert r.status_code == 400 and r.json["error"]["code"] == "bad_json"

    def test_unknown_path_and_method(self, client):
        assert client.get("/api/v1/nothing").json["error"]["code"] == "not_found"
        assert client.get("/api/v1/check").status_code == 405
