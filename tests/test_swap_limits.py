"""Joker swaps with limits, as some tables play them: only jokers (not a wild 2), only out of runs, only before
the swapping player has gone down; each a house-rule option, on and off, through the engine and the API."""

import pytest

from referee.cards import parse_cards
from referee.families import resolve
from referee.table import swap

BASE = {"joker_swap": True}


def ruling(options, meld, card, down=False, family="contract", variants=("twos_wild",)):
    return swap(resolve(family, list(variants), options=BASE | options), parse_cards(meld), parse_cards(card)[0],
                down=down)


def codes(r):
    return [v.code for v in r.violations]


def test_jokers_only():
    # a run where a wild 2 stands for 6S, and one where a joker does
    assert ruling({}, "3S 4S 5S 2H", "6S").valid
    refused = ruling({"joker_swap_jokers_only": True}, "3S 4S 5S 2H", "6S")
    assert not refused.valid and codes(refused) == ["swap_not_a_joker"]
    assert ruling({"joker_swap_jokers_only": True}, "3S 4S 5S JK", "6S").valid
    # a set with a wild 2 and a joker: the joker is the one taken back
    taken = ruling({"joker_swap_jokers_only": True}, "7H 7D 2C JK", "7S")
    assert taken.valid and "JK" not in [str(c) for c in taken.meld.cards] and "2C" in [str(c) for c in taken.meld.cards]


def test_runs_only():
    assert ruling({}, "7H 7D JK", "7S").valid
    refused = ruling({"joker_swap_runs_only": True}, "7H 7D JK", "7S")
    assert not refused.valid and codes(refused) == ["swap_from_set"]
    assert ruling({"joker_swap_runs_only": True}, "3S 4S 5S JK", "6S").valid


def test_before_going_down_only():
    assert ruling({}, "3S 4S 5S JK", "6S", down=True).valid
    refused = ruling({"joker_swap_before_down": True}, "3S 4S 5S JK", "6S", down=True)
    assert not refused.valid and codes(refused) == ["swap_after_down"]
    assert ruling({"joker_swap_before_down": True}, "3S 4S 5S JK", "6S", down=False).valid


def test_all_three_say_every_reason():
    refused = ruling({"joker_swap_jokers_only": True, "joker_swap_runs_only": True, "joker_swap_before_down": True},
                     "7H 7D 2C", "7S", down=True)
    assert set(codes(refused)) == {"swap_after_down", "swap_from_set", "swap_not_a_joker"}


@pytest.mark.parametrize("option, body, code", [
    ("joker_swap_jokers_only", {"meld": ["3S", "4S", "5S", "2H"], "card": "6S"}, "swap_not_a_joker"),
    ("joker_swap_runs_only", {"meld": ["7H", "7D", "JK"], "card": "7S"}, "swap_from_set"),
    ("joker_swap_before_down", {"meld": ["3S", "4S", "5S", "JK"], "card": "6S", "down": True}, "swap_after_down"),
])
def test_through_the_api(client, option, body, code):
    base = {"ruleset": "contract", "variants": ["twos_wild"]} | body
    off = client.post("/api/v1/swap", json=base | {"options": BASE})
    assert off.json["valid"] is True, off.json
    on = client.post("/api/v1/swap", json=base | {"options": BASE | {option: True}, "lang": "pt"})
    assert on.json["valid"] is False and [v["code"] for v in on.json["violations"]] == [code]
    assert on.json["violations"][0]["rule"] == "rule-joker-swap"
    assert client.get("/api/v1/rulesets").json["options"][option]["type"] == "bool"


def test_the_referee_page_asks_whether_the_player_is_down(client):
    page = client.get("/referee/swap?family=contract").get_data(as_text=True)
    assert 'name="down"' in page
