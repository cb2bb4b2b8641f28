"""Can one pack leave these totals in these hands: the search against the slow oracle, and its bounds."""

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.budget import Budget
from referee.pack import brute_force, can_make, most_points
from referee.scoring import pack_points

from .kit import rules

pools = st.dictionaries(st.sampled_from([0, 1, 2, 3, 5, 7, 10, 15, 25]), st.integers(0, 4), min_size=1, max_size=5)
wants = st.lists(st.tuples(st.integers(0, 70), st.integers(1, 6)), min_size=1, max_size=3)


@settings(max_examples=400, deadline=None)
@given(pools, wants)
def test_the_search_agrees_with_trying_everything(pool, wanted):
    assert can_make(pool, wanted) == brute_force(pool, wanted)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["liverpool", "progressive", "contract"]), st.integers(0, 8),
       st.lists(st.tuples(st.integers(60, 1000), st.integers(10, 16)), min_size=2, max_size=4))
def test_real_packs_near_their_edge_are_decided(family, jokers, shares):
    """Totals near what the pack can make at most (where the answer is hard) are decided within the budget."""
    r = rules(family, players=4, jokers=min(jokers, 8))
    pool = pack_points(r)
    edge = most_points(pool, sum(n for _, n in shares))
    weight = sum(w for w, _ in shares)
    wanted = [(min(edge * w // weight, most_points(pool, n)), n) for w, n in shares]
    assert can_make(pool, wanted, Budget(cpu_seconds=None)) is not None


def test_the_pack_of_the_issue():
    six = pack_points(rules("liverpool", players=6))
    assert dict(six) == {5: 96, 10: 48, 15: 18}
    assert can_make(six, [(150, 10), (150, 10)]) is False  # twenty cards worth 15; the pack holds eighteen
    assert can_make(six, [(150, 10), (140, 10)]) is True


def test_a_budget_spent_decides_nothing():
    from referee import pack

    pack._TABLES.clear()  # (the tables a pack's checks share are kept: here they must be made, and charged)
    six = pack_points(rules("liverpool", players=6))
    assert can_make(six, [(150, 10), (145, 10), (140, 10)], Budget(steps=1, cpu_seconds=None)) is None
