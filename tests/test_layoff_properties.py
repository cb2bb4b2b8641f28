"""A lay-off the referee allows leaves a meld the referee accepts: whatever cards go on a valid meld on the
table, under every family and the wild-card house rules, the resulting meld passes the same check a meld put
down would (read as the kind it was put down as)."""

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee.cards import JOKER, Card, Rank, Suit
from referee.melds import analyze
from referee.table import TableError, layoff, table_readings
from tests.kit import rules

FAMILY_OPTIONS = st.sampled_from([
    ("liverpool", {}),
    ("liverpool", {"second_wild_needs_fixed_position": False}),
    ("liverpool", {"run_max_wilds_per_4": 1}),
    ("liverpool", {"ace": "low"}),
    ("liverpool", {"ace": "high"}),
    ("progressive", {}),
    ("progressive", {"second_wild_needs_fixed_position": True}),
    ("progressive", {"run_max_wilds_per_4": 1}),
    ("contract", {}),
    ("contract", {"set_min_naturals": 2}),
])
suits = st.sampled_from(list(Suit))


@st.composite
def table_run(draw):
    """Four to seven cards in a row of one suit, with up to two of them jokers."""
    suit = draw(suits)
    length = draw(st.integers(4, 7))
    start = draw(st.integers(1, 15 - length))  # 14 is the high ace
    cards = [Card(Rank(1 if p == 14 else p), suit) for p in range(start, start + length)]
    for i in draw(st.sets(st.integers(0, length - 1), max_size=2)):
        cards[i] = JOKER
    return cards


@st.composite
def table_set(draw):
    """Three to five cards of one rank, with up to two jokers among them."""
    rank = Rank(draw(st.integers(1, 13)))
    cards = [Card(rank, draw(suits)) for _ in range(draw(st.integers(3, 5)))]
    for i in draw(st.sets(st.integers(0, len(cards) - 1), max_size=2)):
        cards[i] = JOKER
    return cards


@st.composite
def additions(draw, meld):
    """One to three cards someone might try to lay off: neighbours of the meld's naturals, cards of its rank, or
    jokers."""
    naturals = [c for c in meld if c.rank is not None]
    base = draw(st.sampled_from(naturals))
    pool = [JOKER, Card(base.rank, draw(suits))]
    for step in (-3, -2, -1, 1, 2, 3):
        p = int(base.rank) + step
        if 1 <= p <= 13:
            pool.append(Card(Rank(p), base.suit))
    return draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3))


@settings(max_examples=400, deadline=None)
@given(fo=FAMILY_OPTIONS, meld=st.one_of(table_run(), table_set()), data=st.data())
def test_a_lay_off_allowed_leaves_a_meld_that_passes(fo, meld, data):
    family, options = fo
    r = rules(family, **options)
    assume(any(c.rank is not None for c in meld))
    try:
        readings = table_readings(r, meld)
    except TableError:
        assume(False)  # not a valid meld to begin with: nothing lies on the table like this
        return
    cards = data.draw(additions(meld))
    for table in readings:
        ruling = layoff(r, meld, cards, kind=table.kind)
        if ruling.valid:
            after = analyze(list(ruling.meld.cards), r, kind=table.kind)
            assert after.valid, (meld, cards, table.kind, [v.code for v in after.violations])
            assert len(ruling.meld.cards) == len(meld) + len(cards)
