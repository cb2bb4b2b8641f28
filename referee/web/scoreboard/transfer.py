"""A game as a file and back: the JSON export (``export_data``) and its import, played back through the checks
live entry makes (``import_data``), and the CSV a spreadsheet opens (``export_csv``)."""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from ...errors import RefereeError
from ...families import Rules
from ...history import BuyAdded, DownSet, EndedEarly, HandRecorded, Move, PlayerJoined
from ...scoring import net_score, standings, typed_total
from ...table import buy_refused
from ..errors import Refusal
from ..models import Buy, Change, Down, Game, Result, begin_write, db, now
from .create import Seats, new_game
from .gamestate import rules_of, start_totals, state
from .reads import HANDS, RESULTS
from .seating import START_MOST
from .services import (
    PlayedBack,
    checked,
    cutter_of,
    entry,
    snapshot,
)

EXPORT_FORMAT = 1


def export_data(game: Game) -> dict[str, Any]:
    st = state(game)
    return {
        "format": EXPORT_FORMAT,
        "ruleset": game.family,
        "variants": list(game.variants),
        "options": dict(game.options),
        "players": st.names,
        "first_dealer": game.first_dealer,
        "created_at": game.created_at.isoformat() if game.created_at else None,
        "hands": [{"hand": h.number, "out": None if h.out_seat is None else st.names[h.out_seat],
                   "exact_cut": bool(h.cut_bonus), "replay": bool(h.replay),
                   "leftovers": {st.names[r.seat]: r.cards for r in h.results if r.seat != h.out_seat},
                   "penalties": {st.names[r.seat]: r.score for r in h.results}} for h in game.hands],
        "buys": [{"hand": b.hand_number, "player": st.names[b.seat]} for b in sorted(game.buys, key=lambda b: b.id)],
        "down": [{"hand": d.hand_number, "player": st.names[d.seat]} for d in game.downs],
        "joined_late": [{"player": p.name, "hand": p.joined_hand, "start": p.start_total}
                        for p in game.players if p.joined_hand > 1],
        "totals": st.totals,
        "ended_early": st.ended_early,
        "winners": list(st.result.winners) if st.finished and st.result else None,
    }


MAX_IMPORT_ITEMS = 2000  # hands, buys and downs in one import: far more than any evening's game


def import_data(data: Any) -> tuple[Game, str]:
    """A new game that is exactly the exported one (its hands, typed totals, buys and who went down), or
    nothing at all: the export is played back through the checks live entry makes (``played_back``), in one
    transaction that is only committed once every part of it has passed."""
    # Played back in memory, then written in one burst: an import's checking and scoring never holds the
    # database (on SQLite, every table's saves) while it works.
    imported = played_back(data)
    try:
        begin_write()
        imported.write()
        db.session.commit()
    except IntegrityError:  # (rows the checks let through that the tables refuse: the same down twice)
        db.session.rollback()
        raise Refusal("bad_import", None) from None
    except BaseException:
        db.session.rollback()
        raise
    db.session.expire(imported.game)
    return imported.game, imported.edit


@dataclass
class Imported:
    """A game of an export, played back and checked in memory (added to the session, nothing written yet), with
    its edit token; ``write`` writes it in the caller's transaction."""

    game: Game
    edit: str
    burst: _Burst
    ended: bool

    def write(self) -> None:
        db.session.flush()  # the game, its players, its "created"
        self.burst.write()
        if self.ended:
            self.game.ended_at = now()
            db.session.add(Change(game_id=self.game.id, via="import", **EndedEarly(len(self.burst.hands)).stored()))


def played_back(data: Any) -> Imported:
    """An export played back through the checks live entry makes (each buy within the family's limit in the hand
    being played, each down in that hand, each hand the next one and scored by the engine), in memory: the
    game to write, or the refusal that says what in the file is wrong (``bad_import`` for a file that is not an
    export)."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise Refusal("bad_import", None)
    try:
        with db.session.no_autoflush:  # (nothing is written while the game is played back)
            game, edit = new_game(data.get("ruleset"), data.get("variants"), data.get("options"),
                                   data.get("players"), data.get("first_dealer", 0), via="import")
            _seat_late_players(game, data.get("joined_late") or [])
            burst = _play_back(game, data)
            ended = data.get("ended_early") is True  # the table stopped after the hands played
            if ended and not burst.hands:
                raise Refusal("nothing_to_end", None)
    except RefereeError:
        db.session.rollback()  # (the game added to the session goes with it)
        raise
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
        db.session.rollback()
        raise Refusal("bad_import", None) from None
    return Imported(game, edit, burst, ended)


def _seat_late_players(game: Game, joined: Any) -> None:
    """The players of an export who sat down after the game began: the first hand each plays and the score the
    table gave them (the first dealer played the first hand)."""
    if not isinstance(joined, list):
        raise ValueError(joined)
    seat = Seats(game.players)
    for row in joined:
        player = game.players[seat[row["player"]]]
        player.joined_hand, player.start_total = _whole(row["hand"], 2, 1000), _whole(row["start"], 0, START_MOST)
    if game.players[game.first_dealer].joined_hand > 1:
        raise ValueError("first dealer")


def _whole(value: Any, lowest: int = -10**6, highest: int = 10**6) -> int:
    """A whole number of an import (never a float, a string or a bool), within what a game can hold."""
    if not isinstance(value, int) or isinstance(value, bool) or not lowest <= value <= highest:
        raise ValueError(value)
    return value


@dataclass
class _Burst:
    """An import's rows, made as its game is played back and written together at the end (``write``): the hands,
    their results, the buys and downs, and every change in the order it was made."""

    game: str
    hands: list[dict[str, Any]] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)
    buys: list[dict[str, Any]] = field(default_factory=list)
    downs: list[dict[str, Any]] = field(default_factory=list)
    changes: list[dict[str, Any]] = field(default_factory=list)

    def change(self, move: Move) -> None:
        self.changes.append({"game_id": self.game, "at": now(), "via": "import", **move.stored(), "undone": False,
                             "request_id": None})

    def write(self) -> None:
        """A statement a table, each row in order (the changes' ids follow the order they were made in); the
        results go with the ids the hands' rows were given."""
        if self.hands:
            # (one INSERT for every hand, then their ids read back at once: an INSERT that returns each row's id
            # in the order given runs as one statement a row on SQLite, and this holds every table's turn to write)
            db.session.execute(insert(HANDS), self.hands)
            ids = {number: hand_id for number, hand_id in db.session.execute(
                select(HANDS.c.number, HANDS.c.id).where(HANDS.c.game_id == self.game))}
            db.session.execute(insert(RESULTS), [{**r, "hand_id": ids[r.pop("number")]} for r in self.results])
        for table, rows in ((Buy.__table__, self.buys), (Down.__table__, self.downs), (Change.__table__, self.changes)):
            if rows:
                db.session.execute(insert(table), rows)


def _play_back(game: Game, data: dict[str, Any]) -> _Burst:
    """The export played back through the checks live entry makes, in memory (nothing is read from the database
    or written to it): the rows to write."""
    rules = rules_of(game)
    seat = Seats(game.players)
    hands, buys, downs = data.get("hands") or [], data.get("buys") or [], data.get("down") or []
    if not all(isinstance(x, list) for x in (hands, buys, downs)) or len(hands) + len(buys) + len(downs) > \
            MAX_IMPORT_ITEMS:
        raise ValueError("lists")
    marks: dict[int, list[tuple[str, int]]] = {}  # hand -> buys and downs in it, in the order they were made
    for kind, rows in (("buy", buys), ("down", downs)):
        for row in rows:
            if not isinstance(row, dict):
                raise ValueError(row)
            marks.setdefault(_whole(row["hand"]), []).append((kind, seat[row["player"]]))
    burst = _Burst(game.id)
    last = len(hands) + 1
    # the scores so far, kept as the hands are played back: whether the last hand is to be replayed is worked
    # out from them, not from the game read again after every hand (an import costs its size, not its square)
    names = [p.name for p in game.players]
    start = start_totals(game)
    regular: list[dict[str, int]] = []
    replayed: list[dict[str, int]] = []
    recorded = 0
    for number in range(1, last + 1):
        playing = number <= len(rules.hands) and number == recorded + 1
        used: Counter[int] = Counter()
        gone_down: set[int] = set()
        for p in game.players:  # a player sitting down before this hand: their line in the history, in its place
            if p.joined_hand == number:
                burst.change(PlayerJoined(number, p.seat, p.name, p.start_total))
        for kind, s in marks.pop(number, []):
            if not playing:  # the game is over: nothing is bought or laid down any more
                raise Refusal("not_current_hand", kind, status=422, hand=number)
            if game.players[s].joined_hand > number:
                raise Refusal("not_in_this_hand", kind, status=422, player=names[s], hand=number)
            if kind == "buy":
                refused = buy_refused(rules, used[s])
                if refused == "no_buying":
                    raise Refusal("no_buying", "buys", status=422)
                if refused is not None:
                    raise Refusal(refused, "buys", status=422, players=[game.players[s].name])
                used[s] += 1
                burst.buys.append({"game_id": game.id, "hand_number": number, "seat": s, "created_at": now()})
                burst.change(BuyAdded(number, s))
            elif s not in gone_down:
                gone_down.add(s)
                burst.downs.append({"game_id": game.id, "hand_number": number, "seat": s})
                burst.change(DownSet(number, s))
        if number < last:
            result = standings(rules, names, regular, replayed, start=start) \
                if len(regular) >= len(rules.hands) else None
            due = result is not None and result.decided_by == "replay"
            hand = _play_back_hand(game, rules, seat, hands[number - 1], PlayedBack(recorded, due, used))
            recorded += 1
            burst.hands.append({"game_id": game.id, "number": hand.number, "out_seat": hand.out_seat,
                                "cut_bonus": hand.cut_bonus, "replay": hand.replay, "created_at": now()})
            burst.results += [{"number": hand.number, "seat": r.seat, "penalty": r.penalty, "bonus": r.bonus,
                               "cards": r.cards} for r in hand.results]
            burst.change(HandRecorded(hand.number, snapshot(hand)))
            scores = {names[r.seat]: net_score(r.penalty, r.bonus) for r in hand.results}
            if not hand.replay:
                regular.append(scores)
            elif result is not None and len({scores.get(p, 0) for p in result.winners}) > 1:
                replayed.append(scores)  # (a replay that leaves the tied players tied again changes nothing)
    if marks:  # a buy or a down in a hand that was never played
        raise Refusal("not_current_hand", "buys", status=422, hand=min(marks))
    return burst


def _play_back_hand(game: Game, rules: Rules, seat: dict[str, int], h: Any, known: PlayedBack) -> _PlayedHand:
    """One hand of an export, checked and scored as live entry would: the hand (not added to the session)."""
    if not isinstance(h, dict):
        raise ValueError(h)
    number = _whole(h["hand"], 1, 1000)
    out = h.get("out")
    exact_cut = h.get("exact_cut", False)
    leftovers, penalties = h.get("leftovers") or {}, h.get("penalties") or {}
    if not isinstance(exact_cut, bool) or not isinstance(leftovers, dict) or not isinstance(penalties, dict):
        raise ValueError(h)
    entries = {}
    typed = {seat[name]: total for name, total in penalties.items()}  # (a name in any case: ``Seats``)
    for name, cards in leftovers.items():
        if cards is None:  # a typed total (the bonus, if any, was taken off it when it was recorded)
            cut_exactly = exact_cut and seat[name] == seat[cutter_of(game, number)]
            entries[seat[name]] = entry(total=typed_total(rules, _whole(typed[seat[name]]), cut_exactly))
        elif isinstance(cards, list) and all(isinstance(c, str) for c in cards) and len(cards) <= 60:
            entries[seat[name]] = entry(cards)
        else:
            raise ValueError(cards)
    out_seat = None if out is None else seat[out]
    results, replay = checked(game, number, out_seat, entries, exact_cut, known=known)
    return _PlayedHand(number, out_seat, max(r.bonus for r in results), replay, results)


@dataclass(frozen=True)
class _PlayedHand:
    """A hand as an import plays it back: what its rows will hold (a plain record: a mapped ``Hand`` made and
    dropped for each of hundreds of hands was a third of an import's CPU)."""

    number: int
    out_seat: int | None
    cut_bonus: int
    replay: bool
    results: list[Result]


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A cell a spreadsheet shows as text: one that starts like a formula (``=``, ``+``, ``-``, ``@``, a tab)
    gets a leading apostrophe, so that a player called ``=HYPERLINK(...)`` is never run as one."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


@dataclass(frozen=True)
class CsvWords:
    """The CSV's headers in the reader's language (the web layer translates them)."""

    hand: str
    out: str
    total: str
    buys: Any  # name -> "Buys: name"


def export_csv(game: Game, words: CsvWords) -> str:
    """Hand by hand: who went out, each player's score and buys; then the totals. The hand being played
    appears too when it has buys already."""
    st = state(game)
    buys = Counter((b.hand_number, st.names[b.seat]) for b in game.buys)
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow([csv_cell(c) for c in [words.hand, words.out, *st.names, *[words.buys(n) for n in st.names]]])
    for row in st.hands:
        w.writerow([csv_cell(c) for c in [row.number, row.out or "", *[row.penalties.get(n, 0) for n in st.names],
                                          *[buys[(row.number, n)] for n in st.names]]])
    if st.current is not None and any(buys[(st.current, n)] for n in st.names):
        w.writerow([st.current, "", *["" for _ in st.names], *[buys[(st.current, n)] for n in st.names]])
    w.writerow([csv_cell(c) for c in [words.total, "", *[st.totals[n] for n in st.names],
                                      *[sum(v for (_, name), v in buys.items() if name == n) for n in st.names]]])
    return buf.getvalue()
