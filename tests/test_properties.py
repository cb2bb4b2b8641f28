"""Input order never changes a verdict."""

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import JOKER, NATURALS
from referee.contracts import check
from referee.melds import analyze
from tests.kit import rules

any_card = st.sampled_from(list(NATURALS) + [JOKER])
meld = st.lists(any_card, min_size=1, max_size=8)
options = st.sampled_from([{}, {"ace": "low"}, {"ace": "high"}, {"run_max_wilds_per_4": 1},
                           {"second_wild_needs_fixed_position": True}, {"set_min_naturals": 2},
                           {"wild_ranks": ["JK", "2"], "wild_ranks_always_wild": True},
                           {"wild_ranks": ["JK", "2"]}])


def summary(reading):
    return (reading.kind, reading.valid, sorted(v.code for v in reading.violations))


@settings(max_examples=300, deadline=None)
@given(m=meld, opts=options, seed=st.randoms(use_true_random=False))
def test_meld_order(m, opts, seed):
    r = rules("liverpool", **opts)
    shuffled = list(m)
    seed.shuffle(shuffled)
    assert summary(analyze(m, r)) == summary(analyze(shuffled, r))


@settings(max_examples=200, deadline=None)
@given(ms=st.lists(meld, min_size=1, max_size=3), hand=st.integers(1, 7), seed=st.randoms(use_true_random=False),
       opts=st.sampled_from([{}, {"wilds_at_most_naturals": True}, {"runs_of_a_suit_apart": True}]))
def test_contract_order(ms, hand, seed, opts):
    r = rules("progressive", players=8, **opts)
    shuffled = [list(x) for x in ms]
    for x in shuffled:
        seed.shuffle(x)
    seed.shuffle(shuffled)
    a, b = check(r, hand, ms), check(r, hand, shuffled)
    assert a.valid == b.valid
    assert sorted(v.code for v in a.violations) == sorted(v.code for v in b.violations)
