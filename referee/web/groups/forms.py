"""The group's forms. House rules are the setup screen's own fields (``opt_<name>``, one per option the family
has), a form of their own built from the options' descriptions (``web.options.house_rules_form``); everything
else is declared here."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    HiddenField,
    SelectField,
    SelectMultipleField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, Optional
from wtforms.widgets import CheckboxInput, ListWidget

from ...families import FAMILIES
from ..fields import ListField
from ..i18n import _l
from ..scoreboard.create import new_token


class GroupForm(FlaskForm):
    name = StringField(_l("Group name"), validators=[DataRequired(), Length(max=60)])
    # drawn with each form: a second tap on the same form makes no second group (``routes.new``)
    once = HiddenField(default=new_token)


class MemberForm(FlaskForm):
    name = StringField(_l("Add a name to the roster"), validators=[DataRequired(), Length(max=40)])


class CheckboxesField(SelectMultipleField):
    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class NewGameForm(FlaskForm):
    """Who is here (from the roster, or a new name), the family and the first dealer."""

    players = CheckboxesField(_l("Who is playing"), choices=[], validate_choice=False)
    new_name = StringField(_l("Someone new"), validators=[Optional(), Length(max=40)])
    family = SelectField(_l("Rule family"), choices=[SelectChoice(f.id, f.name) for f in FAMILIES.values()])
    first_dealer = StringField(_l("Who deals first"), validators=[Optional(), Length(max=40)])
    variants = ListField()
    shown_family = HiddenField()  # the family the page showed: a new family starts from its own last game
    add = SubmitField(_l("Add"))
    update = SubmitField(_l("Update"))
    start = SubmitField(_l("Start the game"))


class RematchForm(FlaskForm):
    game = HiddenField(validators=[Optional(), Length(max=16)])


class ImportForm(FlaskForm):
    file = FileField(_l("A group's JSON file"))
    json = TextAreaField(_l("Or paste it here"), validators=[Optional(), Length(max=2_000_000)])


class StatsForm(FlaskForm):
    """The group page's choice of family for its stats (a link's query string)."""

    family = SelectField(choices=[SelectChoice(f.id, f.name) for f in FAMILIES.values()], validate_choice=False)

    class Meta:
        csrf = False


class RosterNameForm(FlaskForm):
    """A roster name's new spelling; ``merge``: the answer to "merge with the name that has it?"."""

    name = StringField(_l("Name"))
    merge = HiddenField()


class GroupNameForm(FlaskForm):
    name = StringField(_l("Group name"))


class ConfirmForm(FlaskForm):
    """A step that cannot be taken back: sent only with ``confirm`` ticked."""

    confirm = BooleanField(_l("Yes, delete this group"))
