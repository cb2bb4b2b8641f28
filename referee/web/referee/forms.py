"""The referee's forms (Flask-WTF): the table settings every ruling shares, and one form per ruling. The house
rules travel beside them as ``opt_<name>`` fields, a form of their own built from the options' descriptions
(``web.options.house_rules_form``)."""

from __future__ import annotations

import re
from typing import Any

from flask_wtf import FlaskForm
from wtforms import BooleanField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length, NumberRange, Optional

from ...families import FAMILIES
from ..fields import ListField, cut
from ..i18n import _l

# the fewest and the most players any family is played by
PLAYERS = (min(f.players[0] for f in FAMILIES.values()), max(f.players[1] for f in FAMILIES.values()))
_WHOLE = re.compile(r"-?[0-9]{1,9}")


def as_int(text: Any) -> int | None:
    """A whole number in a query string or a typed list, or None (``str.isdigit`` also accepts "²", which
    ``int`` refuses)."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    return int(text) if _WHOLE.fullmatch(text) else None


class TableForm(FlaskForm):
    family = SelectField(_l("Rule family"), choices=[SelectChoice(f.id, f.name) for f in FAMILIES.values()])
    hand = IntegerField(_l("Hand"), default=1, validators=[Optional(), NumberRange(min=1, max=12)])
    players = IntegerField(_l("Players"), validators=[Optional(), NumberRange(min=PLAYERS[0], max=PLAYERS[1])])
    variants = ListField()
    gone_down = StringField(filters=[cut(300)])  # who is down in the game the scoreboard opened this from

    class Meta:
        csrf = True


class PickerForm(TableForm):
    """The card picker asking for the facts of other table settings: which ruling's field it fills."""

    mode = StringField(default="check")


class CheckForm(TableForm):
    melds = TextAreaField(_l("Melds, one per line"), validators=[Length(max=400)])
    cards_left = IntegerField(_l("Cards that would stay in hand"), validators=[Optional(), NumberRange(min=0,
                                                                                                       max=30)])


class ArrangeForm(TableForm):
    cards = TextAreaField(_l("The cards in your hand"), validators=[Length(max=200)])


class LayoffForm(TableForm):
    meld = StringField(_l("The meld on the table"), validators=[Length(max=120)])
    cards = StringField(_l("Cards to lay off"), validators=[Length(max=120)])
    down = BooleanField(_l("My contract is down"), default=True)
    same_turn = BooleanField(_l("I went down this turn"))


class SwapForm(TableForm):
    meld = StringField(_l("The meld on the table"), validators=[Length(max=120)])
    card = StringField(_l("Your natural card"), validators=[Length(max=10)])
    down = BooleanField(_l("My contract is down"))


class BuyForm(TableForm):
    seats = TextAreaField(_l("Players in seat order (clockwise), one per line"), validators=[Length(max=400)])
    current = StringField(_l("Whose turn it is"), validators=[Length(max=40)])
    callers = StringField(_l("Who wants the discard (names, separated by commas)"), validators=[Length(max=300)])
    buys_used = StringField(_l("Buys used so far (e.g. Ann 1, Ben 3)"), validators=[Length(max=300)])
    shanghai = BooleanField(_l("Someone called \"Shanghai\""))


FORMS = {"check": CheckForm, "arrange": ArrangeForm, "layoff": LayoffForm, "swap": SwapForm, "buy": BuyForm,
         "table": TableForm}  # (this table's rulings: the table's settings are all they ask)
