"""Refusals: one registry from a code to its words, the rule it rests on and its HTTP status.

The engine names what it refuses with codes (``referee.errors.RefereeError`` for input it cannot read, a
``Violation`` for a hand's score it refuses); the web layer adds the codes of its own input (a body that is
not JSON, a stale page, a missing token). Every surface words a code through ``error_text`` and answers with
``status_of``; the handlers (``errors.handlers``) render them once for pages and once for JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...cards import Card, CardError, Rank
from ...errors import MESSAGES as ENGINE_MESSAGES
from ...errors import RefereeError
from ...i18n import N_
from ...verdicts import CODES
from ..i18n import card_reading, card_text, gettext, number
from ..jsonio import printable
from ..words import notation_words


@dataclass(frozen=True)
class ErrorCode:
    message: str  # English, with named placeholders; translated when it is said
    status: int = 422
    rule: str | None = None  # the rule anchor it rests on, if any


# The web layer's own refusals: input no engine call sees.
WEB: dict[str, ErrorCode] = {
    "bad_json": ErrorCode(N_("The body must be a JSON object."), 400),
    "missing": ErrorCode(N_("This field is required."), 400),
    "wrong_type": ErrorCode(N_("This field must be %(expected)s."), 400),
    "too_many": ErrorCode(N_("Too many items here (at most %(maximum)s)."), 400),
    "not_found": ErrorCode(N_("Not found."), 404),
    "unauthorized": ErrorCode(N_("This needs the game's link token: send it as Authorization: Bearer <token>."),
                              401),
    "forbidden": ErrorCode(N_("This token does not open this game, or it is a view token and cannot change it."),
                           403),
    "method_not_allowed": ErrorCode(N_("This method is not allowed here."), 405),
    # what a browser is told on the app's own error page (the API keeps the codes above)
    "page_not_found": ErrorCode(N_("There is no page at this address. If it is a game's link, check that it was "
                                   "copied whole: the link is long, and a missing letter opens nothing."), 404),
    "page_not_allowed": ErrorCode(N_("This address opens with a link, not from a form. Go back to the game and "
                                     "use its buttons."), 405),
    "page_forbidden": ErrorCode(N_("This link only shows the game; changing it needs the edit link."), 403),
    "bad_request": ErrorCode(N_("This request could not be read. Nothing was changed."), 400),
    "server_error": ErrorCode(N_("Something failed on the server. What was saved before is kept; please try "
                                 "again in a moment."), 500),
    "too_large": ErrorCode(N_("This is more than one request may send (at most %(kb)s KB)."), 413),
    "rate_limited": ErrorCode(N_("Too many changes from here in a short time; this one was not saved. Wait a "
                                 "minute and try again."), 429),
    "unknown_host": ErrorCode(N_("This server does not answer for that address."), 400),
    "form_expired": ErrorCode(N_("The form expired: please send it again."), 400),
    "database_unavailable": ErrorCode(
        N_("The scores could not be saved right now (the database is busy or unreachable). Nothing was changed; "
           "please try again in a moment."), 503),
    "database_cannot_write": ErrorCode(
        N_("The scores could not be saved: the server cannot write to its disk (it is full or read-only). Nothing "
           "was changed; tell whoever runs the server."), 503),
    # the scoreboard
    "bad_players": ErrorCode(N_("Players are a list of names."), 400),
    "empty_name": ErrorCode(N_("Every player needs a name.")),
    "long_name": ErrorCode(N_("Names can be at most %(maximum)s characters.")),
    "duplicate_name": ErrorCode(N_("Two players have the same name.")),
    "bad_dealer": ErrorCode(N_("The first dealer must be one of the players."), 400),
    "bad_hand": ErrorCode(N_("The hand must be a number."), 400),
    "already_recorded": ErrorCode(N_("Hand %(hand)s is already recorded (maybe from another phone): here it is."),
                                  409),
    "past_last_hand": ErrorCode(N_("There is no hand %(hand)s: this game has %(hands)s hands.")),
    "not_next_hand": ErrorCode(N_("Hand %(next)s comes first: record the hands in order.")),
    "no_such_hand": ErrorCode(N_("Hand %(hand)s is not recorded yet."), 404),
    "not_current_hand": ErrorCode(
        N_("Buys and who went down are kept for the hand being played (hand %(hand)s is not)."), 409),
    "stale": ErrorCode(N_("Someone changed this game since you opened this page; nothing was saved. Here is the "
                          "game as it is now."), 409),
    "nothing_to_undo": ErrorCode(N_("There is nothing to undo."), 409),
    "undo_blocked": ErrorCode(N_("Undo the later hands first."), 409),
    "nothing_to_redo": ErrorCode(N_("There is nothing to redo: something else was changed since the undo."), 409),
    "hand_under_way": ErrorCode(N_("Hand %(hand)s is under way (a buy or a player down is recorded in it): a new "
                                   "player sits down before a hand is dealt. Undo those first, or add the player "
                                   "once the hand is saved."), 409),
    "game_ended": ErrorCode(N_("This game was ended after hand %(hand)s: no more hands can be recorded. Undo "
                               "the ending to play on."), 409),
    "game_over": ErrorCode(N_("This game is already over."), 409),
    "nothing_to_end": ErrorCode(N_("Record at least one hand before ending the game."), 409),
    "seats_fixed": ErrorCode(N_("The seat order is fixed once the first hand is recorded."), 409),
    "bad_import": ErrorCode(N_("This is not a game exported from this app."), 400),
    "too_much_work": ErrorCode(N_("Checking this against the pack takes more work than one answer may take: "
                                  "nothing was saved. Enter the players' cards rather than their totals, or "
                                  "check the totals.")),
    # groups
    "group_name_missing": ErrorCode(N_("The group needs a name."), 400),
    "group_name_long": ErrorCode(N_("A group's name can be at most %(maximum)s characters.")),
    "group_unauthorized": ErrorCode(
        N_("This needs the group's link token: send it as Authorization: Bearer <token> (or \"group_token\")."), 401),
    "group_forbidden": ErrorCode(N_("This is the group's view token: only its edit token starts a game in it."), 403),
    "no_such_group": ErrorCode(N_("No group has this id and token."), 404),
    "group_view_only": ErrorCode(N_("This is the group's view link: only its edit link changes the group."), 403),
    "not_on_roster": ErrorCode(N_("%(name)s is not on this group's roster."), 404),
    "name_taken": ErrorCode(N_("%(name)s is already on the roster: %(old)s and %(name)s can be merged into one "
                               "person."), 409),
    "merge_same_game": ErrorCode(N_("%(name)s and %(other)s sat at the same table in a game: they are two people, "
                                    "and keep two names."), 409),
    "member_has_games": ErrorCode(N_("%(name)s played in this group's games, so the name stays on the roster "
                                     "(rename it instead)."), 409),
    "nothing_to_rematch": ErrorCode(N_("This group has no game to play again yet."), 409),
    "bad_group_import": ErrorCode(N_("This is not a group exported from this app."), 400),
    # an answer the referee could not work out in time (said with the answer, not as a refusal)
    "search_exhausted": ErrorCode(
        N_("Too many ways to try with these cards and house rules: this could not be worked out in the time one "
           "answer may take. Lay out the melds you have in mind and check them instead."), 422),
    # the referee's forms
    "no_melds": ErrorCode(N_("Enter at least one meld.")),
    "no_hand_cards": ErrorCode(N_("Enter the cards in your hand.")),
    "layoff_input": ErrorCode(N_("Enter the meld on the table and the cards to lay off.")),
    "swap_input": ErrorCode(N_("Enter the meld on the table and one card.")),
    "buys_used_format": ErrorCode(N_("Write the buys used like this: Ann 1, Ben 3")),
    # cards typed into a page's form, in the reader's letters
    "bad_typed_card": ErrorCode(N_("%(text)s is not a card. Write a rank (A 2-10 %(faces)s) and, where it matters, "
                                   "a suit (♠ ♥ ♦ ♣ or S H D C), or %(joker)s.")),
}

# The engine's codes: input it cannot read is a bad request; a hand's score it refuses is unprocessable.
REGISTRY: dict[str, ErrorCode] = (
    {code: ErrorCode(c.message, 422, c.rule) for code, c in CODES.items()}
    | {code: ErrorCode(message, 400) for code, message in ENGINE_MESSAGES.items()}
    | WEB
)


class Refusal(RefereeError):
    """Input the web layer refuses. ``status`` overrides the registry's where one path answers otherwise."""

    def __init__(self, code: str, field: str | None = None, status: int | None = None, **params: Any) -> None:
        super().__init__(code, field, **params)
        if code not in REGISTRY:
            raise LookupError(f"no words for the refusal {code!r}")
        self.status_override = status

    @property
    def status(self) -> int:
        return status_of(self)


def status_of(e: RefereeError) -> int:
    override = getattr(e, "status_override", None)
    return override if override is not None else REGISTRY[e.code].status


def param_text(name: str, value: Any) -> str:
    """A message parameter in the reader's language: cards in their letters, numbers in their digits, an
    expectation ("a whole number") translated, lists joined."""
    if isinstance(value, (list, tuple)):
        return ", ".join(param_text(name, v) for v in value)
    if name == "expected":
        return gettext(str(value))
    if name in ("contract", "melds") and isinstance(value, str):  # melds in notation: in words
        return notation_words(value)
    if name.endswith("card") or name.endswith("cards") or name in ("represents", "rank"):
        try:
            return card_text(Card.parse(value))
        except CardError:
            pass
        try:  # a rank alone (a leftover card, where suits do not count), in the reader's letters
            return card_reading().rank_text(Rank.parse(value))
        except (CardError, AttributeError):
            return str(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value)
    return printable(str(value))


def error_text(code: str, params: dict[str, Any] | None = None) -> str:
    """The reader's-language words for ``code``, its parameters filled in."""
    text = gettext(REGISTRY[code].message)
    try:
        return text % {k: param_text(k, v) for k, v in (params or {}).items()}
    except (KeyError, TypeError, ValueError):
        return text


def error_body(e: RefereeError) -> dict[str, Any]:
    """The JSON API's answer to a refusal."""
    field = None if e.field is None else printable(e.field)
    return {"error": {"code": e.code, "message": error_text(e.code, e.params), "field": field}}
