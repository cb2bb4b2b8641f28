"""A six-hand game, as other groups play it in every family: the first five contracts, then the last one (the
hand with no final discard) as the sixth; through the engine, the API, the setup screen, the referee and the
rules pages. Without it every game is as before."""

from html import unescape

import pytest

from referee.cards import parse_cards
from referee.contracts import check
from referee.families import FAMILIES, resolve
from tests.conftest import auth, new_api_game
from tests.kit import said

FAMILY_IDS = list(FAMILIES)


@pytest.mark.parametrize("family", FAMILY_IDS)
def test_the_sixth_hand_is_the_last_contract_with_no_final_discard(family):
    seven, six = resolve(family), resolve(family, ["six_hands"])
    assert [h.contract for h in six.hands] == [h.contract for h in seven.hands[:5]] + [seven.hands[6].contract]
    assert [h.deal for h in six.hands] == [h.deal for h in seven.hands[:5]] + [seven.hands[6].deal]
    assert six.hand(6).contract.no_discard and not any(h.contract.no_discard for h in six.hands[:5])
    assert six.tie_hand == 6  # the hand the documents' tie-break names plays last
    assert resolve(family, options={"hands": 6}).hands == six.hands
    assert len(seven.hands) == 7  # (the default is unchanged)


def test_the_referee_holds_the_sixth_hand_to_going_out_whole():
    rules = resolve("progressive", ["six_hands"])
    runs = [parse_cards("3H 4H 5H 6H"), parse_cards("7S 8S 9S 10S"), parse_cards("JD QD KD AD")]
    assert check(rules, 6, runs, cards_left=0).valid
    left = check(rules, 6, runs, cards_left=1)
    assert [v.code for v in left.violations] == ["final_hand_cards_left"]


@pytest.mark.parametrize("family", FAMILY_IDS)
def test_a_six_hand_game_is_over_after_six_hands(client, family):
    players = ["Ann", "Ben", "Cy", "Dee"]
    game = new_api_game(client, players=players, ruleset=family, variants=["six_hands"])
    for n in range(1, 7):
        r = client.post(f"/api/v1/games/{game['id']}/hands", json={
            "hand": n, "out": players[n % 4], "leftovers": {p: ["7"] for p in players if p != players[n % 4]}},
            headers=auth(game["edit_token"]))
        assert r.status_code == 201, r.json
        if n == 6:
            break
        st = client.get(f"/api/v1/games/{game['id']}", headers=auth(game["view_token"])).json
        assert st["contract"]["no_discard"] is (n + 1 == 6)
    st = client.get(f"/api/v1/games/{game['id']}", headers=auth(game["view_token"])).json
    assert st["finished"] and len(st["hands"]) == 6 and st["settings"]["hands"] == 6
    r = client.post(f"/api/v1/games/{game['id']}/hands", json={"hand": 7, "out": "Ann", "leftovers": {}},
                    headers=auth(game["edit_token"]))
    assert r.status_code == 422


def test_offered_on_the_setup_screen_the_referee_and_the_rules_pages(client):
    setup = unescape(client.get("/new?family=liverpool&lang=de").get_data(as_text=True))
    assert said("Six hands", "de") in setup
    referee = unescape(client.get("/referee/check?family=contract&lang=es").get_data(as_text=True))
    assert said("Six hands", "es") in referee
    compare = unescape(client.get("/rules/compare?lang=es").get_data(as_text=True))
    assert said("Six hands", "es") in compare
    for family in FAMILY_IDS:
        page = unescape(client.get(f"/rules/{family}?lang=pt").get_data(as_text=True))
        assert said("Six hands", "pt") in page
        assert said("The first five contracts, then the last one (no final discard) as the sixth hand.", "pt") in page
    rulesets = client.get("/api/v1/rulesets").json["rulesets"]
    assert all(r["hand_lists"]["6"] == [1, 2, 3, 4, 5, 7] for r in rulesets)
