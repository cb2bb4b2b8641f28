"""The referee at the table: check melds, "can I go down?", lay-offs, joker swaps and buys, on one page per
ruling. Each form posts back to its page; with htmx only the verdict is swapped in, and without JavaScript
the whole page comes back with it.

The table settings (family, variants, hand, players, house rules) travel in the query string and the form,
so the scoreboard can open the referee preset to a game (``/referee/check?family=…&hand=…``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, Response, abort, jsonify, make_response, render_template, request
from wtforms import BooleanField, IntegerField

from ... import arrange as arrange_mod
from ... import contracts, table
from ...cards import Card, CardError
from ...errors import RefereeError
from ...families import FAMILIES, REFEREE, SETUP, Family, Rules, resolve
from ...i18n import N_
from ...melds import analyze
from ...verdicts import CONTRACT_CODES
from .. import options as house
from .. import public
from ..errors import Refusal, error_text
from ..fields import ListField
from ..i18n import card_text, gettext, lang, ngettext, rank_letters
from ..picker import cards_text, facts, typed_cards
from ..rules.routes import rule_title, rule_url
from ..words import contract_words, in_a_list
from .forms import FORMS, ArrangeForm, BuyForm, CheckForm, LayoffForm, PickerForm, SwapForm, TableForm, as_int
from .table_rules import answers

bp = Blueprint("referee", __name__, url_prefix="/referee")
public.ruling(bp)  # its forms ask for rulings: they change nothing

MODES = ("check", "arrange", "layoff", "swap", "buy", "table")
MODE_TITLES = {
    "check": N_("Check melds"),
    "arrange": N_("Can I go down?"),
    "layoff": N_("Lay off"),
    "swap": N_("Joker swap"),
    "buy": N_("Who gets the discard?"),
    "table": N_("This table's rules"),
}


@dataclass
class Outcome:
    """What the verdict panel shows: a headline, details, and the problems with their rules."""

    ok: bool
    headline: str
    melds: list[dict[str, Any]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    problems: list[dict[str, str]] = field(default_factory=list)
    rules: list[dict[str, str]] = field(default_factory=list)  # the rules the ruling rests on: title and link
    # a check's second level, after each meld's own verdict: the contract's (ok, headline, problems)
    contract: dict[str, Any] | None = None


def _cards(text: str, field_name: str) -> list[Card]:
    return typed_cards(text, field_name)


def _melds(text: str) -> list[list[Card]]:
    lines = [line for part in (text or "").replace("|", "\n").splitlines() if (line := part.strip())]
    return [_cards(line, "melds") for line in lines]


def _family(form: TableForm) -> Family:
    return FAMILIES.get(form.family.data or "liverpool", FAMILIES["liverpool"])


def _variants(form: TableForm) -> list[str]:
    return [v for v in form.variants.data if v]


def _rules(form: TableForm, rules_form: house.HouseRulesForm) -> Rules:
    rules = resolve(form.family.data, _variants(form), rules_form.options(), form.players.data)
    if form.hand.data:
        rules.hand(form.hand.data)
    return rules


def _problem(rules: Rules, v: Any) -> dict[str, str]:
    return {"text": error_text(v.code, v.params), "rule": v.rule, "meld": "" if v.meld is None else str(v.meld + 1)}


def _cited(rules: Rules, anchors: list[str]) -> list[dict[str, str]]:
    """The rules a ruling rests on, as the verdict shows them: the rule's heading, linked in the reader's language."""
    return [{"rule": a, "title": rule_title(rules.family.id, a), "href": rule_url(rules.family.id, a, lang=lang())}
            for a in anchors]


def _meld_view(reading: Any) -> dict[str, Any]:
    kinds = {"set": gettext("set"), "run": gettext("run"), None: gettext("not a meld")}
    says = ({"set": gettext("a valid set"), "run": gettext("a valid run")} if reading.valid else
            {"set": gettext("not a valid set"), "run": gettext("not a valid run"), None: gettext("not a meld")})
    return {"cards": [card_text(c) for c in reading.cards], "red": [bool(c.suit and c.suit.red) for c in reading.cards],
            "kind": kinds[reading.kind], "says": says[reading.kind], "valid": reading.valid,
            "wilds": [gettext("%(wild)s stands for %(card)s", wild=card_text(c), card=_stands(a))
                      for c, a in reading.wilds]}


_AN = {"A", "8"}  # English says "an ace", "an 8": the other languages translate both phrasings alike


def _stands(stands: str) -> str:
    try:
        return card_text(Card.parse(stands))
    except CardError:
        rank = rank_letters(stands) if len(stands) == 1 and stands != "?" else stands
        if stands in _AN:
            return gettext("an %(rank)s", rank=rank)
        return gettext("a %(rank)s", rank=rank)


# ------------------------------------------------------------------------------------------- the rulings
def rule_check(rules: Rules, form: CheckForm) -> Outcome:
    melds = _melds(form.melds.data)
    if not melds:
        raise Refusal("no_melds", "melds")
    hand = form.hand.data or 1
    verdict = contracts.check(rules, hand, melds, form.cards_left.data)
    # two levels: each meld's own verdict, with what is wrong with it and the rule; then the contract's, so that a
    # valid meld is never shown under a red headline about the hand
    views = [_meld_view(m) for m in verdict.melds]
    for i, view in enumerate(views):
        view["problems"] = [_problem(rules, v) for v in verdict.violations
                            if v.meld == i and v.code not in CONTRACT_CODES]
    words = contract_words(verdict.contract)
    problems = [v for v in verdict.violations if v.code in CONTRACT_CODES]
    if verdict.valid:
        head = gettext("This makes the contract of hand %(hand)s: %(contract)s.", hand=hand, contract=words)
    elif what := _missing_words(verdict.missing):
        head = gettext("Hand %(hand)s needs %(contract)s: %(what)s.", hand=hand, contract=words, what=what)
        problems = [v for v in problems if not (v.code == "contract_mismatch" and v.meld is None)]  # (said so)
    else:
        head = gettext("Hand %(hand)s needs %(contract)s; these melds do not make it.", hand=hand, contract=words)
    contract = {"ok": verdict.valid, "headline": head, "rule": "rule-contract",
                "rule_title": rule_title(rules.family.id, "rule-contract"),
                "problems": [_problem(rules, v) for v in problems]}
    return Outcome(verdict.valid, head, views, [], [], _cited(rules, verdict.rules), contract=contract)


def _missing_words(missing: dict[str, int]) -> str:
    """What the valid melds lack, or have too many of, against the contract: "one more set and one run too
    many"."""
    more = {"set": lambda n: ngettext("one more set", "%(num)s more sets", n),
            "run": lambda n: ngettext("one more run", "%(num)s more runs", n)}
    extra = {"set": lambda n: ngettext("one set too many", "%(num)s sets too many", n),
             "run": lambda n: ngettext("one run too many", "%(num)s runs too many", n)}
    return in_a_list([more[k](n) if n > 0 else extra[k](-n) for k, n in missing.items() if n])


def rule_arrange(rules: Rules, form: ArrangeForm) -> Outcome:
    cards = _cards(form.cards.data, "cards")
    if not cards:
        raise Refusal("no_hand_cards", "cards")
    if len(cards) > arrange_mod.MAX_CARDS:
        raise Refusal("too_many", "cards", maximum=arrange_mod.MAX_CARDS)
    hand = form.hand.data or 1
    result = arrange_mod.arrange(rules, hand, cards)
    readings = [analyze(m, rules, kind=k) for m, k in zip(result.melds, result.kinds)]
    lines = [gettext("Contract for hand %(hand)s: %(contract)s", hand=hand,
                     contract=contract_words(rules.hand(hand).contract))]
    if result.possible is None:
        head = error_text("search_exhausted")
    elif result.possible:
        head = gettext("Yes: you can go down.")
        if result.unused:
            lines.append(gettext("Left in your hand: %(cards)s", cards=" ".join(card_text(c) for c in result.unused)))
    elif result.violations:
        head = gettext("These cards cannot all be in one pack.")
    elif result.exhausted:
        head = gettext("No: these cards do not make the contract.")
    elif result.missing is None:
        head = gettext("No: these cards can't make this contract, however many cards you add.")
    else:
        head = ngettext("No: you are %(num)s card short.", "No: you are %(num)s cards short.", result.missing)
        natural = list(result.needs_natural)
        either = []
        for n in result.needs:
            if n in natural:
                natural.remove(n)
            else:
                either.append(n)
        if either:
            lines.append(gettext("Nearest miss: one more of each of these, or a wild card for each: %(needs)s",
                                 needs=", ".join(_need(n) for n in either)))
        if result.needs_natural:
            lines.append(gettext("Natural cards that a wild card can't replace: %(needs)s",
                                 needs=", ".join(_need(n) for n in result.needs_natural)))
    return Outcome(bool(result.possible), head, [_meld_view(r) for r in readings] if result.possible or result.melds
                   else [], lines, [_problem(rules, v) for v in result.violations], _cited(rules, result.rules))


def _need(stands: str) -> str:
    try:
        return card_text(Card.parse(stands))
    except CardError:
        rank = rank_letters(stands) if len(stands) == 1 else stands
        if stands in _AN:
            return gettext("an %(rank)s of any suit", rank=rank)
        return gettext("a %(rank)s of any suit", rank=rank)


def rule_layoff(rules: Rules, form: LayoffForm) -> Outcome:
    meld = _cards(form.meld.data, "meld")
    cards = _cards(form.cards.data, "cards")
    if not meld or not cards:
        raise Refusal("layoff_input", "meld")
    try:
        ruling = table.layoff(rules, meld, cards, bool(form.down.data), bool(form.same_turn.data))
    except table.TableError:
        raise Refusal("meld_invalid", "meld") from None
    ends = {"low": gettext("on the low end"), "high": gettext("on the high end"), "gap": gettext("in a gap"),
            "set": gettext("on the set")}
    head = gettext("Yes: you may lay off.") if ruling.valid else gettext("No.")
    lines = [gettext("%(card)s goes %(where)s.", card=card_text(c), where=ends[w]) for c, w in ruling.placed]
    return Outcome(ruling.valid, head, [_meld_view(ruling.meld)], lines,
                   [_problem(rules, v) for v in ruling.violations], _cited(rules, ruling.rules))


def rule_swap(rules: Rules, form: SwapForm) -> Outcome:
    meld = _cards(form.meld.data, "meld")
    card = _cards(form.card.data, "card")
    if not meld or len(card) != 1:
        raise Refusal("swap_input", "card")
    try:
        ruling = table.swap(rules, meld, card[0], down=bool(form.down.data))
    except table.TableError:
        raise Refusal("meld_invalid", "meld") from None
    head = gettext("Yes: take the joker.") if ruling.valid else gettext("No.")
    lines = [gettext("%(wild)s stands for %(card)s", wild=card_text(c), card=_stands(a)) for c, a in ruling.represents]
    melds = [_meld_view(ruling.meld)] if ruling.valid and ruling.meld is not None else []
    return Outcome(ruling.valid, head, melds, lines, [_problem(rules, v) for v in ruling.violations],
                   _cited(rules, ruling.rules))


def _names(text: str) -> list[str]:
    return [n.strip() for n in (text or "").replace(",", "\n").splitlines() if n.strip()]


def rule_buy(rules: Rules, form: BuyForm) -> Outcome:
    seats = _names(form.seats.data)
    callers = _names(form.callers.data)
    used: dict[str, int] = {}
    for item in (form.buys_used.data or "").split(","):
        parts = item.strip().rsplit(" ", 1)
        if len(parts) == 2 and as_int(parts[1]) is not None:
            used[parts[0].strip()] = as_int(parts[1])  # type: ignore[assignment]
        elif item.strip():
            raise Refusal("buys_used_format", "buys_used")
    ruling = table.buy(rules, seats, (form.current.data or "").strip(), callers, used, bool(form.shanghai.data))
    if ruling.winner:
        head = gettext("%(player)s takes the discard.", player=ruling.winner)
    else:
        head = gettext("Nobody takes the discard.")
    lines = [error_text(ruling.reason, ruling.params)]
    left = [gettext("%(player)s: %(n)s", player=p, n=("∞" if n is None else n)) for p, n in ruling.buys_left.items()]
    lines.append(gettext("Buys left this hand: %(list)s", list=", ".join(left)))
    return Outcome(ruling.winner is not None, head, [], lines, rules=_cited(rules, ruling.rules))


RULINGS = {"check": rule_check, "arrange": rule_arrange, "layoff": rule_layoff, "swap": rule_swap,
           "buy": rule_buy}


# ------------------------------------------------------------------------------------------- the views
@bp.get("/")
def index() -> Response:
    return page("check")


@bp.route("/<mode>", methods=["GET", "POST"])
def page(mode: str) -> Response:
    if mode not in MODES:
        abort(404)
    if request.method == "POST":
        form = FORMS[mode]()
    else:  # a link presets the table (and any field) through its query string
        form = FORMS[mode](formdata=None, data=_preset_data(FORMS[mode], request.args))
    fam = _family(form)
    # (this table's rulings answer for every house rule a game can set, the setup screen's; a ruling, for its own)
    screen = SETUP if mode == "table" else REFEREE
    rules_form = house.house_rules_form(screen, fam, request.form if request.method == "POST" else request.args)
    outcome: Outcome | None = None
    error: str | None = None
    error_field: str | None = None
    table: list[dict[str, Any]] | None = None
    if mode == "table":  # the answers are the page: drawn at once for the table the link or the form sets
        if request.method == "POST" and not form.validate():
            error_field, msgs = next(iter(form.errors.items()))
            error = (error_text("form_expired") if error_field == "csrf_token"
                     else f"{getattr(form, error_field).label.text}: {msgs[0]}")
        else:
            try:
                table = answers(_rules(form, rules_form))
            except RefereeError as e:
                error, error_field = error_text(e.code, e.params), e.field
    elif request.method == "POST":
        if not form.validate():
            first = next(iter(form.errors.items()))
            error_field, msgs = first[0], first[1]
            error = (error_text("form_expired") if error_field == "csrf_token"
                     else f"{getattr(form, error_field).label.text}: {msgs[0]}")
        else:
            try:
                rules = _rules(form, rules_form)
                outcome = RULINGS[mode](rules, form)
            except RefereeError as e:
                error, error_field = error_text(e.code, e.params), e.field
    context = dict(mode=mode, modes=MODES, titles=MODE_TITLES, form=form, fam=fam, families=FAMILIES,
                   outcome=outcome, table=table, error=error, error_field=error_field,
                   chosen_variants=set(form.variants.data),
                   house=rules_form, preset=_preset_query(form, rules_form),
                   picker_facts=_picker_facts(form, rules_form, mode), examples=_examples(),
                   gone_down=form.gone_down.data or "")
    htmx = request.headers.get("HX-Request") == "true" and not request.headers.get("HX-History-Restore-Request")
    template = "referee/_verdict.html" if htmx and request.method == "POST" else "referee/page.html"
    resp = make_response(render_template(template, **context), 422 if error and not htmx else 200)
    resp.headers["Vary"] = "HX-Request"
    return resp


def _picker_facts(form: TableForm, rules_form: house.HouseRulesForm, mode: str) -> dict[str, Any]:
    """The pack and the deal the card picker checks against, for the table as the form has it (the family's
    defaults where the form's settings do not make a table)."""
    fam = form.family.data if form.family.data in FAMILIES else "liverpool"
    try:
        rules = _rules(form, rules_form)
        hand = form.hand.data or 1
        rules.hand(hand)
    except RefereeError:
        rules, hand = resolve(fam), 1
    return facts(rules, hand if mode in ("check", "arrange") else None)


@bp.get("/picker")
def picker_facts() -> Response:
    """The card picker's facts for other table settings (the page asks when the family, hand, players,
    variants or house rules change): the same as the page renders."""
    form = PickerForm(formdata=None, data=_preset_data(PickerForm, request.args))
    rules_form = house.house_rules_form(REFEREE, _family(form), request.args)
    resp = jsonify(_picker_facts(form, rules_form, form.mode.data or "check"))
    resp.headers["Vary"] = "Cookie, Accept-Language"
    return resp


def _examples() -> dict[str, str]:
    """The fields' examples in the reader's letters."""
    return {"melds": cards_text("7H 7D JK\n5C 6C 7C 8C"), "cards": cards_text("7H 7D KC KD KS 5S 6S JK"),
            "meld": cards_text("5H 6H 7H 8H"), "layoff": cards_text("9H"), "swap_meld": cards_text("5H JK 7H 8H"),
            "card": cards_text("6H")}


def _preset_data(form_class: type[TableForm], args: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"family": "liverpool"}
    form = form_class(formdata=None)
    for f in form:
        raw = args.get(f.name)
        if raw is None or f.name == "csrf_token":
            continue
        if isinstance(f, ListField):
            data[f.name] = args.getlist(f.name)
        elif isinstance(f, BooleanField):
            data[f.name] = raw.lower() in ("1", "true", "yes", "on", "y")
        elif isinstance(f, IntegerField):
            if as_int(raw) is not None:
                data[f.name] = as_int(raw)
        elif f.name != "family" or raw in FAMILIES:
            data[f.name] = raw[:400]
    return data


def _preset_query(form: TableForm, rules_form: house.HouseRulesForm) -> str:
    """The table settings as a query string, so the other rulings open with the same table."""
    pairs: list[tuple[str, str]] = [("family", form.family.data or "liverpool")]
    if form.hand.data:
        pairs.append(("hand", str(form.hand.data)))
    if form.players.data:
        pairs.append(("players", str(form.players.data)))
    pairs += [("variants", v) for v in _variants(form)]
    if form.gone_down.data:
        pairs.append(("gone_down", form.gone_down.data))
    pairs += rules_form.query()
    return urlencode(pairs)

