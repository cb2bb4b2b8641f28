"""A new game: its players' names cleaned (and how a name is matched, whatever its case and spacing), its seats
by name, its links' tokens, and the game itself with its first change."""

from __future__ import annotations

import secrets
import unicodedata
from typing import Any

from ...families import FAMILIES, resolve
from ..errors import Refusal
from ..models import Change, Game, Player, db
from .reads import token_hash


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


def clean_name(name: str, field: str = "players") -> str:
    """A player's name with its spaces tidied; refused when empty or too long."""
    out = " ".join(printable(name).split())
    if not out:
        raise Refusal("empty_name", field)
    if len(out) > 40:
        raise Refusal("long_name", field, maximum=40)
    return out


def clean_names(names: Any, fam_id: str) -> list[str]:
    fam = FAMILIES[fam_id]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise Refusal("bad_players", "players")
    if len(names) > fam.players[1]:  # before anything else: a form may send any number of names
        raise Refusal("players_out_of_range", "players", status=422, minimum=fam.players[0], maximum=fam.players[1])
    out = [clean_name(n) for n in names]
    if len({n.casefold() for n in out}) != len(out):
        raise Refusal("duplicate_name", "players")
    if not fam.players[0] <= len(out) <= fam.players[1]:
        raise Refusal("players_out_of_range", "players", status=422, minimum=fam.players[0], maximum=fam.players[1])
    return out


class Seats(dict[str, int]):
    """A game's seats by its players' names, as a client may write a name: in any case and with any spacing
    ("ana", " ANA "), since no two players of a game differ only in that (``clean_names``)."""

    def __init__(self, players: Any) -> None:
        super().__init__((p.name, p.seat) for p in players)
        self._folded = {name_key(p.name): p.seat for p in players}

    def __missing__(self, name: object) -> int:
        if isinstance(name, str) and name_key(name) in self._folded:
            seat: int = self._folded[name_key(name)]
            return seat
        raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        return super().__contains__(name) or (isinstance(name, str) and name_key(name) in self._folded)


def name_key(name: str) -> str:
    """One person whatever the case and spacing: "ann", " ANN " and "Ann" are one key (a game's seats are found
    by it; a group's roster keeps it, of the name as the group cleans it)."""
    return " ".join(name.split()).casefold()


def printable(text: str) -> str:
    """A name without control characters (a NUL, a bell) or halves of a character (a lone surrogate, which a
    JSON escape can carry): nobody types them, and no database or page can hold them all."""
    return "".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cs"))


def new_game(family: Any, variants: Any, options: Any, names: Any, first_dealer: Any = 0,
             via: str = "edit link") -> tuple[Game, str]:
    """A new game, added to the session (the request that makes it commits), with its edit token (only its hash
    is stored)."""
    if not isinstance(family, str) or family not in FAMILIES:
        raise Refusal("unknown_ruleset", "ruleset", ruleset=str(family)[:40])
    players = clean_names(names, family)
    rules = resolve(family, variants or [], options or {}, len(players))
    if not isinstance(first_dealer, int) or isinstance(first_dealer, bool) or not 0 <= first_dealer < len(players):
        raise Refusal("bad_dealer", "first_dealer")
    edit = new_token()
    game = Game(id=secrets.token_hex(6), family=family, variants=list(rules.variants),
                options=dict(options or {}), first_dealer=first_dealer, edit_hash=token_hash(edit),
                view_token=new_token(), version=1)
    game.players = [Player(seat=i, name=n, joined_hand=1, start_total=0) for i, n in enumerate(players)]
    game.hands, game.buys, game.downs = [], [], []
    db.session.add(game)
    db.session.add(Change(game_id=game.id, via=via, kind="created"))
    return game, edit
