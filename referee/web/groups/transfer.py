"""A group's export and import: its name, roster and every game with its hands (deleted games too: the stats
count them), each checked by the engine as it is recorded again."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError

from ...errors import RefereeError
from ..errors import Refusal
from ..models import Group, GroupGame, Member, begin_write, db
from ..scoreboard import services as games_services
from ..scoreboard import transfer
from .services import (
    canonical,
    game_token,
    group_name,
    name_key,
    new_group,
    roster_name,
    token_hash,
)
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
    """A new group that is the exported one: its roster and every game with its hands, each played back through
    the checks live entry makes, then all written in one transaction: nothing is kept of a file that fails."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT or data.get("kind") != "group":
        raise Refusal("bad_group_import", None)
    roster, exported = data.get("roster") or [], data.get("games") or []
    if not isinstance(roster, list) or not isinstance(exported, list) or len(exported) > MAX_IMPORT_GAMES \
            or not all(isinstance(name, str) for name in roster) or not all(isinstance(g, dict) for g in exported):
        raise Refusal("bad_group_import", None)
    name = group_name(data.get("name"))
    games = [transfer.played_back(item) for item in exported]  # in memory: the checks hold no lock
    try:
        begin_write()
        group, edit = new_group(name)
        db.session.flush()
        _import_roster(group, roster)
        for item, imported in zip(exported, games):
            game = imported.game
            spelled, new = canonical(group, [p.name for p in game.players])
            for player, spelling in zip(game.players, spelled):
                player.name = spelling
            group.members.extend(new)
            game.created_at = _when(item.get("created_at")) or game.created_at
            game.edit_hash = token_hash(game_token(edit, game.id))
            imported.write()
            db.session.add(GroupGame(game_id=game.id, group_id=group.id))
            if item.get("deleted"):
                db.session.flush()
                games_services.delete_game(game)
        db.session.commit()
    except RefereeError:
        db.session.rollback()
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IntegrityError):
        db.session.rollback()
        raise Refusal("bad_group_import", None) from None
    except BaseException:
        db.session.rollback()
        raise
    return group, edit


def _import_roster(group: Group, roster: list[str]) -> None:
    """A new group's roster in one statement (a name twice, in any case, is one person)."""
    rows: dict[str, dict[str, str]] = {}
    for name in roster:
        text = roster_name(name)
        rows.setdefault(name_key(text), {"group_id": group.id, "name": text, "key": name_key(text)})
    if rows:
        db.session.execute(insert(Member.__table__), list(rows.values()))
    db.session.expire(group, ["members"])
