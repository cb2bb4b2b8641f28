"""A group's work on the database: create a group, keep its roster, start its games (and rematches).

Links work as a game's do: a long random edit token (only its hash is stored) and a view token. A group's
game gets an edit token derived from the group's edit token (an HMAC of the game's id), so whoever holds the
group's edit link can open each of its games for editing while the database keeps no token it could leak.

Its stats are ``stats``', its export and import ``transfer``'s.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import datetime, timezone
from typing import Any

from flask import current_app
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ...families import FAMILIES
from ...table import deal_order
from ..errors import Refusal
from ..models import Game, Group, GroupGame, Member, begin_write, db
from ..scoreboard import create, gamestate, reads

NAME_MAX = 60
token_hash = reads.token_hash
new_token = create.new_token


# ------------------------------------------------------------------------------------------------ names
def clean(name: Any) -> str:
    """A group's or a roster's name as kept: spaces made one, and no control characters (a NUL) or halves of a
    character (a lone surrogate), which no database or page can hold (as players' names: ``games._printable``)."""
    return " ".join(create.printable(name).split()) if isinstance(name, str) else ""


def name_key(name: str) -> str:
    """One person whatever the case, as a game knows its players (``create.name_key``), of the cleaned name."""
    return create.name_key(clean(name))


# ------------------------------------------------------------------------------------------------ groups
def create_group(name: Any, edit: str | None = None) -> tuple[Group, str, bool]:
    """A new group; returns it with its edit token (only its hash is stored), and whether it was made now.
    ``edit``: the edit token a form's tap gives it (``routes.new``): a group that already has it and the same
    name is that tap's group, made by a tap before (a double tap, a form sent again), and is returned as it is."""
    text = group_name(name)
    if edit is not None:
        found = find(edit)
        if found is not None:
            if _made_by(found, text):
                return found[0], edit, False
            edit = None  # the same form sent again with another name: a group of its own
    group, token = new_group(text, edit)
    try:
        db.session.commit()
    except IntegrityError:  # the other tap of a double tap made it a moment ago
        db.session.rollback()
        found = find(edit) if edit is not None else None
        if found is None or not _made_by(found, text):
            raise
        return found[0], token, False
    return group, token, True


def group_name(name: Any) -> str:
    """A group's name as kept (``clean``), or the refusal that says what is wrong with it."""
    text = clean(name)
    if not text:
        raise Refusal("group_name_missing", "name")
    if len(text) > NAME_MAX:
        raise Refusal("group_name_long", "name", maximum=NAME_MAX)
    return text


def new_group(name: str, edit: str | None = None) -> tuple[Group, str]:
    """A group of that (cleaned) name, added to the session (the caller commits), and its edit token."""
    token = edit or new_token()
    group = Group(id=secrets.token_hex(6), name=name, edit_hash=token_hash(token), view_token=new_token())
    db.session.add(group)
    return group, token


def _made_by(found: tuple[Group, bool], name: str) -> bool:
    """Whether the group a form's tap token opens is that form's group: opened to edit, and of its name."""
    return found[1] and found[0].name == name


def find(token: str) -> tuple[Group, bool] | None:
    """The group a link opens, and whether the link may change it."""
    if not isinstance(token, str) or not reads.TOKEN.fullmatch(token):  # (a NUL, a slash: opens nothing)
        return None
    digest = token_hash(token)
    group = db.session.execute(select(Group).where(
        (Group.edit_hash == digest) | (Group.view_token == token))).scalar_one_or_none()
    if group is None:
        return None
    return group, group.edit_hash == digest


def find_many(tokens: list[str]) -> list[tuple[str, Group, bool]]:
    """The groups a list of remembered links opens, in one query."""
    tokens = [t for t in tokens if isinstance(t, str) and reads.TOKEN.fullmatch(t)]
    if not tokens:
        return []
    digests = {token_hash(t): t for t in tokens}
    rows = db.session.execute(select(Group).where(
        Group.edit_hash.in_(list(digests)) | Group.view_token.in_(tokens))).scalars().all()
    by_token: dict[str, tuple[Group, bool]] = {}
    for g in rows:
        if g.edit_hash in digests:
            by_token[digests[g.edit_hash]] = (g, True)
        if g.view_token in tokens:
            by_token[g.view_token] = (g, False)
    return [(t, *by_token[t]) for t in tokens if t in by_token]


def game_token(group_edit_token: str, game_id: str) -> str:
    """The edit token of a group's game: derived from the group's edit token, so it is never stored."""
    mac = hmac.new(group_edit_token.encode(), b"game:" + game_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode()  # 192 bits, like every other token


def tap_token(once: Any, who: str) -> str | None:
    """The edit token of the group a form's tap makes: derived from the form (``once``, drawn with it) and from
    whoever sent it (``who``: their session's own secret), so that a second tap on the same form finds the
    group the first made, and nobody else's form can. None for a form without it."""
    if not isinstance(once, str) or not reads.TOKEN.fullmatch(once):
        return None
    key = current_app.secret_key
    key = key if isinstance(key, bytes) else str(key).encode()
    mac = hmac.new(key, b"group:" + who.encode() + b"\0" + once.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode()


def group_of_game(game: Game) -> Group | None:
    link = db.session.get(GroupGame, game.id)
    return link.group if link is not None else None


def can_edit_game(group_edit_token: str, link: GroupGame) -> bool:
    return link.deleted_at is None and token_hash(game_token(group_edit_token, link.game_id)) == link.game.edit_hash


# ------------------------------------------------------------------------------------------------ roster
def roster_name(name: Any) -> str:
    """A name for the roster as kept (``clean``), or the refusal that says what is wrong with it."""
    text = clean(name)
    if not text:
        raise Refusal("empty_name", "name")
    if len(text) > 40:
        raise Refusal("long_name", "name", maximum=40)
    return text


def add_members(group: Group, names: list[Any]) -> list[Member]:
    """Add names to the roster in one pass (each name already there, in any case, is that person), in the session
    (the request commits). A roster of thousands costs its size: one look-up a name, one commit for all."""
    known = {m.key: m for m in group.members}
    out = []
    for name in names:
        text = roster_name(name)
        key = name_key(text)
        member = known.get(key)
        if member is None:
            member = known[key] = Member(name=text, key=key)
            group.members.append(member)
        out.append(member)
    return out


def canonical(group: Group, names: list[str]) -> tuple[list[str], list[Member]]:
    """The names as the roster spells them, and the members to add for the names it does not know yet."""
    by_key = {m.key: m for m in group.members}
    out, new = [], []
    for n in names:
        key = name_key(n)
        if key in by_key:
            out.append(by_key[key].name)
        else:
            member = Member(name=clean(n), key=key)
            by_key[key] = member
            new.append(member)
            out.append(member.name)
    return out, new


# ------------------------------------------------------------------------------------------------ games
def start_game(group: Group, group_edit_token: str, family: Any, variants: Any, options: Any, names: Any,
               first_dealer: Any = 0, via: str = "edit link") -> tuple[Game, str]:
    """A new game of the group; the names join the roster (one person whatever the case). Returns the game
    and its edit token."""
    if not isinstance(family, str) or family not in FAMILIES:
        raise Refusal("unknown_ruleset", "ruleset", ruleset=str(family)[:40])
    cleaned = create.clean_names(names, family)
    # one start at a time in a group (its row locked on PostgreSQL; the file's write lock on SQLite), so that two
    # taps, or two phones starting the same game, make one game and never an orphan
    begin_write()
    if db.engine.dialect.name == "postgresql":
        db.session.execute(select(Group.id).where(Group.id == group.id).with_for_update())
    db.session.expire(group, ["members"])
    spelled, new = canonical(group, cleaned)
    same = _just_started(group, family, variants, options, spelled, first_dealer)
    if same is not None:  # the same game started a moment ago, and not played yet: that one
        db.session.rollback()
        return same, game_token(group_edit_token, same.id)
    return _started(group, group_edit_token, family, variants, options, spelled, new, first_dealer, via)


DOUBLE_TAP_S = 60  # the same game started again within this long, before a hand is played: the same start


def _just_started(group: Group, family: str, variants: Any, options: Any, names: list[str],
                  first_dealer: Any) -> Game | None:
    """The group's newest game, if it is this very game (rules, players in their seats, first dealer), started
    within ``DOUBLE_TAP_S`` and with no hand recorded: a second tap on the same button."""
    newest = db.session.execute(
        select(Game).join(GroupGame, GroupGame.game_id == Game.id)
        .where(GroupGame.group_id == group.id, GroupGame.deleted_at.is_(None))
        .order_by(Game.created_at.desc(), Game.id.desc()).limit(1)).unique().scalar_one_or_none()
    if newest is None or newest.hands_recorded or newest.created_at is None:
        return None
    made = newest.created_at if newest.created_at.tzinfo else newest.created_at.replace(tzinfo=timezone.utc)
    if (datetime.now(timezone.utc) - made).total_seconds() > DOUBLE_TAP_S:
        return None
    same = (newest.family == family and list(newest.variants) == list(variants or [])
            and dict(newest.options) == dict(options or {}) and [p.name for p in newest.players] == names
            and newest.first_dealer == first_dealer)
    return newest if same else None


def _started(group: Group, group_edit_token: str, family: str, variants: Any, options: Any, spelled: list[str],
             new: list[Member], first_dealer: Any, via: str) -> tuple[Game, str]:
    game, _ = create.new_game(family, variants, options, spelled, first_dealer, via)  # (not committed alone)
    edit = game_token(group_edit_token, game.id)
    game.edit_hash = token_hash(edit)
    group.members.extend(new)
    db.session.add(GroupGame(game_id=game.id, group_id=group.id))
    db.session.commit()  # the game, its place in the group and its new names together, or none of them
    return game, edit


def last_game(group: Group, family: str | None = None) -> Game | None:
    """The group's latest game that is not deleted (of ``family``, if given)."""
    rows = db.session.execute(
        select(Game).join(GroupGame, GroupGame.game_id == Game.id)
        .where(GroupGame.group_id == group.id, GroupGame.deleted_at.is_(None),
               *([Game.family == family] if family else []))
        .order_by(Game.created_at.desc(), Game.id).limit(1)).scalars().first()
    return rows


def game_in_group(group: Group, game_id: str) -> GroupGame | None:
    link = db.session.get(GroupGame, game_id)
    return link if link is not None and link.group_id == group.id else None


def next_dealer(game: Game) -> int:
    """The seat of whoever deals after the game's first dealer, as the family passes the deal."""
    names = [p.name for p in game.players]
    after = deal_order(gamestate.rules_of(game), names, 2, game.first_dealer).dealer
    return names.index(after)


def rematch(group: Group, group_edit_token: str, game_id: str | None = None) -> tuple[Game, str]:
    """The next game with the same players in the same seats and the same rules, the first deal moved on."""
    if game_id:
        link = game_in_group(group, game_id)
        before = link.game if link is not None and link.deleted_at is None else None
    else:
        before = last_game(group)
    if before is None:
        raise Refusal("nothing_to_rematch", None)
    return start_game(group, group_edit_token, before.family, list(before.variants), dict(before.options),
                      [p.name for p in before.players], next_dealer(before))


