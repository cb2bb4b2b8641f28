"""A game's players between hands: renamed at any point (a typo fixed follows the person into the group's roster
and other games), put in a new seat order before the first hand is recorded, or joined by a player who sits
down after the game began."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update

from ...history import PlayerJoined, PlayerLeft
from ...i18n import N_
from ...scoring import START_CHOICES, starting_score
from ..errors import Refusal
from ..models import Buy, Change, Down, Game, GroupGame, Member, Player, Result, db, now
from .create import clean_name, name_key
from .gamestate import rules_of, totals
from .reads import GAMES
from .services import Write, version_arg


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


# ------------------------------------------------------------------------------------------- a late player
START_MOST = 100_000


def join_player(game: Game, name: Any, after: Any = None, start: Any = "highest", via: str = "edit link",
                expected_version: Any = None, request_id: str | None = None) -> Player:
    """A player sits down between hands, before the next hand's deal: at the left of the player in seat
    ``after`` (None: of the last seat), playing from that hand on, with the starting score the table gives
    (``start``: the highest total so far, the lowest, zero, or a number; the documents are silent, so it is a
    house choice). In a group's game the name joins the roster, spelled as the roster does."""
    n = len(game.players)
    fam = rules_of(game).family
    if n + 1 > fam.players[1]:
        raise Refusal("players_out_of_range", "name", status=422, minimum=fam.players[0], maximum=fam.players[1])
    if not isinstance(name, str):
        raise Refusal("bad_players", "name")
    new = clean_name(name, "name")
    if after is not None and (not isinstance(after, int) or isinstance(after, bool) or not 0 <= after < n):
        raise Refusal("unknown_player", "after", name=str(after)[:40])
    if not (start in START_CHOICES or (isinstance(start, int) and not isinstance(start, bool)
                                       and 0 <= start <= START_MOST)):
        raise Refusal("wrong_type", "start", expected=N_("\"highest\", \"lowest\", \"zero\" or a whole number"))
    with Write(game, "players", "hands", "buys", "current_buys", "downs", "changes", "last_undoable",
               request_id=request_id) as w:
        if w.replayed is not None:  # the same sitting down sent again: made once
            w.cancel()
            return next(p for p in game.players if p.seat == w.replayed.seat)
        w.expect(version_arg(expected_version))
        new = _roster_spelling(game, new)
        if any(p.name.casefold() == new.casefold() for p in game.players):
            raise Refusal("duplicate_name", "name")
        hand = game.hands_recorded + 1
        if game.ended_at is not None or hand > len(rules_of(game).hands):
            raise Refusal("game_ended", "name", hand=game.hands_recorded)
        if game.current_buys or any(d.hand_number == hand for d in game.downs):
            raise Refusal("hand_under_way", "name", hand=hand)
        move = PlayerJoined(hand, n if after is None else after + 1, new, _start(game, start))
        seat_player(game, move)
        db.session.add(Change(game_id=game.id, via=via, **move.stored(), request_id=request_id))
        player = next(p for p in game.players if p.seat == move.seat)
    return player


def _start(game: Game, start: Any) -> int:
    """The starting score ``start`` says: a number typed, or the engine's choice from the totals so far."""
    if isinstance(start, int):
        return start
    return starting_score(start, list(totals(game).values()) if game.hands_recorded else [])


def _roster_spelling(game: Game, name: str) -> str:
    """In a group's game, the name as the roster spells it, the name added to the roster if it is new."""
    link = db.session.get(GroupGame, game.id)
    if link is None:
        return name
    key = name_key(name)
    member = db.session.execute(select(Member).where(Member.group_id == link.group_id, Member.key == key)
                                ).scalar_one_or_none()
    if member is None:
        db.session.add(Member(group_id=link.group_id, name=name, key=key))
        return name
    return member.name


def seat_player(game: Game, move: PlayerJoined) -> None:
    """``move``'s player sits down at its seat (inside a write): the players from that seat on, and everything
    the game keeps by seat, move one seat along."""
    # (the lines of this very sitting down, when it is done again, keep its seat: they name the seat it takes)
    own = {c.id for c in game.changes if c.kind == move.kind and (c.hand_number, c.seat) == (move.hand, move.seat)
           and (c.after or {}).get("name") == move.name}
    own |= {c.id for c in game.changes if c.kind in ("undo", "redo")
            and ((c.before or {}).get("undid") in own or (c.before or {}).get("redid") in own)}
    _move_seats(game, move.seat, 1, own)
    db.session.add(Player(game_id=game.id, seat=move.seat, name=move.name, joined_hand=move.hand,
                          start_total=move.start))
    db.session.flush()
    db.session.expire(game, ["players"])


def unseat_player(game: Game, move: PlayerLeft) -> None:
    """A late player taken out again (the undo of their sitting down): the seats after theirs move back."""
    player = next(p for p in game.players if p.seat == move.seat)
    db.session.delete(player)
    db.session.flush()
    db.session.expire(game, ["players"])
    _move_seats(game, move.seat + 1, -1)


def _move_seats(game: Game, first: int, by: int, own: set[int] | frozenset[int] = frozenset()) -> None:
    """Every seat from ``first`` on moves ``by`` (players, results, buys, downs, who went out, the history's
    lines but those in ``own``, and the first dealer), unique seats moved out of the way first."""
    unique: list[Player | Result | Down] = [p for p in game.players if p.seat >= first]
    unique += [r for h in game.hands for r in h.results if r.seat >= first]
    unique += [d for d in game.downs if d.seat >= first]
    for row in unique:
        row.seat += _OUT_OF_THE_WAY
    db.session.flush()
    kept: list[Buy | Change] = [*game.buys, *(c for c in game.changes if c.id not in own)]
    for row in unique:
        row.seat += by - _OUT_OF_THE_WAY
    for line in kept:
        if line.seat is not None and line.seat >= first:
            line.seat += by
    for h in game.hands:
        if h.out_seat is not None and h.out_seat >= first:
            h.out_seat += by
    if game.first_dealer >= first:
        game.first_dealer += by
    db.session.flush()


_OUT_OF_THE_WAY = 1000  # more seats than any table has
