"""Violations: what is wrong, with which meld, and which rule says so.

Every code the engine answers with is written here once with the rule anchor it rests on (an id on the
family's rules page) and its English message, a template with named placeholders that the web layer
translates: the verdicts on melds, lay-offs, swaps and buys, and the refusals of a hand's score (input the
engine cannot read has its words in ``errors``). Parameters whose names end in ``card`` or
``cards`` hold card notation, and ``contract`` and ``melds`` hold melds in notation (``S3 R4``); the web layer
writes them in the reader's language.

Every verdict also names the rules it rests on, yes or no (``cite``): the rules of what is wrong first, then the
rules the answer was held to.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .i18n import N_


@dataclass(frozen=True)
class Code:
    rule: str
    message: str


# What is wrong with the melds as a whole, against the hand's contract and the pack (each other code is about
# one meld by itself): the referee says these after each meld's own verdict.
CONTRACT_CODES = frozenset({"contract_mismatch", "contract_extra_cards", "too_many_copies", "final_hand_cards_left",
                            "runs_touch"})

CODES: dict[str, Code] = {
    # melds
    "set_too_short": Code("rule-set", N_("A set needs at least %(minimum)s cards. Cards in this one: %(count)s.")),
    "set_mixed_ranks": Code("rule-set", N_("A set is cards of one rank; this one mixes %(ranks)s.")),
    "set_too_few_naturals": Code(
        "rule-set-naturals", N_("A set needs at least %(minimum)s natural cards. Natural cards in this one: "
                                "%(count)s.")),
    "run_too_short": Code("rule-run", N_("A run needs at least %(minimum)s cards. Cards in this one: %(count)s.")),
    "run_mixed_suits": Code("rule-run", N_("A run is cards of one suit; this one mixes %(suits)s.")),
    "run_duplicate_rank": Code("rule-run", N_("A run holds each rank once. More than once here: %(cards)s.")),
    "run_gap": Code(
        "rule-run", N_("The run has a gap between %(low_card)s and %(high_card)s. Cards missing: %(needed)s; "
                       "wild cards to fill them: %(wilds)s.")),
    "run_wraps": Code("rule-aces", N_("A run cannot go around the corner from king to ace to two.")),
    "ace_low_only": Code("rule-aces", N_("Aces play low only (A-2-3) at this table; this run needs a high ace.")),
    "ace_high_only": Code("rule-aces", N_("Aces play high only (Q-K-A) at this table; this run needs a low ace.")),
    "run_too_long": Code("rule-run", N_("A run cannot be longer than one suit from ace to king.")),
    "run_too_many_wilds": Code(
        "rule-run-wilds", N_("Too many wild cards together: at this table any four cards in a row of a run may hold at "
                           "most %(maximum)s.")),
    "second_wild_position": Code(
        "rule-second-wild", N_("A second wild card is allowed only where the natural cards fix its place.")),
    "wilds_outnumber_naturals": Code(
        "rule-wilds", N_("A meld put down for the contract may hold no more wild cards than natural cards at this "
                         "table. Wild cards in this one: %(wilds)s; natural cards: %(naturals)s.")),
    "no_natural": Code("rule-wild-natural", N_("A meld needs at least one natural card to show what it is.")),
    "not_a_meld": Code("rule-set", N_("These cards are neither a set nor a run.")),
    # the contract
    "contract_mismatch": Code("rule-contract", N_("This hand's contract is %(contract)s; the melds make %(melds)s.")),
    "contract_extra_cards": Code(
        "rule-going-down", N_("When you go down, each contract meld must be exactly %(size)s cards. Cards in this "
                              "one: %(count)s. Lay the extra cards off later.")),
    "runs_touch": Code(
        "rule-run", N_("Two runs of one suit may not touch at this table: %(low_card)s and %(high_card)s make them "
                       "one run.")),
    "too_many_copies": Code(
        "rule-decks", N_("Too many copies of %(card)s: %(count)s here, but the pack holds %(copies)s.")),
    "final_hand_cards_left": Code(
        "rule-final-hand", N_("This hand has no final discard: every card must be melded. Cards that would be "
                              "left in hand: %(count)s.")),
    # lay-off
    "layoff_not_down": Code("rule-lay-off", N_("You may lay off only once your contract is down.")),
    "layoff_same_turn": Code("rule-lay-off", N_("You may not lay off in the turn you go down; wait for your next "
                                                "turn.")),
    "layoff_wrong_rank": Code("rule-set", N_("%(card)s cannot join this set: the set's rank is %(rank)s.")),
    "layoff_wrong_suit": Code("rule-run", N_("%(card)s is not of this run's suit.")),
    "layoff_taken": Code("rule-run", N_("The run already has a card at the place of %(card)s.")),
    "layoff_no_end": Code("rule-run", N_("%(card)s does not fit at either end of this run.")),
    # joker swap
    "swap_not_allowed": Code("rule-joker-swap", N_("The joker swap is not played at this table.")),
    "swap_no_wild": Code("rule-joker-swap", N_("This meld has no wild card to swap.")),
    "swap_wrong_card": Code("rule-joker-swap", N_("%(card)s is not the card a wild card here stands for "
                                                  "(%(represents)s).")),
    "swap_not_a_joker": Code("rule-joker-swap", N_("Only a joker is taken back at this table: %(card)s stays in "
                                                  "the meld.")),
    "swap_from_set": Code("rule-joker-swap", N_("A wild card is taken back only from a run at this table, not "
                                               "from a set.")),
    "swap_after_down": Code("rule-joker-swap", N_("Only a player who has not gone down yet takes a joker back at "
                                                 "this table.")),
    "swap_wild_card": Code("rule-wilds", N_("%(card)s is a wild card at this table, never a natural one: only a "
                                           "natural card takes a wild card's place.")),
    # buy rulings (reasons, not violations)
    "no_callers": Code("rule-buying", N_("Nobody asked for the discard.")),
    "current_player_first": Code(
        "rule-buy-priority", N_("%(player)s is the player in turn and takes the discard as their draw, with no "
                                "penalty card.")),
    "nearest_caller": Code(
        "rule-buy-priority", N_("%(player)s is the nearest caller after %(current)s and buys the discard, taking "
                                "a penalty card from the stock.")),
    "no_buying": Code("rule-buy-limit", N_("Buying is not played at this table.")),
    "shanghai_blocked": Code("rule-buying", N_("A \"Shanghai\" call blocked the buy.")),
    "own_discard": Code("rule-buying", N_("The player who discarded the card may not buy it back.")),
    "limit_reached": Code("rule-buy-limit", N_("No buys left this hand for: %(players)s.")),
    "buy_recorded": Code("rule-buying", N_("A buy is recorded for %(player)s.")),
    "nobody_eligible": Code("rule-buying", N_("Nobody who asked may take the discard: %(players)s.")),
    # a hand's score (scoring.score_hand)
    "bad_out": Code("rule-scoring", N_("Choose who went out.")),
    "nobody_out": Code("rule-stock-exhausted", N_("Choose who went out. (The hand ends with the stock only where "
                                                  "that house rule is on.)")),
    "out_has_cards": Code("rule-scoring", N_("%(player)s went out and has no cards left: leave their cards "
                                             "empty.")),
    "too_many_cards": Code("rule-scoring", N_("%(player)s cannot hold more than %(maximum)s cards at the end of "
                                              "this hand.")),
    "total_disagrees": Code("rule-penalty-values", N_("%(player)s: the typed total %(total)s does not match the "
                                                      "cards (%(cards)s).")),
    "impossible_total": Code("rule-penalty-values", N_("%(player)s: no cards left in hand could make %(total)s "
                                                       "points.")),
    "total_too_high": Code("rule-penalty-values", N_(
        "%(player)s: %(total)s points is more than anyone can have left in this hand: at most %(maximum)s cards, "
        "worth at most %(highest)s points in this pack.")),
    "too_many_copies_left": Code("rule-decks", N_(
        "Too many copies of %(card)s left in hand (%(players)s): %(count)s, but the pack holds %(copies)s.")),
    "pack_cannot_make": Code("rule-decks", N_(
        "%(players)s: one pack (%(decks)s decks, %(jokers)s jokers) cannot leave all of this in their hands at "
        "once. Check their entries.")),
    "missing_cards": Code("rule-scoring", N_("Enter the cards %(player)s has left, or their total.")),
    "not_in_this_hand": Code("rule-scoring", N_("%(player)s sat down after hand %(hand)s and has no score in it: "
                                                "leave their entry empty.")),
}


@dataclass(frozen=True, slots=True)
class Violation:
    code: str
    meld: int | None = None
    params: dict[str, Any] = field(default_factory=dict)
    field: str | None = None  # the input it is about, where it is one field of a form or a body

    @property
    def rule(self) -> str:
        return CODES[self.code].rule

    @property
    def message(self) -> str:
        """The English message (the web layer translates ``CODES[code].message`` instead)."""
        return CODES[self.code].message % {k: _plain(v) for k, v in self.params.items()}

    def sort_key(self) -> tuple[int, str]:
        return (-1 if self.meld is None else self.meld, self.code)


def cite(violations: Any, supporting: Any = ()) -> list[str]:
    """The rule anchors of ``violations`` (in order), then those of ``supporting``, each once."""
    out: dict[str, None] = {}
    for v in violations:
        out[v.rule] = None
    for anchor in supporting:
        out[anchor] = None
    return list(out)


def _plain(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value))
    return str(value)
