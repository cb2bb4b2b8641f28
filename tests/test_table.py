import pytest

from referee.cards import Card
from referee.scoring import penalty, possible_totals, standings
from referee.table import TableError, buy, deal_order, layoff, swap
from tests.kit import cards, rules

SEATS = ["Ann", "Ben", "Cy", "Dee", "Eve"]


class TestBuy:
    def test_player_in_turn_first_without_penalty(self):
        r = buy(rules(), SEATS, "Ben", ["Dee", "Ben"])
        assert (r.winner, r.penalty_card, r.reason) == ("Ben", False, "current_player_first")

    def test_nearest_after_the_player_in_turn(self):
        r = buy(rules(), SEATS, "Ben", ["Eve", "Dee"])
        assert (r.winner, r.penalty_card, r.reason) == ("Dee", True, "nearest_caller")
        assert r.buys_left["Dee"] == 2

    def test_wraps_around_the_table(self):
        assert buy(rules(), SEATS, "Dee", ["Cy", "Ben"]).winner == "Ben"

    def test_limit_skips_to_the_next(self):
        r = buy(rules(), SEATS, "Ben", ["Cy", "Dee"], {"Cy": 3})
        assert r.winner == "Dee" and r.params["skipped"] == ["Cy"]

    def test_nobody_left(self):
        r = buy(rules(), SEATS, "Ben", ["Cy"], {"Cy": 3})
        assert (r.winner, r.reason) == (None, "limit_reached")

    def test_no_buying(self):
        assert buy(rules("liverpool", "no_buying"), SEATS, "Ben", ["Cy"]).reason == "no_buying"

    def test_unlimited_in_contract(self):
        r = buy(rules("contract", players=5), SEATS, "Ben", ["Cy"], {"Cy": 9})
        assert r.winner == "Cy" and r.buys_left["Cy"] is None

    def test_discarder_cannot_buy_back(self):
        r = buy(rules(), SEATS, "Ben", ["Ann"])
        assert (r.winner, r.reason) == (None, "own_discard")

    def test_shanghai_call_blocks(self):
        r = buy(rules("contract", "shanghai"), SEATS[:4], "Ben", ["Cy"], shanghai=True)
        assert (r.winner, r.reason) == (None, "shanghai_blocked")

    def test_strangers(self):
        with pytest.raises(TableError):
            buy(rules(), SEATS, "Zed", [])
        with pytest.raises(TableError):
            buy(rules(), SEATS, "Ben", ["Zed"])


class TestLayoff:
    @pytest.mark.parametrize("meld, add, placed", [
        ("5h 6h 7h 8h", "9h", [("9H", "high")]),
        ("5h 6h 7h 8h", "4h 3h", [("3H", "low"), ("4H", "low")]),
        ("5h 6h 7h 8h", "JK 10h", [("JK", "high"), ("10H", "high")]),
        ("7h 7d 7s", "7c JK", [("7C", "set"), ("JK", "set")]),
        ("jh qh kh", "", []),
    ])
    def test_fits(self, meld, add, placed):
        if not add:
            with pytest.raises(TableError):  # "jh qh kh" is no meld on the table
                layoff(rules(), cards(meld), [])
            return
        r = layoff(rules(), cards(meld), cards(add))
        assert r.valid and [(str(c), w) for c, w in r.placed] == placed

    @pytest.mark.parametrize("meld, add, code", [
        ("5h 6h 7h 8h", "10h", "layoff_no_end"), ("5h 6h 7h 8h", "9d", "layoff_wrong_suit"),
        ("5h 6h 7h 8h", "6h", "layoff_taken"), ("7h 7d 7s", "8c", "layoff_wrong_rank"),
        ("5h JK 7h 8h", "6h", "layoff_taken"),
    ])
    def test_refused(self, meld, add, code):
        r = layoff(rules(), cards(meld), cards(add))
        assert not r.valid and [v.code for v in r.violations] == [code]

    def test_when(self):
        assert [v.code for v in layoff(rules(), cards("7h 7d 7s"), cards("7c"), down=False).violations] == [
            "layoff_not_down"]
        assert layoff(rules(), cards("7h 7d 7s"), cards("7c"), same_turn=True).valid  # liverpool: same turn
        r = layoff(rules("contract"), cards("7h 7d 7s"), cards("7c"), same_turn=True)
        assert [v.code for v in r.violations] == ["layoff_same_turn"]

    def test_wild_limit_applies(self):
        r = layoff(rules(run_max_wilds_per_4=1, second_wild_needs_fixed_position=False), cards("5h JK 7h 8h"), cards("JK"))
        assert not r.valid and [v.code for v in r.violations] == ["run_too_many_wilds"]


    @pytest.mark.parametrize("meld, add, valid", [
        # the joker on the table does not fix the place of a second one: the natural cards must
        ("JK 2s 3s 4s", "JK", False), ("2s 3s 4s JK", "JK", False), ("5s 6s JK 8s", "JK", False),
        ("As 2s 3s JK", "JK", True),  # nothing below the ace: both jokers can only go above
        ("JK 2s 3s 4s", "5s", True),
    ])
    def test_second_wild_needs_the_natural_cards(self, meld, add, valid):
        r = layoff(rules(), cards(meld), cards(add), kind="run")
        assert r.valid is valid
        assert r.valid or [v.code for v in r.violations] == ["second_wild_position"]


class TestSwap:
    def test_run(self):
        r = swap(rules(), cards("5h JK 7h 8h"), Card.parse("6h"))
        assert r.valid and [(str(c), a) for c, a in r.represents] == [("JK", "6H")]
        assert [str(c) for c in r.meld.cards] == ["5H", "6H", "7H", "8H"]

    def test_set_any_suit(self):
        assert swap(rules(), cards("7h 7d JK"), Card.parse("7c")).valid

    def test_wrong_card(self):
        r = swap(rules(), cards("5h JK 7h 8h"), Card.parse("9h"))
        assert [v.code for v in r.violations] == ["swap_wrong_card"]

    def test_family_without_swap(self):
        r = swap(rules("progressive"), cards("5h JK 7h 8h"), Card.parse("6h"))
        assert not r.valid and [v.code for v in r.violations] == ["swap_not_allowed"]
        assert [(str(c), a) for c, a in r.represents] == [("JK", "6H")]

    def test_no_wild(self):
        assert [v.code for v in swap(rules(), cards("5h 6h 7h 8h"), Card.parse("9h")).violations] == ["swap_no_wild"]


class TestDeal:
    def test_liverpool_left_cuts(self):
        d = deal_order(rules(), SEATS[:4], 1)
        assert (d.dealer, d.cutter, d.first) == ("Ann", "Ben", "Ben")

    def test_progressive_right_cuts_and_the_deal_passes(self):
        d = deal_order(rules("progressive"), SEATS[:4], 2)
        assert (d.dealer, d.cutter, d.first) == ("Ben", "Ann", "Cy")


class TestScoring:
    @pytest.mark.parametrize("family, text, points", [
        ("liverpool", "AH KD 10C 9S 2D JK", 15 + 10 + 10 + 5 + 5 + 15),
        ("progressive", "AH KD 10C 9S 2D JK", 15 + 10 + 10 + 5 + 5 + 25),
        ("contract", "AH KD 10C 9S 2D JK", 15 + 10 + 10 + 9 + 2 + 15),
        ("contract", "", 0),
    ])
    def test_penalty(self, family, text, points):
        assert penalty(rules(family), cards(text)) == points

    def test_typed_totals(self):
        t = possible_totals(rules(), 3)
        assert 45 in t and 0 in t and 7 not in t and 46 not in t

    def test_lowest_total_wins(self):
        res = standings(rules(), ["A", "B", "C"], [{"A": 10, "B": 0, "C": 30}, {"A": 0, "B": 20, "C": 5}])
        assert res.winners == ("A",) and res.decided_by == "total"

    def test_tie_broken_by_last_hand(self):
        res = standings(rules("progressive"), ["A", "B"], [{"A": 0, "B": 20}, {"A": 20, "B": 0}])
        assert res.winners == ("B",) and res.decided_by == "tie_hand"

    def test_shared_or_replay(self):
        hands = [{"A": 5, "B": 5}]
        assert standings(rules("progressive"), ["A", "B"], hands).decided_by == "shared"
        assert standings(rules("liverpool"), ["A", "B"], hands).decided_by == "replay"


@pytest.mark.parametrize("fam, variants, deciding", [("liverpool", [], 7), ("liverpool", ["nine_hands"], 7),
                                                       ("liverpool", ["five_hands"], 5), ("progressive", [], 7),
                                                       ("progressive", ["shanghai"], 7), ("contract", [], 7)])
def test_the_seventh_hand_breaks_a_tie_as_the_documents_say(fam, variants, deciding):
    """000: «se comparan las puntuaciones de penalización de la séptima mano»; 002: «la puntuación más baja en la
    ronda 7»: in a nine-hand Liverpool or an eight-round Shanghai that is hand 7, not the last; in a five-hand
    game, the hand that plays contract 7 (the last)."""
    from referee.families import resolve

    r = resolve(fam, variants)
    assert r.tie_hand == deciding
    n = len(r.hands)
    hands = [{"A": 10, "B": 10} for _ in range(n)]
    hands[deciding - 1] = {"A": 0, "B": 20}  # A scores less in the deciding hand
    hands[-2 if deciding == n else -1] = {"A": 20, "B": 0}  # and more in another (the last, where it is not)
    res = standings(r, ["A", "B"], hands)
    assert res.tied == ("A", "B") or set(res.tied) == {"A", "B"}
    assert (res.winners, res.decided_by, res.tie_hand) == (("A",), "tie_hand", deciding)
    assert {s.player: s.tie_score for s in res.standings} == {"A": 0, "B": 20}


def test_replayed_last_hand_breaks_a_liverpool_tie():
    hands = [{"A": 5, "B": 5, "C": 30}]
    assert standings(rules(), ["A", "B", "C"], hands).decided_by == "replay"
    res = standings(rules(), ["A", "B", "C"], hands, [{"A": 10, "B": 0, "C": 0}])
    assert (res.winners, res.decided_by) == (("B",), "replayed")
    res = standings(rules(), ["A", "B", "C"], hands, [{"A": 5, "B": 5, "C": 0}])
    assert res.decided_by == "replay"  # still tied: replay again
    assert standings(rules("progressive"), ["A", "B"], [{"A": 5, "B": 5}], [{"A": 0, "B": 9}]).decided_by == "shared"
