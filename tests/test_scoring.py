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
        ({1: left("AH AH AH"), 2: left("2"), 3: left("3")}, "too_many_copies_left", "cards_1"),
        ({1: left("A A A A A"), 2: left("2"), 3: left("A A A A")}, "too_many_copies_left", "cards_1"),  # 9 aces, 2 decks
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


SIX = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


def refusal(score):
    assert not score.valid and not score.seats
    v = score.violations[0]
    return v.code, v.field, v.params


def typed(*totals, start=1):
    return {seat: Entry(total=t) for seat, t in enumerate(totals, start)}


class TestATypedTotalWithinWhatAHandHolds:
    """At most the cards dealt plus two a buy are left, and they make at most what this pack's best cards make."""

    @pytest.mark.parametrize("family, variants, players, hand, buys, highest", [
        ("liverpool", ["no_buying"], 4, 1, 0, 150),  # ten cards: eight aces and two of the four jokers
        ("liverpool", [], 3, 5, 0, 170),  # twelve cards, but the pack (two jokers) has only ten worth 15
        ("progressive", [], 4, 1, 3, 260),  # 10 + 2 × 3 cards: four jokers (25), eight aces, four tens
        ("progressive", [], 4, 1, 0, 190),
        ("contract", [], 4, 4, 2, 215),  # 12 + 4 cards: eight aces and three jokers (15), five tens
        ("contract", [], 3, 1, 0, 150),
    ])
    def test_the_highest_total_and_one_point_more(self, family, variants, players, hand, buys, highest):
        r = rules(family, *variants, players=players, **({"jokers": 2} if family == "liverpool" and players == 3
                                                          else {}))
        names = NAMES[:players]
        rest = {seat: left("3") for seat in range(2, players)}
        ok = score_hand(r, hand, names, 0, {1: Entry(total=highest)} | rest, buys={1: buys})
        assert ok.valid and ok.seats[1].penalty == highest
        step = 1 if family == "contract" else 5
        code, field, params = refusal(score_hand(r, hand, names, 0, {1: Entry(total=highest + step)} | rest,
                                                 buys={1: buys}))
        assert (code, field) == ("total_too_high", "total_1")
        assert params == {"player": "Ben", "total": highest + step, "maximum": r.can_hold(hand, buys),
                          "highest": highest}

    def test_the_issue_examples(self):
        liverpool = rules("liverpool", "no_buying")
        assert refusal(score_hand(liverpool, 1, NAMES, 0, typed(155, 5, 5)))[0] == "total_too_high"
        progressive = rules("progressive")
        assert score_hand(progressive, 1, NAMES, 0, typed(260, 5, 5), buys={1: 3}).valid
        assert refusal(score_hand(progressive, 1, NAMES, 0, typed(265, 5, 5), buys={1: 3}))[0] == "total_too_high"

    @pytest.mark.parametrize("family, total", [("liverpool", 7), ("progressive", 12), ("contract", 1),
                                               ("contract", 149), ("liverpool", -5)])
    def test_a_total_no_cards_make(self, family, total):
        # contract: 149 in ten cards would take nine cards worth 15 and 14 points in the tenth
        code, field, params = refusal(score_hand(rules(family), 1, NAMES, 0, typed(total, 5, 5)))
        assert (code, field, params["player"]) == ("impossible_total", "total_1", "Ben")

    def test_a_player_who_did_not_go_out_holds_a_card(self):
        assert refusal(score_hand(rules(), 1, NAMES, 0, typed(0, 5, 5)))[0] == "impossible_total"
        assert score_hand(rules(joker_points=0), 1, NAMES, 0, typed(0, 5, 5)).valid  # a joker worth nothing

    def test_the_exact_cut_bonus_comes_off_the_score_not_the_cards(self):
        r = rules("liverpool", "exact_cut_bonus", "no_buying")
        s = score_hand(r, 1, NAMES, 0, typed(150, 5, 5), cutter=1, exact_cut=True)
        assert s.valid and (s.seats[1].penalty, s.seats[1].score) == (150, 140)
        code, _, params = refusal(score_hand(r, 1, NAMES, 0, typed(155, 5, 5), cutter=1, exact_cut=True))
        assert code == "total_too_high" and params["highest"] == 150

    def test_a_replayed_hand_is_the_last_hand_again(self):
        r = rules("liverpool", "no_buying")  # hand 7: twelve cards dealt
        assert r.can_hold(8) == r.can_hold(7) == 12
        assert score_hand(r, 8, NAMES, 0, typed(180, 5, 5)).valid  # eight aces and four jokers
        assert refusal(score_hand(r, 8, NAMES, 0, typed(185, 5, 5)))[0] == "total_too_high"
        assert refusal(score_hand(r, 8, NAMES, 0, {1: left("2 " * 13), 2: left("3"), 3: left("4")}))[0] == \
            "too_many_cards"


class TestCardsWithinWhatAHandHolds:
    """The deal plus two a buy (the discard and the penalty card), not one more."""

    @pytest.mark.parametrize("family, hand, buys, most", [
        ("contract", 4, 2, 16), ("liverpool", 1, 0, 10), ("progressive", 5, 1, 14), ("liverpool", 7, 3, 18),
    ])
    def test_the_most_cards_and_one_more(self, family, hand, buys, most):
        r = rules(family)
        assert r.can_hold(hand, buys) == most
        rest = {2: left("3"), 3: left("4")}
        cards = ["2", "3", "4", "5", "6", "7", "8", "9"] * 3
        assert score_hand(r, hand, NAMES, 0, {1: left(" ".join(cards[:most]))} | rest, buys={1: buys}).valid
        code, field, params = refusal(score_hand(r, hand, NAMES, 0, {1: left(" ".join(cards[:most + 1]))} | rest,
                                                 buys={1: buys}))
        assert (code, field, params) == ("too_many_cards", "cards_1", {"player": "Ben", "maximum": most})

    def test_the_issue_example(self):
        r = rules("contract")
        seventeen = left("2 2 3 3 4 4 5 5 6 6 7 7 8 8 9 9 K")
        assert refusal(score_hand(r, 4, NAMES, 0, {1: seventeen, 2: left("3"), 3: left("4")}, buys={1: 2}))[0] == \
            "too_many_cards"


class TestOnePackForTheWholeHand:
    """Typed totals and tapped cards of one hand must all come out of one pack at once."""

    def test_two_totals_of_150_in_a_six_player_liverpool(self):
        r = rules("liverpool", "no_buying", players=6)  # 3 decks, 6 jokers: 18 cards worth 15
        code, field, params = refusal(score_hand(r, 1, SIX, 0, typed(150, 150, 5, 5, 5)))
        assert (code, field) == ("pack_cannot_make", "total_1")
        assert params == {"players": ["Ben", "Cy"], "decks": 3, "jokers": 6}

    def test_the_edge_of_the_pack(self):
        r = rules("liverpool", "no_buying", players=6)
        # 150 takes ten cards worth 15; 145 in ten cards takes nine (and a ten): nineteen; 140 takes eight
        assert refusal(score_hand(r, 1, SIX, 0, typed(150, 145, 5, 5, 5)))[0] == "pack_cannot_make"
        assert score_hand(r, 1, SIX, 0, typed(150, 140, 5, 5, 5)).valid
        # with a buy Cy may hold twelve cards: 145 is eight worth 15, two tens and a 5
        assert score_hand(rules("liverpool", players=6), 1, SIX, 0, typed(150, 145, 5, 5, 5), buys={2: 1}).valid

    def test_tapped_cards_and_typed_totals_together(self):
        r = rules("liverpool", "no_buying", players=6)  # twelve aces
        ten_aces = left("A " * 10)
        code, field, params = refusal(score_hand(r, 1, SIX, 0, {1: ten_aces} | typed(150, 5, 5, 5, start=2)))
        assert (code, field, params["players"]) == ("pack_cannot_make", "cards_1", ["Ben", "Cy"])
        assert score_hand(r, 1, SIX, 0, {1: ten_aces} | typed(120, 5, 5, 5, start=2)).valid  # 2 aces + 6 jokers

    def test_progressive_jokers(self):
        r = rules("progressive", "no_buying")  # four jokers worth 25, eight aces
        assert refusal(score_hand(r, 1, NAMES, 0, typed(190, 190, 5)))[2]["players"] == ["Ben", "Cy"]
        assert score_hand(r, 1, NAMES, 0, typed(190, 100, 5)).valid  # two aces and seven tens
        assert refusal(score_hand(r, 1, NAMES, 0, {1: left("JK JK JK")} | typed(190, 5, start=2)))[0] == \
            "pack_cannot_make"

    def test_contract(self):
        r = rules("contract")  # 4 players: eight aces and three jokers worth 15
        assert refusal(score_hand(r, 1, NAMES, 0, typed(150, 145, 9)))[2]["players"] == ["Ben", "Cy"]
        assert score_hand(r, 1, NAMES, 0, typed(150, 100, 9)).valid

    def test_only_the_players_in_conflict_are_named(self):
        r = rules("liverpool", "no_buying", players=6)
        entries = {1: Entry(total=150), 2: left("7 7"), 3: Entry(total=150), 4: Entry(total=40), 5: left("K")}
        assert refusal(score_hand(r, 1, SIX, 0, entries))[2]["players"] == ["Ben", "Dee"]

    def test_too_many_copies_name_who_has_them(self):
        code, field, params = refusal(score_hand(rules(), 1, NAMES, 0, {1: left("JK JK JK"), 2: left("JK JK"),
                                                                         3: left("5")}))
        assert (code, field) == ("too_many_copies_left", "cards_1")
        assert params == {"card": "JK", "count": 5, "copies": 4, "players": ["Ben", "Cy"]}

    def test_a_search_cut_short_refuses_nothing(self, monkeypatch):
        from referee import scoring
        r = rules("liverpool", "no_buying", players=6)
        monkeypatch.setattr(scoring, "can_make", lambda pool, wants, budget=None: None)
        assert score_hand(r, 1, SIX, 0, typed(150, 150, 5, 5, 5)).valid
