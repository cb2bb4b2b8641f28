"""The scoreboard pages: start a game, play it hand by hand, correct it, share it, finish it.

Links: ``/g/<token>`` opens a game; the edit token changes it, the view token only shows it. Forms post and
redirect (so a reload never records twice); the board polls ``/g/<token>/board``, which answers 304 while
nothing changed.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup, escape
from werkzeug.wrappers import Response as BaseResponse

from ...cards import Rank
from ...errors import RefereeError
from ...families import FAMILIES, REFEREE, SETUP, preview
from ...i18n import N_
from ...scoring import Leftover
from ...table import buy_refused
from ...verdicts import CODES
from .. import ROOT, jsonio, public
from .. import options as house
from ..errors import Refusal, error_text, status_of
from ..i18n import gettext, lang, message, select_locale
from ..picker import leftovers_text, typed_leftovers
from ..rules.routes import rule_title, rule_url
from ..tokens import Links
from ..words import contract_words, in_a_list
from . import changes, create, gamestate, reads, seating, services, transfer
from .boards import FORM_MARK, LINK_MARK, Boards
from .forms import (
    BuyForm,
    DeleteForm,
    DownForm,
    ImportForm,
    RenameForm,
    SeatMoveForm,
    SetupForm,
    TokenForm,
    VersionForm,
    hand_form,
)

bp = Blueprint("games", __name__)

MY_GAMES = "my_games"


CHANGE_WORDS = {
    "created": N_("Game started"),
    "hand_recorded": N_("Hand %(hand)s recorded"),
    "hand_corrected": N_("Hand %(hand)s corrected"),
    "buy_added": N_("Buy for %(player)s in hand %(hand)s"),
    "buy_removed": N_("Buy taken back for %(player)s in hand %(hand)s"),
    "down_set": N_("%(player)s went down in hand %(hand)s"),
    "down_cleared": N_("%(player)s not down in hand %(hand)s"),
    "undo": N_("Undo"),
    "redo": N_("Redo"),
    "ended_early": N_("Game ended after hand %(hand)s"),
    "renamed": N_("%(old)s renamed %(new)s"),
    "seats_reordered": N_("Seat order: %(names)s"),
}
VIA_WORDS = {"edit link": N_("edit link"), "api": N_("API"), "import": N_("import")}


def game_error_text(e: RefereeError) -> str:
    return error_text(e.code, e.params)


# ------------------------------------------------------------------------------------------ my games
# the game a link opens (a page or a board only reads it); the games this device opened
links = Links(lambda token: reads.find(token, writing=request.method not in ("GET", "HEAD")), MY_GAMES)
load, edit_only = links.load, links.edit_only
remembered, remember, forget = links.remembered, links.remember, links.forget


@bp.get("/games")
def mine() -> str:
    rows = []
    for token in remembered():
        found = reads.find(token, writing=False)
        if found is None:
            continue
        game, can_edit = found
        st = gamestate.state(game)
        rows.append({"token": token, "can_edit": can_edit, "names": st.names, "family": FAMILIES[game.family].name,
                     "hand": st.current, "finished": st.finished, "updated": game.updated_at,
                     "ended_early": st.ended_early, "played": len(st.hands)})
    return render_template("games/mine.html", rows=rows)


@bp.post("/games/forget")
def forget_game() -> BaseResponse:
    form = TokenForm()
    resp = redirect(url_for("games.mine"))
    return forget(resp, form.token.data or "") if form.validate() else resp


# ------------------------------------------------------------------------------------------ new game
def default_names(n: int) -> list[str]:
    return [gettext("Player %(n)s", n=i + 1) for i in range(n)]


@bp.route("/new", methods=["GET", "POST"])
def new() -> Any:
    form = SetupForm() if request.method == "POST" else SetupForm(formdata=request.args)
    fam_id = form.family.data if form.family.data in FAMILIES else "liverpool"
    fam = FAMILIES[fam_id]
    rules_form = house.house_rules_form(SETUP, fam, request.form if request.method == "POST" else None)
    if request.method == "GET":
        names = default_names(fam.ideal[0])
        return render_template("games/new.html", **_setup_context(fam, names, [], rules_form, 0))
    # before anything else: never draw a thousand names (up to the most any family seats are kept, so a table
    # that switches family keeps every name typed and is told the new family's limit)
    most = max(f.players[1] for f in FAMILIES.values())
    if len(form.name.data) > most:
        names = form.name.data[:fam.players[1]]
        ctx = _setup_context(fam, names, form.variants.data, rules_form, 0)
        ctx["error"] = error_text("players_out_of_range", {"minimum": fam.players[0], "maximum": fam.players[1]})
        return render_template("games/new.html", **ctx), 422
    form.validate()  # each field is read as far as it can be; the engine refuses what the game cannot be
    names = list(form.name.data)
    action = form.action.data or "start"
    removed = form.removing()
    if action == "add" and len(names) < fam.players[1]:
        names.append(gettext("Player %(n)s", n=len(names) + 1))
    elif removed is not None and len(names) > 1 and removed < len(names):
        names.pop(removed)
    variants = list(form.variants.data)
    if form.first_dealer.errors:  # not a seat: refused by name when the game is started
        first_dealer = -1 if action == "start" else 0
    else:
        first_dealer = form.first_dealer.data or 0
    if action != "start":
        return render_template("games/new.html", **_setup_context(fam, names, variants, rules_form,
                                                                   min(first_dealer, max(0, len(names) - 1))))
    try:
        game, edit = create.create_game(fam_id, variants, rules_form.options(), names, first_dealer)
    except RefereeError as e:
        ctx = _setup_context(fam, names, variants, rules_form, first_dealer)
        ctx["error"] = game_error_text(e)
        return render_template("games/new.html", **ctx), 422
    resp = redirect(url_for("games.play", token=edit))
    return remember(resp, edit)


def _setup_context(fam: Any, names: list[str], variants: list[str], rules_form: house.HouseRulesForm,
                   first_dealer: int) -> dict[str, Any]:
    rules = preview(fam.id, variants, rules_form.options(), len(names))
    lo, hi = fam.players
    limit_note = None if lo <= len(names) <= hi else gettext(
        "%(family)s is for %(lo)s to %(hi)s players; this table has %(n)s.", family=fam.name, lo=lo, hi=hi,
        n=len(names))
    return dict(fam=fam, families=FAMILIES, names=names, variants=variants, house=rules_form, rules=rules,
                limit_note=limit_note, first_dealer=first_dealer, contract_words=contract_words, error=None)


# ------------------------------------------------------------------------------------------ playing
def etag_for(game_id: str, version: int, can_edit: bool) -> str:
    """What a board drawn now depends on: the game's version (every write bumps it, in the same transaction),
    the reader's language, the kind of link, and the templates and translations this server draws it with (so
    a phone never keeps a board drawn by an older release, nor one drawn by another server running other code)."""
    return f'W/"{game_id}-{version}-{select_locale()}-{int(can_edit)}-{_release()}"'


@lru_cache(maxsize=1)
def _release() -> str:
    """A short hash of everything a board is drawn from besides the game: the templates and the compiled
    translations (read once per process; a release restarts the servers)."""
    digest = hashlib.sha256()
    for folder, pattern in ((ROOT / "templates", "**/*.html"), (ROOT / "translations", "**/*.mo")):
        for path in sorted(folder.glob(pattern)):
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:8]


@bp.app_template_global()
def game_url(endpoint: str, token: str) -> str:
    """The address of one of a game's pages for a link's token (``games.<endpoint>``)."""
    return url_for("games." + endpoint, token=token)


def referee_url(game: Any, st: Any, mode: str = "check", **extra: str) -> str:
    """The referee preset to this game: its family, variants, house rules, hand, players and who is down."""
    pairs: list[tuple[str, Any]] = [("family", game.family), ("hand", st.current or len(st.rules.hands)),
                                    ("players", len(st.names))]
    pairs += [("variants", v) for v in game.variants]
    pairs += house.link_query(SETUP if mode == "table" else REFEREE, st.rules.family, game.options)
    if st.down:
        pairs.append(("gone_down", ", ".join(n for n in st.names if n in st.down)))
    pairs += list(extra.items())
    return url_for("referee.page", mode=mode) + "?" + urlencode(pairs)


def outcome_words(st: Any) -> dict[str, str]:
    """The end of a game in words: who won, and which step of the family's tie-break decided it (the engine's
    ``Result`` says which; these are its words)."""
    r = st.result
    if r is None:
        return {"headline": "", "why": ""}
    by = {s.player: s for s in r.standings}
    winners = in_a_list(list(r.winners))
    tied = in_a_list(list(r.tied))
    total = by[r.winners[0]].total
    last = ", ".join(f"{p} {by[p].tie_score}" for p in r.tied)
    n = r.tie_hand
    if len(r.winners) == 1:
        headline = gettext("%(name)s wins.", name=r.winners[0])
    elif r.decided_by == "shared":
        headline = gettext("%(names)s share the win.", names=winners)
    else:
        headline = gettext("Tie between %(names)s.", names=winners)
    if r.decided_by == "total":
        why = gettext("Lowest total: %(total)s points.", total=total)
    elif r.decided_by == "tie_hand":
        why = gettext("%(names)s tied on %(total)s points; the lowest score in hand %(n)s breaks the tie "
                      "(%(scores)s).", names=tied, total=total, scores=last, n=n)
    elif r.decided_by == "shared":
        why = gettext("%(names)s tied on %(total)s points and scored the same in hand %(n)s (%(scores)s): "
                      "under the %(family)s rules they share the win.", names=tied, total=total, scores=last,
                      family=st.rules.family.name, n=n)
        if st.ended_early and "replay" in st.rules.family.tie_break:
            why += " " + gettext("A game ended early is not replayed.")
    elif r.decided_by == "replay":
        why = gettext("%(names)s are still tied after hand %(n)s (%(total)s points; %(scores)s): replay the "
                      "last hand to decide.", names=tied, total=total, scores=last, n=n)
    else:  # "replayed"
        why = gettext("%(names)s tied on %(total)s points and in hand %(n)s; the replayed last hand decided.",
                      names=tied, total=total, n=n)
    return {"headline": headline, "why": why}


def board_context(game: Any, can_edit: bool, token: str) -> dict[str, Any]:
    st = gamestate.state(game)
    spec = st.rules.hand(st.current) if st.current else None
    points = {str(Leftover(r)): st.rules.rank_points(r) for r in (*Rank, None)}
    return dict(st=st, game=game, can_edit=can_edit, token=token, spec=spec, fam=st.rules.family,
                contract_words=contract_words, points=points, view_token=game.view_token,
                buy_limit=st.rules.buy_limit, history=lambda: drawn_history(st, can_edit, token), version=game.version,
                etag=etag_for(game.id, game.version, can_edit),
                last_change=changes.last_change(game) if can_edit else None, change_text=change_text,
                referee_url=lambda mode="check", **extra: referee_url(game, st, mode, **extra),
                outcome_words=outcome_words, redo_change=changes.redoable(game) if can_edit else None,
                cutter_of=lambda number: services.cutter_of(game, number))


def drawn_history(st: Any, can_edit: bool, token: str) -> Markup:
    """The board's hand-by-hand table and chart (``games/_history.html``), drawn once for each set of recorded
    hands and kept by this process: a buy or a player going down (most of a hand's changes) draws the board
    again, and these, about a sixth of the time a board takes to draw, stay as they were. The key holds all
    that the template reads, so what is kept is only ever the same text drawn again."""
    names = tuple(st.names)

    def scores(rows: Any) -> tuple[Any, ...]:
        return tuple((r.number, r.out, tuple(r.penalties.get(n) for n in names)) for r in rows)

    key = (lang(), request.script_root, can_edit, token if can_edit else "", len(st.rules.hands), names,
           scores(st.hands), scores(st.replays))
    kept: Boards = current_app.extensions["histories"]
    html = kept.get(key)
    if html is None:
        html = current_app.jinja_env.get_template("games/_history.html").render(
            st=st, can_edit=can_edit, token=token, chart=chart(st))
        kept.put(key, html)
    return Markup(html)


def board_fragment(game: Any, can_edit: bool, token: str, **extra: Any) -> str:
    """The board, and the links and undo under it (swapped out of band), as htmx re-draws them."""
    return render_template("games/_board_fragment.html", oob=True, **board_context(game, can_edit, token), **extra)


@bp.record_once
def _boards(state: Any) -> None:
    app = state.app
    app.extensions["boards"] = Boards(int(app.config.get("BOARD_CACHE_SIZE", 500)))
    app.extensions["histories"] = Boards(int(app.config.get("BOARD_CACHE_SIZE", 500)))


def drawn_board(token: str, tag: str, can_edit: bool) -> tuple[str, str]:
    """The board for a link, and its ETag (``tag``, read for the game's version now): as this process last drew
    it, else drawn now."""
    boards: Boards = current_app.extensions["boards"]
    html = boards.get(tag)
    if html is None:
        game, can_edit = load(token)
        # the tag of the board drawn, from the game row it is drawn from (a save may have come in between)
        tag = etag_for(game.id, game.version, can_edit)
        html = board_fragment(game, can_edit, LINK_MARK, csrf_token=lambda: FORM_MARK)
        boards.put(tag, html)
    html = html.replace(LINK_MARK, token)
    return (html.replace(FORM_MARK, generate_csrf()) if can_edit else html), tag


@bp.get("/g/<token>")
def play(token: str) -> BaseResponse:
    game, can_edit = load(token)
    ctx = board_context(game, can_edit, token)
    undone = changes.undone_hand(game, ctx["st"].current) if can_edit else None
    if undone is not None:  # the hand just undone: its entries are back in the form, to fix and save again
        ctx["entered"] = _snapshot_as_form(undone)
    resp = make_response(render_template("games/game.html", **ctx))
    resp.headers["Cache-Control"] = "no-store"
    return remember(resp, token)


@bp.get("/g/<token>/board")
def board(token: str) -> Response:
    """The part of the game screen that other phones change. Polled: while the game's version is the one the
    phone last saw, the answer is a 304 from one indexed query on the games table, before anything else is
    read or drawn (no session, no rules, no template)."""
    found = reads.version_of(token)
    if found is None:
        abort(404)
    game_id, version, can_edit = found
    tag = etag_for(game_id, version, can_edit)
    if tag in request.headers.get("If-None-Match", ""):
        return _board_headers(Response(status=304), tag)
    html, tag = drawn_board(token, tag, can_edit)
    return _board_headers(make_response(html), tag)


def _board_headers(resp: Response, tag: str) -> Response:
    """A board may be kept, but never shown again without asking (no-cache): each poll asks with its ETag. It is
    the reader's own (private): its forms hold the reader's session token, its links the game's token."""
    resp.headers.update({"ETag": tag, "Cache-Control": "no-cache, private",
                         "Vary": "Cookie, Accept-Language, Accept-Encoding"})
    return resp


def _entries(form: Any, players: Any) -> dict[int, services.Entry]:
    """Each seat's leftovers; cards in the reader's letters (de B, pt V) are read here, the services take the
    notation. A total that is not a number is refused naming the player."""
    names = [p.name for p in players]
    return {seat: services.entry(typed_leftovers(" ".join(cards), f"cards_{seat}"), total)
            for seat, (cards, total) in form.leftovers(names).items()}


def _hand_number(form: Any) -> int:
    if form.hand.errors or form.hand.data is None:
        raise Refusal("bad_hand", "hand")
    return int(form.hand.data)


@bp.post("/g/<token>/hand")
def record(token: str) -> Any:
    game = edit_only(token)
    form = hand_form(len(game.players))()
    form.validate()
    try:
        number = _hand_number(form)
        entries = _entries(form, game.players)
        hand = services.record_hand(game, number, form.out_seat(), entries, exact_cut=form.cut_was_exact,
                                    expected_version=_seen_version(form), request_id=form.request).hand
    except RefereeError as e:
        ctx = board_context(load(token)[0], True, token)  # (with its history: undo and redo)
        if e.code == "already_recorded":  # another phone saved this hand first: both entries are shown
            race = lost_race(ctx["game"], number, form)
            if race["same"]:
                flash(gettext("Hand %(hand)s was already saved by another phone, with the same scores.",
                              hand=number), "saved")
                return _to_game(token)
            ctx["race"] = race
            return render_template("games/game.html", **ctx), status_of(e)
        ctx.update(error=game_error_text(e), error_field=e.field, entered=form.typed(),
                   buy_hint=_buy_hint(ctx["st"], e))
        return render_template("games/game.html", **ctx), status_of(e)
    names = [p.name for p in game.players]
    flash(gettext("Hand %(hand)s saved: %(list)s", hand=hand.number, list=", ".join(
        f"{names[r.seat]} +{r.score}" for r in hand.results)), "saved")
    return _to_game(token)


def _buy_hint(st: Any, e: RefereeError) -> dict[str, Any] | None:
    """More cards (or a higher total) than a player can hold: most often a buy that was not recorded. Said with
    the family's own numbers (how many cards a buy adds in this hand, how many the player could then hold) when
    the player may still buy, for a one-tap buy beside the refusal."""
    seat_text = (e.field or "").rpartition("_")[2]
    if e.code not in ("too_many_cards", "total_too_high") or not seat_text.isdigit() or not st.current \
            or st.replay_due or int(seat_text) >= len(st.names):
        return None
    seat = int(seat_text)
    name = st.names[seat]
    used = st.buys.get(name, 0)
    if buy_refused(st.rules, used) is not None:
        return None
    now, more = st.rules.can_hold(st.current, used), st.rules.can_hold(st.current, used + 1)
    return dict(seat=seat, player=name, extra=more - now, holds=more, hand=st.current)


def _to_game(token: str) -> Any:
    """After a write that moves the game on: back to the game page. The page's own script (``static/outbox.js``,
    which sends the form with ``HX-Request``) is told where to go instead of being redirected, so that the
    messages wait for the page it opens."""
    target = url_for("games.play", token=token)
    if request.headers.get("HX-Request") == "true":
        resp = make_response("", 204)
        resp.headers["HX-Redirect"] = target
        return resp
    return redirect(target)


def lost_race(game: Any, number: int, form: Any) -> dict[str, Any]:
    """A hand another phone saved first, beside what this phone sent for it: each player's score and cards in
    both, whether they differ, and this phone's entry as the fields of a correction."""
    names = [p.name for p in game.players]
    typed = form.typed()
    hand = next((h for h in game.hands if h.number == number), None)
    mine: dict[int, int] = {}
    try:
        scored = services.score(game, gamestate.rules_of(game), number, form.out_seat(),
                                _entries(form, game.players), exact_cut=form.cut_was_exact)
        mine = {r.seat: r.score for r in scored}
    except RefereeError:
        pass  # this phone's entry is shown as typed, without its scores
    rows = []
    for seat, name in enumerate(names):
        saved = next((r for r in hand.results if r.seat == seat), None) if hand is not None else None
        row = {"name": name,
               "saved": None if saved is None else saved.score,
               "saved_cards": "" if saved is None or saved.cards is None else leftovers_text(saved.cards),
               "mine": mine.get(seat),
               "mine_cards": typed.get(f"cards_{seat}", "") or typed.get(f"total_{seat}", "")}
        row["differs"] = row["saved"] != row["mine"]
        rows.append(row)
    out_mine = typed.get("out", "")
    out_saved = "" if hand is None else ("stock" if hand.out_seat is None else str(hand.out_seat))
    same = hand is not None and out_mine == out_saved and all(not r["differs"] for r in rows)
    fields = {k: v for k, v in typed.items() if k not in ("hand", "version")}
    return dict(hand=number, rows=rows, same=same, fields=fields, recorded=hand is not None,
                out_saved=_out_name(out_saved, names), out_mine=_out_name(out_mine, names))


def _out_name(value: str, names: list[str]) -> str:
    if value == "stock":
        return gettext("Nobody: the stock ran out")
    return names[int(value)] if value.isdigit() and int(value) < len(names) else ""


@bp.post("/g/<token>/buy")
def buy(token: str) -> Any:
    game = edit_only(token)
    form = BuyForm()
    try:
        if not form.validate():
            _seat_refusal(form)
        if form.removing:
            services.remove_buy(game, form.hand.data, form.seat.data, request_id=form.request)
        else:
            outcome = services.add_buy(game, form.hand.data, form.seat.data, request_id=form.request)
            if not outcome.added:
                flash(refused_with_rule(game.family, message(outcome.reason, outcome.params),
                                        CODES[outcome.reason].rule), "warning")
    except RefereeError as e:
        flash(game_error_text(e), "warning")
    return _back(token)


def refused_with_rule(family: str, text: str, anchor: str) -> Markup:
    """A refusal and the rule that makes it, linked by its heading on the family's rules page."""
    link = Markup('<a href="{}">{}</a>').format(rule_url(family, anchor), rule_title(family, anchor))
    return Markup("{} ").format(text) + Markup(escape(gettext("(Rule: %(rule)s)"))) % {"rule": link}


def _seat_refusal(form: Any) -> None:
    """A buy button's hidden fields that hold no hand or seat number (a page no phone sent)."""
    if form.hand.errors:
        raise Refusal("not_current_hand", "hand", hand=str((form.hand.raw_data or [""])[0])[:20])
    raise Refusal("unknown_player", "player", name=str((form.seat.raw_data or [""])[0])[:40])


@bp.post("/g/<token>/down")
def down(token: str) -> Any:
    game = edit_only(token)
    form = DownForm()
    if form.validate() and form.seat.data < len(game.players):  # the hand being played: checked under the lock
        try:
            services.set_down(game, form.hand.data, form.seat.data, form.going_down, request_id=form.request)
        except RefereeError as e:  # (a tap that waited on a phone while the hand was recorded)
            flash(game_error_text(e), "warning")
    return _back(token)


def _seen_version(form: Any) -> int | None:
    """The version of the game a form was drawn from (None if it sends none; a garbled one never matches)."""
    if form.version.errors or form.version.process_errors:
        return -1
    value: int | None = form.version.data
    return value


def _back(token: str) -> Any:
    """After a tap on the board: htmx gets the board re-drawn from what the game now holds (read as a board
    reads it, as the write left it), and what the tap left to say (a buy refused, and the rule
    that refuses it) in the page's messages, out of band; a page without scripts goes back to the scores, which
    show them."""
    if request.headers.get("HX-Request") == "true":
        drawn = board_fragment(load(token)[0], True, token)
        resp = make_response(drawn + render_template("_flashes.html", flashes_oob=True))
        resp.headers["Vary"] = "HX-Request"
        return resp
    return redirect(url_for("games.play", token=token) + "#scores")


@bp.post("/g/<token>/undo")
def undo(token: str) -> Any:
    game = edit_only(token)
    form = VersionForm()
    form.validate()
    try:
        change = changes.undo(game, _seen_version(form))
        flash(gettext("Undone: %(what)s", what=change_text(change, [p.name for p in game.players])), "saved")
    except RefereeError as e:
        flash(game_error_text(e), "warning")
    return redirect(url_for("games.play", token=token))


@bp.post("/g/<token>/redo")
def redo(token: str) -> Any:
    game = edit_only(token)
    form = VersionForm()
    try:
        if not form.validate():
            raise Refusal("bad_request")
        change = changes.redo(game, form.version.data)
        flash(gettext("Redone: %(what)s", what=change_text(change, [p.name for p in game.players])), "saved")
    except RefereeError as e:
        flash(game_error_text(e), "warning")
    return redirect(url_for("games.play", token=token))


@bp.post("/g/<token>/end")
def end_early(token: str) -> Any:
    game = edit_only(token)
    form = VersionForm()
    try:
        if not form.validate():
            raise Refusal("bad_request")
        services.end_early(game, form.version.data)
        flash(gettext("The game was ended after hand %(n)s. Undo takes that back.", n=len(game.hands)), "saved")
    except RefereeError as e:
        flash(game_error_text(e), "warning")
    return redirect(url_for("games.play", token=token))


@bp.get("/g/<token>/players")
def players(token: str) -> str:
    game = edit_only(token)
    return render_template("games/players.html", **_players_context(game, token))


def _players_context(game: Any, token: str, **extra: Any) -> dict[str, Any]:
    forms = []
    for p in game.players:
        f = RenameForm(formdata=None, seat=p.seat, name=p.name)
        forms.append((p, f))
    ctx = dict(game=game, token=token, st=gamestate.state(game), rename_forms=forms, move_form=SeatMoveForm(),
               can_move=not game.hands_recorded, error=None, error_seat=None)
    ctx.update(extra)
    return ctx


@bp.post("/g/<token>/players/rename")
def rename(token: str) -> Any:
    game = edit_only(token)
    form = RenameForm()
    seat = form.seat.data if form.seat.data is not None else -1
    try:
        if not form.validate():
            raise Refusal("empty_name" if not (form.name.data or "").strip() else "bad_request", "name")
        old = game.players[seat].name if 0 <= seat < len(game.players) else ""
        if seating.rename_player(game, seat, form.name.data):
            flash(gettext("%(old)s is now %(new)s.", old=old, new=game.players[seat].name), "saved")
    except RefereeError as e:
        ctx = _players_context(game, token, error=game_error_text(e), error_seat=seat)
        ctx["rename_forms"] = [(p, form if p.seat == seat else f) for p, f in ctx["rename_forms"]]
        return render_template("games/players.html", **ctx), status_of(e)
    return redirect(url_for("games.players", token=token))


@bp.post("/g/<token>/players/move")
def move_seat(token: str) -> Any:
    game = edit_only(token)
    form = SeatMoveForm()
    try:
        if not form.validate():
            raise Refusal("bad_request")
        order = list(range(len(game.players)))
        seat = form.seat.data
        other = seat - 1 if form.move.data == "up" else seat + 1
        if 0 <= seat < len(order) and 0 <= other < len(order):
            order[seat], order[other] = order[other], order[seat]
            seating.reorder_seats(game, order)
    except RefereeError as e:
        return render_template("games/players.html", **_players_context(game, token, error=game_error_text(e))), \
            status_of(e)
    return redirect(url_for("games.players", token=token) + "#seats")


@bp.route("/g/<token>/hands/<int:number>", methods=["GET", "POST"])
def correct(token: str, number: int) -> Any:
    game = edit_only(token)
    hand = next((h for h in game.hands if h.number == number), None)
    if hand is None:
        abort(404)
    ctx = board_context(game, True, token)
    ctx["hand"] = hand
    if request.method == "GET":
        ctx["entered"] = _hand_as_form(hand)
        return render_template("games/correct.html", **ctx)
    form = hand_form(len(game.players))()
    form.validate()
    try:
        services.correct_hand(game, number, form.out_seat(), _entries(form, game.players), _seen_version(form),
                              exact_cut=form.cut_was_exact, request_id=form.request)
    except RefereeError as e:
        # a stale page keeps the typed correction too: the form is drawn again at the game's new version
        error = gettext("Someone changed this game since you opened this page.") if e.code == "stale" else \
            game_error_text(e)
        ctx.update(error=error, error_field=e.field, entered=form.typed())
        return render_template("games/correct.html", **ctx), status_of(e)
    flash(gettext("Hand %(hand)s corrected.", hand=number), "saved")
    return _to_game(token)


def _hand_as_form(hand: Any) -> dict[str, str]:
    return _snapshot_as_form(services.snapshot(hand))


def _snapshot_as_form(snap: dict[str, Any]) -> dict[str, str]:
    """A recorded hand (as the history keeps it) as the end-of-hand form's fields, cards in the reader's letters."""
    out = {"out": "stock" if snap["out_seat"] is None else str(snap["out_seat"]),
           "exact_cut": "1" if snap.get("cut_bonus") else ""}
    for r in snap["results"]:
        if r["cards"] is None:  # a typed total: shown as typed, before any cut bonus
            out[f"total_{r['seat']}"] = str(r["penalty"])
        elif r["seat"] != snap["out_seat"]:
            out[f"cards_{r['seat']}"] = leftovers_text(r["cards"])
    return out


@bp.get("/g/<token>/history")
def history(token: str) -> str:
    game, can_edit = load(token)
    names = [p.name for p in game.players]
    rows = [{"at": c.at, "text": change_text(c, names), "via": gettext(VIA_WORDS.get(c.via, c.via)),
             "undone": c.undone} for c in reversed(game.changes)]
    return render_template("games/history.html", rows=rows, token=token, can_edit=can_edit, game=game,
                           st=gamestate.state(game))


def change_text(c: Any, names: list[str]) -> str:
    player = names[c.seat] if c.seat is not None and 0 <= c.seat < len(names) else ""
    values = {"hand": c.hand_number or "", "player": player,
              "old": (c.before or {}).get("name", "") if c.kind == "renamed" else "",
              "new": (c.after or {}).get("name", "") if c.kind == "renamed" else "",
              "names": ", ".join((c.after or {}).get("names", [])) if c.kind == "seats_reordered" else ""}

    def words(kind: str) -> str:
        text = gettext(CHANGE_WORDS.get(kind, kind))
        try:
            return text % values
        except (KeyError, TypeError, ValueError):
            return text

    text = words(c.kind)
    if c.kind in ("undo", "redo") and c.before:
        text += ": " + words(c.before.get("kind", ""))
    return text


@bp.get("/g/<token>/share")
def share(token: str) -> str:
    game, can_edit = load(token)
    codes = public.share_codes("games.play", game.view_token, token if can_edit else None)
    title = ", ".join(p.name for p in game.players) + " — " + FAMILIES[game.family].name
    return render_template("games/share.html", codes=codes, token=token, can_edit=can_edit, game=game,
                           game_title=title)


@bp.get("/g/<token>/sheet")
def sheet(token: str) -> str:
    game, can_edit = load(token)
    ctx = board_context(game, can_edit, token)
    return render_template("games/sheet.html", chart=chart(ctx["st"]), **ctx)


@bp.get("/g/<token>/export.json")
def export_json(token: str) -> Response:
    game, _ = load(token)
    resp = make_response(json.dumps(transfer.export_data(game), ensure_ascii=False, indent=2))
    resp.headers["Content-Type"] = "application/json; charset=utf-8"
    resp.headers["Content-Disposition"] = f'attachment; filename="rummy-{game.id}.json"'
    return resp


@bp.get("/g/<token>/export.csv")
def export_csv(token: str) -> Response:
    game, _ = load(token)
    words = transfer.CsvWords(hand=gettext("Hand"), out=gettext("Went out"), total=gettext("Total"),
                              buys=lambda name: gettext("Buys: %(name)s", name=name))
    resp = make_response(transfer.export_csv(game, words))
    resp.headers["Content-Type"] = "text/csv; charset=utf-8"
    resp.headers["Content-Disposition"] = f'attachment; filename="rummy-{game.id}.csv"'
    return resp


@bp.route("/import", methods=["GET", "POST"])
def import_game() -> Any:
    if request.method == "GET":
        return render_template("games/import.html", error=None)
    form = ImportForm()
    form.validate()
    raw = form.file.data
    limit = current_app.config["IMPORT_MAX_BYTES"]
    text = raw.read(limit + 1).decode("utf-8", "replace") if raw else (form.json.data or "")
    if len(text) > limit:
        return render_template("games/import.html", error=error_text("too_large", {"kb": limit // 1000})), 413
    try:
        data = jsonio.loads(text)
        game, edit = transfer.import_data(data)
    except RefereeError as e:  # before ValueError, which it is: a refused hand names its player
        return render_template("games/import.html", error=game_error_text(e)), status_of(e)
    except ValueError:
        return render_template("games/import.html", error=error_text("bad_import")), 400
    return remember(redirect(url_for("games.play", token=edit)), edit)


@bp.post("/g/<token>/delete")
def delete(token: str) -> BaseResponse:
    game = edit_only(token)
    if not DeleteForm().validate():
        abort(400)
    services.delete_game(game)
    flash(gettext("The game was deleted."), "saved")
    return forget(redirect(url_for("games.mine")), token)


# ------------------------------------------------------------------------------------------ the chart
MARKER_WORDS = (N_("circle"), N_("square"), N_("diamond"), N_("triangle"))
PALETTE = ("#0b5d3b", "#b3121a", "#1f4e9c", "#8a5a00", "#6b2c91", "#00707a", "#4d4d4d", "#b84c00")
MARKERS = ("circle", "square", "diamond", "triangle", "circle", "square", "diamond", "triangle")
# each hand's mark on a player's line, by the player's marker, at x, y (numbers and a colour of the palette only)
_MARK = {
    "circle": '<circle cx="{x}" cy="{y}" r="3.8" fill="{color}"/>',
    "square": '<rect x="{x}" y="{y}" width="7" height="7" fill="{color}" transform="translate(-3.5 -3.5)"/>',
    "diamond": '<rect x="{x}" y="{y}" width="7" height="7" fill="{color}" '
               'transform="rotate(45 {x} {y}) translate(-3.5 -3.5)"/>',
    "triangle": '<polygon points="0,-4.5 4.5,3.5 -4.5,3.5" fill="{color}" transform="translate({x} {y})"/>',
}
_TICK = ('<line x1="{left}" x2="{right}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
         '<text x="{label_x}" y="{label_y:.1f}" text-anchor="end" class="axis">{label}</text>')
_HAND = '<text x="{x}" y="{y}" text-anchor="middle" class="axis">{label}</text>'
_LINE = '<polyline points="{points}" fill="none" stroke="{color}" stroke-width="2.5"{dash}/>'


def chart(st: Any) -> dict[str, Any] | None:
    """Running totals hand by hand, as inline SVG (no script). The plot is numbers and colours of the palette only,
    so it is drawn here, in one piece (a board is drawn after every change, and the template's loops over its
    points cost a tenth of a draw); the words (its title, the legend's names and markers) are the template's."""
    if not st.hands:
        return None
    width, height, pad_l, pad_r, pad_t, pad_b = 340, 200, 36, 12, 12, 26
    n = len(st.rules.hands)
    highest = max(max(v) for v in st.running.values()) or 1
    tick = next(t for t in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10**9) if highest / t <= 5)
    top = -(-highest // tick) * tick  # rounded up to a whole tick

    def y(v: int) -> float:
        return pad_t + (height - pad_t - pad_b) * (1 - v / top)

    # each coordinate written once, as it is drawn (a point's x is its hand's, its y its total's)
    xs = [f"{pad_l + (width - pad_l - pad_r) * i / max(1, n):.1f}" for i in range(n + 1)]
    ys: dict[int, str] = {}
    plot = [_TICK.format(left=pad_l, right=width - pad_r, y=y(v), label_x=pad_l - 4, label_y=y(v) + 4, label=v)
            for v in range(0, top + 1, tick)]
    plot += [_HAND.format(x=xs[i], y=height - pad_b + 16, label=i) for i in range(n + 1)]
    series = []
    for k, name in enumerate(st.names):
        pts = [(xs[i], ys.get(v) or ys.setdefault(v, f"{y(v):.1f}")) for i, v in enumerate((0, *st.running[name]))]
        color, marker = PALETTE[k % len(PALETTE)], MARKERS[k % len(MARKERS)]
        dash = "" if k < 4 else "5 3"
        plot.append(_LINE.format(points=" ".join(f"{a},{b}" for a, b in pts), color=color,
                                 dash=f' stroke-dasharray="{dash}"' if dash else ""))
        mark = _MARK[marker]
        plot += [mark.format(x=a, y=b, color=color) for a, b in pts[1:]]
        series.append({"name": name, "color": color, "marker": marker, "dash": dash})
    return {"width": width, "height": height, "series": series, "plot": Markup("".join(plot))}

