"""One kind of error for input the engine refuses, and the words of each.

Every refusal carries a stable ``code`` (its words and its rule live in one registry), the ``field`` of the
input it is about (``None`` when it is about the whole input) and the ``params`` a translated message needs.
Bad notation, an unknown option and a player who is not at the table are all ``RefereeError``s; an illegal
meld is not an error but a verdict (``verdicts.Violation``).

>>> from referee.cards import Card
>>> try:
...     Card.parse("ZZ")
... except RefereeError as e:
...     (e.code, e.field, e.params)
('bad_card', None, {'text': 'ZZ'})
"""

from __future__ import annotations

from typing import Any

from .i18n import N_

# The words of each refusal in English, with named placeholders (the web layer translates them).
MESSAGES: dict[str, str] = {
    "bad_card": N_("%(text)s is not a card. Write a rank (A 2-10 J Q K, or T for ten) and, where it matters, a suit "
                   "(S H D C or ♠ ♥ ♦ ♣), or JK for a joker."),
    "unknown_ruleset": N_("Unknown rule family %(ruleset)s: choose liverpool, progressive or contract."),
    "unknown_variant": N_("This rule family has no variant %(variant)s."),
    "unknown_option": N_("This rule family has no house rule %(option)s."),
    "option_type": N_("The house rule %(option)s must be %(expected)s."),
    "option_range": N_("The house rule %(option)s must be a whole number from %(minimum)s to %(maximum)s."),
    "option_choice": N_("The house rule %(option)s must be one of: %(choices)s."),
    "option_count": N_("The house rule %(option)s takes at most %(maximum)s values."),
    "contract_too_large": N_("The contract %(text)s asks for %(cards)s cards; a contract can ask for at most "
                             "%(maximum)s."),
    "contracts_missing": N_("Custom contracts: write your own contracts, one line per hand."),
    "option_ranks": N_("Wild cards are written as JK or ranks (A 2-10 J Q K)."),
    "bad_contract": N_("%(text)s is not a contract. Write melds like S3 S3 R4 (S: set, R: run, and their sizes)."),
    "bad_variants": N_("Variants are a list of names."),
    "bad_options": N_("House rules are an object of names and values."),
    "players_out_of_range": N_("This rule family is played by %(minimum)s to %(maximum)s players."),
    "hand_out_of_range": N_("There is no hand %(hand)s: this game has hands 1 to %(hands)s."),
    "bad_seats": N_("Seats are a list of two or more different names."),
    "unknown_player": N_("%(name)s is not at this table."),
    "bad_count": N_("The buys used by %(name)s must be a whole number, 0 or more."),
    "search_exhausted": N_("Too many ways to try with these cards and house rules: this could not be worked out in "
                           "the time one answer may take. Lay out the melds you have in mind and check them instead."),
    "meld_invalid": N_("The meld on the table is not valid itself: check it first."),
}


class RefereeError(ValueError):
    """Input refused: ``code`` names the message, ``field`` the input, ``params`` fill the message in."""

    def __init__(self, code: str, field: str | None = None, **params: Any) -> None:
        super().__init__(f"{code}: {field} {params!r}")
        self.code = code
        self.field = field
        self.params = params
