"""The scoreboard's forms (Flask-WTF): each parses one request and carries its CSRF token.

A form here only reads what was sent; the service it is handed to decides (and refuses in the reader's
language) what the game allows.
"""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import IntegerField, StringField
from wtforms.validators import AnyOf, InputRequired, NumberRange, Optional


class VersionedForm(FlaskForm):
    """A change made from a page: ``version`` is the game's version the page showed (a stale page is told)."""

    version = IntegerField(validators=[Optional()])


class EndEarlyForm(VersionedForm):
    """End the game now, with the standings of the hands played."""


class RedoForm(VersionedForm):
    """Do again what the last undo took back."""


class RenameForm(FlaskForm):
    seat = IntegerField(validators=[InputRequired(), NumberRange(min=0)])
    name = StringField(validators=[InputRequired()])


class SeatMoveForm(FlaskForm):
    """Move one player a seat up or down the table (before the first hand)."""

    seat = IntegerField(validators=[InputRequired(), NumberRange(min=0)])
    move = StringField(validators=[AnyOf(("up", "down"))])
