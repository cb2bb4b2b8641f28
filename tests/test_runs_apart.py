"""The house rule ``runs_of_a_suit_apart``: two runs of one suit in a contract may not touch or continue each
other (``3S 4S 5S 6S`` and ``7S 8S 9S 10S`` are one run of eight, not two runs of four). Runs that share ranks
(two decks) do not continue each other, and a wild card at an end may stand at the other end to keep two runs
apart. The contract check, the contract search, the nearest miss and the whole-hand search of the last hand
all hold to it; through the engine and the API, on and off; off, every verdict is as before."""

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.arrange import arrange, brute_force
from referee.budget import Budget
from referee.cards import JOKER, Card, Rank, Suit, parse_cards
from referee.contracts import check
from referee.families import resolve

OFF = resolve("contract")
ON = resolve("contract", options={"runs_of_a_suit_apart": True})
LAST = len(ON.hands)


def codes(verdict):
    return [v.code for v in verdict.violations]


def test_two_runs_that_continue_each_other_are_one_run():
    melds = [parse_cards("3S 4S 5S 6S"), parse_cards("7S 8S 9S 10S")]
    assert check(OFF, 3, melds).valid
    refused = check(ON, 3, melds)
    assert codes(refused) == ["runs_touch"]
    assert refused.violations[0].meld == 1
    assert refused.violations[0].params == {"low_card": "6S", "high_card": "7S"}
    assert refused.rules[0] == "rule-run"
    # the order they are given in changes nothing
    assert codes(check(ON, 3, melds[::-1])) == ["runs_touch"]


def test_runs_apart_overlapping_or_of_other_suits_are_two_runs():
    assert check(ON, 3, [parse_cards("3S 4S 5S 6S"), parse_cards("8S 9S 10S JS")]).valid  # a gap between
    assert check(ON, 3, [parse_cards("3S 4S 5S 6S"), parse_cards("5S 6S 7S 8S")]).valid  # two decks: overlap
    assert check(ON, 3, [parse_cards("3S 4S 5S 6S"), parse_cards("7H 8H 9H 10H")]).valid  # another suit


def test_a_wild_card_at_an_end_may_stand_at_the_other_end():
    # the joker may be the 2 of spades: the runs need not touch
    assert check(ON, 3, [parse_cards("3S 4S 5S JK"), parse_cards("7S 8S 9S 10S")]).valid
    # and the verdict says so: the joker is read as the 2, whichever end it was given at
    for first in (parse_cards("3S 4S 5S JK"), parse_cards("JK 3S 4S 5S")):
        verdict = check(ON, 3, [first, parse_cards("7S 8S 9S 10S")])
        assert [(str(c), stands) for c, stands in verdict.melds[0].wilds] == [("JK", "2S")]
        assert verdict.melds[0].cards == tuple(first)  # the cards as given
    # where the rule is off, the order the cards were given in decides, as before
    assert [s for _, s in check(OFF, 3, [parse_cards("3S 4S 5S JK"), parse_cards("7S 8S 9S 10S")]).melds[0].wilds] \
        == ["6S"]
    # inside the run, the joker's place is fixed: the runs touch
    assert codes(check(ON, 3, [parse_cards("3S JK 5S 6S"), parse_cards("7S 8S 9S 10S")])) == ["runs_touch"]


def test_the_contract_search_keeps_runs_apart():
    eight = parse_cards("3S 4S 5S 6S 7S 8S 9S 10S")
    assert arrange(OFF, 3, eight).possible
    found = arrange(ON, 3, eight)
    assert found.possible is False and found.missing == 1
    assert brute_force(ON, 3, eight) is None
    # a ninth card lets the runs stand apart: the seven is left in hand
    nine = arrange(ON, 3, eight + parse_cards("JS"))
    assert nine.possible and check(ON, 3, nine.melds).valid
    assert [str(c) for c in nine.unused] == ["7S"]
    # a joker at the low end keeps them apart
    joker = arrange(ON, 3, parse_cards("3S 4S 5S JK 7S 8S 9S 10S"))
    assert joker.possible and check(ON, 3, joker.melds).valid


def test_the_nearest_miss_asks_for_cards_that_keep_runs_apart():
    found = arrange(ON, 3, parse_cards("3S 4S 5S 6S 7S 8S 9S 10S"))
    added = parse_cards(" ".join(found.needs))
    completed = arrange(ON, 3, parse_cards("3S 4S 5S 6S 7S 8S 9S 10S") + added)
    assert completed.possible and check(ON, 3, completed.melds).valid


def test_the_last_hand_melds_the_whole_hand_as_runs_apart():
    hand = parse_cards("3S 4S 5S 6S 7S 8S 9S 10S 2H 3H 4H 5H 6H")
    assert arrange(OFF, LAST, hand).possible
    found = arrange(ON, LAST, hand)
    assert found.possible is False and found.missing == 1
    completed = arrange(ON, LAST, hand + parse_cards(" ".join(found.needs)))
    assert completed.possible is not True or check(ON, LAST, completed.melds).valid
    # with a third suit, the spades are one run and nothing touches
    hand = parse_cards("3S 4S 5S 6S 7S 8S 9S 10S 2H 3H 4H 5H 9D 10D JD QD")
    made = arrange(ON, LAST, hand[:13])
    assert made.possible is False
    three = parse_cards("3S 4S 5S 6S 7S 2H 3H 4H 5H 9D 10D JD QD")
    made = arrange(ON, LAST, three)
    assert made.possible and check(ON, LAST, made.melds, cards_left=0).valid


@pytest.mark.parametrize("melds", [
    # spare jokers lengthen the runs that can take them without touching another of the suit
    ["JK 8C 9C 10C JC JK", "AH 2H 3H JK 5H 6H JK", "10H JH QH KH"],
    # runs of one suit that share ranks (three decks) may lengthen over each other's ends
    ["4C 5C 6C 7C 8C", "JK 4C 5C JK 7C 8C", "4C 5C 6C 7C 8C"],
])
def test_the_last_hand_finds_the_runs_the_check_accepts(melds):
    rules = resolve("contract", options={"runs_of_a_suit_apart": True, "decks": 3, "jokers": 6})
    melds = [parse_cards(m) for m in melds]
    assert check(rules, LAST, melds, cards_left=0).valid
    made = arrange(rules, LAST, [c for m in melds for c in m])
    assert made.possible and check(rules, LAST, made.melds, cards_left=0).valid


@pytest.mark.parametrize("on, valid", [(False, True), (True, False)])
def test_through_the_api(client, on, valid):
    body = {"ruleset": "contract", "options": {"runs_of_a_suit_apart": on}}
    melds = [["3S", "4S", "5S", "6S"], ["7S", "8S", "9S", "10S"]]
    r = client.post("/api/v1/check", json=body | {"hand": 3, "melds": melds})
    assert r.json["valid"] is valid
    if not valid:
        assert [v["code"] for v in r.json["violations"]] == ["runs_touch"]
    r = client.post("/api/v1/arrange", json=body | {"hand": 3, "cards": melds[0] + melds[1]})
    assert r.json["possible"] is valid
    options = client.get("/api/v1/rulesets").json["options"]
    assert options["runs_of_a_suit_apart"]["type"] == "bool"


def test_the_referee_page_says_which_cards_touch(client):
    from html import unescape

    from tests.kit import said
    from tests.test_picker import csrf
    path = "/referee/check?lang=es"
    data = {"family": "contract", "hand": "3", "melds": "3S 4S 5S 6S\n7S 8S 9S 10S"}
    for on in ("no", "yes"):
        r = client.post(path, data=data | {"opt_runs_of_a_suit_apart": on} | csrf(client, path))
        verdict = unescape(r.get_data(as_text=True)).split('id="verdict"', 1)[1].split("<form", 1)[0]
        told = said("Two runs of one suit may not touch at this table: %(low_card)s and %(high_card)s make them "
                    "one run.", "es", low_card="|", high_card="|").split("|")[0]
        assert ("verdict good" in verdict) is (on == "no")
        assert (told in verdict) is (on == "yes")


@st.composite
def last_hands(draw):
    """The last hand's runs, of one or two suits (so that runs of a suit meet often), longer than the contract
    asks and with jokers anywhere, under house rules that keep runs of a suit apart; those the check accepts."""
    options = draw(st.sampled_from([{}, {"wilds_at_most_naturals": True}, {"run_max_wilds_per_4": 1}]))
    family = draw(st.sampled_from(["contract", "progressive", "liverpool"]))
    rules = resolve(family, options=options | {"runs_of_a_suit_apart": True, "decks": 3, "jokers": 6})
    last = len(rules.hands)
    suits = draw(st.lists(st.sampled_from(list(Suit)), min_size=1, max_size=2, unique=True))
    melds = []
    for spec in rules.hand(last).contract.melds:
        n = spec.size + draw(st.integers(0, 3))
        suit = draw(st.sampled_from(suits))
        start = draw(st.integers(1, 15 - n))
        meld = [Card(Rank(1 if p == 14 else p), suit) for p in range(start, start + n)]
        for i in draw(st.sets(st.integers(0, n - 1), max_size=2)):
            meld[i] = JOKER
        melds.append(meld)
    assume(check(rules, last, melds, cards_left=0).valid)
    return rules, last, melds


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(made=last_hands())
def test_runs_the_check_accepts_in_the_last_hand_are_runs_arrange_finds(made):
    rules, last, melds = made
    made = arrange(rules, last, [c for m in melds for c in m], Budget(cpu_seconds=None))
    assert made.possible, melds
    assert check(rules, last, made.melds, cards_left=0).valid


@settings(max_examples=200, deadline=None)
@given(first=st.integers(1, 10), gap=st.integers(-2, 2), jokers=st.sets(st.integers(0, 7), max_size=2),
       seed=st.randoms(use_true_random=False))
def test_the_verdict_on_two_runs_of_a_suit_never_depends_on_the_order_of_the_cards(first, gap, jokers, seed):
    """Two runs of spades that meet, nearly meet or overlap, jokers anywhere in them: the order of the cards
    and of the melds changes neither the verdict nor why."""
    second = first + 4 + gap
    assume(second + 3 <= 14)
    cards = [Card(Rank(1 if p == 14 else p), Suit.SPADES) for p in list(range(first, first + 4)) +
             list(range(second, second + 4))]
    for i in jokers:
        cards[i] = JOKER
    melds = [cards[:4], cards[4:]]
    other = [list(m) for m in melds]
    for m in other:
        seed.shuffle(m)
    seed.shuffle(other)
    a, b = check(ON, 3, melds), check(ON, 3, other)
    assert (a.valid, sorted(v.code for v in a.violations)) == (b.valid, sorted(v.code for v in b.violations))
    if a.valid:  # and where it holds, each run as the verdict reads it stays apart from the other
        low, high = sorted((m.low, m.high) for m in a.melds)
        assert low[1] + 1 != high[0]
