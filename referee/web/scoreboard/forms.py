"""The scoreboard's forms (Flask-WTF). Each reads what a page posts; the routes turn a field that does not hold
what it should into the refusal that names it, in the reader's language, and keep what was typed.

The record and correct forms have one cards field and one total field per seat, so their class is made for the
number of players (``hand_form(n)``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import SelectField, StringField, TextAreaField
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange, Optional

from ...i18n import N_
from ...scoring import Entry
from ..errors import Refusal
from ..fields import WHOLE, ListField, WholeNumberField
from ..picker import typed_leftovers

REQUEST_ID = re.compile(r"[A-Za-z0-9_-]{8,40}")


class RequestIdMixin:
    """The id a phone gives a write (``static/outbox.js``), kept with the change it makes, so that the same
    request sent again is applied once. A value that is not such an id is ignored: the write goes through as one
    sent without an id."""

    request_id = StringField()

    @property
    def request(self) -> str | None:
        value = self.request_id.data or ""  # type: ignore[attr-defined]
        return value if REQUEST_ID.fullmatch(value) else None


class SeatForm(RequestIdMixin, FlaskForm):
    """A tap on one player's row of the hand being played (the buy and down buttons)."""

    hand = WholeNumberField(validators=[InputRequired()])
    seat = WholeNumberField(validators=[InputRequired(), NumberRange(min=0)])


class BuyForm(SeatForm):
    action = StringField()  # "remove": take the player's last buy back

    @property
    def removing(self) -> bool:
        return self.action.data == "remove"


class DownForm(SeatForm):
    down = StringField()  # "1": the player has gone down; anything else: not down

    @property
    def going_down(self) -> bool:
        return self.down.data == "1"


class VersionMixin:
    """The version of the game a page was drawn from, sent with a write (a stale page is refused)."""

    version = WholeNumberField(validators=[Optional()])

    @property
    def seen_version(self) -> int | None:
        """None if the page sends none; a garbled one never matches (-1)."""
        if self.version.errors or self.version.process_errors:
            return -1
        value: int | None = self.version.data
        return value


class VersionForm(VersionMixin, FlaskForm):
    """Undo, redo, ending early: the version of the game the page showed."""


class HandFormBase(RequestIdMixin, VersionMixin, FlaskForm):
    """One hand's result: who went out (a seat, or "stock"), each other player's leftover cards or typed total,
    and whether the cut was exact. ``hand_form(n)`` adds the per-seat fields."""

    hand = WholeNumberField(validators=[Optional()])
    out = StringField()
    exact_cut = StringField()  # "1": the cutter cut exactly the cards needed

    players: int = 0

    @property
    def cut_was_exact(self) -> bool:
        return self.exact_cut.data == "1"

    def typed(self) -> dict[str, str]:
        """Each field as it was posted, to show again with a refusal (what was typed is never lost)."""
        return {f.name: str(f.raw_data[0]) for f in self if f.raw_data and f.name not in ("csrf_token", "request_id")}

    def out_seat(self) -> int | None:
        """The seat that went out; None when the stock ran out."""
        text = (self.out.data or "").strip()
        if text == "stock":
            return None
        if WHOLE.fullmatch(text):
            return int(text)
        raise Refusal("bad_out", "out")

    def entered(self, names: list[str], hand: int | None = None) -> Entered:
        """The hand as posted, read once: refused, naming the field, where a field does not hold what it should
        (the hand's number, unless the page's address gives it: ``hand``; a total that is not a whole number,
        naming the player, ``names`` in seat order; a card, in the reader's letters: de ``B``, pt ``V``; who
        went out)."""
        if hand is None and (self.hand.errors or self.hand.data is None):
            raise Refusal("bad_hand", "hand")
        for seat in range(self.players):
            total = self[f"total_{seat}"]
            if total.errors or total.process_errors:
                raw = (total.raw_data or [""])[0]
                raise Refusal("impossible_total", f"total_{seat}", player=names[seat], total=str(raw).strip()[:10])
        typed = typed_leftovers({f"cards_{seat}": self[f"cards_{seat}"].data for seat in range(self.players)})
        entries = {seat: Entry(typed[f"cards_{seat}"] or None, self[f"total_{seat}"].data)
                   for seat in range(self.players)}
        number = int(self.hand.data) if hand is None else hand
        return Entered(number, self.out_seat(), entries, self.cut_was_exact, self.seen_version, self.request)


@dataclass(frozen=True)
class Entered:
    """A hand as its form posted it, in the engine's terms: what ``services.record_hand`` and
    ``services.correct_hand`` take."""

    hand: int
    out_seat: int | None
    entries: dict[int, Entry]
    exact_cut: bool
    version: int | None
    request_id: str | None


@lru_cache(maxsize=16)
def hand_form(players: int) -> type[HandFormBase]:
    """The hand form for a table of ``players``: ``cards_<seat>`` and ``total_<seat>`` for each seat."""
    fields: dict[str, Any] = {"players": players}
    for seat in range(players):
        fields[f"cards_{seat}"] = StringField()
        fields[f"total_{seat}"] = WholeNumberField(validators=[Optional()])
    return type(f"HandForm{players}", (HandFormBase,), fields)


class SetupForm(FlaskForm):
    """The new-game screen: family, players' names, variants, the first dealer and the house rules; ``action``
    is the button pressed ("start", "add", "remove:<seat>", "update")."""

    family = SelectField(choices=(), validate_choice=False)
    name = ListField()
    variants = ListField()
    first_dealer = WholeNumberField(validators=[Optional()])
    action = StringField(default="start")

    def removing(self) -> int | None:
        """The seat whose ✕ was pressed, if one was."""
        action = self.action.data or ""
        if action.startswith("remove:") and WHOLE.fullmatch(action[len("remove:"):]):
            return int(action[len("remove:"):])
        return None


class TokenForm(FlaskForm):
    """Forget a game on this phone: its link's token."""

    token = StringField(validators=[Length(max=64)])


class ImportForm(FlaskForm):
    """A game exported as JSON: the file, or its text pasted."""

    file = FileField()
    json = TextAreaField()


class DeleteForm(FlaskForm):
    """Delete a game: nothing but the form token."""


class RenameForm(FlaskForm):
    """A player's new name, at any point of the game."""

    seat = WholeNumberField(validators=[InputRequired(), NumberRange(min=0)])
    name = StringField(validators=[InputRequired()])


class SeatMoveForm(FlaskForm):
    """Move one player a seat up or down the table (before the first hand): ``move`` is "up" or "down"."""

    seat = WholeNumberField(validators=[InputRequired(), NumberRange(min=0)])
    move = StringField(validators=[AnyOf(("up", "down"))])


class JoinForm(FlaskForm):
    """A player who sits down between hands: their name, at whose left they sit (a seat), and their starting
    score: one of ``scoring.START_CHOICES``, or "number" with ``points``."""

    name = StringField()
    after = WholeNumberField(validators=[Optional(), NumberRange(min=0)])
    start = StringField(default="highest")
    points = WholeNumberField(validators=[Optional(), NumberRange(min=0)])

    def start_value(self) -> Any:
        """What ``seating.join_player`` takes as ``start``: a choice, or the number typed."""
        if self.start.data == "number":
            if self.points.errors or self.points.data is None:
                raise Refusal("wrong_type", "points", expected=N_("a whole number, 0 or more"))
            return self.points.data
        return self.start.data
