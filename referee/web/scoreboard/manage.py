"""A game's other pages: starting one, the games this device opened, the players (names and seats), a hand's
correction, the history, sharing, the score sheet, export and import, and deleting a game. On the scoreboard's
blueprint (``routes.bp``)."""

from __future__ import annotations

import json
from typing import Any

from flask import (
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
from werkzeug.wrappers import Response as BaseResponse

from ...errors import RefereeError
from ...families import FAMILIES, SETUP, preview
from ...scoring import START_CHOICES, starting_score
from .. import jsonio, public
from .. import options as house
from ..errors import Refusal, error_text, status_of
from ..i18n import gettext
from ..models import db
from ..words import contract_words
from . import create, gamestate, reads, seating, services, transfer
from .forms import (
    DeleteForm,
    ImportForm,
    JoinForm,
    RenameForm,
    SeatMoveForm,
    SetupForm,
    TokenForm,
    hand_form,
)
from .routes import _to_game, bp, edit_only, forget, load, remember, remembered
from .view import VIA_WORDS, board_context, change_text, chart, game_error_text, snapshot_as_form


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
        game, edit = create.new_game(fam_id, variants, rules_form.options(), names, first_dealer)
        db.session.commit()
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


@bp.get("/g/<token>/players")
def players(token: str) -> str:
    game = edit_only(token)
    return render_template("games/players.html", **_players_context(game, token))


def _players_context(game: Any, token: str, **extra: Any) -> dict[str, Any]:
    forms = []
    for p in game.players:
        f = RenameForm(formdata=None, seat=p.seat, name=p.name)
        forms.append((p, f))
    st = gamestate.state(game)
    ctx = dict(game=game, token=token, st=st, rename_forms=forms, move_form=SeatMoveForm(),
               can_move=not game.hands_recorded, error=None, error_seat=None,
               join_form=JoinForm(formdata=None, after=len(game.players) - 1),
               can_join=st.current is not None and len(game.players) < st.rules.family.players[1],
               starts={c: starting_score(c, list(st.totals.values()) if st.hands else []) for c in START_CHOICES})
    ctx.update(extra)
    return ctx


@bp.post("/g/<token>/players/join")
def join(token: str) -> Any:
    """A player sits down between hands (``seating.join_player``)."""
    game = edit_only(token)
    form = JoinForm()
    try:
        if not form.validate():
            raise Refusal("bad_request", "name")
        player = seating.join_player(game, form.name.data, form.after.data, form.start_value())
        db.session.commit()
    except RefereeError as e:
        ctx = _players_context(game, token, error=game_error_text(e), join_form=form, join_error=True)
        return render_template("games/players.html", **ctx), status_of(e)
    flash(gettext("%(name)s sits down and plays from hand %(hand)s, starting on %(points)s points.",
                  name=player.name, hand=player.joined_hand, points=player.start_total), "saved")
    return _to_game(token)


@bp.post("/g/<token>/players/rename")
def rename(token: str) -> Any:
    game = edit_only(token)
    form = RenameForm()
    seat = form.seat.data if form.seat.data is not None else -1
    try:
        if not form.validate():
            raise Refusal("empty_name" if not (form.name.data or "").strip() else "bad_request", "name")
        old = game.players[seat].name if 0 <= seat < len(game.players) else ""
        renamed = seating.rename_player(game, seat, form.name.data)
        db.session.commit()
        if renamed:
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
            db.session.commit()
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
    ctx["hand_rules"] = gamestate.rules_at(game, number)  # (the pack of the players at the table then)
    if request.method == "GET":
        ctx["entered"] = _hand_as_form(hand)
        return render_template("games/correct.html", **ctx)
    form = hand_form(len(game.players))()
    form.validate()
    try:
        entered = form.entered([p.name for p in game.players], hand=number)
        services.correct_hand(game, number, entered.out_seat, entered.entries, entered.version,
                              exact_cut=entered.exact_cut, request_id=entered.request_id)
        db.session.commit()
    except RefereeError as e:
        # a stale page keeps the typed correction too: the form is drawn again at the game's new version
        error = gettext("Someone changed this game since you opened this page.") if e.code == "stale" else \
            game_error_text(e)
        ctx.update(error=error, error_field=e.field, entered=form.typed())
        return render_template("games/correct.html", **ctx), status_of(e)
    flash(gettext("Hand %(hand)s corrected.", hand=number), "saved")
    return _to_game(token)


def _hand_as_form(hand: Any) -> dict[str, str]:
    return snapshot_as_form(services.snapshot(hand).to_json())


@bp.get("/g/<token>/history")
def history(token: str) -> str:
    game, can_edit = load(token)
    names = [p.name for p in game.players]
    rows = [{"at": c.at, "text": change_text(c, names), "via": gettext(VIA_WORDS.get(c.via, c.via)),
             "undone": c.undone} for c in reversed(game.changes)]
    return render_template("games/history.html", rows=rows, token=token, can_edit=can_edit, game=game,
                           st=gamestate.state(game))


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
    db.session.commit()
    flash(gettext("The game was deleted."), "saved")
    return forget(redirect(url_for("games.mine")), token)
