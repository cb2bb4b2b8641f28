"""The referee never contradicts itself: questions that are the same question asked another way ("can these
cards make the contract?" and "are these melds the contract?"; a lay-off or a swap and the meld it leaves) get
the same answer. Each example here was a contradiction once."""

from __future__ import annotations

from collections import Counter

import pytest

from referee.arrange import arrange
from referee.cards import parse_cards
from referee.contracts import check
from referee.table import layoff, swap
from tests.kit import cards, melds, rules


# ------------------------------------------------------------------ arrange and check agree on longer runs
def test_liverpool_arrange_finds_a_run_longer_than_the_contract_asks():
    """With the second-wild rule, 5H JK 7H JK is not a run (the second joker's place is not fixed), but
    5H JK 7H JK 9H is, and Liverpool lets a contract meld be longer: check accepts it, so arrange must."""
    r = rules("liverpool")
    hand = cards("5H 7H 9H JK JK 8C 8D 8S 2C 3D KS QD")
    assert check(r, 2, melds("8C 8D 8S | 5H JK 7H JK 9H")).valid
    a = arrange(r, 2, hand)
    assert a.possible, (a.melds, a.needs)
    assert check(r, 2, a.melds).valid
    assert not (Counter(c for m in a.melds for c in m) - Counter(hand))  # the hand's own cards


def test_liverpool_nearest_miss_counts_a_longer_run():
    """Hand 3 (two runs of four) from JH 8S JK 7H JK 9H 6S JK: 7H JK 9H JK JH is one run, and 5S 6S JK 8S the
    other once a 5S is added: one card short, not two."""
    r = rules("liverpool")
    hand = cards("JH 8S JK 7H JK 9H 6S JK")
    a = arrange(r, 3, hand)
    assert a.possible is False and a.missing == 1, (a.melds, a.needs)
    added = parse_cards(" ".join(a.needs))
    completed = arrange(r, 3, hand + added)
    assert completed.possible and check(r, 3, completed.melds).valid


def test_no_longer_runs_where_the_contract_melds_are_exact():
    """Progressive's contract melds are their exact size (no extra cards when going down): no longer run."""
    r = rules("progressive", second_wild_needs_fixed_position=True)
    hand = cards("5H 7H 9H JK JK 8C 8D 8S 2C 3D KS QD")
    assert not check(r, 2, melds("8C 8D 8S | 5H JK 7H JK 9H")).valid
    assert arrange(r, 2, hand).possible is False


# ------------------------------------------------------------------ lay-off and swap count the pack
@pytest.mark.parametrize("family, players, options, meld, card", [
    ("liverpool", 4, {}, "7H 7H 7S", "7H"),  # two decks: a third 7H
    ("progressive", 4, {}, "JK JK 7S 7H 7C JK JK", "JK"),  # four jokers with four players: a fifth
    ("progressive", 4, {}, "7S 7H 7C", "JK"),  # (allowed: a joker the pack holds)
])
def test_a_lay_off_never_leaves_more_copies_than_the_pack_holds(family, players, options, meld, card):
    r = rules(family, players=players, **options)
    on_table = cards(meld)
    ruling = layoff(r, on_table, cards(card))
    by_check = check(r, 1, [on_table + cards(card)])
    too_many = any(v.code == "too_many_copies" for v in by_check.violations)
    assert ruling.valid is not too_many, [v.code for v in ruling.violations]
    if too_many:
        assert "too_many_copies" in [v.code for v in ruling.violations] and ruling.placed == []


def test_california_refuses_a_joker_laid_off_as_check_refuses_it():
    r = rules("progressive", "california")
    assert r.jokers == 0
    ruling = layoff(r, cards("7S 7H QC"), cards("JK"))
    assert not ruling.valid and [v.code for v in ruling.violations] == ["too_many_copies"]


def test_a_swap_never_leaves_more_copies_than_the_pack_holds():
    r = rules("liverpool", players=4)  # two decks
    ruling = swap(r, cards("7H 7H JK"), cards("7H")[0])
    assert not ruling.valid and "too_many_copies" in [v.code for v in ruling.violations]
    allowed = swap(r, cards("7H 7S JK"), cards("7C")[0])
    assert allowed.valid


# ------------------------------------------------------------------ an ace-low run of thirteen
def test_an_ace_laid_off_low_makes_the_thirteen_card_run_check_accepts():
    r = rules("contract", ace="low")
    run = cards("2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD")
    assert check(r, 1, [cards("AD") + run]).violations == [] or analyze_ok(r, cards("AD") + run)
    ruling = layoff(r, run, cards("AD"))
    assert ruling.valid, [v.code for v in ruling.violations]
    assert [p for _, p in ruling.placed] == ["low"]
    with_joker = layoff(r, run, cards("JK"))
    assert with_joker.valid


def analyze_ok(r, meld) -> bool:
    from referee.melds import analyze

    reading = analyze(meld, r)
    return reading.valid and reading.kind == "run"


# ------------------------------------------------------------------ twos wild: one reading for check and arrange
def test_twos_wild_final_hand_check_and_arrange_agree():
    """Contract with twos wild, the final hand (three runs of four, every card down): a wild 2 may stand for
    itself, so a run of one such 2 and wild cards is a run (docs/decisions.md); arrange finds it too."""
    r = rules("contract", "twos_wild")
    final = len(r.hands)
    these = melds("2D 2D JK JK | 2C 2H 2H JK | 2C 3C 4C 2S 2S")
    verdict = check(r, final, these, cards_left=0)
    a = arrange(r, final, [c for m in these for c in m])
    assert verdict.valid is bool(a.possible), ([v.code for v in verdict.violations], a.melds, a.needs)
    if a.possible:
        assert check(r, final, a.melds, cards_left=0).valid
