"""A game's players between hands: renamed at any point (a typo fixed follows the person into the group's roster
and other games), or put in a new seat order before the first hand is recorded."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update

from ..errors import Refusal
from ..models import Buy, Change, Down, Game, GroupGame, Member, Player, db, now
from .create import clean_name, name_key
from .reads import GAMES
from .services import Write


def rename_player(game: Game, seat: int, name: Any, via: str = "edit link") -> bool:
    """A player's new name, at any point of the game (kept in the history); False when it is the same."""
    if not isinstance(seat, int) or not 0 <= seat < len(game.players):
        raise Refusal("unknown_player", "player", name=str(seat)[:40])
    if not isinstance(name, str):
        raise Refusal("bad_players", f"name_{seat}")
    new = clean_name(name, f"name_{seat}")
    if new == game.players[seat].name:
        return False
    with Write(game, "changes"):
        player = game.players[seat]
        if any(p.name.casefold() == new.casefold() for p in game.players if p.seat != seat):
            raise Refusal("duplicate_name", f"name_{seat}")
        old = player.name
        player.name = new
        db.session.add(Change(game_id=game.id, via=via, kind="renamed", seat=seat, before={"name": old},
                              after={"name": new}))
        _renamed_in_group(game, old, new)
    return True


def _renamed_in_group(game: Game, old: str, new: str) -> None:
    """A rename in a group's game is a typo fixed: the person is renamed in the group, on its roster and in its
    other games (so that the group's figures keep one person), and those games' pages are told (their version
    moves on). Where the new name is already another person of the roster, this seat becomes that person and
    nobody else is renamed."""
    link = db.session.get(GroupGame, game.id)
    if link is None:
        return
    old_key, new_key = name_key(old), name_key(new)
    members = db.session.execute(select(Member).where(Member.group_id == link.group_id)).scalars().all()
    person = next((m for m in members if m.key == old_key), None)
    if person is None or (new_key != old_key and any(m.key == new_key for m in members)):
        return
    person.name, person.key = new, new_key
    others = select(GroupGame.game_id).where(GroupGame.group_id == link.group_id, GroupGame.game_id != game.id)
    respell([p for p in db.session.execute(select(Player).where(Player.game_id.in_(others))).scalars()
             if name_key(p.name) == old_key], new)


def respell(seats: list[Player], name: str) -> None:
    """Each of these seats (of any games) takes ``name``, and each game touched moves to a new version, so that
    every phone on it redraws its board (a person renamed across a group's games)."""
    for p in seats:
        p.name = name
    if seats:
        db.session.flush()
        db.session.execute(update(GAMES).where(GAMES.c.id.in_({p.game_id for p in seats}))
                           .values(version=GAMES.c.version + 1, updated_at=now()))


def reorder_seats(game: Game, order: Any, via: str = "edit link") -> None:
    """The players in a new seat order (``order``: the old seats, in their new order), before the first hand is
    recorded. Buys and who has gone down follow their players; so does the first deal."""
    n = len(game.players)
    if not isinstance(order, list) or sorted(order) != list(range(n)):
        raise Refusal("bad_players", "players")
    if order == list(range(n)):
        return
    with Write(game, "players", "buys", "current_buys", "downs", "changes", "last_undoable"):
        if game.hands_recorded:
            raise Refusal("seats_fixed", "players")
        new_seat = {old: new for new, old in enumerate(order)}
        before = [p.name for p in game.players]
        players = list(game.players)
        for p in players:  # out of the way first: (game, seat) is unique
            p.seat += n
        db.session.flush()
        for p in players:
            p.seat = new_seat[p.seat - n]
        rows: list[Buy | Down | Change] = [*game.buys, *game.downs, *game.changes]
        for row in rows:
            if row.seat is not None:
                row.seat = new_seat.get(row.seat, row.seat)
        game.first_dealer = new_seat[game.first_dealer]
        db.session.flush()
        db.session.add(Change(game_id=game.id, via=via, kind="seats_reordered", before={"names": before},
                              after={"names": [before[i] for i in order]}))
