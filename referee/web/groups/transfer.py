"""A group's export and import: its name, roster and every game with its hands (deleted games too: the stats
count them), each checked by the engine as it is recorded again."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import insert

from ...errors import RefereeError
from ..errors import Refusal
from ..models import Game, Group, GroupGame, Member, db
from ..scoreboard import transfer
from .services import canonical, create_group, delete_game, game_token, name_key, roster_name, token_hash
from .stats import games_of

EXPORT_FORMAT = 1


MAX_IMPORT_GAMES = 500


def export_data(group: Group) -> dict[str, Any]:
    """The whole group: its name, roster and every game (deleted ones too: the stats count them)."""
    return {
        "format": EXPORT_FORMAT,
        "kind": "group",
        "name": group.name,
        "roster": [m.name for m in group.members],
        "games": [transfer.export_data(link.game) | {"deleted": link.deleted_at is not None}
                  for link in games_of(group, None)],
    }


def _when(text: Any) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def import_data(data: Any) -> tuple[Group, str]:
    """A new group that is the exported one: its roster and every game with its hands, each checked by the
    engine as it is recorded again. Nothing is kept of a file that fails."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT or data.get("kind") != "group":
        raise Refusal("bad_group_import", None)
    roster, exported = data.get("roster") or [], data.get("games") or []
    if not isinstance(roster, list) or not isinstance(exported, list) or len(exported) > MAX_IMPORT_GAMES:
        raise Refusal("bad_group_import", None)
    group, edit, _ = create_group(data.get("name"))
    made: list[str] = []
    try:
        if not all(isinstance(name, str) for name in roster):
            raise Refusal("bad_group_import", None)
        _import_roster(group, roster)
        for item in exported:
            if not isinstance(item, dict):
                raise Refusal("bad_group_import", None)
            game, _ = transfer.import_data(item)
            made.append(game.id)
            spelled, new = canonical(group, [p.name for p in game.players])
            for player, name in zip(game.players, spelled):
                player.name = name
            group.members.extend(new)
            when = _when(item.get("created_at"))
            if when is not None:
                game.created_at = when
            game.edit_hash = token_hash(game_token(edit, game.id))
            link = GroupGame(game_id=game.id, group_id=group.id)
            db.session.add(link)
            db.session.commit()
            if item.get("deleted"):
                delete_game(link)
    except RefereeError:
        _discard(group, made)
        raise
    except (KeyError, TypeError, ValueError, AttributeError):
        _discard(group, made)
        raise Refusal("bad_group_import", None) from None
    return group, edit


def _import_roster(group: Group, roster: list[str]) -> None:
    """A new group's roster in one statement and one commit (a name twice, in any case, is one person)."""
    rows: dict[str, dict[str, str]] = {}
    for name in roster:
        text = roster_name(name)
        rows.setdefault(name_key(text), {"group_id": group.id, "name": text, "key": name_key(text)})
    if rows:
        db.session.execute(insert(Member.__table__), list(rows.values()))
    db.session.commit()
    db.session.expire(group, ["members"])


def _discard(group: Group, game_ids: list[str]) -> None:
    db.session.rollback()
    for gid in game_ids:
        game = db.session.get(Game, gid)
        if game is not None:
            db.session.delete(game)
    db.session.delete(group)
    db.session.commit()
