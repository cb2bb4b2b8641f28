"""Keeping a group tidy: rename the group, rename a name on its roster (or merge it with its typo twin), remove
a name that played no game, delete the group. Each is a change in the session; the request commits.

A roster name is one person in every game of the group: the games' players are matched to the roster by the
name case-folded (``services.name_key``). So renaming a name renames that player in each of the group's games
(their boards show it at once: each such game moves to a new version), and merging "Anna" into "Ana" makes
Anna's games Ana's. Two names that sat at one table are two people: they are not merged.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select

from ..errors import Refusal
from ..models import Game, Group, GroupGame, Member, Player, begin_write, db
from ..scoreboard.seating import respell
from .services import group_name, name_key, roster_name


def rename_group(group: Group, name: Any) -> None:
    group.name = group_name(name)


def member_of(group: Group, name: Any) -> Member:
    """The roster's name ``name`` (in any case), or the refusal that says it is not on the roster."""
    key = name_key(name) if isinstance(name, str) else ""
    found = next((m for m in group.members if m.key == key), None)
    if found is None:
        raise Refusal("not_on_roster", "name", name=str(name)[:40])
    return found


def seats_by_name(group: Group) -> dict[str, list[Player]]:
    """The seats each roster name (case-folded) took in the group's games, deleted games too (their hands still
    count in the group's figures): one query."""
    rows = db.session.execute(
        select(Player).join(GroupGame, GroupGame.game_id == Player.game_id).where(GroupGame.group_id == group.id)
    ).scalars().all()
    out: dict[str, list[Player]] = defaultdict(list)
    for p in rows:
        out[name_key(p.name)].append(p)
    return out


def rename_member(group: Group, member: Member, name: Any, merge: bool = False) -> Member:
    """Respell or rename a roster name, and the player in each game it played. A name another roster name
    already has is refused (``name_taken``) unless ``merge``: then the two are one person, kept under that
    other name. Returns the name the person has now."""
    text = roster_name(name)
    key = name_key(text)
    begin_write()  # (the games' seats are read under the write's lock: no game starts with them meanwhile)
    other = next((m for m in group.members if m.key == key and m is not member), None)
    if other is not None:
        if not merge:
            raise Refusal("name_taken", "name", name=other.name, old=member.name)
        merge_members(group, member, other)
        return other
    respell(seats_by_name(group).get(member.key, []), text)
    member.name, member.key = text, key
    group.roster_version += 1
    return member


def merge_members(group: Group, gone: Member, kept: Member) -> None:
    """``gone`` and ``kept`` are one person: ``gone``'s games become ``kept``'s, and ``gone`` leaves the roster.
    Refused (``merge_same_game``) where both sat in one game: two people played it."""
    begin_write()
    seats = seats_by_name(group)
    shared = {p.game_id for p in seats.get(gone.key, [])} & {p.game_id for p in seats.get(kept.key, [])}
    if shared:
        raise Refusal("merge_same_game", "name", name=gone.name, other=kept.name, games=len(shared))
    respell(seats.get(gone.key, []), kept.name)
    group.members.remove(gone)
    group.roster_version += 1


def remove_member(group: Group, member: Member) -> None:
    """Take a name off the roster; one that played a game stays (its games would lose their player)."""
    begin_write()
    played = len({p.game_id for p in seats_by_name(group).get(member.key, [])})
    if played:
        raise Refusal("member_has_games", "name", name=member.name, games=played)
    group.members.remove(member)
    group.roster_version += 1


def delete_group(group: Group) -> None:
    """The group, its roster and its list of games go; its games stay, each opened by its own links (a game's
    edit link is kept as a hash of its own, whatever group gave it). The games deleted before, which no link
    opens and which were kept only for the group's figures, go with it."""
    begin_write()
    gone = [link.game_id for link in group.games if link.deleted_at is not None]
    db.session.delete(group)
    db.session.flush()
    for game in db.session.execute(select(Game).where(Game.id.in_(gone))).unique().scalars() if gone else ():
        db.session.delete(game)
