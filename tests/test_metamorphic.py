"""The same question asked in equivalent ways gets the same answer, across the families and the house rules on
wild cards (wild ranks that are always wild among them) and aces (hypothesis, derandomised under CI):

- the cards of melds ``check`` accepts make the contract for ``arrange``, and whatever ``arrange`` melds passes
  ``check``;
- renaming the suits and reordering the cards or the melds never changes a verdict;
- the nearest miss, once its missing cards are added, is possible, and it never asks for more cards than were
  taken out of a contract that worked;
- a lay-off or a swap the referee allows leaves a meld the referee accepts, the pack counted;
- penalties add up, whatever the order or the suits.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.arrange import arrange
from referee.budget import Budget
from referee.cards import JOKER, NATURALS, Card, Rank, Suit
from referee.contracts import check, copies_violations
from referee.melds import analyze
from referee.scoring import penalty
from referee.table import TableError, layoff, swap
from tests.kit import rules

RULESETS = [
    ("liverpool", (), {}),
    ("liverpool", (), {"second_wild_needs_fixed_position": False}),
    ("liverpool", (), {"run_max_wilds_per_4": 1}),
    ("liverpool", (), {"ace": "low"}),
    ("progressive", (), {}),
    ("progressive", ("california",), {}),
    ("progressive", (), {"second_wild_needs_fixed_position": True}),
    ("contract", (), {}),
    ("contract", ("twos_wild",), {}),
    ("contract", ("twos_wild",), {"wild_ranks_always_wild": True}),
    ("progressive", ("california",), {"wild_ranks_always_wild": True}),
    ("liverpool", (), {"wild_ranks": ["JK", "2"], "wild_ranks_always_wild": True}),
    ("contract", ("twos_wild",), {"joker_swap": True, "joker_swap_jokers_only": True, "joker_swap_runs_only": True}),
    ("contract", (), {"ace": "high"}),
    ("contract", ("twos_wild",), {"wilds_at_most_naturals": True}),
    ("liverpool", (), {"wilds_at_most_naturals": True}),
    ("liverpool", (), {"wilds_at_most_naturals": True, "run_max_wilds_per_4": 1}),
    ("progressive", (), {"wilds_at_most_naturals": True, "wild_ranks": ["JK", "2"], "wild_ranks_always_wild": True}),
    ("contract", (), {"runs_of_a_suit_apart": True}),
    ("liverpool", (), {"runs_of_a_suit_apart": True}),
    ("progressive", ("california",), {"runs_of_a_suit_apart": True, "wilds_at_most_naturals": True}),
]
SUITS = list(Suit)
RANK_SYMBOLS = {r.symbol for r in Rank}
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])


def unlimited() -> Budget:
    """A budget of steps only: a test on a busy machine is never cut short by the CPU clock."""
    return Budget(cpu_seconds=None)


def wild_cards(r) -> list[Card]:
    return [c for c in list(NATURALS) + [JOKER] if r.is_wild(c) and r.copies(c) > 0]


def flat(melds) -> list[Card]:
    return [c for m in melds for c in m]


def verdict(r, hand, melds):
    final = r.hand(hand).contract.no_discard
    return check(r, hand, melds, cards_left=0 if final else None)


@st.composite
def contracts_made(draw):
    """Rules, a hand and melds that ``check`` accepts for its contract: each contract meld drawn as a set or a run
    of natural cards (longer where the rules let it be), up to two of its cards turned into wild cards."""
    family, variants, options = draw(st.sampled_from(RULESETS))
    r = rules(family, *variants, players=4, **options)
    hand = draw(st.integers(1, len(r.hands)))
    contract = r.hand(hand).contract
    wilds = wild_cards(r)
    melds = []
    for spec in contract.melds:
        longer = r.contract_extra_cards or contract.no_discard
        n = spec.size + (draw(st.integers(0, 2)) if longer else 0)
        if spec.kind == "set":
            rank = Rank(draw(st.integers(1, 13)))
            meld = [Card(rank, draw(st.sampled_from(SUITS))) for _ in range(n)]
        else:
            suit = draw(st.sampled_from(SUITS))
            start = draw(st.integers(1, 15 - n))
            meld = [Card(Rank(1 if p == 14 else p), suit) for p in range(start, start + n)]
        if wilds:
            for i in draw(st.sets(st.integers(0, n - 1), max_size=2)):
                meld[i] = draw(st.sampled_from(wilds))
        melds.append(meld)
    assume(verdict(r, hand, melds).valid)
    return r, hand, melds


def renamed(cards, mapping) -> list[Card]:
    return [c if c.suit is None else Card(c.rank, mapping[c.suit]) for c in cards]


# ------------------------------------------------------------------ check and arrange
@settings(max_examples=150, **SETTINGS)
@given(made=contracts_made(), extra=st.lists(st.sampled_from(list(NATURALS)), max_size=3))
def test_the_cards_of_a_valid_contract_make_it(made, extra):
    r, hand, melds = made
    final = r.hand(hand).contract.no_discard
    cards = flat(melds) + ([] if final else extra)
    assume(not copies_violations([cards], r))
    a = arrange(r, hand, cards, unlimited())
    assert a.possible, (melds, a.melds, a.needs)
    assert verdict(r, hand, a.melds).valid if final else check(r, hand, a.melds).valid
    assert not Counter(flat(a.melds)) - Counter(cards)


@st.composite
def runs_made(draw):
    """A contract of runs only, met by runs of four to seven cards with up to three wild cards anywhere in them
    (wild cards between natural cards are how a run longer than the contract asks can be the only way)."""
    family, variants, options = draw(st.sampled_from(RULESETS))
    r = rules(family, *variants, players=4, **options)
    hands = [h.number for h in r.hands if all(m.kind == "run" for m in h.contract.melds)]
    assume(hands)
    hand = draw(st.sampled_from(hands))
    contract = r.hand(hand).contract
    wilds = wild_cards(r) or [JOKER]
    melds = []
    for spec in contract.melds:
        n = spec.size + (draw(st.integers(0, 3)) if r.contract_extra_cards or contract.no_discard else 0)
        suit = draw(st.sampled_from(SUITS))
        start = draw(st.integers(1, 15 - n))
        meld = [Card(Rank(1 if p == 14 else p), suit) for p in range(start, start + n)]
        inner = draw(st.booleans())  # wild cards between natural cards only, half of the time
        for i in draw(st.sets(st.integers(1 if inner else 0, n - 2 if inner else n - 1), max_size=3)):
            meld[i] = draw(st.sampled_from(wilds))
        melds.append(meld)
    assume(verdict(r, hand, melds).valid)
    return r, hand, melds


@settings(max_examples=300, **SETTINGS)
@given(made=runs_made())
def test_runs_check_accepts_are_runs_arrange_finds(made):
    r, hand, melds = made
    cards = flat(melds)
    a = arrange(r, hand, cards, unlimited())
    assert a.possible, (melds, a.melds, a.needs)
    assert verdict(r, hand, a.melds).valid if r.hand(hand).contract.no_discard else check(r, hand, a.melds).valid


@settings(max_examples=100, **SETTINGS)
@given(made=contracts_made(), data=st.data())
def test_renaming_suits_and_reordering_never_change_a_verdict(made, data):
    r, hand, melds = made
    if data.draw(st.booleans()):  # a contract that no longer holds, now and then
        m = data.draw(st.integers(0, len(melds) - 1))
        melds[m][data.draw(st.integers(0, len(melds[m]) - 1))] = data.draw(st.sampled_from(list(NATURALS)))
    mapping = dict(zip(SUITS, data.draw(st.permutations(SUITS))))
    seed = data.draw(st.randoms(use_true_random=False))
    other = [renamed(m, mapping) for m in melds]
    for m in other:
        seed.shuffle(m)
    seed.shuffle(other)
    a, b = verdict(r, hand, melds), verdict(r, hand, other)
    assert a.valid == b.valid
    assert sorted(v.code for v in a.violations) == sorted(v.code for v in b.violations)
    cards = flat(melds)
    shuffled = renamed(cards, mapping)
    seed.shuffle(shuffled)
    x, y = arrange(r, hand, cards, unlimited()), arrange(r, hand, shuffled, unlimited())
    assert (x.possible, x.missing) == (y.possible, y.missing), (cards, x.needs, y.needs)


@settings(max_examples=100, **SETTINGS)
@given(made=contracts_made(), data=st.data())
def test_the_nearest_miss_once_completed_is_possible(made, data):
    r, hand, melds = made
    cards = flat(melds)
    taken = data.draw(st.sets(st.integers(0, len(cards) - 1), min_size=1, max_size=2))
    short = [c for i, c in enumerate(cards) if i not in taken]
    a = arrange(r, hand, short, unlimited())
    if a.possible or not a.decided or a.missing is None or a.exhausted:
        return
    assert a.missing == len(a.needs)
    assert a.missing <= len(taken), (cards, sorted(taken), a.needs)  # putting back what was taken would do
    added: list[Card] = []
    for need in a.needs:  # a run's place names its card; a set's its rank (any suit the pack still has)
        if need in RANK_SYMBOLS:
            held = Counter(short + added)
            added.append(next((Card(Rank.parse(need), s) for s in SUITS
                               if held[Card(Rank.parse(need), s)] < r.decks), Card(Rank.parse(need), SUITS[0])))
        else:
            added.append(Card.parse(need))
    assume(not copies_violations([short + added], r))
    completed = arrange(r, hand, short + added, unlimited())
    assert completed.possible, (short, a.needs, completed.needs)


# ------------------------------------------------------------------ lay-off and swap
@settings(max_examples=150, **SETTINGS)
@given(made=contracts_made(), data=st.data())
def test_a_lay_off_or_swap_allowed_leaves_a_meld_the_referee_accepts(made, data):
    r, hand, melds = made
    meld = data.draw(st.sampled_from(melds))
    kind = analyze(meld, r).kind
    card = data.draw(st.sampled_from(list(NATURALS) + [JOKER]))
    try:
        ruling = layoff(r, meld, [card], kind=kind)
    except TableError:
        return
    if ruling.valid:
        after = analyze(list(ruling.meld.cards), r, kind=kind)
        assert after.valid and after.kind == kind, (meld, card)
        assert not copies_violations([list(ruling.meld.cards)], r)
        assert Counter(ruling.meld.cards) == Counter(meld) + Counter([card])
    # a swap: the natural card a wild card stands for, from hand
    reading = analyze(meld, r, kind=kind)
    if reading.wilds and r.joker_swap:
        _, stands = data.draw(st.sampled_from(reading.wilds))
        natural = Card.parse(stands) if kind == "run" else Card(Rank.parse(stands), data.draw(st.sampled_from(SUITS)))
        s = swap(r, meld, natural, kind=kind)
        if s.valid:
            assert s.meld is not None
            after = analyze(list(s.meld.cards), r, kind=kind)
            assert after.valid and after.kind == kind, (meld, natural)
            assert not copies_violations([list(s.meld.cards)], r)


# ------------------------------------------------------------------ penalties
@settings(max_examples=150, **SETTINGS)
@given(ruleset=st.sampled_from(RULESETS), a=st.lists(st.sampled_from(list(NATURALS) + [JOKER]), max_size=8),
       b=st.lists(st.sampled_from(list(NATURALS) + [JOKER]), max_size=8), data=st.data())
def test_penalties_add_up(ruleset, a, b, data):
    family, variants, options = ruleset
    r = rules(family, *variants, players=4, **options)
    assert penalty(r, a + b) == penalty(r, a) + penalty(r, b)
    mapping = dict(zip(SUITS, data.draw(st.permutations(SUITS))))
    seed = data.draw(st.randoms(use_true_random=False))
    other = renamed(a + b, mapping)
    seed.shuffle(other)
    assert penalty(r, other) == penalty(r, a + b)
    assert penalty(r, a) == sum(penalty(r, [c]) for c in a)
