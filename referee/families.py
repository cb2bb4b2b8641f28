"""The three rule families as data: every fact of ``RULES.md`` is written here once.

The rules pages, the setup screen, the API and the referee all read these tables. Variants are data too: each
is a set of house-rule option values laid over its family's defaults. ``resolve()`` turns a family, the chosen
variants, option overrides and a player count into the ``Rules`` one game is played by.

>>> r = resolve("liverpool", players=5)
>>> (r.decks, r.jokers, r.hand(7).contract.notation, r.hand(7).deal)
(3, 6, 'R7', 12)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Generic, TypeVar, cast

from .cards import Card, Rank, Suit
from .errors import RefereeError
from .i18n import N_


class RulesError(RefereeError):
    """A family, variant, option or player count the data does not allow. ``field`` names the input."""


# --------------------------------------------------------------------------------------------------- contracts
@dataclass(frozen=True)
class MeldSpec:
    kind: str  # "set" | "run"
    size: int

    @property
    def notation(self) -> str:
        return ("S" if self.kind == "set" else "R") + str(self.size)


@dataclass(frozen=True)
class Contract:
    melds: tuple[MeldSpec, ...]
    no_discard: bool = False
    notation: str = field(init=False, compare=False)  # "S3 S3 R4"
    cards_needed: int = field(init=False, compare=False)  # the fewest cards that make it

    def __post_init__(self) -> None:  # (read on every page and answer that shows a contract: worked out once)
        object.__setattr__(self, "notation", " ".join(m.notation for m in self.melds))
        object.__setattr__(self, "cards_needed", sum(m.size for m in self.melds))

    @classmethod
    def parse(cls, text: str, no_discard: bool = False) -> "Contract":
        """``"S3 S3 R4"`` → two sets of 3 and a run of 4 (sets first, then runs, each by size)."""
        melds = []
        for token in text.replace(",", " ").replace("+", " ").split():
            kind = {"S": "set", "R": "run"}.get(token[:1].upper())
            if kind is None or not token[1:].isdigit():
                raise RulesError("bad_contract", "contracts", text=text)
            size = int(token[1:])
            low, high = (3, 8) if kind == "set" else (4, 13)
            if not low <= size <= high:
                raise RulesError("bad_contract", "contracts", text=text)
            melds.append(MeldSpec(kind, size))
        if not 1 <= len(melds) <= 4:
            raise RulesError("bad_contract", "contracts", text=text)
        melds.sort(key=lambda m: (m.kind != "set", -m.size))
        return cls(tuple(melds), no_discard)

    @cached_property
    def sizes_by_kind(self) -> dict[str, tuple[int, ...]]:
        """The sizes of the sets and of the runs, largest first (read in every contract check)."""
        return {k: tuple(sorted((m.size for m in self.melds if m.kind == k), reverse=True)) for k in ("set", "run")}


@dataclass(frozen=True)
class HandSpec:
    number: int  # 1-based position in the game
    contract_number: int  # the contract's number in its family's list (a 5-hand game skips some)
    contract: Contract
    deal: int


BUY_EXTRA_CARDS = 1  # a buyer takes the discard and this many cards from the stock, in every family
CARDS_IN_A_DECK = len(Rank) * len(Suit)  # 52: a deck's natural cards, its jokers apart

# ------------------------------------------------------------------------------------------------- the options
SETUP, REFEREE = "setup", "referee"  # the screens that offer a house rule: the new-game screen, the referee


@dataclass(frozen=True)
class Option:
    """One house rule, described once: what it is called, what it does, which values it takes and what each
    is called, the screens that offer it. The web layer renders, parses and writes every option from this."""

    name: str
    kind: str  # "choice" | "int" | "int_or_null" | "bool" | "ranks" | "contracts": the value and its form field
    label: str  # its short name (translated by the web layer)
    help: str  # one line, translated by the web layer
    rule: str  # the rule anchor it changes
    choices: tuple[Any, ...] = ()
    minimum: int = 0
    maximum: int = 99  # ints: the largest value; ranks: the most entries; contracts: the most cards one asks for
    choice_labels: tuple[tuple[Any, str], ...] = ()  # a value's words, where the value is not a number
    empty: str | None = None  # what no value means, where it does not depend on the family ("no limit")
    zero: str | None = None  # what 0 means, where it means more than none ("no buying")
    screens: tuple[str, ...] = ()  # SETUP, REFEREE


BOTH = (SETUP, REFEREE)
OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        Option("ace", "choice", N_("Aces in runs"),
               N_("Where an ace may sit in a run: low (A-2-3), high (Q-K-A) or either."),
               "rule-aces", choices=("either", "low", "high"), screens=BOTH,
               choice_labels=(("either", N_("low or high")), ("low", N_("low only")), ("high", N_("high only")))),
        Option("wild_ranks", "ranks", N_("Wild cards"),
               N_("Which cards are wild: jokers, other ranks (twos, queens), or both."), "rule-wilds", minimum=1,
               maximum=3, screens=BOTH, choice_labels=(("JK", N_("Jokers")),)),
        Option("wild_ranks_always_wild", "bool", N_("Wild ranks always wild"),
               N_("A card of a wild rank that is not a joker (a 2 when twos are wild) is always wild: never a natural "
                  "card, in a set of its rank or in its own place in a run."), "rule-wilds", screens=BOTH),
        Option("set_min_naturals", "int", N_("Natural cards in a set"),
               N_("How many natural (not wild) cards a set needs."), "rule-set-naturals", minimum=1, maximum=3,
               screens=BOTH),
        Option("run_max_wilds_per_4", "int_or_null", N_("Wild cards in any four of a run"),
               N_("At most this many wild cards in any four cards in a row of a run (empty: no limit)."),
               "rule-run-wilds", minimum=1, maximum=3, empty=N_("no limit"), screens=BOTH),
        Option("wilds_at_most_naturals", "bool", N_("No more wild cards than natural cards"),
               N_("A meld put down for the contract holds no more wild cards than natural cards (as many is fine); "
                  "laying off has no such limit."), "rule-wilds", screens=BOTH),
        Option("runs_of_a_suit_apart", "bool", N_("Runs of one suit apart"),
               N_("Two runs of one suit in a contract may not touch or continue each other (5-6-7-8 and 9-10-J-Q "
                  "of hearts are one run of eight, not two runs of four)."), "rule-run", screens=BOTH),
        Option("second_wild_needs_fixed_position", "bool", N_("Second wild card only in a fixed place"),
               N_("A second wild card in a meld only where the natural cards fix its place."), "rule-second-wild",
               screens=BOTH),
        Option("contract_extra_cards", "bool", N_("Extra cards in contract melds"),
               N_("Contract melds may be longer than the contract asks when you go down."), "rule-going-down",
               screens=BOTH),
        Option("lay_off_same_turn", "bool", N_("Lay off in the turn you go down"),
               N_("You may lay off in the same turn you go down."), "rule-lay-off", screens=BOTH),
        Option("joker_swap", "bool", N_("Joker swap"),
               N_("On your turn you may trade the natural card a joker on the table stands for, and take the joker."),
               "rule-joker-swap", screens=BOTH),
        Option("joker_swap_jokers_only", "bool", N_("Joker swap: jokers only"),
               N_("Only a joker is taken back in a swap, never a card of another wild rank (a wild 2)."),
               "rule-joker-swap", screens=BOTH),
        Option("joker_swap_runs_only", "bool", N_("Joker swap: from runs only"),
               N_("A wild card is taken back only from a run, never from a set."), "rule-joker-swap", screens=BOTH),
        Option("joker_swap_before_down", "bool", N_("Joker swap: before going down only"),
               N_("Only a player who has not gone down yet may take a joker back."), "rule-joker-swap",
               screens=BOTH),
        Option("buy_limit", "int_or_null", N_("Buys per hand"),
               N_("Buys per player per hand (0: no buying; empty: no limit)."), "rule-buy-limit", minimum=0,
               maximum=20, empty=N_("no limit"), zero=N_("no buying"), screens=BOTH),
        Option("stock_exhausted", "choice", N_("When the stock runs out"),
               N_("When the stock runs out: reshuffle the discards (all but the top card), or end the hand."),
               "rule-stock-exhausted", choices=("reshuffle", "end_hand"), screens=(SETUP,),
               choice_labels=(("reshuffle", N_("reshuffle the discards")), ("end_hand", N_("end the hand")))),
        Option("hands", "choice", N_("Hands"), N_("How many hands the game has."), "rule-contract"),
        Option("decks", "int_or_null", N_("Decks"), N_("Decks in the pack (empty: by the number of players)."),
               "rule-decks", minimum=1, maximum=4),
        Option("jokers", "int_or_null", N_("Jokers"), N_("Jokers in the pack (empty: by the number of players)."),
               "rule-decks", minimum=0, maximum=8, screens=(SETUP,)),
        Option("hand_size", "int_or_null", N_("Cards in every hand"),
               N_("Deal this many cards in every hand (empty: the family's table)."), "rule-deal-order", minimum=5,
               maximum=15),
        Option("first_hand_size", "int_or_null", N_("Cards in the first hand"),
               N_("Deal this many cards in the first hand (empty: as in the other hands)."), "rule-deal-order",
               minimum=5, maximum=15, empty=N_("as in the other hands")),
        Option("final_run", "int_or_null", N_("Final run length"),
               N_("The length of the final hand's run (empty: the family's length)."), "rule-final-hand", minimum=6,
               maximum=7, screens=(SETUP,)),
        Option("joker_points", "int_or_null", N_("Joker penalty"),
               N_("Penalty points for a joker left in hand (empty: the family's value)."), "rule-penalty-values",
               minimum=0, maximum=100),
        Option("wild_rank_points", "int_or_null", N_("Penalty for a wild non-joker"),
               N_("Penalty points for a wild card that is not a joker (a wild 2, a wild queen) left in hand "
                  "(empty: its own value)."),
               "rule-penalty-values", minimum=0, maximum=100, empty=N_("its own value"), screens=(SETUP,)),
        Option("exact_cut_bonus", "int", N_("Exact-cut bonus"),
               N_("Points taken off the total of a player who cuts exactly the cards needed (0: no bonus)."),
               "rule-deal-order", minimum=0, maximum=100, zero=N_("no bonus"), screens=(SETUP,)),
        Option("contracts", "contracts", N_("Custom contracts"),
               N_("Your own contracts, one per hand (empty: the family's list)."), "rule-contract",
               maximum=15, screens=(SETUP,)),
        Option("may_i", "bool", N_('Ask "May I?" to buy'),
               N_("A buyer must ask \"May I?\" before taking the discard."), "rule-buying"),
        Option("shanghai_block", "bool", N_("Shanghai call"), N_("A \"Shanghai\" call blocks a buy."),
               "rule-buying"),
    )
}


def options_on(screen: str, fam: "Family") -> list[Option]:
    """The house rules a screen offers for a family, in their order."""
    return [o for o in OPTIONS.values() if screen in o.screens and o.name in fam.defaults]


# ---------------------------------------------------------------------------------------------- the families
@dataclass(frozen=True)
class DeckRule:
    players: tuple[int, int]
    decks: int
    jokers: int  # the default: all the decks' jokers
    jokers_range: tuple[int, int]

    def pack_size(self, jokers: int) -> int:
        """The cards in a pack of these decks with this many jokers."""
        return self.decks * CARDS_IN_A_DECK + jokers


@dataclass(frozen=True)
class Variant:
    id: str
    name: str
    help: str
    options: dict[str, Any]
    stated: bool = True  # False: the document names it but leaves details to the app
    asks: str | None = None  # an option the table must fill in for the variant to mean anything
    named_by: str | None = None  # the family whose document names the variant, where it is not this one's


@dataclass(frozen=True)
class Family:
    id: str
    name: str
    sources: tuple[str, ...]
    source_languages: tuple[str, ...]  # the languages the family's document is written in
    players: tuple[int, int]
    ideal: tuple[int, int]
    deck_rules: tuple[DeckRule, ...]
    contracts: dict[int, tuple[str, int]]  # contract number -> (notation, cards dealt)
    no_discard_contract: int  # the contract played without a final discard
    hand_lists: dict[int, tuple[int, ...]]  # "hands" option value -> contract numbers played
    penalties: dict[str, int]  # rank symbol or "JK" -> points
    defaults: dict[str, Any]
    variants: tuple[Variant, ...]
    tie_break: tuple[str, ...]  # steps: "tie_hand" (the lowest score in ``tie_hand``), "replay", "shared"
    cut: str  # "left" | "right" of the dealer
    first_player: str  # "left" of the dealer
    first_dealer: str  # "agreed" | "highest_card"
    buy_when: str  # "declined" | "out_of_turn" | "stock_drawn"
    buy_priority: str  # who gets a discard several want: "nearest" | "turn_then_nearest" | "turn_free_then_nearest"
    minutes: tuple[int, int] | None = None
    # the contract whose hand's scores break a tie: the documents' «séptima mano», «ronda 7» (hand 7 of seven,
    # nine or eight; the last of a five-hand game, which plays contract 7 last)
    tie_hand: int = 7
    # facts the document does not state (house-rule names, and: "tie_break", "cut", "first_player", "first_dealer",
    # "buy_priority", "extra_hand_deal", "runs_of_a_suit": whether two runs of one suit may continue each other)
    silent: frozenset[str] = field(default_factory=frozenset)
    shorthand: bool = False  # the document writes contracts in score-sheet shorthand (G-G, G-E, … E7)

    def variant(self, vid: str) -> Variant:
        for v in self.variants:
            if v.id == vid:
                return v
        raise RulesError("unknown_variant", "variants", variant=vid)


_SHARED_CONTRACTS = {1: "S3 S3", 2: "S3 R4", 3: "R4 R4", 4: "S3 S3 S3", 5: "S3 S3 R4", 6: "S3 R4 R4"}


def _deals(small_until: int, numbers: range, small: int = 10, large: int = 12) -> dict[int, int]:
    return {n: small if n <= small_until else large for n in numbers}


def _penalties(low: Callable[[int], int], joker: int) -> dict[str, int]:
    points = {"A": 15, "K": 10, "Q": 10, "J": 10, "10": 10, "JK": joker}
    points |= {str(v): low(v) for v in range(2, 10)}
    return points


_COMMON_DEFAULTS: dict[str, Any] = {
    "ace": "either",
    "wild_ranks": ["JK"],
    "set_min_naturals": 1,
    "run_max_wilds_per_4": None,
    "second_wild_needs_fixed_position": False,
    "contract_extra_cards": False,
    "lay_off_same_turn": False,
    "joker_swap": False,
    "joker_swap_jokers_only": False,
    "joker_swap_runs_only": False,
    "joker_swap_before_down": False,
    "wild_ranks_always_wild": False,
    "wilds_at_most_naturals": False,
    "runs_of_a_suit_apart": False,
    "buy_limit": 3,
    "stock_exhausted": "reshuffle",
    "hands": 7,
    "decks": None,
    "jokers": None,
    "hand_size": None,
    "first_hand_size": None,
    "contracts": None,
    "joker_points": None,
    "wild_rank_points": None,
    "exact_cut_bonus": 0,
    "may_i": False,
    "shanghai_block": False,
}

# A six-hand game, as other groups of every family play it: the first five contracts, then the last (the hand
# with no discard) as the sixth. No document describes it: the contracts it keeps are this app's choice.
SIX_HANDS = (1, 2, 3, 4, 5, 7)
SIX_HANDS_VARIANT = Variant("six_hands", N_("Six hands"),
                            N_("The first five contracts, then the last one (no final discard) as the sixth hand."),
                            {"hands": 6}, stated=False)

LIVERPOOL = Family(
    id="liverpool",
    name="Liverpool Rummy",
    sources=("000_02fafbf1f984f0a5.txt", "001_eff5430d1a24ae6d.txt", "004_09012a0ed2767612.txt"),
    source_languages=("es", "pt", "de"),
    players=(3, 8),
    ideal=(4, 6),
    deck_rules=(DeckRule((3, 4), 2, 4, (2, 4)), DeckRule((5, 8), 3, 6, (3, 6))),
    contracts={n: (c, _deals(4, range(1, 10))[n]) for n, c in (
        _SHARED_CONTRACTS | {7: "R7", 8: "R4 R4 R4", 9: "R5 R5"}).items()},
    no_discard_contract=7,
    hand_lists={5: (1, 2, 3, 4, 7), 6: SIX_HANDS, 7: (1, 2, 3, 4, 5, 6, 7), 9: (1, 2, 3, 4, 5, 6, 7, 8, 9)},
    penalties=_penalties(lambda v: 5, joker=15),
    defaults=_COMMON_DEFAULTS | {
        "set_min_naturals": 2,
        # "No puede añadir un segundo comodín … a menos que las cartas naturales … identifiquen claramente la
        # posición": the document states it as the rule, adding that house rules vary
        "second_wild_needs_fixed_position": True,
        "contract_extra_cards": True,
        "lay_off_same_turn": True,
        "joker_swap": True,
        "final_run": None,
    },
    variants=(
        Variant("nine_hands", N_("Nine hands"), N_("Hand 8: three runs of 4; hand 9: two runs of 5."),
                {"hands": 9}),
        Variant("five_hands", N_("Five hands"), N_("A shorter game of five hands."), {"hands": 5}, stated=False),
        SIX_HANDS_VARIANT,
        Variant("fixed_hand", N_("Fixed hand"),
                N_("10 cards in every hand and a shorter final run: 6 cards (7 by house rule)."),
                {"hand_size": 10, "final_run": 6}, stated=False),
        Variant("no_buying", N_("No buying"), N_("Nobody may buy a discard."), {"buy_limit": 0}),
        Variant("ten_cards", N_("10 cards in every hand"),
                N_("A house rule: 10 cards dealt in every hand; the final run stays full length."),
                {"hand_size": 10}),
        Variant("may_i", N_("May I?"), N_("A buyer must ask \"May I?\" before taking the discard."),
                {"may_i": True}),
        Variant("exact_cut_bonus", N_("Exact-cut bonus"),
                N_("A player who cuts exactly the cards needed for the deal takes points off their total."),
                {"exact_cut_bonus": 10}, stated=False, named_by="contract"),
    ),
    tie_break=("tie_hand", "replay"),
    cut="left",
    first_player="left",
    first_dealer="agreed",
    buy_when="declined",
    buy_priority="nearest",
    minutes=(60, 120),
    # the document offers both ends of a stock that runs out and lists lay-off after going down without saying
    # "in the same turn": the defaults for those are this app's reading; so are the order of its two ways out of
    # a tie («se repite la última mano o se comparan … la séptima mano»: compared first here), leaving its house
    # rule on wild cards in a run off, and no exact-cut bonus (another document's)
    silent=frozenset({"first_dealer", "stock_exhausted", "lay_off_same_turn", "extra_hand_deal", "tie_break",
                      "run_max_wilds_per_4", "exact_cut_bonus", "runs_of_a_suit"}),
    shorthand=True,
)

PROGRESSIVE = Family(
    id="progressive",
    name="Progressive Rummy",
    sources=("002_791369391864c2c5.txt",),
    source_languages=("es",),
    players=(3, 8),
    ideal=(4, 5),
    deck_rules=(DeckRule((3, 6), 2, 4, (4, 4)), DeckRule((7, 8), 3, 6, (6, 6))),
    contracts={n: (c, _deals(4, range(1, 9))[n]) for n, c in (
        _SHARED_CONTRACTS | {7: "R4 R4 R4", 8: "S3 S3 S3 R4"}).items()},
    no_discard_contract=7,
    hand_lists={6: SIX_HANDS, 7: (1, 2, 3, 4, 5, 6, 7), 8: (1, 2, 3, 4, 5, 6, 7, 8)},
    penalties=_penalties(lambda v: 5, joker=25),
    defaults=dict(_COMMON_DEFAULTS),
    variants=(
        Variant("shanghai", N_("Shanghai"), N_("An 8th hand: three sets of 3 and a run of 4."), {"hands": 8}),
        SIX_HANDS_VARIANT,
        Variant("california", N_("California"), N_("Queens are the wild cards instead of jokers."),
                {"wild_ranks": ["Q"], "jokers": 0}),
        Variant("no_buying", N_("No buying"), N_("Nobody may buy a discard."), {"buy_limit": 0}),
        Variant("double_progressive", N_("Double progressive"), N_("Only 7 cards dealt in the first hand."),
                {"first_hand_size": 7}),
        Variant("custom_contracts", N_("Custom contracts"),
                N_("Reorder the hands or add contracts such as a run of 7: write them under Custom contracts."),
                {}, stated=False, asks="contracts"),
    ),
    tie_break=("tie_hand", "shared"),
    cut="right",
    first_player="left",
    first_dealer="highest_card",
    buy_when="out_of_turn",
    buy_priority="turn_then_nearest",
    # "only the exact contract" is read as exact melds, going down once
    # (lay-off «en los turnos siguientes», not in the turn of going down: stated)
    silent=frozenset({"set_min_naturals", "run_max_wilds_per_4", "second_wild_needs_fixed_position",
                      "joker_swap", "stock_exhausted", "contract_extra_cards", "extra_hand_deal", "buy_priority",
                      "runs_of_a_suit"}),
)

CONTRACT = Family(
    id="contract",
    name="Contract Rummy",
    sources=("003_a0b7e9f66d1f42d1.txt",),
    source_languages=("es",),
    players=(3, 5),
    ideal=(4, 4),
    deck_rules=tuple(DeckRule((p, p), 2, p - 1, (p - 1, p - 1)) for p in range(3, 6)),
    contracts={n: (c, _deals(3, range(1, 8))[n]) for n, c in (_SHARED_CONTRACTS | {7: "R4 R4 R4"}).items()},
    no_discard_contract=7,
    hand_lists={6: SIX_HANDS, 7: (1, 2, 3, 4, 5, 6, 7)},
    penalties=_penalties(lambda v: v, joker=15),
    defaults=_COMMON_DEFAULTS | {"buy_limit": None, "may_i": True},  # every buy is asked for with "May I?"
    variants=(
        SIX_HANDS_VARIANT,
        Variant("twos_wild", N_("Twos wild"), N_("Twos are wild as well as jokers (progressive tables)."),
                {"wild_ranks": ["JK", "2"]}),
        Variant("may_i", N_("May I?"), N_("Extra cards allowed in the first melds; jokers score 25."),
                {"contract_extra_cards": True, "joker_points": 25}),
        Variant("shanghai", N_("Shanghai"), N_("11 cards, aces high only, a \"Shanghai\" call can block a buy."),
                {"hand_size": 11, "ace": "high", "shanghai_block": True}),
        Variant("exact_cut_bonus", N_("Exact-cut bonus"),
                N_("A player who cuts exactly the cards needed for the deal takes points off their total."),
                {"exact_cut_bonus": 10}, stated=False),
    ),
    tie_break=("tie_hand", "shared"),
    cut="right",
    first_player="left",
    first_dealer="highest_card",
    buy_when="stock_drawn",
    buy_priority="turn_free_then_nearest",
    silent=frozenset({"set_min_naturals", "run_max_wilds_per_4", "second_wild_needs_fixed_position",
                      "joker_swap", "stock_exhausted", "buy_limit", "tie_break", "cut", "first_player",
                      "first_dealer", "runs_of_a_suit"}),
)

FAMILIES: dict[str, Family] = {f.id: f for f in (LIVERPOOL, PROGRESSIVE, CONTRACT)}


def family(fid: Any) -> Family:
    if not isinstance(fid, str) or fid.lower() not in FAMILIES:
        raise RulesError("unknown_ruleset", "ruleset", ruleset=str(fid)[:40])
    return FAMILIES[fid.lower()]


# ------------------------------------------------------------------------------------------ resolved rules
@dataclass(frozen=True)
class HouseRules:
    """The house-rule options one game is played by, typed (``OPTIONS`` describes each)."""

    ace: str = "either"  # "either" | "low" | "high"
    wild_ranks: tuple[str, ...] = ("JK",)
    wild_ranks_always_wild: bool = False
    set_min_naturals: int = 1
    run_max_wilds_per_4: int | None = None
    wilds_at_most_naturals: bool = False
    runs_of_a_suit_apart: bool = False
    second_wild_needs_fixed_position: bool = False
    contract_extra_cards: bool = False
    lay_off_same_turn: bool = False
    joker_swap: bool = False
    joker_swap_jokers_only: bool = False
    joker_swap_runs_only: bool = False
    joker_swap_before_down: bool = False
    buy_limit: int | None = 3
    stock_exhausted: str = "reshuffle"  # "reshuffle" | "end_hand"
    hands: int = 7
    decks: int | None = None
    jokers: int | None = None
    hand_size: int | None = None
    first_hand_size: int | None = None
    final_run: int | None = None
    contracts: tuple[str, ...] | None = None
    joker_points: int | None = None
    wild_rank_points: int | None = None
    exact_cut_bonus: int = 0
    may_i: bool = False
    shanghai_block: bool = False

    @classmethod
    def of(cls, options: dict[str, Any]) -> "HouseRules":
        """From checked option values (lists become tuples)."""
        values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in options.items()}
        return cls(**values)


T = TypeVar("T")


class _HouseRule(Generic[T]):
    """``rules.ace`` reads ``rules.house.ace``: each option a typed attribute of the rules."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, rules: "Rules", owner: type) -> T:
        value = getattr(rules.house, self.name)
        rules.__dict__[self.name] = value  # the rules never change: later reads are plain attribute reads
        return cast(T, value)


@dataclass(frozen=True)
class Rules:
    """Everything one game is played by: a family with its variants, options and player count applied."""

    family: Family
    variants: tuple[str, ...]
    options: dict[str, Any]  # the options as chosen, in the API's JSON shape
    players: int
    decks: int
    jokers: int
    hands: tuple[HandSpec, ...]
    house: HouseRules

    # the options as plain attributes, read in every check (decks, jokers and hands are resolved above)
    ace = _HouseRule[str]()
    wild_ranks_always_wild = _HouseRule[bool]()
    set_min_naturals = _HouseRule[int]()
    run_max_wilds_per_4 = _HouseRule[int | None]()
    wilds_at_most_naturals = _HouseRule[bool]()
    runs_of_a_suit_apart = _HouseRule[bool]()
    second_wild_needs_fixed_position = _HouseRule[bool]()
    contract_extra_cards = _HouseRule[bool]()
    lay_off_same_turn = _HouseRule[bool]()
    joker_swap = _HouseRule[bool]()
    joker_swap_jokers_only = _HouseRule[bool]()
    joker_swap_runs_only = _HouseRule[bool]()
    joker_swap_before_down = _HouseRule[bool]()
    buy_limit = _HouseRule[int | None]()
    stock_exhausted = _HouseRule[str]()
    exact_cut_bonus = _HouseRule[int]()
    may_i = _HouseRule[bool]()
    shanghai_block = _HouseRule[bool]()

    @cached_property
    def wild_ranks(self) -> frozenset[Rank | None]:
        """The wild ranks; ``None`` stands for the joker."""
        return frozenset(None if r == "JK" else Rank.parse(r) for r in self.house.wild_ranks)

    def is_wild(self, card: Card) -> bool:
        return card.rank in self.wild_ranks

    @cached_property
    def always_wild(self) -> frozenset[Rank | None]:
        """The wild ranks whose cards are never natural (``wild_ranks_always_wild``), else none: a card of
        another wild rank may stand for itself."""
        return self.wild_ranks if self.wild_ranks_always_wild else frozenset()

    @property
    def tie_hand(self) -> int:
        """The number of the hand whose scores break a tie: the hand that plays the family's ``tie_hand``
        contract (the last hand where the game has no such contract, custom contracts)."""
        return next((h.number for h in self.hands if h.contract_number == self.family.tie_hand), len(self.hands))

    def hand(self, number: int) -> HandSpec:
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= len(self.hands):
            raise RulesError("hand_out_of_range", "hand", hand=str(number)[:20], hands=len(self.hands))
        return self.hands[number - 1]

    def points(self, card: Card) -> int:
        return self.rank_points(card.rank)

    def rank_points(self, rank: Rank | None) -> int:
        """What a card of this rank (``None``: a joker) costs left in hand; suits never score."""
        return self._points[rank]

    @cached_property
    def _points(self) -> dict[Rank | None, int]:
        """Each rank's cost (``None``: the joker's), from the family's penalties and the house rules: worked out
        once (every scored hand reads it, the pack's points fourteen times)."""
        joker = self.house.joker_points
        out: dict[Rank | None, int] = {None: joker if joker is not None else self.family.penalties["JK"]}
        wild = self.house.wild_rank_points
        for rank in Rank:
            out[rank] = wild if wild is not None and rank in self.wild_ranks else self.family.penalties[rank.symbol]
        return out

    def can_hold(self, hand: int, buys: int = 0) -> int:
        """The most cards a player who did not go out can hold when ``hand`` ends: the deal, and for each buy
        the discard and the penalty card. Every turn's draw is matched by its discard; only the player who
        went out was in the middle of a turn.

        >>> r = resolve("contract")
        >>> r.can_hold(1), r.can_hold(4, buys=2)
        (10, 16)
        """
        return self.played(hand).deal + (1 + BUY_EXTRA_CARDS) * buys

    def played(self, number: int) -> HandSpec:
        """The hand a game's ``number``-th hand plays: past the last, a replay of the last one."""
        return self.hand(min(number, len(self.hands)))

    @property
    def pack_size(self) -> int:
        """How many cards the pack holds, jokers included."""
        return self.decks * CARDS_IN_A_DECK + self.jokers

    def copies(self, card: Card) -> int:
        """How many of this card the pack holds."""
        return self.jokers if card.rank is None else self.decks

    def rank_copies(self, rank: Rank | None) -> int:
        """How many cards of this rank (``None``: jokers) the pack holds, whatever their suits."""
        return self.jokers if rank is None else self.decks * len(Suit)


def _check_option(name: str, value: Any, fam: Family) -> Any:
    opt = OPTIONS.get(name)
    if opt is None or name not in fam.defaults:
        raise RulesError("unknown_option", f"options.{name}", option=name[:40])
    where = f"options.{name}"
    is_int = isinstance(value, int) and not isinstance(value, bool)
    if opt.kind == "bool":
        if not isinstance(value, bool):
            raise RulesError("option_type", where, option=name, expected="true/false")
    elif opt.kind in ("int", "int_or_null"):
        if value is None and opt.kind == "int_or_null":
            return None
        if not is_int or not opt.minimum <= value <= opt.maximum:
            raise RulesError("option_range", where, option=name, minimum=opt.minimum, maximum=opt.maximum)
    elif opt.kind == "choice":
        choices = tuple(fam.hand_lists) if name == "hands" else opt.choices
        if value not in choices or isinstance(value, bool):
            raise RulesError("option_choice", where, option=name, choices=", ".join(map(str, choices)))
    elif opt.kind == "ranks":
        if not isinstance(value, list) or not value:
            raise RulesError("option_ranks", where, option=name)
        if len(value) > 14:  # each rank and the joker once
            raise RulesError("option_count", where, option=name, maximum=opt.maximum)
        out = []
        for r in value:
            if not isinstance(r, str):
                raise RulesError("option_ranks", where, option=name)
            token = r.strip().upper()
            if token != "JK":
                try:
                    token = Rank.parse(token).symbol
                except ValueError:
                    raise RulesError("option_ranks", where, option=name) from None
            if token not in out:
                out.append(token)
        if len(out) > opt.maximum:
            raise RulesError("option_count", where, option=name, maximum=opt.maximum)
        return out
    elif opt.kind == "contracts":
        if value is None:
            return None
        if not isinstance(value, list) or not 1 <= len(value) <= 12 or not all(isinstance(v, str) for v in value):
            raise RulesError("bad_contract", where, text=str(value)[:60])
        try:
            parsed = [Contract.parse(v) for v in value]
        except RulesError as e:
            raise RulesError(e.code, where, **e.params) from None
        for c in parsed:
            if c.cards_needed > opt.maximum:
                raise RulesError("contract_too_large", where, text=c.notation, cards=c.cards_needed,
                                 maximum=opt.maximum)
        return [c.notation for c in parsed]
    return value


def check_players(fam: Family, players: Any, field: str = "players") -> None:
    """Is ``players`` a table this family is played by? The one check every ruling makes (``field`` names the
    input that said how many: a count, or the seats of a table)."""
    if not isinstance(players, int) or isinstance(players, bool) or not fam.players[0] <= players <= fam.players[1]:
        raise RulesError("players_out_of_range", field, minimum=fam.players[0], maximum=fam.players[1])


def resolve(fid: Any, variants: Any = (), options: Any = None, players: Any = None) -> Rules:
    """The rules of one game. Raises ``RulesError`` naming the bad input."""
    fam = family(fid)
    if variants is None:
        variants = ()
    if not isinstance(variants, (list, tuple)) or not all(isinstance(v, str) for v in variants):
        raise RulesError("bad_variants", "variants")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RulesError("bad_options", "options")
    if players is None:
        players = fam.ideal[0]
    check_players(fam, players)

    chosen = dict(fam.defaults)
    for vid in dict.fromkeys(variants):
        chosen |= fam.variant(vid).options
    for name, value in options.items():
        chosen[name] = _check_option(str(name), value, fam)
    chosen["wild_ranks"] = _check_option("wild_ranks", chosen["wild_ranks"], fam)

    rule = next(d for d in fam.deck_rules if d.players[0] <= players <= d.players[1])
    decks = chosen["decks"] if chosen["decks"] is not None else rule.decks
    jokers = chosen["jokers"] if chosen["jokers"] is not None else rule.jokers

    for vid in dict.fromkeys(variants):
        asks = fam.variant(vid).asks
        if asks and not chosen.get(asks):
            raise RulesError(f"{asks}_missing", f"options.{asks}", variant=vid)
    hands = []
    plan: list[tuple[int, Contract, int | None]]
    if chosen.get("contracts"):
        plan = [(n, Contract.parse(c, no_discard=False), None) for n, c in enumerate(chosen["contracts"], 1)]
    else:
        plan = []
        for n in fam.hand_lists[chosen["hands"]]:
            notation, _ = fam.contracts[n]
            if n == fam.no_discard_contract and chosen.get("final_run") is not None:
                notation = f"R{chosen['final_run']}"
            plan.append((n, Contract.parse(notation, no_discard=n == fam.no_discard_contract), n))
    for i, (n, contract, catalog) in enumerate(plan, 1):
        if chosen["hand_size"] is not None:
            deal = chosen["hand_size"]
        elif catalog is not None:
            deal = fam.contracts[catalog][1]
        else:  # custom contracts: the family's deal by position, its large hand past the end
            deal = fam.contracts.get(i, fam.contracts[max(fam.contracts)])[1]
        if i == 1 and chosen["first_hand_size"] is not None:
            deal = chosen["first_hand_size"]
        hands.append(HandSpec(i, n, contract, deal))
    return Rules(fam, tuple(dict.fromkeys(variants)), chosen, players, decks, jokers, tuple(hands),
                 HouseRules.of(chosen))


def preview(fid: Any, variants: Any = (), options: Any = None, players: int = 0) -> Rules:
    """The rules a setup screen shows while the table is still being set: for the number of players brought
    within the family's limits, and the family's own rules where the variants and house rules chosen so far do
    not make a game (they are refused by name when the game is started).

    >>> preview("liverpool", players=12).players, preview("liverpool", [], {"decks": 99}, 4).decks
    (8, 2)
    """
    fam = family(fid)
    seats = min(max(players, fam.players[0]), fam.players[1])
    try:
        return resolve(fam.id, variants, options, seats)
    except RefereeError:
        return resolve(fam.id, (), {}, seats)


def facts(fam: Family) -> dict[str, int]:
    """The numbers the rules pages write as ``{{fact:NAME}}``: only those the family's document states."""
    rules = resolve(fam.id)
    deals = [rules.hand(n).deal for n in range(1, len(rules.hands) + 1)]
    small, large = min(deals), max(deals)
    out: dict[str, int] = {
        "players_min": fam.players[0],
        "players_max": fam.players[1],
        "players_ideal_min": fam.ideal[0],
        "players_ideal_max": fam.ideal[1],
        "hands": fam.defaults["hands"],
        "set_size": rules.hand(1).contract.melds[0].size,
        "run_size": rules.hand(3).contract.melds[0].size,
        "deal_small": small,
        "deal_large": large,
        "large_from_hand": deals.index(large) + 1,
        "last_small_hand": deals.index(large),
        "buy_extra_cards": BUY_EXTRA_CARDS,
        "penalty_ace": fam.penalties["A"],
        "penalty_face": fam.penalties["K"],
        "penalty_ten": fam.penalties["10"],
        "penalty_joker": fam.penalties["JK"],
        "set_min_naturals": fam.defaults["set_min_naturals"],
        "tie_hand": rules.tie_hand,  # the hand whose scores break a tie, in a game of the default length
    }
    if fam.defaults["buy_limit"] is not None:
        out["buy_limit"] = fam.defaults["buy_limit"]
    low = {fam.penalties[str(v)] for v in range(2, 10)}
    if len(low) == 1:
        out["penalty_low"] = low.pop()
    final = rules.hand(len(rules.hands)).contract.melds
    if len(final) == 1:
        out["final_run"] = final[0].size
    if fam.minutes:
        out["minutes_min"], out["minutes_max"] = fam.minutes
    return out
