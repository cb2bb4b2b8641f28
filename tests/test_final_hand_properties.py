"""The final hand without a discard ("can I go down?" where every card must be melded) agrees with a brute force
that tries every way of cutting the hand into the contract's runs, under the wild-card house rules too.

002: "Ronda 7 (repartir 12): Tres escaleras de 4, no se permite descarte final (se sale poniendo toda la mano
sobre la mesa)"; 003: "Tres escaleras de 4: todas las cartas a la vez, sin descarte"."""

from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.arrange import arrange
from referee.budget import Budget
from referee.cards import JOKER, NATURALS
from referee.contracts import check
from referee.melds import analyze
from tests.kit import cards, rules

VARIANTS = st.sampled_from([{}, {"run_max_wilds_per_4": 1}, {"second_wild_needs_fixed_position": True},
                            {"run_max_wilds_per_4": 1, "second_wild_needs_fixed_position": True},
                            {"ace": "low", "second_wild_needs_fixed_position": True},
                            {"wild_ranks": ["JK", "2"]}])
NAMES = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "A"}
SORT = lambda c: c.sort_key  # noqa: E731


def melds_every_card(r, hand, h):
    """The runs, one for each of the contract's, that hold every card of ``h`` and that ``check`` accepts with no
    card left in hand; None where there are none. Each run holds the lowest card still to place (runs are
    interchangeable), so every way of cutting the hand is tried once."""
    sizes = sorted((m.size for m in r.hand(hand).contract.melds), reverse=True)
    k = len(sizes)

    @lru_cache(maxsize=None)
    def is_run(meld):
        reading = analyze(list(meld), r, kind="run")
        return reading.valid and reading.kind == "run"

    def go(left, runs):
        if not left:
            return runs if len(runs) == k and check(r, hand, runs, cards_left=0).valid else None
        if len(runs) == k:
            return None
        first, rest = left[0], left[1:]
        need = min(sizes)
        for mask in range(1 << len(rest)):
            chosen = (first,) + tuple(c for i, c in enumerate(rest) if mask >> i & 1)
            if len(chosen) < need or not is_run(tuple(sorted(chosen, key=SORT))):
                continue
            others = tuple(c for i, c in enumerate(rest) if not mask >> i & 1)
            found = go(others, runs + [list(chosen)])
            if found is not None:
                return found
        return None

    return go(tuple(sorted(h, key=SORT)), [])


@st.composite
def final_hands(draw):
    """Twelve or thirteen cards from three runs of four or five in random suits and places, with up to three of
    them turned into jokers and sometimes one swapped for another card: many hands can go down, many just fail."""
    out = []
    for n in draw(st.sampled_from([(4, 4, 4), (4, 4, 5), (5, 4, 4)])):
        suit = draw(st.sampled_from("SHDC"))
        start = draw(st.integers(1, 15 - n))
        out += cards(" ".join(f"{NAMES.get(p, p)}{suit}" for p in range(start, start + n)))
    for i in draw(st.lists(st.integers(0, len(out) - 1), max_size=3, unique=True)):
        out[i] = JOKER
    if draw(st.booleans()):
        out[draw(st.integers(0, len(out) - 1))] = draw(st.sampled_from(list(NATURALS) + [JOKER]))
    return out


@settings(max_examples=60, deadline=None)
@given(fam=st.sampled_from(["progressive", "contract"]), extra=VARIANTS, h=final_hands())
def test_the_final_hand_agrees_with_a_brute_force(fam, extra, h):
    r = rules(fam, players=4, **extra)
    if any(h.count(c) > r.copies(c) for c in h):
        return
    a = arrange(r, 7, h, Budget(cpu_seconds=None))  # the default steps, and no clock: the same answer each run
    want = melds_every_card(r, 7, h)
    shown = " ".join(map(str, h))
    assert a.decided, shown
    assert a.possible == (want is not None), (shown, extra, want and [[str(c) for c in m] for m in want],
                                              a.missing, a.needs)
    if a.possible:
        assert a.unused == [] and check(r, 7, a.melds, cards_left=0).valid, shown
        assert sorted(map(str, h)) == sorted(str(c) for m in a.melds for c in m)
