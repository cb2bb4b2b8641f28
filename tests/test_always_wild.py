"""The house rule ``wild_ranks_always_wild`` (twos always wild, never themselves, as many "May I?" groups play):
a card of a wild rank that is not a joker never counts as a natural card, in a set of its rank, at its own
place in a run, against the natural cards, or as the card that takes a joker's place. Through the engine and
the API, on and off; off, every verdict is as before."""

import pytest

from referee.arrange import arrange
from referee.cards import parse_cards
from referee.contracts import check
from referee.families import resolve
from referee.melds import analyze
from referee.table import layoff, swap

OFF = resolve("contract", ["twos_wild"], options={"joker_swap": True})
ON = resolve("contract", ["twos_wild"], options={"joker_swap": True, "wild_ranks_always_wild": True})


def wilds(meld):
    return [(str(c), stands) for c, stands in meld.wilds]


def test_a_two_at_its_own_place_in_a_run_is_a_wild_card():
    run = parse_cards("2S 3S 4S 5S")  # three natural cards and one wild
    assert analyze(run, OFF).valid and wilds(analyze(run, OFF)) == []
    assert analyze(run, ON).valid and wilds(analyze(run, ON)) == [("2S", "2S")]


def test_a_set_of_twos_has_no_natural_card():
    assert analyze(parse_cards("2S 2H JK"), OFF).valid
    meld = analyze(parse_cards("2S 2H JK"), ON)
    assert not meld.valid and [v.code for v in meld.violations] == ["no_natural"]
    assert not analyze(parse_cards("2S 2H 2D"), ON).valid


def test_the_house_rules_on_wild_cards_count_the_twos():
    # a second wild card only where the natural cards fix its place: 2S (own place) and a joker at an end
    strict = resolve("contract", ["twos_wild"], options={"wild_ranks_always_wild": True,
                                                         "second_wild_needs_fixed_position": True})
    loose = resolve("contract", ["twos_wild"], options={"second_wild_needs_fixed_position": True})
    run = parse_cards("2S 3S 4S JK")
    assert analyze(run, loose).valid  # the 2 is itself: one wild card
    assert not analyze(run, strict).valid  # two wild cards, one of them free to go to either end


def test_the_contract_check_and_arrange_agree():
    melds = [parse_cards("7H 7D 2C"), parse_cards("2S 3S 4S 5S")]
    assert check(OFF, 2, melds).valid and check(ON, 2, melds).valid
    twos = [parse_cards("2H 2D JK"), parse_cards("9S 10S JS QS")]
    assert check(OFF, 2, twos).valid and not check(ON, 2, twos).valid
    # Liverpool's sets need two natural cards: three twos and three sevens make two sets only if the twos are
    # natural
    off, on = (resolve("liverpool", options={"wild_ranks": ["JK", "2"], "wild_ranks_always_wild": always})
               for always in (False, True))
    hand = parse_cards("2H 2D 2C 7H 7D 7C")
    assert arrange(off, 1, hand).possible and check(off, 1, [hand[:3], hand[3:]]).valid
    found = arrange(on, 1, hand)
    assert not found.possible and found.missing
    assert not check(on, 1, [hand[:3], hand[3:]]).valid


def test_lay_off_places_a_two_as_a_wild_card():
    table = parse_cards("3S 4S 5S 6S")
    assert layoff(OFF, table, parse_cards("2S")).placed[0][1] == "low"  # itself, below the 3
    on = layoff(ON, table, parse_cards("2S"))
    assert on.valid and wilds(on.meld) != []


def test_a_two_never_takes_a_jokers_place():
    assert swap(OFF, parse_cards("JK 3S 4S 5S"), parse_cards("2S")[0]).valid
    refused = swap(ON, parse_cards("JK 3S 4S 5S"), parse_cards("2S")[0])
    assert not refused.valid and [v.code for v in refused.violations] == ["swap_wild_card"]
    assert swap(ON, parse_cards("3S 4S 5S JK"), parse_cards("6S")[0]).valid  # a natural card does


@pytest.mark.parametrize("always, valid", [(False, True), (True, False)])
def test_through_the_api(client, always, valid):
    body = {"ruleset": "liverpool", "options": {"wild_ranks": ["JK", "2"], "wild_ranks_always_wild": always}}
    r = client.post("/api/v1/check", json=body | {"hand": 1, "melds": [["2S", "2H", "2D"], ["7H", "7D", "7C"]]})
    assert r.json["valid"] is valid
    if not valid:
        assert r.json["violations"][0]["code"] == "no_natural"
    r = client.post("/api/v1/arrange", json=body | {"hand": 1, "cards": ["2S", "2H", "2D", "7H", "7D", "7C"]})
    assert r.json["possible"] is valid
    r = client.post("/api/v1/swap", json={"ruleset": "contract", "variants": ["twos_wild"], "meld": [
        "JK", "3S", "4S", "5S"], "card": "2S", "options": {"wild_ranks_always_wild": always, "joker_swap": True}})
    assert r.json["valid"] is valid
    options = client.get("/api/v1/rulesets").json["options"]
    assert options["wild_ranks_always_wild"]["type"] == "bool"
