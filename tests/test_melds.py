"""One concept per class; melds written as compact card strings."""

import pytest

from referee.melds import analyze
from tests.kit import cards, rules


def codes(text, r=None):
    return [v.code for v in analyze(cards(text), r or rules()).violations]


def wilds(text, r=None):
    return [(str(c), a) for c, a in analyze(cards(text), r or rules()).wilds]


class TestSets:
    @pytest.mark.parametrize("text", ["7h 7d 7s", "7h 7h 7d", "kc kd ks kh kc", "7h 7d JK"])
    def test_valid(self, text):
        m = analyze(cards(text), rules())
        assert (m.kind, m.valid) == ("set", True)

    @pytest.mark.parametrize("text, code", [
        ("7h 7d", "set_too_short"), ("7h 7d 7s 8s", "set_mixed_ranks"), ("7h JK JK", "set_too_few_naturals"),
    ])
    def test_invalid(self, text, code):
        assert code in codes(text)

    def test_one_natural_is_enough_where_the_family_says_so(self):
        assert codes("7h JK JK", rules("progressive")) == []
        assert codes("7h JK JK", rules("liverpool", set_min_naturals=1)) == []

    def test_wild_stands_for_the_rank(self):
        assert wilds("7h 7d JK") == [("JK", "7")]


class TestRuns:
    @pytest.mark.parametrize("text", ["5h 6h 7h 8h", "8h 6h 5h 7h", "ah 2h 3h 4h", "jh qh kh ah", "5h JK 7h 8h",
                                      "2s 3s 4s 5s 6s 7s 8s 9s 10s js qs ks as"])
    def test_valid(self, text):
        m = analyze(cards(text), rules())
        assert (m.kind, m.valid) == ("run", True), m.violations

    @pytest.mark.parametrize("text, code", [
        ("5h 6h 7h", "run_too_short"), ("5h 6h 7d 8h", "run_mixed_suits"), ("5h 5h 6h 7h", "run_duplicate_rank"),
        ("5h 6h 8h 9h", "run_gap"), ("kh ah 2h 3h", "run_wraps"), ("qh kh ah 2h", "run_wraps"),
    ])
    def test_invalid(self, text, code):
        assert codes(text) == [code]

    def test_gap_names_the_cards(self):
        v = analyze(cards("5h 6h JK 9h"), rules()).violations[0]
        assert v.params == {"needed": 2, "wilds": 1, "low_card": "6H", "high_card": "9H"}

    def test_wild_fills_the_gap(self):
        assert wilds("5h 6h JK 8h") == [("JK", "7H")]

    def test_wild_at_an_end_follows_the_order_given(self):
        assert wilds("JK 5h 6h 7h") == [("JK", "4H")]
        assert wilds("5h 6h 7h JK") == [("JK", "8H")]
        assert wilds("7h 6h 5h JK") == [("JK", "4H")]

    def test_wild_at_an_end_goes_high_when_order_says_nothing(self):
        assert wilds("6h JK 5h 7h") == [("JK", "8H")]

    def test_wild_goes_low_when_the_top_is_reached(self):
        assert wilds("jh qh kh ah JK") == [("JK", "10H")]


class TestAces:
    def test_low_only(self):
        r = rules(ace="low")
        assert codes("ah 2h 3h 4h", r) == [] and codes("jh qh kh ah", r) == ["ace_low_only"]

    def test_high_only(self):
        r = rules(ace="high")
        assert codes("jh qh kh ah", r) == [] and codes("ah 2h 3h 4h", r) == ["ace_high_only"]

    def test_never_around_the_corner_even_with_wilds(self):
        assert codes("kh ah 2h JK") == ["run_wraps"]

    def test_wild_may_be_the_ace(self):
        assert wilds("jh qh kh JK") == [("JK", "AH")]


class TestWildLimits:
    def test_run_max_wilds_per_4(self):
        r = rules(run_max_wilds_per_4=1, second_wild_needs_fixed_position=False)
        assert codes("5h JK 7h 8h 9h JK", r) == []
        assert codes("5h JK JK 8h", r) == ["run_too_many_wilds"]

    def test_per_4_finds_a_layout_that_fits(self):
        # one wild below and one above keeps every four cards to one wild
        assert codes("5h 6h 7h 8h JK JK", rules(run_max_wilds_per_4=1, second_wild_needs_fixed_position=False)) == []

    def test_second_wild_needs_fixed_position(self):
        r = rules(second_wild_needs_fixed_position=True)
        assert codes("5h JK JK 8h", r) == []          # both in the gap: fixed
        # a second wild card whose place the naturals do not fix: the end one could be 4H or 9H
        assert codes("5h JK 7h 8h JK", r) == ["second_wild_position"]
        assert codes("5h 6h 7h JK JK", r) == ["second_wild_position"]
        assert codes("5h 6h 7h JK", r) == []          # a lone wild card may stand at either end
        assert codes("ah 2h 3h JK JK", rules(second_wild_needs_fixed_position=True, ace="low")) == []

    def test_off_by_default_where_the_document_is_silent(self):
        assert codes("5h 6h 7h JK JK", rules("progressive")) == []
        assert codes("5h 6h 7h JK JK", rules("contract")) == []

    def test_on_by_default_in_liverpool(self):
        """000: "No puede añadir un segundo comodín a una combinación que ya contenga un comodín a menos que las
        cartas naturales de la combinación identifiquen claramente la posición del segundo comodín (las reglas de
        la casa varían)." """
        assert rules().second_wild_needs_fixed_position
        assert codes("5h 6h 7h JK JK") == ["second_wild_position"]
        assert codes("5h JK JK 8h") == []


class TestWildRanks:
    def test_twos_stand_for_themselves(self):
        r = rules("contract", "twos_wild")
        assert codes("2c 2d 2h", r) == [] and wilds("2c 2d 2h", r) == []
        assert codes("2h 3h 4h 5h", r) == [] and wilds("2h 3h 4h 5h", r) == []

    def test_twos_as_wilds(self):
        r = rules("contract", "twos_wild")
        assert wilds("5h 2c 7h 8h", r) == [("2C", "6H")]

    def test_queens_in_california(self):
        r = rules("progressive", "california")
        assert codes("5h 6h QS 8h", r) == [] and wilds("5h 6h QS 8h", r) == [("QS", "7H")]


class TestNoNatural:
    @pytest.mark.parametrize("text", ["JK JK JK", "JK JK JK JK"])
    def test_all_wild(self, text):
        m = analyze(cards(text), rules())
        assert m.kind is None and "no_natural" in [v.code for v in m.violations]
