"""How a game is shown: the board and what it is drawn from (the game's state, the referee preset to it, the end
in words, the history's lines, the chart), the board's ETag, and the boards each process keeps. Read by the
scoreboard's pages; nothing here reads a request's form or writes."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from flask import (
    current_app,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup

from ...cards import Leftover, Rank
from ...errors import RefereeError
from ...families import REFEREE, SETUP
from ...i18n import N_
from .. import options as house
from ..errors import error_text
from ..i18n import gettext, lang, select_locale
from ..picker import leftovers_text
from ..settings import ROOT
from ..words import contract_words, in_a_list
from . import changes, gamestate, services
from .boards import Boards

CHANGE_WORDS = {
    "created": N_("Game started"),
    "hand_recorded": N_("Hand %(hand)s recorded"),
    "hand_corrected": N_("Hand %(hand)s corrected"),
    "buy_added": N_("Buy for %(player)s in hand %(hand)s"),
    "buy_removed": N_("Buy taken back for %(player)s in hand %(hand)s"),
    "down_set": N_("%(player)s went down in hand %(hand)s"),
    "down_cleared": N_("%(player)s not down in hand %(hand)s"),
    "undo": N_("Undo"),
    "redo": N_("Redo"),
    "ended_early": N_("Game ended after hand %(hand)s"),
    "renamed": N_("%(old)s renamed %(new)s"),
    "seats_reordered": N_("Seat order: %(names)s"),
    "player_joined": N_("%(player)s sat down before hand %(hand)s"),
}


VIA_WORDS = {"edit link": N_("edit link"), "api": N_("API"), "import": N_("import")}


def game_error_text(e: RefereeError) -> str:
    return error_text(e.code, e.params)


def etag_for(game_id: str, version: int, can_edit: bool) -> str:
    """What a board drawn now depends on: the game's version (every write bumps it, in the same transaction),
    the reader's language, the kind of link, and the templates and translations this server draws it with (so
    a phone never keeps a board drawn by an older release, nor one drawn by another server running other code)."""
    return f'W/"{game_id}-{version}-{select_locale()}-{int(can_edit)}-{_release()}"'


@lru_cache(maxsize=1)
def _release() -> str:
    """A short hash of everything a board is drawn from besides the game: the templates and the compiled
    translations (read once per process; a release restarts the servers)."""
    digest = hashlib.sha256()
    for folder, pattern in ((ROOT / "templates", "**/*.html"), (ROOT / "translations", "**/*.mo")):
        for path in sorted(folder.glob(pattern)):
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:8]


def game_url(endpoint: str, token: str) -> str:
    """The address of one of a game's pages for a link's token (``games.<endpoint>``)."""
    return url_for("games." + endpoint, token=token)


def referee_url(game: Any, st: Any, mode: str = "check", **extra: str) -> str:
    """The referee preset to this game: its family, variants, house rules, hand, players and who is down."""
    pairs: list[tuple[str, Any]] = [("family", game.family), ("hand", st.current or len(st.rules.hands)),
                                    ("players", len(st.names))]
    pairs += [("variants", v) for v in game.variants]
    pairs += house.link_query(SETUP if mode == "table" else REFEREE, st.rules.family, game.options)
    if st.down:
        pairs.append(("gone_down", ", ".join(n for n in st.names if n in st.down)))
    pairs += list(extra.items())
    return url_for("referee.page", mode=mode) + "?" + urlencode(pairs)


def outcome_words(st: Any) -> dict[str, str]:
    """The end of a game in words: who won, and which step of the family's tie-break decided it (the engine's
    ``Result`` says which; these are its words)."""
    r = st.result
    if r is None:
        return {"headline": "", "why": ""}
    by = {s.player: s for s in r.standings}
    winners = in_a_list(list(r.winners))
    tied = in_a_list(list(r.tied))
    total = by[r.winners[0]].total
    last = ", ".join(f"{p} {'—' if by[p].tie_score is None else by[p].tie_score}" for p in r.tied)
    n = r.tie_hand
    if len(r.winners) == 1:
        headline = gettext("%(name)s wins.", name=r.winners[0])
    elif r.decided_by == "shared":
        headline = gettext("%(names)s share the win.", names=winners)
    else:
        headline = gettext("Tie between %(names)s.", names=winners)
    if r.decided_by == "total":
        why = gettext("Lowest total: %(total)s points.", total=total)
    elif r.decided_by == "tie_hand":
        why = gettext("%(names)s tied on %(total)s points; the lowest score in hand %(n)s breaks the tie "
                      "(%(scores)s).", names=tied, total=total, scores=last, n=n)
    elif r.decided_by == "shared":
        why = gettext("%(names)s tied on %(total)s points and scored the same in hand %(n)s (%(scores)s): "
                      "under the %(family)s rules they share the win.", names=tied, total=total, scores=last,
                      family=st.rules.family.name, n=n)
        if st.ended_early and "replay" in st.rules.family.tie_break:
            why += " " + gettext("A game ended early is not replayed.")
    elif r.decided_by == "replay":
        why = gettext("%(names)s are still tied after hand %(n)s (%(total)s points; %(scores)s): replay the "
                      "last hand to decide.", names=tied, total=total, scores=last, n=n)
    else:  # "replayed"
        why = gettext("%(names)s tied on %(total)s points and in hand %(n)s; the replayed last hand decided.",
                      names=tied, total=total, n=n)
    return {"headline": headline, "why": why}


def board_context(game: Any, can_edit: bool, token: str) -> dict[str, Any]:
    st = gamestate.state(game)
    spec = st.rules.hand(st.current) if st.current else None
    points = {str(Leftover(r)): st.rules.rank_points(r) for r in (*Rank, None)}
    return dict(st=st, game=game, can_edit=can_edit, token=token, spec=spec, fam=st.rules.family,
                contract_words=contract_words, points=points, view_token=game.view_token,
                buy_limit=st.rules.buy_limit, history=lambda: drawn_history(st, can_edit, token), version=game.version,
                etag=etag_for(game.id, game.version, can_edit),
                last_change=changes.last_change(game) if can_edit else None, change_text=change_text,
                referee_url=lambda mode="check", **extra: referee_url(game, st, mode, **extra),
                outcome_words=outcome_words, redo_change=changes.redoable(game) if can_edit else None,
                cutter_of=lambda number: services.cutter_of(game, number))


def drawn_history(st: Any, can_edit: bool, token: str) -> Markup:
    """The board's hand-by-hand table and chart (``games/_history.html``), drawn once for each set of recorded
    hands and kept by this process: a buy or a player going down (most of a hand's changes) draws the board
    again, and these, about a sixth of the time a board takes to draw, stay as they were. The key holds all
    that the template reads, so what is kept is only ever the same text drawn again."""
    names = tuple(st.names)

    def scores(rows: Any) -> tuple[Any, ...]:
        return tuple((r.number, r.out, tuple(r.penalties.get(n) for n in names)) for r in rows)

    key = (lang(), request.script_root, can_edit, token if can_edit else "", len(st.rules.hands), names,
           scores(st.hands), scores(st.replays), tuple((st.start.get(n), st.joined.get(n)) for n in names))
    kept: Boards = current_app.extensions["histories"]
    html = kept.get(key)
    if html is None:
        html = current_app.jinja_env.get_template("games/_history.html").render(
            st=st, can_edit=can_edit, token=token, chart=chart(st))
        kept.put(key, html)
    return Markup(html)


def board_fragment(game: Any, can_edit: bool, token: str, **extra: Any) -> str:
    """The board, and the links and undo under it (swapped out of band), as htmx re-draws them."""
    return render_template("games/_board_fragment.html", oob=True, **board_context(game, can_edit, token), **extra)


def keep_boards(state: Any) -> None:
    """Each process's boards and hand-by-hand tables, kept by what they were drawn from."""
    app = state.app
    app.extensions["boards"] = Boards(int(app.config.get("BOARD_CACHE_SIZE", 500)))
    app.extensions["histories"] = Boards(int(app.config.get("BOARD_CACHE_SIZE", 500)))


def snapshot_as_form(snap: dict[str, Any]) -> dict[str, str]:
    """A recorded hand (as the history keeps it) as the end-of-hand form's fields, cards in the reader's letters."""
    out = {"out": "stock" if snap["out_seat"] is None else str(snap["out_seat"]),
           "exact_cut": "1" if snap.get("cut_bonus") else ""}
    for r in snap["results"]:
        if r["cards"] is None:  # a typed total: shown as typed, before any cut bonus
            out[f"total_{r['seat']}"] = str(r["penalty"])
        elif r["seat"] != snap["out_seat"]:
            out[f"cards_{r['seat']}"] = leftovers_text(r["cards"])
    return out


def change_text(c: Any, names: list[str]) -> str:
    player = names[c.seat] if c.seat is not None and 0 <= c.seat < len(names) else ""
    # (a late player's line, and the undo or redo of it, name the player: their seat may be empty again)
    player = (c.after or {}).get("name") or (c.before or {}).get("name") or player \
        if c.kind in ("player_joined", "undo", "redo") else player
    values = {"hand": c.hand_number or "", "player": player,
              "old": (c.before or {}).get("name", "") if c.kind == "renamed" else "",
              "new": (c.after or {}).get("name", "") if c.kind == "renamed" else "",
              "names": ", ".join((c.after or {}).get("names", [])) if c.kind == "seats_reordered" else ""}

    def words(kind: str) -> str:
        text = gettext(CHANGE_WORDS.get(kind, kind))
        try:
            return text % values
        except (KeyError, TypeError, ValueError):
            return text

    text = words(c.kind)
    if c.kind in ("undo", "redo") and c.before:
        text += ": " + words(c.before.get("kind", ""))
    return text


MARKER_WORDS = (N_("circle"), N_("square"), N_("diamond"), N_("triangle"))


PALETTE = ("#0b5d3b", "#b3121a", "#1f4e9c", "#8a5a00", "#6b2c91", "#00707a", "#4d4d4d", "#b84c00")


MARKERS = ("circle", "square", "diamond", "triangle", "circle", "square", "diamond", "triangle")


# each hand's mark on a player's line, by the player's marker, at x, y (numbers and a colour of the palette only)
_MARK = {
    "circle": '<circle cx="{x}" cy="{y}" r="3.8" fill="{color}"/>',
    "square": '<rect x="{x}" y="{y}" width="7" height="7" fill="{color}" transform="translate(-3.5 -3.5)"/>',
    "diamond": '<rect x="{x}" y="{y}" width="7" height="7" fill="{color}" '
               'transform="rotate(45 {x} {y}) translate(-3.5 -3.5)"/>',
    "triangle": '<polygon points="0,-4.5 4.5,3.5 -4.5,3.5" fill="{color}" transform="translate({x} {y})"/>',
}


_TICK = ('<line x1="{left}" x2="{right}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
         '<text x="{label_x}" y="{label_y:.1f}" text-anchor="end" class="axis">{label}</text>')


_HAND = '<text x="{x}" y="{y}" text-anchor="middle" class="axis">{label}</text>'


_LINE = '<polyline points="{points}" fill="none" stroke="{color}" stroke-width="2.5"{dash}/>'


def chart(st: Any) -> dict[str, Any] | None:
    """Running totals hand by hand, as inline SVG (no script). The plot is numbers and colours of the palette only,
    so it is drawn here, in one piece (a board is drawn after every change, and the template's loops over its
    points cost a tenth of a draw); the words (its title, the legend's names and markers) are the template's."""
    if not st.hands:
        return None
    width, height, pad_l, pad_r, pad_t, pad_b = 340, 200, 36, 12, 12, 26
    n = len(st.rules.hands)
    highest = max(max(v) for v in st.running.values()) or 1
    tick = next(t for t in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10**9) if highest / t <= 5)
    top = -(-highest // tick) * tick  # rounded up to a whole tick

    def y(v: int) -> float:
        return pad_t + (height - pad_t - pad_b) * (1 - v / top)

    # each coordinate written once, as it is drawn (a point's x is its hand's, its y its total's)
    xs = [f"{pad_l + (width - pad_l - pad_r) * i / max(1, n):.1f}" for i in range(n + 1)]
    ys: dict[int, str] = {}
    plot = [_TICK.format(left=pad_l, right=width - pad_r, y=y(v), label_x=pad_l - 4, label_y=y(v) + 4, label=v)
            for v in range(0, top + 1, tick)]
    plot += [_HAND.format(x=xs[i], y=height - pad_b + 16, label=i) for i in range(n + 1)]
    series = []
    for k, name in enumerate(st.names):
        pts = [(xs[i], ys.get(v) or ys.setdefault(v, f"{y(v):.1f}")) for i, v in enumerate((0, *st.running[name]))]
        pts = pts[st.joined.get(name, 1) - 1:]  # a player who sat down late: from their starting score on
        color, marker = PALETTE[k % len(PALETTE)], MARKERS[k % len(MARKERS)]
        dash = "" if k < 4 else "5 3"
        plot.append(_LINE.format(points=" ".join(f"{a},{b}" for a, b in pts), color=color,
                                 dash=f' stroke-dasharray="{dash}"' if dash else ""))
        mark = _MARK[marker]
        plot += [mark.format(x=a, y=b, color=color) for a, b in pts[1:]]
        series.append({"name": name, "color": color, "marker": marker, "dash": dash})
    return {"width": width, "height": height, "series": series, "plot": Markup("".join(plot))}
