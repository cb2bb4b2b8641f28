"""The JSON API's games and groups: create a game or a group, read it, and a game's writes (a hand saved or
corrected, a buy, the end), opened by a bearer token (the edit token writes, the view token reads). On the
API's blueprint (``routes.bp``)."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request

from ...errors import RefereeError
from ...families import FAMILIES
from ...i18n import N_
from ...verdicts import CODES
from .. import public
from ..errors import Refusal, error_body, error_text
from ..groups import roster
from ..groups import services as group_services
from ..groups import stats as group_stats
from ..models import Game, db
from ..scoreboard import create, gamestate, reads, seating, services
from ..scoreboard.forms import REQUEST_ID
from .routes import bool_field, bp, int_field, need, with_lang


def _bearer() -> str | None:
    auth = request.headers.get("Authorization", "")
    if auth[:7].lower() == "bearer ":
        return auth[7:].strip() or None
    return None


def _game_for(game_id: str, write: bool) -> tuple[Game, bool]:
    """The game the bearer token opens (403 unless it is ``game_id``, or if ``write`` and the token only views
    it), and whether the token may change it."""
    found = reads.find(_token(), last_change=False, writing=write)
    return _opened(game_id, write, found), bool(found and found[1])


def _token() -> str:
    token = _bearer()
    if token is None:
        raise Refusal("unauthorized", None, 401)
    return token


def _opened(game_id: str, write: bool, found: Any) -> Any:
    if found is None or found[0].id != game_id:
        raise Refusal("forbidden", None, 403)
    game, can_edit = found
    if write and not can_edit:
        raise Refusal("forbidden", None, 403)
    return game


def game_json(game: Any, can_edit: bool) -> dict[str, Any]:
    st = gamestate.state(game)
    out: dict[str, Any] = {
        "id": game.id,
        "ruleset": game.family,
        "variants": list(game.variants),
        "options": dict(game.options),
        "players": st.names,
        "settings": {"decks": st.rules.decks, "jokers": st.rules.jokers, "hands": len(st.rules.hands),
                     "buy_limit": st.rules.buy_limit, "first_dealer": st.names[game.first_dealer]},
        "version": game.version,
        "hands": [{"hand": h.number, "out": h.out, "penalties": h.penalties, "leftovers": h.cards} for h in st.hands],
        "replays": [{"hand": h.number, "out": h.out, "penalties": h.penalties, "leftovers": h.cards}
                    for h in st.replays],
        "totals": st.totals,
        "current_hand": st.current,
        "finished": st.finished,
        "ended_early": st.ended_early,
        "joined_late": [{"player": p.name, "hand": p.joined_hand, "start": p.start_total}
                        for p in game.players if p.joined_hand > 1],
    }
    if st.current is not None:
        spec = st.rules.hand(st.current)
        out |= {"dealer": st.dealer, "cutter": st.cutter, "first_player": st.first,
                "contract": {"notation": spec.contract.notation, "deal": spec.deal,
                             "no_discard": spec.contract.no_discard},
                "buys": dict(st.buys), "down": sorted(st.down)}
    if st.result is not None:
        out["standings"] = [{"player": s.player, "total": s.total, "place": s.place} for s in st.result.standings]
    if st.finished and st.result is not None:
        out["winner"] = st.result.winners[0] if len(st.result.winners) == 1 else None
        out["winners"] = list(st.result.winners)
        out["decided_by"] = st.result.decided_by
    out["can_edit"] = can_edit
    return out


@bp.post("/games")
@with_lang
def create_game(data: dict[str, Any]) -> Any:
    if data.get("group") is not None:  # a game of a group: the group's edit token starts it
        group = _group_for(data.get("group"), data.get("group_token"), write=True)
        game, edit = group_services.start_game(group, data["group_token"], need(data, "ruleset"),
                                               data.get("variants"), data.get("options"), need(data, "players"),
                                               data.get("first_dealer", 0), via="api")
    else:
        game, edit = create.new_game(need(data, "ruleset"), data.get("variants"), data.get("options"),
                                     need(data, "players"), data.get("first_dealer", 0), via="api")
        db.session.commit()
    return jsonify({"id": game.id, "edit_token": edit, "view_token": game.view_token,
                    "players": [p.name for p in game.players],  # as stored: a group's roster spells its people
                    "edit_url": public.external_url("games.play", token=edit),
                    "view_url": public.external_url("games.play", token=game.view_token)}), 201


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> Any:
    game, can_edit = _game_for(game_id, write=False)
    return jsonify(game_json(game, can_edit))


def _api_entries(game: Any, data: dict[str, Any]) -> tuple[int | None, dict[int, Any]]:
    seat = create.Seats(game.players)
    out = data.get("out")
    if out is not None and not isinstance(out, str):
        raise Refusal("wrong_type", "out", expected=N_("a name"))
    if out is not None and out not in seat:
        raise Refusal("unknown_player", "out", status=422, name=str(out)[:40])
    leftovers = data.get("leftovers") or {}
    if not isinstance(leftovers, dict):
        raise Refusal("wrong_type", "leftovers", expected=N_("an object of names and cards"))
    entries = {}
    for name, cards in leftovers.items():
        if name not in seat:
            raise Refusal("unknown_player", f"leftovers.{str(name)[:40]}", status=422, name=str(name)[:40])
        if isinstance(cards, int) and not isinstance(cards, bool):
            entries[seat[name]] = services.entry(total=cards)
        elif isinstance(cards, str) and len(cards) <= 400:  # one string of cards separated by spaces
            entries[seat[name]] = services.entry(cards)
        elif isinstance(cards, list) and all(isinstance(c, str) for c in cards) and len(cards) <= 40:
            entries[seat[name]] = services.entry(cards)
        else:
            raise Refusal("wrong_type", f"leftovers.{str(name)[:40]}", expected=N_("a list of cards or a total"))
    return (None if out is None else seat[out]), entries


@bp.post("/games/<game_id>/hands")
@with_lang
def record_hand(data: dict[str, Any], game_id: str = "") -> Any:
    game, _ = _game_for(game_id, write=True)
    try:
        number = int_field(data, "hand")
        out, entries = _api_entries(game, data)
        saved = services.record_hand(game, number, out, entries, via="api",  # type: ignore[arg-type]
                                     exact_cut=bool_field(data, "exact_cut", False),
                                     expected_version=version_field(data), with_totals=True,
                                     request_id=request_id_field(data))
        db.session.commit()
    except RefereeError as e:
        if e.code == "already_recorded":  # say what is recorded, so the second phone can show it
            return jsonify(error_body(e) | {"recorded": game_json(game, True)["hands"]}), 409
        raise
    return hand_result(game, saved), 201


@bp.put("/games/<game_id>/hands/<int:number>")
@with_lang
def correct_hand(data: dict[str, Any], game_id: str = "", number: int = 0) -> Any:
    game, _ = _game_for(game_id, write=True)
    expected = version_field(data)
    out, entries = _api_entries(game, data)
    saved = services.correct_hand(game, number, out, entries, expected, via="api",
                                  exact_cut=bool_field(data, "exact_cut", False), with_totals=True,
                                  request_id=request_id_field(data))
    db.session.commit()
    return hand_result(game, saved), 200


def version_field(data: dict[str, Any]) -> int | None:
    """The game's version the client last read (optional): a write is refused (409) if the game moved on."""
    expected = data.get("version")
    if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
        raise Refusal("wrong_type", "version", expected=N_("a whole number"))
    return expected


def request_id_field(data: dict[str, Any]) -> str | None:
    """The id a client gives a write (optional): the same write sent again with it (a retry after a lost answer)
    is applied once and answered as the first was. 8 to 40 letters, digits, ``-`` or ``_``."""
    value = data.get("request_id")
    if value is None:
        return None
    if not isinstance(value, str) or not REQUEST_ID.fullmatch(value):
        raise Refusal("wrong_type", "request_id", expected=N_("8 to 40 letters, digits, - or _"))
    return value


def hand_result(game: Any, saved: services.Saved) -> Response:
    names = [p.name for p in game.players]
    summed = saved.totals if saved.totals is not None else gamestate.totals(game)
    return jsonify({"hand": saved.hand.number, "penalties": {names[r.seat]: r.score for r in saved.hand.results},
                    "totals": summed, "version": game.version})


@bp.post("/games/<game_id>/end")
@with_lang
def end_game(data: dict[str, Any], game_id: str = "") -> Any:
    """The table stops before the last hand: the game is over with the standings of the hands played."""
    game, _ = _game_for(game_id, write=True)
    expected = data.get("version")
    if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
        raise Refusal("wrong_type", "version", expected=N_("a whole number"))
    services.end_early(game, expected, via="api")
    db.session.commit()
    return jsonify(game_json(game, True)), 200


@bp.post("/games/<game_id>/players")
@with_lang
def join_player(data: dict[str, Any], game_id: str = "") -> Any:
    """A player sits down between hands: ``{"name", "after", "start"}`` (``after``: the player at whose left
    they sit, default the last seat; ``start``: "highest" (the default), "lowest", "zero" or a number)."""
    game, _ = _game_for(game_id, write=True)
    after = data.get("after")
    if after is not None:
        seats = create.Seats(game.players)
        if not isinstance(after, str) or after not in seats:
            raise Refusal("unknown_player", "after", status=422, name=str(after)[:40])
        after = seats[after]
    seating.join_player(game, need(data, "name"), after, data.get("start", "highest"), via="api",
                        expected_version=version_field(data), request_id=request_id_field(data))
    db.session.commit()
    return jsonify(game_json(game, True)), 201


@bp.post("/games/<game_id>/buys")
@with_lang
def add_buy(data: dict[str, Any], game_id: str = "") -> Any:
    game, _ = _game_for(game_id, write=True)
    seat = create.Seats(game.players)
    player = need(data, "player")
    if not isinstance(player, str):
        raise Refusal("wrong_type", "player", expected=N_("a name"))
    if player not in seat:
        raise Refusal("unknown_player", "player", status=422, name=str(player)[:40])
    number = int_field(data, "hand")
    outcome = services.add_buy(game, number, seat[player], via="api",  # type: ignore[arg-type]
                               request_id=request_id_field(data))
    db.session.commit()
    body = {"added": outcome.added, "buys_left": outcome.left, "reason_code": outcome.reason,
            "reason": error_text(outcome.reason, outcome.params) if outcome.reason in CODES else "",
            "rule": CODES[outcome.reason].rule if outcome.reason in CODES else "rule-buy-limit"}
    return jsonify(body), 201 if outcome.added else 409


def _group_for(group_id: Any, token: Any, write: bool) -> Any:
    """The group a token opens: no token is 401; a token that does not open this group is 404 (whether the
    group exists is not told); a view token where the edit token is needed is 403."""
    if not isinstance(token, str) or not token:
        raise Refusal("group_unauthorized", "group_token" if write else None)
    found = group_services.find(token)
    if found is None or found[0].id != group_id:
        raise Refusal("no_such_group", "group")
    group, can_edit = found
    if write and not can_edit:
        raise Refusal("group_forbidden", "group_token")
    return group


@bp.post("/groups")
@with_lang
def create_group(data: dict[str, Any]) -> Any:
    name = need(data, "name")
    if not isinstance(name, str):
        raise Refusal("wrong_type", "name", expected=N_("a name"))
    group, edit, _ = group_services.create_group(name)
    return jsonify({"id": group.id, "edit_token": edit, "view_token": group.view_token,
                    "edit_url": public.external_url("groups.show", token=edit),
                    "view_url": public.external_url("groups.show", token=group.view_token)}), 201


@bp.get("/groups/<group_id>")
def get_group(group_id: str) -> Any:
    token = _bearer()
    group = _group_for(group_id, token, write=False)
    family = request.args.get("ruleset")
    if family is not None and family not in FAMILIES:
        raise Refusal("unknown_ruleset", "ruleset", ruleset=family[:40])
    stats = group_stats.stats(group, family)
    return jsonify(group_stats.stats_json(group, stats,
                                             group_services.token_hash(token or "") == group.edit_hash))


# ------------------------------------------------------------------------------------------------ a tidy group
def _group_to_change(group_id: str) -> Any:
    """The group the bearer token opens, which must be its edit token."""
    token = _bearer()
    group = _group_for(group_id, token, write=False)
    if group_services.token_hash(token or "") != group.edit_hash:
        raise Refusal("group_view_only", None)
    return group


def _roster_json(group: Any) -> Response:
    return jsonify({"id": group.id, "name": group.name, "roster": [m.name for m in group.members]})


@bp.patch("/groups/<group_id>")
@with_lang
def rename_group(data: dict[str, Any], group_id: str = "") -> Any:
    group = _group_to_change(group_id)
    roster.rename_group(group, need(data, "name"))
    db.session.commit()
    return _roster_json(group), 200


@bp.delete("/groups/<group_id>")
def delete_group(group_id: str) -> Any:
    roster.delete_group(_group_to_change(group_id))
    db.session.commit()
    return "", 204


@bp.post("/groups/<group_id>/roster/rename")
@with_lang
def rename_member(data: dict[str, Any], group_id: str = "") -> Any:
    """``{"from", "to", "merge"}``: a name taken by another roster name is 409 ``name_taken`` unless merging."""
    group = _group_to_change(group_id)
    member = roster.member_of(group, need(data, "from"))
    roster.rename_member(group, member, need(data, "to"), merge=bool_field(data, "merge", False))
    db.session.commit()
    return _roster_json(group), 200


@bp.post("/groups/<group_id>/roster/remove")
@with_lang
def remove_member(data: dict[str, Any], group_id: str = "") -> Any:
    group = _group_to_change(group_id)
    roster.remove_member(group, roster.member_of(group, need(data, "name")))
    db.session.commit()
    return _roster_json(group), 200
