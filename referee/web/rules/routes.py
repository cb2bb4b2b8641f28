"""Pages: home, health, and the rules reference (one page per family, the comparison, search)."""

from __future__ import annotations

import json
import re
from contextlib import nullcontext
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel import Locale
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from markupsafe import Markup, escape

from ... import rulebook
from ...families import FAMILIES, OPTIONS, Contract, Family, facts, resolve
from ...search import Doc, Index
from .. import assets
from ..i18n import gettext, in_language, lang, language_names, number, rank_letters
from ..words import contract_shorthand, contract_words, in_a_list, option_label, option_value, span
from .forms import SearchForm

bp = Blueprint("pages", __name__)


def rule_url(family: str, anchor: str, **query: Any) -> str:
    """The link to one rule of a family's rules page; every rule link is built here (templates through the
    ``rule_link`` macro of ``_rule.html``)."""
    return url_for("pages.rules_page", family=family, **query) + "#" + anchor


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
@bp.get("/manifest/<code>.webmanifest")
def manifest(code: str | None = None) -> Response:
    """The installed app's manifest in the reader's language (its name under the icon, its description): the
    language in the path, as the pages link it (a browser fetches a manifest without cookies), else the one the
    request asks for. Colours and icons are the static file's."""
    if code is not None and code not in current_app.config["LANGUAGES"]:
        abort(404)
    with in_language(code) if code else nullcontext():
        data = {**_manifest_base(), "lang": code or lang(), "name": gettext("Rummy companion"),
                "short_name": gettext("Rummy"),
                "description": gettext("Scoreboard, referee and rules for Liverpool, Progressive and Contract "
                                       "rummy.")}
    resp = Response(json.dumps(data, ensure_ascii=False, indent=2), mimetype="application/manifest+json")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@lru_cache(maxsize=1)
def _manifest_base() -> dict[str, Any]:
    return json.loads((Path(current_app.static_folder or "") / "manifest.webmanifest").read_text(encoding="utf-8"))


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
    return _root_file("icons/icon-32.png", "image/png")


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
    def tie(f: Family, step: str) -> str:
        return {"tie_hand": gettext("lowest score in hand %(n)s", n=base[f.id].tie_hand),
                "replay": gettext("replay the last hand"), "shared": gettext("shared win")}[step]

    row(gettext("Ties"), {f.id: _one_then_another([tie(f, s) for s in f.tie_break]) for f in fams}, silent="tie_break")
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
    # one name, different games ("May I?", "Shanghai"): each said with what it changes in its family
    changes: dict[str, set[str]] = {}
    for f in fams:
        for v in f.variants:
            changes.setdefault(v.name, set()).add(repr(sorted(v.options.items())))
    ambiguous = {name for name, kinds in changes.items() if len(kinds) > 1}
    row(gettext("Variants"), {f.id: "; ".join(_variant_words(f, v, v.name in ambiguous) for v in f.variants)
                              for f in fams})
    return rows


def _hands_words(fam: Family) -> str:
    default = fam.defaults["hands"]
    others = [n for n in sorted(fam.hand_lists) if n != default]
    if not others:
        return str(default)
    return gettext("%(n)s (variants: %(others)s)", n=default, others=", ".join(map(str, others)))


def _variant_words(fam: Family, v: Any, explained: bool = False) -> str:
    name = gettext(v.name)
    if explained:  # (a name other families give to another variant)
        name = gettext("%(variant)s (%(what)s)", variant=name, what=gettext(v.help).rstrip("."))
    if v.named_by:
        return gettext("%(variant)s (named in the %(family)s document)", variant=name,
                       family=FAMILIES[v.named_by].name)
    return name + (" *" if not v.stated else "")


@bp.get("/rules/compare")
def compare() -> str:
    fams = list(FAMILIES.values())
    return render_template("rules/compare.html", families=fams, rows=comparison_rows())


def _searchable(text: str) -> str:
    """Text as a reader types and reads it: without the soft hyphens that let long words break in a table, and
    without the house-rule table's "§" links."""
    return re.sub(r"\s§(?=\s|$)", "", text.replace("\u00ad", ""))


@lru_cache(maxsize=64)
def _page_html(family: str, language: str) -> str:
    """A rules page's text as HTML, in ``language`` (for the search: the reader's language is not asked)."""
    with in_language(language):
        return render_rules(FAMILIES[family], language)[1]


def _sections(family: str, language: str) -> list[tuple[str, str, str]]:
    """(anchor, heading, plain text) of each part of a rules page."""
    html = _page_html(family, language)
    parts = re.split(r'(<h[23] id="([a-z0-9-]+)">(.*?)</h[23]>)', html)
    out = []
    i = 1
    while i < len(parts):
        anchor, heading = parts[i + 1], _searchable(rulebook.plain(parts[i + 2]))
        body = _searchable(rulebook.plain(parts[i + 3])) if i + 3 < len(parts) else ""
        out.append((anchor, heading, body))
        i += 4
    return out


def _glossary(family: str, language: str) -> list[tuple[str, str]]:
    """(term, definition) of each entry of a rules page's glossary: each is a search result of its own."""
    html = _page_html(family, language)
    at = html.find('id="glossary"')
    if at < 0:
        return []
    out = []
    for item in re.findall(r"<li>(.*?)</li>", html[at:], re.S):
        term = re.match(r"\s*<strong>(.*?)</strong>", item, re.S)
        text = _searchable(rulebook.plain(item))
        out.append((_searchable(rulebook.plain(term.group(1))).rstrip(": ") if term else text[:40], text))
    return out


GLOSSARY_WEIGHT = 0.6  # a glossary entry names a thing; the rule about it is the better answer


@lru_cache(maxsize=None)
def search_index(language: str) -> Index:
    """One language's rules pages, every family's sections and glossary entries, ready to search: built once a
    process (the first search in that language), in that language whatever the reader's."""
    docs = []
    with in_language(language):
        glossary = gettext("Glossary")
        for fam in FAMILIES.values():
            for anchor, heading, text in _sections(fam.id, language):
                if anchor != "glossary":
                    docs.append(Doc(fam.id, anchor, heading, text))
            docs += [Doc(fam.id, "glossary", f"{glossary}: {term}", text, GLOSSARY_WEIGHT)
                     for term, text in _glossary(fam.id, language)]
    return Index(language, docs)


@bp.get("/rules/search")
def search() -> str:
    q = SearchForm(formdata=request.args).q.data or ""
    results: list[dict[str, Any]] = []
    elsewhere = False
    if len(q) >= 2:
        reader = lang()
        hits = [(reader, h) for h in search_index(reader).search(q)]
        if not hits:  # nothing in the reader's language: the other languages' pages, said as such
            elsewhere = True
            for other in current_app.config["LANGUAGES"]:
                if other != reader:
                    hits += [(other, h) for h in search_index(other).search(q, limit=5)]
            hits.sort(key=lambda lh: -lh[1].score)
        names = language_names()
        for language, h in hits:
            results.append({"family": FAMILIES[h.doc.family], "anchor": h.doc.anchor, "heading": h.doc.heading,
                            "snippet": _marked(h.snippet), "lead": h.lead,
                            "url": rule_url(h.doc.family, h.doc.anchor, **({} if language == reader else
                                                                            {"lang": language})),
                            "code": language,
                            "language": None if language == reader else names.get(language, language)})
    return render_template("rules/search.html", q=q, results=results, elsewhere=elsewhere)


def _marked(parts: list[tuple[str, bool]]) -> Markup:
    """A snippet with the question's words marked."""
    return Markup("").join(Markup("<mark>%s</mark>") % text if marked else escape(text) for text, marked in parts)
