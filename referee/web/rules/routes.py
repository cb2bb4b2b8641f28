"""Pages: home, health, and the rules reference (one page per family, the comparison, search)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from babel import Locale
from flask import Blueprint, Response, abort, current_app, render_template, request, send_from_directory
from flask_babel import format_decimal, gettext, ngettext, pgettext
from markupsafe import Markup, escape

from ... import rulebook
from ...families import FAMILIES, OPTIONS, Contract, Family, facts, resolve
from ...i18n import N_
from ..i18n import lang, rank_letters

bp = Blueprint("pages", __name__)


@bp.get("/healthz")
def healthz() -> Response:
    return Response("ok\n", mimetype="text/plain")


def _root_file(name: str, mimetype: str) -> Response:
    """A static file served from the site's root (the manifest, the service worker, the icon browsers ask for)."""
    resp = send_from_directory(current_app.static_folder, name, mimetype=mimetype)  # type: ignore[arg-type]
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    return _root_file("manifest.webmanifest", "application/manifest+json")


@bp.get("/sw.js")
def service_worker() -> Response:
    """At the root so that its scope is the whole site."""
    return _root_file("sw.js", "text/javascript")


@bp.get("/favicon.ico")
def favicon() -> Response:
    return _root_file("icons/icon-192.png", "image/png")


@bp.get("/")
def index() -> str:
    return render_template("index.html", families=list(FAMILIES.values()))


# ------------------------------------------------------------------------------------------- words of data
_MELD_WORDS = {  # (kind, how many) -> words; the count is spelled out, the size stays a figure
    ("set", 1): N_("a set of %(size)s"), ("set", 2): N_("two sets of %(size)s"),
    ("set", 3): N_("three sets of %(size)s"), ("set", 4): N_("four sets of %(size)s"),
    ("run", 1): N_("a run of %(size)s"), ("run", 2): N_("two runs of %(size)s"),
    ("run", 3): N_("three runs of %(size)s"), ("run", 4): N_("four runs of %(size)s"),
}


def contract_words(contract: Contract) -> str:
    """``S3 S3 R4`` → "two sets of 3 and a run of 4", in the reader's language."""
    return melds_words([(m.kind, m.size) for m in contract.melds])


def melds_words(melds: list[tuple[str | None, int]]) -> str:
    """Melds by kind and size in words, in the reader's language: a contract, or what some melds make (a kind of
    ``None``: a meld that is neither a set nor a run)."""
    groups: dict[tuple[str, int], int] = {}
    unreadable = 0
    for kind, size in melds:
        if kind is None:
            unreadable += 1
        else:
            groups[(kind, size)] = groups.get((kind, size), 0) + 1
    parts = [gettext(_MELD_WORDS[(kind, n)], size=size) if (kind, n) in _MELD_WORDS else
             gettext(N_("%(count)s sets of %(size)s") if kind == "set" else N_("%(count)s runs of %(size)s"),
                     count=n, size=size)
             for (kind, size), n in groups.items()]
    if unreadable:
        parts.append(ngettext("%(num)s meld that is neither a set nor a run",
                              "%(num)s melds that are neither a set nor a run", unreadable))
    if not parts:
        return gettext("no melds")
    if len(parts) == 1:
        return parts[0]
    return gettext("%(first)s and %(last)s", first=", ".join(parts[:-1]), last=parts[-1])


def notation_words(notation: str) -> str:
    """Melds in the engine's notation (``S3 R4``; ``?5`` for a meld that is neither) in words."""
    melds: list[tuple[str | None, int]] = []
    for token in notation.split():
        kind = {"S": "set", "R": "run"}.get(token[:1])
        melds.append((kind, int(token[1:]) if token[1:].isdigit() else 0))
    return melds_words(melds)


@lru_cache(maxsize=None)
def _rule_titles(family: str, language: str) -> dict[str, str]:
    return {h.anchor: h.title for h in rulebook.headings(rulebook.source(family, language))}


def rule_title(family: str, anchor: str) -> str:
    """The heading of a rule on the family's page, in the reader's language."""
    return _rule_titles(family, lang()).get(anchor, anchor)


def contract_shorthand(contract: Contract) -> str:
    """The Liverpool document's score-sheet shorthand, one letter per meld in the reader's language (G-G, E7):
    a meld's size is written only where it is longer than the smallest set or run."""
    letters = []
    for m in contract.melds:
        letter = pgettext("shorthand letter for a set", "S") if m.kind == "set" else \
            pgettext("shorthand letter for a run", "R")
        smallest = 3 if m.kind == "set" else 4
        letters.append(letter + (str(m.size) if m.size > smallest else ""))
    return "-".join(letters)


def _deal_words(fam: Family) -> str:
    deals = [h.deal for h in resolve(fam.id).hands]
    small, large = min(deals), max(deals)
    if small == large:
        return gettext("%(n)s in every hand", n=small)
    return gettext("%(small)s in hands 1 to %(last)s, then %(large)s", small=small, last=deals.index(large),
                   large=large)


def _by_players(fam: Family, what: str) -> str:
    return "; ".join(gettext("%(n)s for %(players)s players", n=getattr(d, what), players=_span(*d.players))
                     for d in fam.deck_rules)


def option_value(name: str, value: Any, fam: Family | None = None) -> str:
    """An option's value in words. An empty value means "the family's own": with ``fam`` given, it is shown."""
    if value is None:
        fixed = {"buy_limit": gettext("no limit"), "run_max_wilds_per_4": gettext("no limit"),
                 "first_hand_size": gettext("as in the other hands"), "wild_rank_points": gettext("its own value")}
        if name in fixed:
            return fixed[name]
        if fam is None:
            return {"contracts": gettext("the family's contracts")}.get(name, gettext("the family's"))
        if name == "contracts":
            return gettext("the %(family)s contracts", family=fam.name)
        if name == "joker_points":
            return format_decimal(fam.penalties["JK"])
        if name == "hand_size":
            return _deal_words(fam)
        if name in ("decks", "jokers"):
            return _by_players(fam, name)
        if name == "final_run":
            return gettext("a run of %(size)s", size=fam.contracts[fam.no_discard_contract][0].lstrip("R"))
        return gettext("the family's")
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, list):
        if name == "contracts":
            return "; ".join(contract_words(Contract.parse(v)) for v in value)
        return ", ".join(gettext("Jokers") if v == "JK" else rank_letters(v) if len(v) == 1 else v for v in value)
    if isinstance(value, int):
        if value == 0 and name in ("buy_limit", "exact_cut_bonus"):
            return gettext("no buying") if name == "buy_limit" else gettext("no bonus")
        return format_decimal(value)
    return {"either": gettext("low or high"), "low": gettext("low only"), "high": gettext("high only"),
            "reshuffle": gettext("reshuffle the discards"), "end_hand": gettext("end the hand")}.get(
        str(value), str(value))


OPTION_LABELS = {
    "ace": N_('Aces in runs'),
    "wild_ranks": N_('Wild cards'),
    "set_min_naturals": N_('Natural cards in a set'),
    "run_max_wilds_per_4": N_('Wild cards per four in a run'),
    "second_wild_needs_fixed_position": N_('Second wild card only where fixed'),
    "contract_extra_cards": N_('Extra cards in contract melds'),
    "lay_off_same_turn": N_('Lay off in the turn you go down'),
    "joker_swap": N_('Joker swap'),
    "buy_limit": N_('Buys per hand'),
    "stock_exhausted": N_('When the stock runs out'),
    "hands": N_('Hands'),
    "decks": N_('Decks'),
    "jokers": N_('Jokers'),
    "hand_size": N_('Cards in every hand'),
    "first_hand_size": N_('Cards in the first hand'),
    "final_run": N_('Final run length'),
    "contracts": N_('Custom contracts'),
    "joker_points": N_('Joker penalty'),
    "wild_rank_points": N_('Wild rank card penalty'),
    "exact_cut_bonus": N_('Exact-cut bonus'),
    "may_i": N_('Ask "May I?" to buy'),
    "shanghai_block": N_('Shanghai call'),
}


def option_label(name: str) -> str:
    return gettext(OPTION_LABELS[name])


# ------------------------------------------------------------------------------------------- rules pages
def family_or_404(fid: str) -> Family:
    fam = FAMILIES.get(fid)
    if fam is None:
        abort(404)
    return fam


def render_rules(fam: Family, language: str) -> tuple[str, str, list[rulebook.Heading]]:
    text = rulebook.options_as_placeholders(rulebook.source(fam.id, language), OPTIONS)
    data = facts(fam)
    rules = resolve(fam.id)

    def fact(name: str) -> str:
        if name not in data:
            raise rulebook.RulebookError(f"{fam.id} has no fact {name}")
        return str(format_decimal(data[name]))

    def contract(n: int) -> str:
        if n not in fam.contracts:
            raise rulebook.RulebookError(f"{fam.id} has no contract {n}")
        return contract_words(Contract.parse(fam.contracts[n][0]))

    def table(name: str) -> str:
        return render_template(f"rules/table_{name}.html", fam=fam, rules=rules, families=FAMILIES,
                               contract_words=contract_words, contract_shorthand=contract_shorthand,
                               option_value=option_value, option_label=option_label, options=OPTIONS)

    def option(name: str) -> str:
        if name not in OPTIONS:
            raise rulebook.RulebookError(f"no option {name}")
        return f"*{option_label(name)}*"

    filled = rulebook.fill(text, fact, contract, table, option)
    html = rulebook.to_html(filled)
    return rulebook.title(text), html, rulebook.headings(text)


@bp.get("/rules")
def rules_index() -> str:
    return render_template("rules/index.html", families=list(FAMILIES.values()),
                           titles={f.id: rulebook.title(rulebook.source(f.id, lang())) for f in FAMILIES.values()})


@bp.get("/rules/<family>")
def rules_page(family: str) -> str:
    fam = family_or_404(family)
    title, html, heads = render_rules(fam, lang())
    return render_template("rules/page.html", fam=fam, title=title, body=Markup(html),
                           toc=[h for h in heads if h.level == 2], source_languages=_language_list(fam))


def _language_list(fam: Family) -> str:
    """The languages of the family's document, in the reader's language ("Spanish, Portuguese and German")."""
    names = [Locale.parse(lang()).languages.get(code, code) for code in fam.source_languages]
    return names[0] if len(names) == 1 else gettext("%(first)s and %(last)s", first=", ".join(names[:-1]),
                                                    last=names[-1])


def comparison_rows() -> list[dict[str, Any]]:
    """Every fact the families may differ in, with a flag where they do and a mark where the app chose: a
    value no document states, or one its document leaves to the table."""
    fams = list(FAMILIES.values())
    base = {f.id: resolve(f.id) for f in fams}
    rows: list[dict[str, Any]] = []

    def row(label: str, values: dict[str, str], silent: str | None = None) -> None:
        rows.append({"label": label, "values": values, "differs": len(set(values.values())) > 1,
                     "silent": {f.id: bool(silent and silent in f.silent and values[f.id] != "—") for f in fams}})

    row(gettext("Players"), {f.id: _span(*f.players) for f in fams})
    row(gettext("Ideal number of players"), {f.id: _span(*f.ideal) for f in fams})
    row(gettext("Decks and jokers"), {f.id: "; ".join(
        gettext("%(players)s players: %(decks)s decks + %(jokers)s jokers", players=_span(*d.players),
                decks=d.decks, jokers=_span(*d.jokers_range))
        for d in f.deck_rules) for f in fams})
    row(gettext("Hands in a game"), {f.id: _hands_words(f) for f in fams})
    longest = max(len(r.hands) for r in base.values())
    for n in range(1, longest + 1):
        row(gettext("Hand %(n)s", n=n), {
            f.id: (gettext("%(contract)s; %(deal)s cards", contract=contract_words(base[f.id].hand(n).contract),
                           deal=base[f.id].hand(n).deal) +
                   (" — " + gettext("no final discard") if base[f.id].hand(n).contract.no_discard else ""))
            if n <= len(base[f.id].hands) else "—" for f in fams})
    for n in (8, 9):
        row(gettext("Extra hand %(n)s", n=n), {
            f.id: (gettext("%(contract)s; %(deal)s cards", contract=contract_words(Contract.parse(f.contracts[n][0])),
                           deal=f.contracts[n][1]) if n in f.contracts else "—") for f in fams},
            silent="extra_hand_deal")
    for symbol, label in (("A", gettext("Penalty: ace")),
                          ("K", gettext("Penalty: %(letters)s", letters=rank_letters("KQJ"))),
                          ("10", gettext("Penalty: 10")), ("JK", gettext("Penalty: joker"))):
        row(label, {f.id: str(f.penalties[symbol]) for f in fams})
    row(gettext("Penalty: 2–9"), {f.id: (str(f.penalties["2"]) if len({f.penalties[str(v)] for v in range(2, 10)}) == 1
                                        else gettext("face value")) for f in fams})
    shown_apart = ("decks", "jokers", "contracts", "hands", "hand_size", "joker_points")
    for name in OPTIONS:
        if all(name in f.defaults for f in fams) and name not in shown_apart:
            row(option_label(name), {f.id: option_value(name, f.defaults[name], f) for f in fams}, silent=name)
    tie = {"last_hand": gettext("lowest score in the last hand"), "replay": gettext("replay the last hand"),
           "shared": gettext("shared win")}
    row(gettext("Ties"), {f.id: ", ".join(tie[s] for s in f.tie_break) for f in fams}, silent="tie_break")
    side = {"left": gettext("left of the dealer"), "right": gettext("right of the dealer")}
    row(gettext("Who cuts"), {f.id: side[f.cut] for f in fams}, silent="cut")
    row(gettext("Who plays first"), {f.id: side[f.first_player] for f in fams}, silent="first_player")
    row(gettext("First dealer"), {f.id: {"agreed": gettext("anyone the players choose"),
                                         "highest_card": gettext("highest card")}[f.first_dealer] for f in fams},
        silent="first_dealer")
    when = {"declined": gettext("when the player in turn declines the top discard"),
            "out_of_turn": gettext("any time out of turn; the player in turn has first option"),
            "stock_drawn": gettext("when the player in turn draws from the stock instead")}
    row(gettext("When a discard can be bought"), {f.id: when[f.buy_when] for f in fams})
    who = {"nearest": gettext("the caller nearest to the player in turn, clockwise"),
           "turn_then_nearest": gettext("the player in turn; then the caller nearest in turn order"),
           "turn_free_then_nearest": gettext("the player in turn, without a penalty card; then the caller nearest "
                                             "in turn order")}
    row(gettext("Who gets a discard several players want"), {f.id: who[f.buy_priority] for f in fams},
        silent="buy_priority")
    row(gettext("Variants"), {f.id: ", ".join(_variant_words(f, v) for v in f.variants) for f in fams})
    return rows


def _hands_words(fam: Family) -> str:
    default = fam.defaults["hands"]
    others = [n for n in sorted(fam.hand_lists) if n != default]
    if not others:
        return str(default)
    return gettext("%(n)s (variants: %(others)s)", n=default, others=", ".join(map(str, others)))


def _variant_words(fam: Family, v: Any) -> str:
    name = gettext(v.name)
    if v.named_by:
        return gettext("%(variant)s (named in the %(family)s document)", variant=name,
                       family=FAMILIES[v.named_by].name)
    return name + (" *" if not v.stated else "")


def _span(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


@bp.get("/rules/compare")
def compare() -> str:
    fams = list(FAMILIES.values())
    return render_template("rules/compare.html", families=fams, rows=comparison_rows())


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))


@lru_cache(maxsize=64)
def _sections(family: str, language: str) -> list[tuple[str, str, str]]:
    """(anchor, heading, plain text) of each part of a rules page."""
    _, html, _ = render_rules(FAMILIES[family], language)
    parts = re.split(r'(<h[23] id="([a-z0-9-]+)">(.*?)</h[23]>)', html)
    out = []
    i = 1
    while i < len(parts):
        anchor, heading = parts[i + 1], rulebook.plain(parts[i + 2])
        body = rulebook.plain(parts[i + 3]) if i + 3 < len(parts) else ""
        out.append((anchor, heading, body))
        i += 4
    return out


@bp.get("/rules/search")
def search() -> str:
    q = (request.args.get("q") or "").strip()[:100]
    results = []
    if len(q) >= 2:
        needle = _fold(q)
        for fam in FAMILIES.values():
            for anchor, heading, text in _sections(fam.id, lang()):
                hay = _fold(heading + " " + text)
                at = hay.find(needle)
                if at < 0:
                    continue
                folded_body = _fold(text)
                pos = max(0, folded_body.find(needle))
                start = max(0, pos - 60)
                snippet = text[start:pos + len(q) + 80]
                results.append({"family": fam, "anchor": anchor, "heading": heading,
                                "snippet": _mark(snippet, q), "lead": start > 0})
    return render_template("rules/search.html", q=q, results=results)


def _mark(snippet: str, q: str) -> Markup:
    folded = _fold(snippet)
    needle = _fold(q)
    at = folded.find(needle)
    if at < 0 or len(folded) != len(snippet):
        return escape(snippet)
    return escape(snippet[:at]) + Markup("<mark>") + escape(snippet[at:at + len(q)]) + Markup("</mark>") + \
        escape(snippet[at + len(q):])
