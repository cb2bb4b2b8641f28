"""Messages for input the app refuses, by code: the engine, the scoreboard and the API raise the codes, and
their words live here once, in English, translated at request time."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from ..i18n import N_

MESSAGES: dict[str, str] = {
    "bad_json": N_("The body must be a JSON object."),
    "missing": N_("This field is required."),
    "wrong_type": N_("This field must be %(expected)s."),
    "too_many": N_("Too many items here (at most %(maximum)s)."),
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
    "option_ranks": N_("Wild cards are written as JK or ranks (A 2-10 J Q K)."),
    "bad_contract": N_("%(text)s is not a contract. Write melds like S3 S3 R4 (S: set, R: run, and their sizes)."),
    "contracts_missing": N_("Custom contracts: write your own contracts, one line per hand."),
    "bad_variants": N_("Variants are a list of names."),
    "bad_options": N_("House rules are an object of names and values."),
    "players_out_of_range": N_("This rule family is played by %(minimum)s to %(maximum)s players."),
    "hand_out_of_range": N_("There is no hand %(hand)s: this game has hands 1 to %(hands)s."),
    "bad_seats": N_("Seats are a list of two or more different names."),
    "unknown_player": N_("%(name)s is not at this table."),
    "bad_count": N_("The buys used by %(name)s must be a whole number, 0 or more."),
    "meld_invalid": N_("The meld on the table is not valid itself: check it first."),
    "not_found": N_("Not found."),
    "unauthorized": N_("This needs the game's link token: send it as Authorization: Bearer <token>."),
    "forbidden": N_("This token does not open this game, or it is a view token and cannot change it."),
    "method_not_allowed": N_("This method is not allowed here."),
    "bad_players": N_("Players are a list of names."),
    "empty_name": N_("Every player needs a name."),
    "long_name": N_("Names can be at most %(maximum)s characters."),
    "duplicate_name": N_("Two players have the same name."),
    "bad_dealer": N_("The first dealer must be one of the players."),
    "bad_out": N_("Choose who went out."),
    "nobody_out": N_("Choose who went out. (The hand ends with the stock only where that house rule is on.)"),
    "out_has_cards": N_("%(player)s went out and has no cards left: leave their cards empty."),
    "too_many_cards": N_("%(player)s cannot hold more than %(maximum)s cards at the end of this hand."),
    "total_disagrees": N_("%(player)s: the typed total %(total)s does not match the cards (%(cards)s)."),
    "impossible_total": N_("%(player)s: no cards left in hand could make %(total)s points."),
    "missing_cards": N_("Enter the cards %(player)s has left, or their total."),
    "too_many_copies": N_("Too many copies of %(card)s: %(count)s entered, but the pack holds %(copies)s."),
    "bad_hand": N_("The hand must be a number."),
    "already_recorded": N_("Hand %(hand)s is already recorded (maybe from another phone): here it is."),
    "past_last_hand": N_("There is no hand %(hand)s: this game has %(hands)s hands."),
    "not_next_hand": N_("Hand %(next)s comes first: record the hands in order."),
    "no_such_hand": N_("Hand %(hand)s is not recorded yet."),
    "not_current_hand": N_("Buys and who went down are kept for the hand being played (hand %(hand)s is not)."),
    "stale": N_("Someone changed this game since you opened this page; nothing was saved. Here is the game as "
                "it is now."),
    "nothing_to_undo": N_("There is nothing to undo."),
    "undo_blocked": N_("Undo the later hands first."),
    "search_exhausted": N_("Too many ways to try with these cards and house rules: this could not be worked out in "
                           "the time one answer may take. Lay out the melds you have in mind and check them instead."),
    "bad_import": N_("This is not a game exported from this app."),
}


def error_text(code: str, params: dict[str, Any] | None = None) -> str:
    """The reader's-language words for ``code``, its parameters filled in (lists joined, expectations translated)."""
    text = gettext(MESSAGES.get(code, MESSAGES["bad_json"]))
    safe = {k: (", ".join(map(str, v)) if isinstance(v, (list, tuple)) else gettext(v) if k == "expected" else v)
            for k, v in (params or {}).items()}
    try:
        return text % safe
    except (KeyError, TypeError, ValueError):
        return text
