"""Pages: home, health, and the rules reference (one page per family, the comparison, search)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from babel import Locale
from flask import Blueprint, Response, abort, current_app, render_template, request, send_from_directory
from markupsafe import Markup, escape

from ... import rulebook
from ...families import FAMILIES, OPTIONS, Contract, Family, facts, resolve
from .. import assets
from ..i18n import gettext, in_language, lang, number, rank_letters
from ..urls import kept_url
from ..words import contract_shorthand, contract_words, in_a_list, option_label, option_value, span
from .forms import SearchForm

bp = Blueprint("pages", __name__)


def rule_url(family: str, anchor: str, **query: Any) -> str:
    """The link to one rule of a family's rules page; every rule link is built here (templates through the
    ``rule_link`` macro of ``_rule.html``). A verdict cites several rules and the same few links come again and
    again (``urls.kept_url``)."""
    return kept_url("pages.rules_page", family=family, **query) + "#" + anchor


@lru_cache(maxsize=None)
def _rule_titles(family: str, language: str) -> dict[str, str]:
    return {h.anchor: h.title for h in rulebook.headings(rulebook.source(family, language))}


def rule_title(family: str, anchor: str) -> str:
    """The heading of a rule on the family's page, in the reader's language."""
    return _rule_titles(family, lang()).get(anchor, anchor)


@bp.record_once
def _rule_links(state: Any) -> None:
    state.app.jinja_env.globals["rule_url"] = rule_url  # a global: macros imported without context see it


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
    """At the root so that its scope is the whole site; it names the versions of the files it keeps
    (``assets.service_worker_script``), so it changes whenever they do."""
    resp = Response(assets.service_worker_script(), mimetype="text/javascript")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/offline/<code>")
def offline(code: str) -> Response:
    """What the service worker shows for a page this phone never opened, when there is no connection: it keeps
    this page in each language when it installs (``assets.service_worker_script``). The language is in the
    path, not ``?lang=``, which the reader's choice is remembered from: the worker fetching all four must not
    choose for the reader."""
    if code not in current_app.config["LANGUAGES"]:
        abort(404)
    with in_language(code):
        resp = Response(render_template("offline.html"), mimetype="text/html")
    resp.headers["Content-Language"] = code
    return resp


@bp.get("/favicon.ico")
def favicon() -> Response:
    return _root_file("icons/icon-192.png", "image/png")


@bp.get("/")
def index() -> str:
    return render_template("index.html", families=list(FAMILIES.values()))


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
        return number(data[name])

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


def _one_then_another(steps: list[str]) -> str:
    """Steps taken one after the other while the first leaves the question open ("…, else …")."""
    text = steps[-1]
    for step in reversed(steps[:-1]):
        text = gettext("%(first)s, else %(then)s", first=step, then=text)
    return text


def _language_list(fam: Family) -> str:
    """The languages of the family's document, in the reader's language ("Spanish, Portuguese and German")."""
    names = [Locale.parse(lang()).languages.get(code, code) for code in fam.source_languages]
    return in_a_list(names)


def comparison_rows() -> list[dict[str, Any]]:
    """Every fact the families may differ in, with a flag where they do and a mark where the app chose: a
    value no document states, or one its document leaves to the table."""
    fams = list(FAMILIES.values())
    base = {f.id: resolve(f.id) for f in fams}
    rows: list[dict[str, Any]] = []

    def row(label: str, values: dict[str, str], silent: str | None = None) -> None:
        rows.append({"label": label, "values": values, "differs": len(set(values.values())) > 1,
                     "silent": {f.id: bool(silent and silent in f.silent and values[f.id] != "—") for f in fams}})

    row(gettext("Players"), {f.id: span(*f.players) for f in fams})
    row(gettext("Ideal number of players"), {f.id: span(*f.ideal) for f in fams})
    row(gettext("Decks and jokers"), {f.id: "; ".join(
        gettext("%(players)s players: %(decks)s decks + %(jokers)s jokers", players=span(*d.players),
                decks=d.decks, jokers=span(*d.jokers_range))
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
    row(gettext("Ties"), {f.id: _one_then_another([tie[s] for s in f.tie_break]) for f in fams}, silent="tie_break")
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


@bp.get("/rules/compare")
def compare() -> str:
    fams = list(FAMILIES.values())
    return render_template("rules/compare.html", families=fams, rows=comparison_rows())


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))


def _searchable(text: str) -> str:
    """Text as a reader types and reads it: without the soft hyphens that let long words break in a table, and
    without the house-rule table's "§" links."""
    return re.sub(r"\s§(?=\s|$)", "", text.replace("\u00ad", ""))


@lru_cache(maxsize=64)
def _sections(family: str, language: str) -> list[tuple[str, str, str]]:
    """(anchor, heading, plain text) of each part of a rules page."""
    _, html, _ = render_rules(FAMILIES[family], language)
    parts = re.split(r'(<h[23] id="([a-z0-9-]+)">(.*?)</h[23]>)', html)
    out = []
    i = 1
    while i < len(parts):
        anchor, heading = parts[i + 1], _searchable(rulebook.plain(parts[i + 2]))
        body = _searchable(rulebook.plain(parts[i + 3])) if i + 3 < len(parts) else ""
        out.append((anchor, heading, body))
        i += 4
    return out


@bp.get("/rules/search")
def search() -> str:
    q = SearchForm(formdata=request.args).q.data or ""
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
