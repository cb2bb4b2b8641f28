"""The pages of a game being played: the game page, its board (polled), a hand's save, buys, who is down,
undo, redo and ending early. A game's other pages are ``manage``'s, on the same blueprint.

Links: ``/g/<token>`` opens a game; the edit token changes it, the view token only shows it. Forms post and
redirect (so a reload never records twice); the board polls ``/g/<token>/board``, which answers 304 while
nothing changed.
"""

from __future__ import annotations

from typing import Any

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

from ...errors import RefereeError
from ...table import buy_refused
from ...verdicts import CODES
from ..errors import Refusal, error_text, status_of
from ..i18n import gettext
from ..models import db
from ..picker import leftovers_text
from ..rules.routes import rule_title, rule_url
from ..tokens import Links
from . import changes, gamestate, reads, services, view
from .boards import FORM_MARK, LINK_MARK, Boards
from .forms import (
    BuyForm,
    DownForm,
    VersionForm,
    hand_form,
)
from .view import board_context, board_fragment, change_text, etag_for, game_error_text, snapshot_as_form

bp = Blueprint("games", __name__)
bp.add_app_template_global(view.game_url)
bp.record_once(view.keep_boards)

MY_GAMES = "my_games"


# the game a link opens (a page or a board only reads it); the games this device opened
links = Links(reads.opened, MY_GAMES)
load, edit_only = links.load, links.edit_only
remembered, remember, forget = links.remembered, links.remember, links.forget



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
        ctx["entered"] = snapshot_as_form(undone)
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


@bp.post("/g/<token>/hand")
def record(token: str) -> Any:
    game = edit_only(token)
    form = hand_form(len(game.players))()
    form.validate()
    try:
        entered = form.entered([p.name for p in game.players])
        hand = services.record_hand(game, entered.hand, entered.out_seat, entered.entries,
                                    exact_cut=entered.exact_cut, expected_version=entered.version,
                                    request_id=entered.request_id).hand
        db.session.commit()
    except RefereeError as e:
        ctx = board_context(load(token)[0], True, token)  # (with its history: undo and redo)
        if e.code == "already_recorded":  # another phone saved this hand first: both entries are shown
            number = entered.hand
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
        entered = form.entered(names)
        scored = services.score(game, gamestate.rules_of(game), number, entered.out_seat, entered.entries,
                                exact_cut=entered.exact_cut)
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
        db.session.commit()
        if not form.removing and not outcome.added:
            flash(refused_with_rule(game.family, error_text(outcome.reason, outcome.params),
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
            db.session.commit()
        except RefereeError as e:  # (a tap that waited on a phone while the hand was recorded)
            flash(game_error_text(e), "warning")
    return _back(token)


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
        change = changes.undo(game, form.seen_version)
        db.session.commit()
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
        db.session.commit()
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
        db.session.commit()
        flash(gettext("The game was ended after hand %(n)s. Undo takes that back.", n=len(game.hands)), "saved")
    except RefereeError as e:
        flash(game_error_text(e), "warning")
    return redirect(url_for("games.play", token=token))
