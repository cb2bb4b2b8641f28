"""The engine scores a hand: leftovers written by rank alone, buys, the exact-cut bonus kept apart."""

import pytest

from referee.cards import CardError, Rank, Suit
from referee.scoring import Entry, Leftover, score_hand

from .kit import rules

NAMES = ["Ann", "Ben", "Cy", "Dee"]


def left(text):
    return Entry(Leftover.parse_all(text))


class TestLeftover:
    @pytest.mark.parametrize("text, rank, suit", [
        ("7", Rank.SEVEN, None), ("7h", Rank.SEVEN, Suit.HEARTS), ("T", Rank.TEN, None), ("JK", None, None),
        ("q♠", Rank.QUEEN, Suit.SPADES), (" k ", Rank.KING, None),
    ])
    def test_parse(self, text, rank, suit):
        assert Leftover.parse(text) == Leftover(rank, suit)

    def test_round_trip(self):
        assert [str(c) for c in Leftover.parse_all("a 10d, jk 7")] == ["A", "10D", "JK", "7"]

    @pytest.mark.parametrize("text", ["ZZ", "1", "7X", ""])
    def test_bad(self, text):
        with pytest.raises(CardError):
            Leftover.parse(text)


class TestScoreHand:
    def test_ranks_alone_score_as_cards(self):
        s = score_hand(rules("contract"), 1, NAMES, 0, {1: left("A 9 JK"), 2: left("9H"), 3: Entry(total=20)})
        assert s.valid and [x.penalty for x in s.seats] == [0, 39, 9, 20]

    def test_buys_widen_what_a_player_holds(self):
        r = rules()
        too_many = {1: left("2 " * 6 + "5 " * 6), 2: left("3"), 3: left("4")}
        assert score_hand(r, 1, NAMES, 0, too_many).violations[0].code == "too_many_cards"
        assert score_hand(r, 1, NAMES, 0, too_many, buys={1: 1}).valid

    @pytest.mark.parametrize("entries, code, field", [
        ({0: left("K"), 1: left("A"), 2: left("2"), 3: left("3")}, "out_has_cards", "cards_0"),
        ({1: left("AH AH AH"), 2: left("2"), 3: left("3")}, "too_many_copies", "cards"),
        ({1: left("A " * 9), 2: left("2"), 3: left("3")}, "too_many_copies", "cards"),  # nine aces, two decks
        ({1: left("A"), 3: left("3")}, "missing_cards", "cards_2"),
        ({1: Entry(total=7), 2: left("2"), 3: left("3")}, "impossible_total", "total_1"),
        ({1: Entry(Leftover.parse_all("K"), 15), 2: left("2"), 3: left("3")}, "total_disagrees", "total_1"),
    ])
    def test_refusals_name_the_player_and_field(self, entries, code, field):
        s = score_hand(rules(), 1, NAMES, 0, entries)
        assert not s.valid and not s.seats
        assert (s.violations[0].code, s.violations[0].field) == (code, field)

    def test_stock_out_only_where_the_house_rule_says(self):
        entries = {i: left("K") for i in range(4)}
        assert score_hand(rules(), 1, NAMES, None, entries).violations[0].code == "nobody_out"
        assert score_hand(rules(stock_exhausted="end_hand"), 1, NAMES, None, entries).valid

    def test_exact_cut_bonus_is_kept_apart(self):
        s = score_hand(rules("liverpool", "exact_cut_bonus"), 1, NAMES, 0, {1: left("K"), 2: left("A"),
                       3: Entry(total=5)}, cutter=1, exact_cut=True)
        ben = s.seats[1]
        assert (ben.penalty, ben.bonus, ben.score) == (10, 10, 0)
        assert [x.bonus for x in s.seats] == [0, 10, 0, 0]

    def test_no_bonus_without_an_exact_cut(self):
        s = score_hand(rules("liverpool", "exact_cut_bonus"), 1, NAMES, 0, {1: left("K"), 2: left("A"),
                       3: left("5")}, cutter=1, exact_cut=False)
        assert [x.score for x in s.seats] == [0, 10, 15, 5]
