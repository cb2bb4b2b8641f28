"""A player who sits down after the game began: the engine's side (the deal passes to them, they score from
the hand they join, with the starting score the table gave them, and the tie-break counts them)."""

import pytest

from referee.families import resolve
from referee.scoring import Entry, Leftover, running_totals, score_hand, standings, totals
from referee.table import deal_order

LIVERPOOL = resolve("liverpool")


class TestTheDeal:
    def test_without_late_players_the_deal_is_as_before(self):
        for n in (3, 4, 5):
            seats = "ABCDE"[:n]
            for first in range(n):
                for hand in range(1, 9):
                    assert deal_order(LIVERPOOL, seats, hand, first, joined=[1] * n) == \
                        deal_order(LIVERPOOL, seats, hand, first)

    @pytest.mark.parametrize("family", ["liverpool", "progressive", "contract"])
    def test_the_deal_passes_to_the_next_seat_playing(self, family):
        rules = resolve(family)
        # Dee sits down between Ben and Cy before hand 3; Ann dealt hand 1
        seats, joined = ["Ann", "Ben", "Dee", "Cy"], [1, 1, 3, 1]
        dealers = [deal_order(rules, seats, h, 0, joined).dealer for h in range(1, 8)]
        assert dealers == ["Ann", "Ben", "Dee", "Cy", "Ann", "Ben", "Dee"]  # Dee sat at Ben's left
        for h in (1, 2):  # before Dee plays, nobody cuts or plays first at Dee's seat
            order = deal_order(rules, seats, h, 0, joined)
            assert "Dee" not in (order.dealer, order.cutter, order.first)
        order = deal_order(rules, seats, 6, 0, joined)  # Ben deals: Dee is at his left, Ann at his right
        assert {order.cutter, order.first} <= {"Dee", "Ann"}

    def test_a_player_sitting_at_the_last_dealers_left_deals_next(self):
        seats, joined = ["Ann", "Dee", "Ben", "Cy"], [1, 3, 1, 1]  # Ann dealt hand 2 (first dealer: Cy)
        assert [deal_order(LIVERPOOL, seats, h, 3, joined).dealer for h in (1, 2, 3)] == ["Cy", "Ann", "Dee"]


class TestTheScore:
    def test_a_late_player_scores_from_the_hand_they_join(self):
        names = ["Ann", "Ben", "Dee", "Cy"]
        early = score_hand(LIVERPOOL, 2, names, 0, {1: Entry(Leftover.parse_all("K")), 3: Entry(total=5)},
                           absent={2})
        assert early.valid and [s.player for s in early.seats] == ["Ann", "Ben", "Cy"]
        late = score_hand(LIVERPOOL, 3, names, 0, {1: Entry(total=10), 2: Entry(total=15), 3: Entry(total=5)})
        assert late.valid and [s.penalty for s in late.seats] == [0, 10, 15, 5]

    def test_an_entry_for_a_player_not_yet_seated_is_refused(self):
        names = ["Ann", "Ben", "Dee", "Cy"]
        typed = score_hand(LIVERPOOL, 2, names, 0, {1: Entry(total=5), 2: Entry(total=5), 3: Entry(total=5)},
                           absent={2})
        assert [(v.code, v.field, v.params) for v in typed.violations] == [
            ("not_in_this_hand", "cards_2", {"player": "Dee", "hand": 2})]
        out = score_hand(LIVERPOOL, 2, names, 2, {0: Entry(total=5), 1: Entry(total=5), 3: Entry(total=5)},
                         absent={2})
        assert [(v.code, v.field) for v in out.violations] == [("not_in_this_hand", "out")]

    def test_the_starting_score_counts_in_the_totals_and_the_standings(self):
        names = ["Ann", "Ben", "Dee"]
        hands = [{"Ann": 0, "Ben": 40}, {"Ann": 30, "Ben": 0}, {"Ann": 5, "Ben": 10, "Dee": 0}]
        start = {"Dee": 40}  # the highest total before Dee sat down
        assert totals(names, hands, start) == {"Ann": 35, "Ben": 50, "Dee": 40}
        assert running_totals(names, hands, start)["Dee"] == [40, 40, 40]
        result = standings(LIVERPOOL, names, hands, start=start)
        assert result.winners == ("Ann",) and [s.player for s in result.standings] == ["Ann", "Dee", "Ben"]
        assert totals(names, hands) == {"Ann": 35, "Ben": 50, "Dee": 0}  # (no start: as before)
