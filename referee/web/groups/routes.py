"""A group's pages: make a group, keep its roster, start its games (or a rematch in one tap), see its stats.

Links: ``/groups/<token>`` opens a group; the edit token changes it, the view token only shows it. A group's
games open through ``/groups/<token>/games/<id>``, which sends an edit link's holder to the game's edit link
and a view link's holder to the game's view link. This device remembers the groups it opened (a cookie), so
the screen of a group's game links back to the group with the best link this device holds.
"""

from __future__ import annotations

import json
import math
from typing import Any

from flask import Blueprint, Response, abort, flash, make_response, redirect, render_template, request, session, url_for
from flask_babel import format_decimal, format_percent
from werkzeug.wrappers import Response as BaseResponse
from wtforms.fields.choices import SelectChoice

from ...errors import RefereeError
from ...families import FAMILIES, SETUP, preview
from .. import jsonio, public
from .. import options as house
from ..errors import error_text, status_of
from ..i18n import format_day, gettext
from ..models import Game, Group, db
from ..scoreboard import routes as games_routes
from ..tokens import Links
from ..words import contract_words
from . import services, stats, transfer
from .forms import GroupForm, ImportForm, MemberForm, NewGameForm, RematchForm, StatsForm

bp = Blueprint("groups", __name__, url_prefix="/groups")

MY_GROUPS = "my_groups"
IMPORT_LIMIT = 2_000_000


# ------------------------------------------------------------------------------------------ this device's groups
links = Links(lambda token: services.find(token), MY_GROUPS)  # the group a link opens; the groups this device opened
load, edit_only = links.load, links.edit_only
remembered, remember = links.remembered, links.remember


@bp.get("")
def mine() -> str:
    rows = [{"token": t, "group": g, "can_edit": e} for t, g, e in services.find_many(remembered())]
    return render_template("groups/mine.html", rows=rows)


@bp.route("/new", methods=["GET", "POST"])
def new() -> Any:
    form = GroupForm()
    if not form.validate_on_submit():
        return render_template("groups/new.html", form=form), 422 if request.method == "POST" else 200
    tap = services.tap_token(form.once.data, str(session.get("csrf_token", "")))
    group, edit, made = services.create_group(form.name.data, tap)
    if made:  # (a second tap lands on the group the first made, said once)
        flash(gettext("The group %(name)s is ready: add its players, then start a game.", name=group.name), "saved")
    return remember(redirect(url_for("groups.show", token=edit)), edit)


# ------------------------------------------------------------------------------------------ one group
def family_filter() -> str | None:
    fam = StatsForm(formdata=request.args).family.data
    return fam if fam in FAMILIES else None


# What a group's page draws at most, so that it costs the same however many people and games the group has
# (each cut says so on the page; the export and the statistics file hold everything)
SHOWN_PLAYERS = 24  # the players with the most wins: the table, their cards and their charts
SHOWN_PAIRS = 30  # head to head: the pairs of those players who shared the most games
SHOWN_GAMES = 30  # the latest games
SHOWN_ROSTER = 80


@bp.get("/<token>")
def show(token: str) -> BaseResponse:
    group, can_edit = load(token)
    st = stats.stats(group, family_filter())
    last = services.last_game(group) if can_edit else None
    shown = st.players[:SHOWN_PLAYERS]
    pairs = st.pairs({p.name for p in shown})
    axis = chart_axis(st)
    if len(pairs) > SHOWN_PAIRS:
        most = sorted(pairs, key=lambda pair: -st.times_met(pair[0], pair[1]))[:SHOWN_PAIRS]
        pairs = [pair for pair in pairs if pair in most]
    resp = make_response(render_template(
        "groups/group.html", group=group, can_edit=can_edit, token=token, st=st, families=FAMILIES,
        shown=shown, pairs=pairs, games=st.games[::-1][:SHOWN_GAMES], roster=group.members[:SHOWN_ROSTER],
        charts=[(p, player_chart(p, st, axis)) for p in shown if p.series], last=last,
        member_form=MemberForm(formdata=None), rematch_form=RematchForm(formdata=None), percent=percent,
        decimal=decimal, rematch_dealer=last.players[services.next_dealer(last)].name if last else None))
    resp.headers["Cache-Control"] = "no-store"
    return remember(resp, token)


def percent(value: float | None) -> str:
    return "—" if value is None else str(format_percent(value, "#,##0%"))


def decimal(value: float | None) -> str:
    return "—" if value is None else str(format_decimal(round(value, 1), "#,##0.0"))


@bp.post("/<token>/roster")
def add_member(token: str) -> BaseResponse:
    group = edit_only(token)
    form = MemberForm()
    if form.validate_on_submit():
        try:
            member = services.add_members(group, [form.name.data])[0]
            db.session.commit()
            flash(gettext("%(name)s is on the roster.", name=member.name), "saved")
        except RefereeError as e:
            flash(error_text(e.code, e.params), "warning")
    else:
        flash(gettext("Type a name of at most 40 characters."), "warning")
    return redirect(url_for("groups.show", token=token) + "#roster")


@bp.get("/<token>/games/<game_id>")
def open_game(token: str, game_id: str) -> BaseResponse:
    """A group's game, opened with the link this group link allows: edit for the edit link, else view."""
    group, can_edit = load(token)
    link = services.game_in_group(group, game_id)
    if link is None or link.deleted_at is not None:
        abort(404)
    target = services.game_token(token, game_id) if can_edit else link.game.view_token
    return redirect(url_for("games.play", token=target))


@bp.post("/<token>/rematch")
def rematch(token: str) -> BaseResponse:
    group = edit_only(token)
    form = RematchForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        _, edit = services.rematch(group, token, form.game.data or None)
    except RefereeError as e:
        flash(error_text(e.code, e.params), "warning")
        return redirect(url_for("groups.show", token=token))
    return games_routes.remember(redirect(url_for("games.play", token=edit)), edit)


# ------------------------------------------------------------------------------------------ a new game
def _ordered_roster(group: Group, last: Game | None) -> list[str]:
    """The roster with the last game's players first, in their seats; then everyone else by name."""
    first = [p.name for p in last.players] if last else []
    keys = {services.name_key(n) for n in first}
    rest = sorted((m.name for m in group.members if m.key not in keys), key=str.casefold)
    spelled = {m.key: m.name for m in group.members}
    return [spelled.get(services.name_key(n), n) for n in first] + rest


@bp.route("/<token>/new", methods=["GET", "POST"])
def new_game(token: str) -> Any:
    group = edit_only(token)
    last = services.last_game(group)
    form = NewGameForm()
    fam_id = form.family.data if request.method == "POST" else (last.family if last else "liverpool")
    if fam_id not in FAMILIES:
        fam_id = "liverpool"
    like = last if last is not None and last.family == fam_id else services.last_game(group, fam_id)
    roster = _ordered_roster(group, last)
    form.players.choices = [SelectChoice(n) for n in roster]
    if request.method == "GET":
        form.family.data = fam_id
        # the last game's table; before the first game, the whole roster when the family seats that many (else
        # nobody, and the page asks who is playing)
        lo, hi = FAMILIES[fam_id].players
        form.players.data = [p.name for p in last.players] if last else (roster if lo <= len(roster) <= hi else [])
        form.first_dealer.data = last.players[services.next_dealer(last)].name if last else ""
        return _new_page(group, token, form, fam_id, like, None)
    picked = [n for n in roster if n in (form.players.data or [])]
    extra = [n for n in form.players.data or [] if n not in roster]  # typed into a tampered form: kept
    typed = services.clean(form.new_name.data)
    names = picked + extra + ([typed] if typed and services.name_key(typed) not in
                              {services.name_key(n) for n in picked + extra} else [])
    if form.add.data or form.update.data or not form.validate():
        if form.add.data and typed:
            try:
                member = services.add_members(group, [typed])[0]
                db.session.commit()
                form.players.choices = [SelectChoice(n) for n in _ordered_roster(group, last)]
                form.players.data = picked + extra + [member.name]
                form.new_name.data = ""
            except RefereeError as e:
                return _new_page(group, token, form, fam_id, like, error_text(e.code, e.params)), status_of(e)
        same_family = form.shown_family.data == fam_id  # a new family starts from its own last game
        return _new_page(group, token, form, fam_id, like, None, keep_rules=same_family)
    fam = FAMILIES[fam_id]
    variants = list(form.variants.data)
    options = house.house_rules_form(SETUP, fam, request.form).options()
    if not names:  # nobody ticked: asked in so many words, not answered with the family's player count
        return _new_page(group, token, form, fam_id, like, gettext(
            "Who is playing? Tick everyone at the table (%(family)s: %(lo)s to %(hi)s players).",
            family=fam.name, lo=fam.players[0], hi=fam.players[1]), keep_rules=True), 422
    dealer_key = services.name_key(form.first_dealer.data or "")
    keys = [services.name_key(n) for n in names]
    dealer = keys.index(dealer_key) if dealer_key in keys else 0
    try:
        _, edit = services.start_game(group, token, fam_id, variants, options, names, dealer)
    except RefereeError as e:
        form.players.data = picked + extra
        return _new_page(group, token, form, fam_id, like, error_text(e.code, e.params),
                         keep_rules=True), status_of(e)
    return games_routes.remember(redirect(url_for("games.play", token=edit)), edit)


def _new_page(group: Group, token: str, form: NewGameForm, fam_id: str, like: Game | None, error: str | None,
              keep_rules: bool = False) -> str:
    """The new-game screen; the house rules are the family's last game's in this group unless the form
    already holds some (``keep_rules``)."""
    fam = FAMILIES[fam_id]
    names = form.players.data or []
    if keep_rules and request.method == "POST":
        variants = list(form.variants.data)
        rules_form = house.house_rules_form(SETUP, fam, request.form)
    else:
        variants = list(like.variants) if like else []
        rules_form = house.house_rules_form(SETUP, fam, options=like.options if like else None)
    rules = preview(fam_id, variants, rules_form.options(), len(names))
    return render_template("groups/new_game.html", group=group, token=token, form=form, fam=fam,
                           families=FAMILIES, variants=variants, house=rules_form, rules=rules,
                           contract_words=contract_words, like=like, error=error)


# ------------------------------------------------------------------------------------------ sharing, files
@bp.get("/<token>/share")
def share(token: str) -> str:
    group, can_edit = load(token)
    codes = public.share_codes("groups.show", group.view_token, token if can_edit else None)
    return render_template("groups/share.html", codes=codes, token=token, can_edit=can_edit, group=group)


def _filename(group: Group, ext: str) -> str:
    return f"rummy-group-{group.id}.{ext}"


@bp.get("/<token>/export.json")
def export_json(token: str) -> Response:
    group, _ = load(token)
    resp = make_response(json.dumps(transfer.export_data(group), ensure_ascii=False, indent=2))
    resp.headers["Content-Type"] = "application/json; charset=utf-8"
    resp.headers["Content-Disposition"] = f'attachment; filename="{_filename(group, "json")}"'
    return resp


CSV_HEADER = ("Player", "Games", "Wins", "Win rate (%)", "Hands", "Average per hand", "Went out (hands)", "Best hand",
              "Worst hand", "Buys")


@bp.get("/<token>/stats.csv")
def export_csv(token: str) -> Response:
    group, _ = load(token)
    st = stats.stats(group, family_filter())
    header = [gettext("Player"), gettext("Games"), gettext("Wins"), gettext("Win rate (%)"), gettext("Hands"),
              gettext("Average per hand"), gettext("Went out (hands)"), gettext("Best hand"), gettext("Worst hand"),
              gettext("Buys")]
    resp = make_response(stats.stats_csv(st, header, lambda v, places: round(v, places)))
    resp.headers["Content-Type"] = "text/csv; charset=utf-8"
    resp.headers["Content-Disposition"] = f'attachment; filename="{_filename(group, "csv")}"'
    return resp


@bp.route("/import", methods=["GET", "POST"])
def import_group() -> Any:
    form = ImportForm()
    if request.method == "GET":
        return render_template("groups/import.html", form=form, error=None)
    if not form.validate_on_submit():
        return render_template("groups/import.html", form=form, error=error_text("bad_group_import")), 400
    raw = form.file.data
    text = raw.read(IMPORT_LIMIT + 1).decode("utf-8", "replace") if raw else (form.json.data or "")
    try:
        if len(text) > IMPORT_LIMIT:
            raise ValueError("too large")
        group, edit = transfer.import_data(jsonio.loads(text))  # (nesting bounded, as every body's)
    except RefereeError as e:  # before ValueError, which it is too
        return render_template("groups/import.html", form=form, error=error_text(e.code, e.params)), status_of(e)
    except ValueError:
        return render_template("groups/import.html", form=form, error=error_text("bad_group_import")), 400
    flash(gettext("The group %(name)s was imported.", name=group.name), "saved")
    return remember(redirect(url_for("groups.show", token=edit)), edit)


# ------------------------------------------------------------------------------------------ the game screen's link
@bp.app_template_global()
def group_link(game: Game) -> dict[str, Any] | None:
    """The group a game belongs to, opened with a link to the group this device already holds (its edit link
    first), else none: a game's link never leads to its group's, which lists every game's view link and the
    group's figures (docs/decisions.md, "A game's link does not open its group")."""
    group = services.group_of_game(game)
    if group is None:
        return None
    held = sorted(((can_edit, t) for t, g, can_edit in services.find_many(remembered()) if g.id == group.id),
                  reverse=True)
    if not held:
        return None
    can_edit, token = held[0]
    return {"name": group.name, "url": url_for("groups.show", token=token),
            "rematch": url_for("groups.rematch", token=token) if can_edit else None, "game": game.id}


# ------------------------------------------------------------------------------------------ the charts
def chart_axis(st: stats.Stats) -> tuple[dict[int, int], list[tuple[int, str]]]:
    """What every player's chart of a group shares: each game's place, and the first game of each evening with
    its date (worked out once for the page, not once a player)."""
    index = {id(g): i for i, g in enumerate(st.games)}
    firsts: list[tuple[int, str]] = []
    for i, g in enumerate(st.games):
        label = format_day(g.game.created_at, "d/M")
        if not firsts or firsts[-1][1] != label:
            firsts.append((i, label))
    return index, firsts


def player_chart(p: stats.PlayerStats, st: stats.Stats,
                 axis: tuple[dict[int, int], list[tuple[int, str]]] | None = None) -> dict[str, Any]:
    """A player's average penalty per hand in each game they played, over the group's games (SVG, no script)."""
    width, height, pad_l, pad_r, pad_t, pad_b = 340, 150, 36, 12, 12, 26
    n = len(st.games)
    index, firsts = axis if axis is not None else chart_axis(st)
    highest = max(pt["average"] for pt in p.series) or 1
    tick = next(t for t in (1, 2, 5, 10, 20, 25, 50, 100, 10**9) if highest / t <= 4)
    top = max(tick, math.ceil(highest / tick) * tick)

    def x(i: int) -> float:
        return pad_l + (width - pad_l - pad_r) * (i + 0.5) / max(1, n)

    def y(v: float) -> float:
        return pad_t + (height - pad_t - pad_b) * (1 - v / top)

    dots = [{"x": x(index[id(pt["game"])]), "y": y(pt["average"]), "won": pt["won"],
             "label": gettext("%(date)s: %(average)s a hand", date=format_day(pt["game"].game.created_at, "short"),
                              average=decimal(pt["average"])) + (" · " + gettext("won") if pt["won"] else "")}
            for pt in p.series]
    evenings = [{"x": x(i), "label": label} for i, label in firsts]  # the first game of each evening, dated
    step = max(1, -(-len(evenings) // 6))
    xs = evenings[::step]
    return {"width": width, "height": height, "dots": dots, "points": " ".join(f"{d['x']:.1f},{d['y']:.1f}"
                                                                              for d in dots),
            "ticks": [{"y": y(v), "label": v} for v in range(0, top + 1, tick)], "xs": xs, "left": pad_l,
            "right": width - pad_r, "bottom": height - pad_b, "top": pad_t}
