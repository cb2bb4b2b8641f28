"""House rules in forms and links, built, read and written from their descriptions (``families.OPTIONS``).

A screen offers the options whose ``screens`` name it (``families.options_on``). ``house_rules_form`` makes
one WTForms field for each (``opt_<name>``), from the option's description: its label, its help line and its
rule, and a control after its kind (a yes/no or a choice: a list whose empty entry names the family's
default; contracts: a text box, a line per hand; numbers and ranks: a text field). The same form then draws
every field (``templates/_house_rules.html``), reads them back into the API's JSON shape (``options``) and
writes them into a link (``query``), so a link carries the house rules from one screen to another. A value
the option cannot take is passed on as typed, for ``resolve`` to refuse by name.
"""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup
from wtforms import Field, Form

from ..families import Family, Option, options_on
from .i18n import gettext
from .words import option_value

FIELD = "opt_{}"
_WHOLE = re.compile(r"-?[0-9]{1,9}")


def field_name(option: Option | str) -> str:
    return FIELD.format(option if isinstance(option, str) else option.name)


def parse(option: Option, raw: str) -> Any:
    """One field's text as the option's value (a text the option cannot take is passed on for ``resolve`` to
    refuse by name)."""
    if option.kind == "bool":
        return raw == "yes"
    if option.kind in ("int", "int_or_null"):
        if raw == "none":
            return None
        return int(raw) if _WHOLE.fullmatch(raw.strip()) else raw
    if option.kind == "ranks":
        return [r for r in raw.replace(",", " ").split() if r]
    if option.kind == "contracts":  # one hand's contract per line: "S3 S3", "R7", …
        return [line.strip() for line in raw.replace(";", "\n").splitlines() if line.strip()]
    return raw


def as_text(option: Option, value: Any) -> str:
    """A value as the option's field holds it (``parse`` reads it back)."""
    if option.kind == "bool":
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, list):
        return ("\n" if option.kind == "contracts" else " ").join(str(v) for v in value)
    return str(value)


# ------------------------------------------------------------------------------------------ the fields
def _attrs(pairs: list[tuple[str, Any]]) -> Markup:
    return Markup("").join(Markup(' {}="{}"').format(k, v) for k, v in pairs if v is not None)


def _select(field: "OptionField", **_: Any) -> Markup:
    chosen = Markup(" selected")
    options = Markup("").join(
        Markup('<option value="{}"{}>{}</option>').format(value, chosen if value and value == field.data else "", label)
        for value, label in field.choices())
    return Markup("<select{}>").format(_attrs([("id", field.id), ("name", field.name)])) + options + \
        Markup("</select>")


def _contracts(field: "OptionField", **_: Any) -> Markup:
    how = field.id + "_how"
    box = Markup("<textarea{}>{}</textarea>").format(
        _attrs([("id", field.id), ("name", field.name), ("rows", 4), ("placeholder", Markup("S3 S3&#10;S3 R4&#10;R7")),
                ("aria-describedby", how)]), field.data)
    note = Markup('<p class="muted" id="{}">{}</p>').format(how, Markup(gettext(  # trusted, as a template trusts it
        "One line per hand: S3 is a set of 3 cards, R4 a run of 4; S3 S3 R4 asks for two sets of 3 and a run of 4.")))
    return box + Markup("\n        ") + note


def _text(field: "OptionField", **_: Any) -> Markup:
    return Markup("<input{}>").format(_attrs([
        ("id", field.id), ("name", field.name), ("value", field.data), ("placeholder", field.default_words()),
        ("inputmode", None if field.option.kind == "ranks" else "numeric")]))


_WIDGETS = {"bool": _select, "choice": _select, "contracts": _contracts}


class OptionField(Field):
    """One house rule's field. Its data is the text the field holds ("" keeps the family's default); ``value``
    is that text read as the option's value."""

    option: Option
    family: Family

    def __init__(self, option: Option, family: Family, **kwargs: Any) -> None:
        super().__init__(label=gettext(option.label), description=Markup(gettext(option.help)),
                         widget=_WIDGETS.get(option.kind, _text), default="", **kwargs)
        self.option = option
        self.family = family

    def process_formdata(self, valuelist: list[Any]) -> None:
        if valuelist:
            self.data = valuelist[0] if isinstance(valuelist[0], str) else ""

    def process_data(self, value: Any) -> None:
        self.data = "" if value is None else str(value)

    def _value(self) -> str:
        return str(self.data or "")

    @property
    def value(self) -> Any:
        return parse(self.option, self.data)

    def default_words(self) -> str:
        """What an empty field means: the family's default, in words."""
        name = self.option.name
        return gettext("default") + ": " + option_value(name, self.family.defaults[name], self.family)

    def choices(self) -> list[tuple[str, str]]:
        """A list's entries: the family's default first (empty), then each value in words."""
        values = ("yes", "no") if self.option.kind == "bool" else tuple(str(c) for c in self.option.choices)
        words = [gettext("yes"), gettext("no")] if self.option.kind == "bool" else \
            [option_value(self.option.name, c) for c in self.option.choices]
        return [("", self.default_words()), *zip(values, words)]


class HouseRulesForm(Form):
    """The house rules one screen offers for one family (``house_rules_form``)."""

    screen: str = ""
    family: Family

    def option_fields(self) -> list[OptionField]:
        return [f for f in self if isinstance(f, OptionField)]

    def options(self) -> dict[str, Any]:
        """The house rules the fields hold, in the API's JSON shape; an empty field keeps the family's default."""
        return {f.option.name: f.value for f in self.option_fields() if f.data}

    def query(self) -> list[tuple[str, str]]:
        """The fields as typed, for a link's query string (empty ones left out)."""
        return [(f.name, str(f.data)) for f in self.option_fields() if f.data]


def house_rules_form(screen: str, fam: Family, formdata: Any = None,
                     options: dict[str, Any] | None = None) -> HouseRulesForm:
    """The house-rule fields of ``screen`` for ``fam``: read from ``formdata`` (a posted form or a query
    string), or holding ``options`` (the API's JSON shape, as a game stores them)."""
    offered = options_on(screen, fam)
    fields: dict[str, Any] = {field_name(o): OptionField(o, fam) for o in offered}
    form_class = type("HouseRules", (HouseRulesForm,), {"screen": screen, "family": fam, **fields})
    data = {field_name(o): as_text(o, options[o.name]) for o in offered if o.name in options} if options else None
    form: HouseRulesForm = form_class(formdata=formdata, data=data)
    return form


def from_form(values: Any, screen: str, fam: Family) -> dict[str, Any]:
    """The house rules a screen's form or link holds (``house_rules_form(…).options()``)."""
    return house_rules_form(screen, fam, values).options()


def link_query(screen: str, fam: Family, options: dict[str, Any]) -> list[tuple[str, str]]:
    """Stored house rules as a link to ``screen`` carries them: what ``house_rules_form(screen, fam,
    options=options).query()`` gives, without building the form (a board draws such a link on every change)."""
    pairs = ((field_name(o), as_text(o, options[o.name])) for o in options_on(screen, fam) if o.name in options)
    return [(name, text) for name, text in pairs if text]
