"""The JSON API, version 1 (documented in docs/api.md): reading a request's body and fields, the answers' shapes,
and the referee's endpoints (check, lay-off, swap, arrange, penalty, buy). Games and groups are ``games``'.

Bodies are JSON objects. Bad input gets 400 with ``{"error": {"code", "message", "field"}}``, never a 500;
``"lang"`` in the body picks the language of every message.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Callable

from flask import Blueprint, Response, current_app, g, jsonify, request, url_for

from ... import arrange as arrange_mod
from ... import contracts, scoring, table
from ...cards import Card, CardError
from ...families import FAMILIES, OPTIONS, Family, Rules, facts, resolve
from ...i18n import N_
from ...melds import Meld
from ...verdicts import CODES, Violation
from .. import public
from ..errors import Refusal, error_text
from ..i18n import gettext, in_language, lang
from ..rules.routes import rule_url as rules_page_url

bp = Blueprint("api", __name__, url_prefix="/api/v1")


# ------------------------------------------------------------------------------------------------ input
def body() -> dict[str, Any]:
    data = request.get_json(silent=True, force=True)
    if not isinstance(data, dict):
        raise Refusal("bad_json", None)
    return data


def with_lang(view: Callable[..., Any]) -> Callable[..., Any]:
    """Read the body, and answer in the language it asks for (``"lang"``), else the request's. A refusal is
    worded in that language too (the error handlers read ``g.body_lang``)."""

    def wrapped(**kwargs: Any) -> Any:
        data = body()
        asked = data.get("lang")
        if isinstance(asked, str) and asked in current_app.config["LANGUAGES"]:
            g.body_lang = asked
            with in_language(asked):
                return view(data, **kwargs)
        return view(data, **kwargs)

    wrapped.__name__ = view.__name__
    return wrapped


def need(data: dict[str, Any], name: str) -> Any:
    if name not in data or data[name] is None:
        raise Refusal("missing", name)
    return data[name]


def cards_field(value: Any, field: str, maximum: int = 60) -> list[Card]:
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list):
        raise Refusal("wrong_type", field, expected=N_("a list of cards"))
    if len(value) > maximum:
        raise Refusal("too_many", field, maximum=maximum)
    out = []
    for i, token in enumerate(value):
        if not isinstance(token, str):
            raise Refusal("wrong_type", f"{field}[{i}]", expected=N_("a card like 7H or JK"))
        try:
            out.append(Card.parse(token))
        except CardError:
            raise Refusal("bad_card", f"{field}[{i}]", text=token[:20]) from None
    return out


def int_field(data: dict[str, Any], name: str, required: bool = True) -> int | None:
    value = data.get(name)
    if value is None:
        if required:
            raise Refusal("missing", name)
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise Refusal("wrong_type", name, expected=N_("a whole number"))
    if not -WHOLE_MOST <= value <= WHOLE_MOST:  # (a hand, a seat, a total: nothing in a game comes near)
        raise Refusal("wrong_type", name, expected=N_("a whole number of at most 9 digits"))
    return value


WHOLE_MOST = 10**9 - 1


def bool_field(data: dict[str, Any], name: str, default: bool) -> bool:
    value = data.get(name, default)
    if not isinstance(value, bool):
        raise Refusal("wrong_type", name, expected=N_("true or false"))
    return value


def rules_from(data: dict[str, Any]) -> Rules:
    players = data.get("players")
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        raise Refusal("wrong_type", "players", expected=N_("a whole number"))
    ruleset, variants, options = need(data, "ruleset"), data.get("variants") or (), data.get("options")
    try:  # the same few tables ask again and again: resolve each set of rules once
        key = json.dumps([ruleset, variants, options, players], sort_keys=True)
    except (TypeError, ValueError):
        return resolve(ruleset, variants, options, players)
    return _resolved(key)


@lru_cache(maxsize=512)
def _resolved(key: str) -> Rules:
    ruleset, variants, options, players = json.loads(key)
    return resolve(ruleset, variants, options, players)


# ------------------------------------------------------------------------------------------------ output
def rule_url(rules: Rules, anchor: str, language: str | None = None) -> str:
    return rules_page_url(rules.family.id, anchor, lang=language or lang())


def rules_json(rules: Rules, anchors: list[str]) -> list[dict[str, str]]:
    """The rules an answer rests on, each with its link in the asker's language."""
    language = lang()
    return [{"rule": a, "rule_url": rule_url(rules, a, language)} for a in anchors]


def kind_field(data: dict[str, Any]) -> str | None:
    """How the meld on the table was put down, where its cards could be either: "set" or "run" (optional)."""
    kind = data.get("kind")
    if kind is not None and kind not in ("set", "run"):
        raise Refusal("wrong_type", "kind", expected=N_("\"set\" or \"run\""))
    return kind


def violation_json(rules: Rules, v: Violation) -> dict[str, Any]:
    return {"code": v.code, "meld": v.meld, "rule": v.rule, "rule_url": rule_url(rules, v.rule),
            "message": error_text(v.code, v.params), "params": v.params}


def meld_json(m: Meld) -> dict[str, Any]:
    return {"cards": [str(c) for c in m.cards], "kind": m.kind, "valid": m.valid,
            "wilds": [{"card": str(c), "as": a} for c, a in m.wilds]}


def contract_json(rules: Rules, hand: int) -> dict[str, Any]:
    spec = rules.hand(hand)
    return {"hand": hand, "notation": spec.contract.notation,
            "melds": [{"kind": m.kind, "size": m.size} for m in spec.contract.melds],
            "cards_needed": spec.contract.cards_needed, "deal": spec.deal,
            "no_discard": spec.contract.no_discard}


def family_json(fam: Family) -> dict[str, Any]:
    base = resolve(fam.id)
    return {
        "id": fam.id,
        "name": fam.name,
        "players": {"min": fam.players[0], "max": fam.players[1], "ideal": list(fam.ideal)},
        "decks": [{"players": list(d.players), "decks": d.decks, "jokers": d.jokers,
                   "jokers_range": list(d.jokers_range)} for d in fam.deck_rules],
        "hands": [contract_json(base, h.number) for h in base.hands],
        "contracts": {str(n): {"notation": c, "deal": d} for n, (c, d) in fam.contracts.items()},
        "hand_lists": {str(k): list(v) for k, v in fam.hand_lists.items()},
        "penalties": fam.penalties,
        "tie_break": list(fam.tie_break),
        "deal_order": {"cut": fam.cut, "first_player": fam.first_player, "first_dealer": fam.first_dealer},
        "buying": {"when": fam.buy_when},
        "options": fam.defaults,
        "variants": [{"id": v.id, "name": gettext(v.name), "help": gettext(v.help), "options": v.options}
                     for v in fam.variants],
        "not_stated_in_source": sorted(fam.silent),
        "facts": facts(fam),
        "rules_url": url_for("pages.rules_page", family=fam.id),
    }


# ------------------------------------------------------------------------------------------------ routes
@bp.get("/rulesets")
def rulesets() -> Response:
    return jsonify({
        "rulesets": [family_json(f) for f in FAMILIES.values()],
        "options": {o.name: {"type": o.kind, "help": gettext(o.help), "rule": o.rule,
                             "choices": list(o.choices) or None,
                             "range": [o.minimum, o.maximum] if o.kind in ("int", "int_or_null") else None,
                             "most": o.maximum if o.kind in ("ranks", "contracts") else None}
                    for o in OPTIONS.values()},
    })


@bp.post("/check")
@public.ruling
@with_lang
def check(data: dict[str, Any]) -> Response:
    rules = rules_from(data)
    hand = int_field(data, "hand")
    assert hand is not None
    raw = need(data, "melds")
    if not isinstance(raw, list):
        raise Refusal("wrong_type", "melds", expected=N_("a list of melds"))
    if len(raw) > 8:
        raise Refusal("too_many", "melds", maximum=8)
    melds = [cards_field(m, f"melds[{i}]", maximum=20) for i, m in enumerate(raw)]
    cards_left = int_field(data, "cards_left", required=False)
    if cards_left is not None and cards_left < 0:
        raise Refusal("wrong_type", "cards_left", expected=N_("a whole number, 0 or more"))
    verdict = contracts.check(rules, hand, melds, cards_left)
    return jsonify({
        "valid": verdict.valid,
        "contract": contract_json(rules, hand),
        "melds": [meld_json(m) for m in verdict.melds],
        "violations": [violation_json(rules, v) for v in verdict.violations],
        "rules": rules_json(rules, verdict.rules),
    })


@bp.post("/layoff")
@public.ruling
@with_lang
def layoff(data: dict[str, Any]) -> Response:
    rules = rules_from(data)
    meld = cards_field(need(data, "meld"), "meld", maximum=20)
    cards = cards_field(need(data, "cards"), "cards", maximum=20)
    ruling = table.layoff(rules, meld, cards, bool_field(data, "down", True), bool_field(data, "same_turn", False),
                          kind_field(data))
    return jsonify({
        "valid": ruling.valid,
        "meld": [str(c) for c in ruling.meld.cards],
        "kind": ruling.meld.kind,
        "placed": [{"card": str(c), "end": where} for c, where in ruling.placed],
        "violations": [violation_json(rules, v) for v in ruling.violations],
        "rules": rules_json(rules, ruling.rules),
    })


@bp.post("/swap")
@public.ruling
@with_lang
def swap(data: dict[str, Any]) -> Response:
    rules = rules_from(data)
    meld = cards_field(need(data, "meld"), "meld", maximum=20)
    card = cards_field([need(data, "card")], "card")[0]
    ruling = table.swap(rules, meld, card, kind_field(data), bool_field(data, "down", False))
    return jsonify({
        "valid": ruling.valid,
        "represents": [{"card": str(c), "as": a} for c, a in ruling.represents],
        "meld": [str(c) for c in ruling.meld.cards] if ruling.meld is not None and ruling.valid else None,
        "violations": [violation_json(rules, v) for v in ruling.violations],
        "rules": rules_json(rules, ruling.rules),
    })


@bp.post("/arrange")
@public.ruling
@with_lang
def arrange(data: dict[str, Any]) -> Response:
    rules = rules_from(data)
    hand = int_field(data, "hand")
    assert hand is not None
    cards = cards_field(need(data, "cards"), "cards", maximum=arrange_mod.MAX_CARDS)
    result = arrange_mod.arrange(rules, hand, cards)
    return jsonify({
        "possible": result.possible,  # null: the search ran out of its budget and cannot say
        "decided": result.decided,
        "search_exhausted": result.exhausted,
        "note": error_text("search_exhausted") if result.exhausted else None,
        "contract": contract_json(rules, hand),
        "melds": [[str(c) for c in m] for m in result.melds],
        "kinds": result.kinds,
        "unused": [str(c) for c in result.unused],
        "cards_left": len(result.unused),
        "missing": result.missing,
        "needs": result.needs,
        "needs_natural": result.needs_natural,
        "violations": [violation_json(rules, v) for v in result.violations],
        "rules": rules_json(rules, result.rules),
    })


@bp.post("/penalty")
@public.ruling
@with_lang
def penalty(data: dict[str, Any]) -> Response:
    rules = rules_from(data)
    cards = cards_field(need(data, "cards"), "cards", maximum=200)
    return jsonify({"penalty": scoring.penalty(rules, cards),
                    "cards": [{"card": str(c), "points": p} for c, p in scoring.card_points(rules, cards)]})


@bp.post("/buy")
@public.ruling
@with_lang
def buy(data: dict[str, Any]) -> Response:
    rules = rules_from(data)
    seats = need(data, "seats")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats) or len(seats) > 20:
        raise Refusal("wrong_type", "seats", expected=N_("a list of names"))
    current = need(data, "current")
    if not isinstance(current, str):
        raise Refusal("wrong_type", "current", expected=N_("a name"))
    callers = need(data, "callers")
    if not isinstance(callers, list) or not all(isinstance(s, str) for s in callers):
        raise Refusal("wrong_type", "callers", expected=N_("a list of names"))
    used = data.get("buys_used") or {}
    if not isinstance(used, dict):
        raise Refusal("wrong_type", "buys_used", expected=N_("an object of names and numbers"))
    ruling = table.buy(rules, seats, current, callers, used, bool_field(data, "shanghai", False))
    return jsonify({
        "winner": ruling.winner,
        "penalty_card": ruling.penalty_card,
        "reason": error_text(ruling.reason, ruling.params),
        "reason_code": ruling.reason,
        "rule": table_rule(ruling.reason),
        "rule_url": rule_url(rules, table_rule(ruling.reason)),
        "buys_left": ruling.buys_left,
        "rules": rules_json(rules, ruling.rules),
    })


def table_rule(code: str) -> str:
    return CODES[code].rule
