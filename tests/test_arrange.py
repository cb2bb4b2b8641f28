import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.arrange import arrange, brute_force
from referee.cards import JOKER, NATURALS
from referee.contracts import check
from tests.kit import cards, rules


def shown(melds):
    return [" ".join(str(c) for c in m) for m in melds]


class TestFound:
    @pytest.mark.parametrize("hand, text", [
        (1, "7h 7d 7s 9c 9d JK 2c"),
        (3, "5h 6h 8h 9h 2c 3c 4c 5c JK"),
        (6, "7h 7d 7s 3c 4c 5c 6c 9d 10d jd JK 2s ac"),
        (7, "3h 4h 5h 6h 7h 8h JK kc kd 2s"),
        (4, "2s 2h JK 5c 5d 5s 9h 9h 9c qd"),
    ])
    def test_possible_and_checked(self, hand, text):
        r = rules()
        a = arrange(r, hand, cards(text))
        assert a.possible and a.missing == 0
        assert check(r, hand, a.melds).valid
        assert sorted(map(str, [c for m in a.melds for c in m] + a.unused)) == sorted(text.upper().split())

    def test_extends_melds_where_extra_cards_are_allowed(self):
        a = arrange(rules(), 1, cards("7h 7d 7s 7c kc kd ks 2h"))
        assert a.possible and a.unused == cards("2h")

    def test_exact_melds_where_they_are_not(self):
        a = arrange(rules("progressive"), 1, cards("7h 7d 7s 7c kc kd ks 2h"))
        assert a.possible and len(a.unused) == 2


class TestNearestMiss:
    def test_one_more_seven(self):
        a = arrange(rules(), 1, cards("7h 7d kc kd ks 2h 9s"))
        assert not a.possible and a.missing == 1 and a.needs == ["7"]

    def test_run_gaps(self):
        a = arrange(rules(), 3, cards("5h 6h 8h 9h 2c 3c 4c"))
        assert not a.possible and a.missing == 2
        assert sorted(a.needs) in (["7H", "AC"], ["5C", "7H"])

    def test_impossible_at_any_price(self):
        a = arrange(rules(), 4, cards("7h 7d"))
        assert not a.possible and a.missing is None

    def test_too_many_copies_is_said(self):
        a = arrange(rules(players=3), 1, cards("7h 7h 7h kc kd ks"))
        assert not a.possible and [v.code for v in a.violations] == ["too_many_copies"]


class TestWildRules:
    def test_respects_set_naturals(self):
        # liverpool: a set needs two naturals, so 7h JK JK is no set
        assert not arrange(rules(), 1, cards("7h JK JK kc kd ks")).possible
        assert arrange(rules("progressive"), 1, cards("7h JK JK kc kd ks")).possible

    def test_twos_may_be_natural_or_wild(self):
        r = rules("contract", "twos_wild")
        a = arrange(r, 1, cards("2c 2d 2h 7s 7d 2s"))
        assert a.possible and check(r, 1, a.melds).valid


# ------------------------------------------------------------------------------------------ properties
families = st.sampled_from(["liverpool", "progressive", "contract"])
deck = list(NATURALS[:]) + [JOKER] * 4


def small_hands(max_size):
    # cards from a few ranks so that melds are likely; at most two copies of each card
    pool = [c for c in NATURALS if c.rank is not None and int(c.rank) in (1, 2, 3, 4, 5, 6, 7, 12, 13)]
    return st.lists(st.sampled_from(pool + [JOKER]), min_size=3, max_size=max_size).filter(
        lambda h: all(h.count(c) <= 2 for c in set(h)) and h.count(JOKER) <= 2)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(fam=families, hand=st.sampled_from([1, 2, 3]), h=small_hands(9),
       extra=st.sampled_from([{}, {"ace": "low"}, {"run_max_wilds_per_4": 1},
                              {"second_wild_needs_fixed_position": True}]))
def test_agrees_with_brute_force(fam, hand, h, extra):
    r = rules(fam, players=4, **extra)
    a = arrange(r, hand, h)
    b = brute_force(r, hand, h)
    assert a.possible == (b is not None), (shown([h]), shown(b or []), shown(a.melds))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(fam=families, hand=st.integers(1, 7), h=small_hands(14))
def test_whatever_arrange_returns_passes_check(fam, hand, h):
    r = rules(fam, players=4)
    a = arrange(r, hand, h)
    if a.possible:
        v = check(r, hand, a.melds)
        assert v.valid, (shown(a.melds), v.violations)
        used = sorted(str(c) for m in a.melds for c in m)
        assert sorted(map(str, h)) == sorted(used + [str(c) for c in a.unused])
