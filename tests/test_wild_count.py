"""The house rule ``wilds_at_most_naturals``: a meld put down for the contract holds no more wild cards than
natural cards (as many is fine), and laying off has no such limit. The contract check, the contract search, the
nearest miss and the whole-hand search of the last hand all hold to it; through the engine and the API, on and
off; off, every verdict is as before."""

import pytest

from referee.arrange import arrange
from referee.cards import parse_cards
from referee.contracts import check
from referee.families import resolve
from referee.melds import analyze
from referee.table import layoff

OFF = resolve("contract", options={"jokers": 6})
ON = resolve("contract", options={"jokers": 6, "wilds_at_most_naturals": True})


def codes(verdict):
    return [v.code for v in verdict.violations]


def test_a_set_of_one_natural_card_and_two_wild_cards():
    melds = [parse_cards("7H JK JK"), parse_cards("8H 8D 8C")]
    assert check(OFF, 1, melds).valid
    refused = check(ON, 1, melds)
    assert codes(refused) == ["wilds_outnumber_naturals"]
    assert refused.violations[0].meld == 0 and refused.violations[0].params == {"wilds": 2, "naturals": 1}
    assert refused.rules[0] == "rule-wilds"
    assert check(ON, 1, [parse_cards("7H 7D JK"), parse_cards("8H 8D 8C")]).valid


def test_as_many_wild_cards_as_natural_cards_is_fine():
    assert check(ON, 2, [parse_cards("7H 7D 7C"), parse_cards("5H JK JK 8H")]).valid
    over = check(ON, 2, [parse_cards("7H 7D 7C"), parse_cards("5H JK JK JK")])
    # one verdict only: the meld is still the run the contract needs, with too many wild cards
    assert codes(over) == ["wilds_outnumber_naturals"] and over.violations[0].params == {"wilds": 3, "naturals": 1}
    assert check(OFF, 2, [parse_cards("7H 7D 7C"), parse_cards("5H JK JK JK")]).valid


def test_a_two_as_itself_is_a_natural_card_unless_twos_are_always_wild():
    twos = resolve("contract", ["twos_wild"], options={"wilds_at_most_naturals": True})
    always = resolve("contract", ["twos_wild"], options={"wilds_at_most_naturals": True,
                                                         "wild_ranks_always_wild": True})
    melds = [parse_cards("9H 9D 9C"), parse_cards("2S 3S JK 5S")]
    assert check(twos, 2, melds).valid  # the 2 is itself: three natural cards
    assert check(always, 2, melds).valid  # two natural cards and two wild cards
    melds = [parse_cards("9H 9D 9C"), parse_cards("2S 3S JK JK")]
    assert check(twos, 2, melds).valid
    assert codes(check(always, 2, melds)) == ["wilds_outnumber_naturals"]


def test_laying_off_has_no_limit():
    table = parse_cards("5H 6H JK 8H")
    ruling = layoff(ON, table, parse_cards("JK JK JK"))
    assert ruling.valid
    assert analyze(table + parse_cards("JK JK JK"), ON).valid  # a meld on the table, read as it lies
    assert not analyze(table + parse_cards("JK JK JK"), ON, contract=True).valid


def test_the_contract_search_and_the_nearest_miss():
    hand = parse_cards("7H JK JK 8H 8D 8C")
    assert arrange(OFF, 1, hand).possible
    found = arrange(ON, 1, hand)
    assert found.possible is False and found.missing == 1 and found.needs_natural == ["7"]
    # with the wild cards shared out, the same cards do make it
    both = arrange(ON, 1, parse_cards("7H 7D JK JK 8H 8D"))
    assert both.possible and check(ON, 1, both.melds).valid
    # a run of one natural card and three wild cards is out; two natural cards will do
    assert arrange(OFF, 2, parse_cards("9H 9D 9C 5H JK JK JK")).possible
    run = arrange(ON, 2, parse_cards("9H 9D 9C 5H JK JK JK"))
    assert run.possible is False and run.missing == 1 and len(run.needs_natural) == 1
    made = arrange(ON, 2, parse_cards("9H 9D 9C 5H JK JK 8H"))
    assert made.possible and check(ON, 2, made.melds).valid


def test_the_last_hand_melds_the_whole_hand_within_the_limit():
    last = len(ON.hands)
    assert ON.hand(last).contract.no_discard
    hand = parse_cards("5H JK JK JK 9S 10S JS QS 2D 3D 4D 5D 6D")
    assert arrange(OFF, last, hand).possible
    found = arrange(ON, last, hand)
    assert found.possible is False and found.missing and found.needs_natural
    # the spare wild cards go where the runs have natural cards enough to carry them
    hand = parse_cards("5H 6H 7H JK JK 9S 10S JK JK 2D 3D JK JK")
    made = arrange(ON, last, hand)
    assert made.possible
    assert check(ON, last, made.melds, cards_left=0).valid
    assert all(2 * sum(c.rank is None for c in m) <= len(m) for m in made.melds)


@pytest.mark.parametrize("on, valid", [(False, True), (True, False)])
def test_through_the_api(client, on, valid):
    body = {"ruleset": "contract", "options": {"wilds_at_most_naturals": on}}
    r = client.post("/api/v1/check", json=body | {"hand": 1, "melds": [["7H", "JK", "JK"], ["8H", "8D", "8C"]]})
    assert r.json["valid"] is valid
    if not valid:
        assert r.json["violations"][0]["code"] == "wilds_outnumber_naturals"
    r = client.post("/api/v1/arrange", json=body | {"hand": 1, "cards": ["7H", "JK", "JK", "8H", "8D", "8C"]})
    assert r.json["possible"] is valid
    r = client.post("/api/v1/layoff", json=body | {"meld": ["5H", "6H", "JK", "8H"], "cards": ["JK"]})
    assert r.json["valid"] is True
    options = client.get("/api/v1/rulesets").json["options"]
    assert options["wilds_at_most_naturals"]["type"] == "bool"
