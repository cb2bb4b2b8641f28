"""``make loadtest``: tables of phones against the production server (granian, started as ``referee.web.server``
starts it) on loopback, stepped up until the target is missed.

Each table is a game; each of its phones polls the board every 2 s with the ETag it last saw (a 304 while nothing
changed), and one of them saves a hand through the API: by default as a real evening goes, time compressed
(``PROFILE`` below: a hand every 18–90 s, with its buys and "gone down" taps, and the page opened again after each
save); with ``LOADTEST_PROFILE=stress``, every 4–6 s and nothing else (a regression guard). Now and then a second
phone saves the same hand at the same moment (exactly one of the two may be recorded). A probe asks /healthz
throughout, so its figures stand beside the others in the same run. Every table comes from an address of its own
(sent as X-Forwarded-For, the servers trust one proxy), so the write limit runs at its default, as it does for real
tables, and its phones' browsers ask for one of the four languages (Accept-Language), as real ones do.

The phones of a step join over ``LOADTEST_JOIN`` seconds (default 10), as players sit down at their tables: each
opens its board (a whole board, no ETag yet) at a moment of its own, then polls; the tables save from the start.
Every request counts, the joining's too; the step lasts the joining and then ``LOADTEST_SECONDS``.
``LOADTEST_JOIN=0`` brings every phone in within its first poll interval instead, as a restart that changed the
boards would (every phone fetching a whole board within 2 s).

The load is stepped up (``LOADTEST_STEPS`` tables, default 50, 75, 100, 125, 150, 200, … 400, and on by 50 a step
after the last, up to ``LOADTEST_MAX`` tables, default 1,000) until a step misses the target: no errors, p99 under
100 ms for polls, saves, buys, "gone down" taps and pages, no save lost or recorded twice, and every poll that
starts after a save was answered sees that save (each phone sees each board within one poll). It prints each step
and the largest load that held, and exits non-zero if even the first step missed.

    make loadtest                                     # SQLite, stepped, a real evening (seeded: LOADTEST_SEED)
    LOADTEST_PROFILE=stress make loadtest             # the old heavy profile: its figures, not a target
    DATABASE_URL=postgresql://… make loadtest         # PostgreSQL (migrated first)
    LOADTEST_TABLES=300 make loadtest                 # one load only
    INSTANCES=2 DATABASE_URL=postgresql://… make loadtest   # two servers on one database, phones
                                                            # spread over both, the cores shared out
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from referee.web import server  # noqa: E402 - (the production server's command, from the project beside)

PHONES = int(os.environ.get("LOADTEST_PHONES", 6))
SECONDS = float(os.environ.get("LOADTEST_SECONDS", 20 if os.environ.get("LOADTEST_PROFILE") == "stress" else 50))
JOIN = float(os.environ.get("LOADTEST_JOIN", 10))  # seconds over which a step's phones open their boards
STEPS = [int(n) for n in (os.environ.get("LOADTEST_TABLES") or os.environ.get(
    "LOADTEST_STEPS", "50,75,100,125,150,200,250,300,350,400")).split(",")]
STEP_ON = 50  # tables added a step once the steps listed have all held (not for LOADTEST_TABLES: one load only)
MAX_TABLES = int(os.environ.get("LOADTEST_MAX", 1000))  # where stepping on stops (and says the ceiling is higher)
POLL_EVERY = 2.0
# The profile (``LOADTEST_PROFILE``). "evening", the default, is a real evening with its time compressed: a hand
# of Liverpool lasts 9-17 minutes at a table; here each table saves a hand every 3-15 minutes divided by
# ``LOADTEST_COMPRESS`` (10: every 18-90 s), with its buys (0-3) and "gone down" taps (0-4) at random moments of
# the hand, and the phone that saved opening the game's page again as the browser does after a save. The polls
# are not compressed (every phone every 2 s, as the page does): they are the load, and the saves, ten times
# as frequent as in life, stay a small part of it, so the figures are the ones an evening meets (a save rate
# closer to a stress test's would make them a stress test's). "stress" is the profile the first load tests used
# and the issue that brought in the evening called ~100x a real evening: a save every 4-6 s at every table and
# nothing else; kept as a regression guard that prints its figures, not a target.
PROFILE = os.environ.get("LOADTEST_PROFILE", "evening")
COMPRESS = float(os.environ.get("LOADTEST_COMPRESS", 10))
SEED = int(os.environ.get("LOADTEST_SEED", 1))
if PROFILE not in ("evening", "stress"):
    raise SystemExit(f"LOADTEST_PROFILE is evening or stress, not {PROFILE!r}")
SAVE_EVERY = (4.0, 6.0) if PROFILE == "stress" else (180 / COMPRESS, 900 / COMPRESS)
BUYS_A_HAND, DOWNS_A_HAND = (0, 0) if PROFILE == "stress" else (3, 4)  # at most, each drawn from 0 to this
TWIN_EVERY = 5  # one save in five of a table is sent by two phones at once
INSTANCES = int(os.environ.get("INSTANCES", 1))
# as docs/deploy.md runs it: a worker a core. Servers that stand for machines of their own share this machine's
# cores: each gets its part (two servers of two workers on two cores made four processes contend for them,
# 1.00 against 0.87 ms of CPU a request at 300 tables, and longer tails: docs/bench.md)
WORKERS = int(os.environ.get("WORKERS", max(1, server.WORKERS // INSTANCES)))
THREADS = int(os.environ.get("THREADS", server.THREADS))
TARGET_MS = 100.0
KEEP_ALIVE = server.KEEP_ALIVE_MS / 1000  # seconds the servers keep an idle connection open
IDLE = KEEP_ALIVE - 3  # a phone's connection idle this long is opened again before it is used
PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
# what phones' browsers send, one for each table (by its address): the app reads it to choose the language
ASKED = ("en-US,en;q=0.9", "es-ES,es;q=0.9,en;q=0.8", "pt-BR,pt;q=0.9,en-US;q=0.8,en;q=0.7", "de-DE,de;q=0.9,en;q=0.8")
TAG = re.compile(r'W/"([0-9a-f]+)-(\d+)-')
CSRF = re.compile(rb'name="csrf_token" value="([^"]+)"')


class Connection:
    """One phone's keep-alive HTTP/1.1 connection (a minimal client: Content-Length bodies only)."""

    def __init__(self, port: int, address: str) -> None:
        self.port = port
        self.address = address  # the phone's address, as the proxy in front of the servers would pass it on
        self.language = ASKED[int(address.rsplit(".", 1)[1]) % len(ASKED)]  # (its browser's Accept-Language)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = 0.0

    async def request(self, method: str, path: str, body: dict | str | None = None,
                      headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        """``body``: JSON (a dict), or a form already encoded (a str). The answer's cookies are in its head's
        ``set-cookie``, one a line."""
        # a request that changes something is never sent twice; a read may reconnect once to an idle-closed socket
        for attempt in (1, 2) if method == "GET" else (2,):
            try:
                if self.writer is not None and time.perf_counter() - self.used > IDLE:
                    self.close()  # the server may close it any moment now: never send a save into that
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
                payload = (body.encode() if isinstance(body, str) else json.dumps(body).encode()
                           if body is not None else b"")
                lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(payload)}",
                         f"X-Forwarded-For: {self.address}", f"Accept-Language: {self.language}",
                         "Accept-Encoding: gzip"]  # (as a browser does: the answers come compressed)
                if body is not None:
                    lines.append("Content-Type: " + ("application/x-www-form-urlencoded" if isinstance(body, str)
                                                     else "application/json"))
                lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
                self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + payload)
                await self.writer.drain()
                assert self.reader is not None
                status_line = await self.reader.readline()
                if not status_line:
                    raise ConnectionResetError("closed")
                status = int(status_line.split()[1])
                head: dict[str, str] = {}
                while (line := await self.reader.readline()) not in (b"\r\n", b""):
                    k, _, v = line.decode("latin-1").partition(":")
                    name = k.strip().lower()
                    head[name] = (head[name] + "\n" + v.strip()) if name == "set-cookie" and name in head else v.strip()
                data = await self.reader.readexactly(int(head.get("content-length", 0)))
                if head.get("content-encoding") == "gzip":
                    data = gzip.decompress(data)
                self.used = time.perf_counter()
                if head.get("connection", "").lower() == "close":
                    self.close()
                return status, head, data
            except (ConnectionError, asyncio.IncompleteReadError, OSError):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


@dataclass
class Step:
    """What one load step saw."""

    tables: int
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    sent_at: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))  # beside each latency
    start: float = 0.0  # when the step's clock started
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, dict[int, int]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    saved: dict[str, list[tuple[int, float, int]]] = field(default_factory=lambda: defaultdict(list))  # game ->
    # (hand, when the 201 came, version it made)
    polls: list[tuple[str, float, str, int]] = field(default_factory=list)  # (game, sent at, tag's game, version)
    twins: list[tuple[int, int]] = field(default_factory=list)  # the two answers to one hand sent twice
    games: dict[str, dict] = field(default_factory=dict)
    elapsed: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds used during the step: servers, generator

    async def timed(self, kind: str, conn: Connection, method: str, path: str, body: dict | str | None = None,
                    headers: dict[str, str] | None = None, ok: tuple[int, ...] = (200,)) -> tuple[int, dict, bytes]:
        start = time.perf_counter()
        try:
            status, head, data = await conn.request(method, path, body, headers)
        except Exception as e:  # noqa: BLE001 - every failure is counted and reported
            self.errors[kind].append(f"{type(e).__name__}: {e}")
            return 0, {}, b""
        self.latencies[kind].append(time.perf_counter() - start)
        self.sent_at[kind].append(start)
        self.statuses[kind][status] += 1
        if status not in ok:
            self.errors[kind].append(f"HTTP {status}: {data[:120]!r}")
        return status, head, data

    async def new_game(self, conn: Connection) -> dict:
        status, _, data = await self.timed("create game", conn, "POST", "/api/v1/games",
                                           {"ruleset": "liverpool", "players": PLAYERS[:4]}, ok=(201,))
        if status != 201:
            raise RuntimeError(f"no game: HTTP {status}")
        game = json.loads(data)
        self.games[game["id"]] = game
        self.saved[game["id"]].append((0, time.perf_counter(), game.get("version", 1)))
        return game


def first_save_in() -> float:
    """How long a table waits for its first save: as long as a table that had been playing for some time would
    still wait at a moment chosen at random, so that the tables' saves are spread from the start as their
    phones' polls are. (Waiting one whole gap of 4–6 s first sent every table's first save within the same
    2 s, two and a half times the steady rate, and the saves kept coming in waves for the whole step.) The gap
    that moment falls in is drawn longer the longer it is (its density grows with its length), then the moment
    anywhere within it."""
    low, high = SAVE_EVERY
    gap = (low * low + (high * high - low * low) * random.random()) ** 0.5
    return random.uniform(0, gap)


def joins_in() -> float:
    """When a phone opens its board, from the step's start: at a moment of its own within the joining
    (``JOIN``); all at once (within one poll interval) if there is none."""
    return random.uniform(0, JOIN or POLL_EVERY)


def save_body(hand: int) -> dict:
    return {"hand": hand, "out": "Ann", "leftovers": {"Ben": ["K", "7"], "Cy": ["A"], "Dee": ["JK"]}}


async def table(step: Step, ports: list[int], t: int, game: dict, stop: float) -> None:
    state: dict[str, Any] = {"game": game, "hand": 1}
    address = client_address(t)

    async def phone(i: int) -> None:
        conn = Connection(ports[(t + i) % len(ports)], address)
        etag = ""
        await asyncio.sleep(joins_in())
        while time.perf_counter() < stop:
            headers = {"If-None-Match": etag} if etag else {}
            g = state["game"]
            sent = time.perf_counter()
            status, head, _ = await step.timed("poll board", conn, "GET", f"/g/{g['view_token']}/board",
                                               headers=headers, ok=(200, 304))
            if status in (200, 304):
                etag = head.get("etag", etag)
                m = TAG.match(etag)
                step.polls.append((g["id"], sent, m.group(1) if m else "", int(m.group(2)) if m else -1))
            await asyncio.sleep(POLL_EVERY)
        conn.close()

    rng = random.Random(SEED * 1_000_003 + t)  # (each table its own draws, whatever order the tasks run in)

    async def during_the_hand(conn: Connection, page: dict[str, str], hand_lasts: float) -> None:
        """A hand's buys and "gone down" taps at random moments of it, as the page sends them."""
        g = state["game"]
        taps = sorted([(rng.uniform(0, hand_lasts), "buy", rng.randrange(1, 4))
                       for _ in range(rng.randint(0, BUYS_A_HAND))] +
                      [(rng.uniform(0, hand_lasts), "down", seat) for seat in
                       rng.sample(range(4), rng.randint(0, min(DOWNS_A_HAND, 4)))])
        began = time.perf_counter()
        for at, kind, seat in taps:
            await asyncio.sleep(max(0.0, min(began + at, stop) - time.perf_counter()))
            if time.perf_counter() >= stop or state["game"] is not g:
                return
            if kind == "buy":
                await step.timed("buy", conn, "POST", f"/api/v1/games/{g['id']}/buys",
                                 {"hand": state["hand"], "player": PLAYERS[seat]},
                                 {"Authorization": f"Bearer {g['edit_token']}"}, ok=(201, 409))
            else:
                form = urlencode({"csrf_token": page["csrf"], "seat": seat, "hand": state["hand"], "down": 1})
                await step.timed("gone down", conn, "POST", f"/g/{g['edit_token']}/down", form,
                                 {"Cookie": page["cookie"], "HX-Request": "true"}, ok=(200,))
        await asyncio.sleep(max(0.0, min(began + hand_lasts, stop) - time.perf_counter()))

    async def open_page(conn: Connection, page: dict[str, str]) -> None:
        """The game's page as the phone that saved opens it again (its form token and session kept)."""
        g = state["game"]
        status, head, data = await step.timed("page after save", conn, "GET", f"/g/{g['edit_token']}",
                                              headers={"Cookie": page["cookie"]} if page.get("cookie") else {})
        if status == 200:
            found = CSRF.search(data)
            page["csrf"] = found.group(1).decode() if found else page.get("csrf", "")
            cookies = [c.split(";", 1)[0] for c in head.get("set-cookie", "").split("\n") if c]
            if cookies:
                page["cookie"] = "; ".join(cookies)

    async def scorer() -> None:
        conn = Connection(ports[t % len(ports)], address)
        other = Connection(ports[(t + 1) % len(ports)], address)  # a second phone, on the other server if two
        page: dict[str, str] = {}
        first = first_save_in()
        if PROFILE == "evening":  # the scorer's phone opens the game's page as it joins, as the others do theirs
            joined = min(joins_in(), first)
            await asyncio.sleep(joined)
            await open_page(conn, page)
            first = max(0.0, first - joined)
        await asyncio.sleep(max(0.0, min(time.perf_counter() + first, stop) - time.perf_counter()))
        saves = random.randrange(TWIN_EVERY)  # tables reach their double save at different saves, within a step
        while time.perf_counter() < stop:
            g = state["game"]
            path, auth = f"/api/v1/games/{g['id']}/hands", {"Authorization": f"Bearer {g['edit_token']}"}
            body = save_body(state["hand"])
            saves += 1
            if saves % TWIN_EVERY == 0:  # two phones save the same hand at once: one is recorded, one told so
                answers = await asyncio.gather(
                    step.timed("save hand", conn, "POST", path, body, auth, ok=(201, 409)),
                    step.timed("save hand", other, "POST", path, body, auth, ok=(201, 409)))
                step.twins.append((answers[0][0], answers[1][0]))
                won = [a for a in answers if a[0] == 201]
            else:
                won = [await step.timed("save hand", conn, "POST", path, body, auth, ok=(201,))]
                won = [a for a in won if a[0] == 201]
            for _, _, data in won:
                step.saved[g["id"]].append((state["hand"], time.perf_counter(), json.loads(data)["version"]))
            if won:
                state["hand"] += 1
                if state["hand"] > 7:
                    state["game"], state["hand"] = await step.new_game(conn), 1
            if PROFILE == "evening":
                await open_page(conn, page)
                await during_the_hand(conn, page, rng.uniform(*SAVE_EVERY))
            else:
                await asyncio.sleep(random.uniform(*SAVE_EVERY))
        conn.close()
        other.close()

    await asyncio.gather(scorer(), *(phone(i) for i in range(PHONES)))


async def probe(step: Step, port: int, stop: float) -> None:
    conn = Connection(port, "10.255.255.254")
    while time.perf_counter() < stop:
        await step.timed("healthz", conn, "GET", "/healthz")
        await asyncio.sleep(0.1)
    conn.close()


async def recorded(step: Step, port: int) -> dict[str, list[int]]:
    """Each game's hands as the database holds them, asked after the step."""
    conn = Connection(port, "10.255.255.253")
    out = {}
    for gid, g in step.games.items():
        status, _, data = await conn.request("GET", f"/api/v1/games/{gid}",
                                             headers={"Authorization": f"Bearer {g['view_token']}"})
        out[gid] = [h["hand"] for h in json.loads(data)["hands"]] if status == 200 else []
    conn.close()
    return out


async def run(step: Step, ports: list[int]) -> dict[str, list[int]]:
    games = []
    for t in range(step.tables):
        conn = Connection(ports[t % len(ports)], client_address(t))
        games.append(await step.new_game(conn))
        conn.close()
    async def warm(conn: Connection, g: dict) -> None:
        for _ in range(3):
            await conn.request("GET", f"/g/{g['view_token']}/board")
        conn.close()

    # every worker draws boards before the clock starts (its templates compiled, its pool's connections open)
    await asyncio.gather(*(warm(Connection(port, "10.255.255.252"), games[i % len(games)])
                           for port in ports for i in range(WORKERS * THREADS)))
    step.latencies.clear()
    step.sent_at.clear()
    step.statuses.clear()
    start = step.start = time.perf_counter()
    stop = start + JOIN + SECONDS
    servers, mine = server_cpu(), os.times()
    await asyncio.gather(probe(step, ports[0], stop), *(table(step, ports, t, g, stop) for t, g in enumerate(games)))
    step.elapsed = time.perf_counter() - start
    after = os.times()
    step.cpu = {"servers": server_cpu() - servers, "generator": after.user + after.system - mine.user - mine.system}
    return await recorded(step, ports[-1])


SERVER_GROUPS: list[int] = []  # the process groups of the servers started (each server and its workers)


def server_cpu() -> float:
    """CPU seconds the servers' processes have used so far (Linux: /proc), workers that ended included."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) in SERVER_GROUPS:  # (fields after the name: state, ppid, pgrp, …)
            total += sum(int(f) for f in fields[11:15]) / tick  # utime, stime, and of children waited for
    return total


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def p99(samples: list[float]) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, int(len(s) * 0.99))] * 1000 if s else 0.0


def report(step: Step, stored: dict[str, list[int]]) -> bool:
    total = sum(len(v) for v in step.latencies.values())
    print(f"{step.tables} tables × {PHONES} phones: {total} requests in {step.elapsed:.1f} s, "
          f"{total / step.elapsed:.0f} requests/s")
    if step.cpu and total:  # steadier than the tails from one run to the next: what a request costs the servers
        cores = os.cpu_count() or 1
        print(f"  CPU: servers {step.cpu['servers']:.1f} s ({step.cpu['servers'] / step.elapsed / cores:.0%} of "
              f"{cores} cores, {step.cpu['servers'] / total * 1000:.2f} ms a request), load generator "
              f"{step.cpu['generator']:.1f} s ({step.cpu['generator'] / step.elapsed / cores:.0%})")
    ok = True
    for kind in ("healthz", "poll board", "save hand", "buy", "gone down", "page after save", "create game"):
        samples = step.latencies.get(kind, [])
        if not samples:
            continue
        codes = ", ".join(f"{c}×{n}" for c, n in sorted(step.statuses[kind].items()))
        print(f"  {kind:<15} n={len(samples):<6} p50 {statistics.median(samples) * 1000:7.1f} ms   "
              f"p99 {p99(samples):7.1f} ms   errors {len(step.errors[kind])}   ({codes})")
        if kind not in ("healthz", "create game") and p99(samples) >= TARGET_MS:
            ok = False
    # Said apart, not judged apart: the requests sent while the phones joined (each fetching a whole board once,
    # over the load already there), and those sent once every phone was polling. Where a tail comes from decides
    # what to look at next.
    joined = step.start + (JOIN or POLL_EVERY) + POLL_EVERY  # (the last phone to join has polled once more)
    for name, keep in (("while the phones joined", lambda at: at < joined),
                       ("once all had joined", lambda at: at >= joined)):
        part = {kind: [lat for lat, at in zip(step.latencies.get(kind, []), step.sent_at.get(kind, [])) if keep(at)]
                for kind in ("poll board", "save hand")}
        if all(part.values()):
            print(f"  {name}: poll p99 {p99(part['poll board']):.1f} ms, save p99 {p99(part['save hand']):.1f} ms")
    for kind, errs in step.errors.items():
        for e in errs[:3]:
            print(f"  error ({kind}): {e}")
    # saves: every 201 is in the database, and nothing is there that no phone was told was saved
    lost = double = 0
    for gid, acks in step.saved.items():
        told = sorted(h for h, _, _ in acks if h)
        kept = stored.get(gid, [])
        lost += len(set(told) - set(kept))
        double += (len(kept) - len(set(kept))) + len(set(kept) - set(told)) + (len(told) - len(set(told)))
    bad_twins = sum(1 for a, b in step.twins if sorted((a, b)) != [201, 409])
    # visibility: a poll sent after a save was answered shows that save's version (or a later game's)
    stale = 0
    for gid, sent, tag_game, version in step.polls:
        acks = step.saved.get(gid, [])
        needed = max((v for _, at, v in acks if at < sent), default=0)
        if tag_game != gid or version < needed:
            stale += 1
    print(f"  saves acknowledged {sum(len(a) - 1 for a in step.saved.values())}, lost {lost}, recorded twice "
          f"{double}; same hand from two phones at once {len(step.twins)}, not exactly one saved {bad_twins}; "
          f"polls behind a save already answered {stale} of {len(step.polls)}")
    held = ok and not any(step.errors.values()) and lost == double == bad_twins == stale == 0
    print(f"  target (no errors, p99 < {TARGET_MS:g} ms for every kind of request the phones send, no save lost "
          f"or doubled, every phone sees each save within one poll): {'met' if held else 'NOT met'}")
    return held


def start_servers(env: dict[str, str]) -> tuple[list[subprocess.Popen], list[int]]:
    servers, ports = [], []
    for _ in range(INSTANCES):
        port = free_port()
        servers.append(subprocess.Popen(server.command(port=port, workers=WORKERS, threads=THREADS),
                                        cwd=ROOT, env=env, start_new_session=True))
        SERVER_GROUPS.append(servers[-1].pid)  # (a new session: its group is its pid)
        ports.append(port)
    for port in ports:
        wait_until_listening(port)
    return servers, ports


def wait_until_listening(port: int) -> None:
    """Until a server started on ``port`` accepts connections (20 s at most)."""
    for _ in range(400):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)


def client_address(n: int) -> str:
    """Client ``n``'s address, as the proxy in front says it (each table, each attacker an address of its own)."""
    return f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"


def main() -> int:
    # the database (SQLite's) in a folder of its own, removed at the end
    with tempfile.TemporaryDirectory() as tmp:
        return load_test(tmp)


def load_test(tmp: str) -> int:
    random.seed(SEED)
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp}/load.sqlite3"
    env = dict(os.environ, DATABASE_URL=url, SECRET_KEY=os.environ.get("SECRET_KEY", "loadtest"), TRUST_PROXY="1")
    if os.environ.get("LOADTEST_RATE_LIMIT"):
        env["RATE_LIMIT_WRITES"] = os.environ["LOADTEST_RATE_LIMIT"]
    bin_dir = Path(sys.executable).parent
    subprocess.run([str(bin_dir / "flask"), "--app", "app", "db", "upgrade"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    database = "PostgreSQL" if url.startswith("postgres") else "SQLite"
    servers_word = f"{INSTANCES} server{'s' if INSTANCES > 1 else ''}"
    workers_word = f"{WORKERS} worker{'s' if WORKERS > 1 else ''}"
    during = (f", up to {BUYS_A_HAND} buys and {DOWNS_A_HAND} players going down in each hand, the page opened "
              f"again after each save (a real evening, time compressed {COMPRESS:g}×: LOADTEST_PROFILE=evening)"
              if PROFILE == "evening" else " (the stress profile: a regression guard, not a target)")
    print(f"load test: {PHONES} phones a table polling every {POLL_EVERY:g} s, a hand saved every "
          f"{SAVE_EVERY[0]:g}–{SAVE_EVERY[1]:g} s per table (one in {TWIN_EVERY} by two phones at once){during}; "
          f"a step: "
          f"phones joining over {JOIN:g} s, then {SECONDS:g} s; {servers_word} × granian {workers_word} × "
          f"{THREADS} threads, {database}, {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}")
    servers, ports = start_servers(env)
    best: Step | None = None
    missed = False
    try:
        for tables in steps():
            step = Step(tables)
            stored = asyncio.run(run(step, ports))
            if not report(step, stored):
                missed = True
                break
            best = step
    finally:
        for server in servers:
            os.killpg(server.pid, signal.SIGTERM)
        for server in servers:
            server.wait(timeout=10)
    if best is None:
        print(f"largest load that held ({database}): none (the first step, {STEPS[0]} tables, missed)")
        return 1
    rate = sum(len(v) for v in best.latencies.values()) / best.elapsed
    print(f"largest load that held ({database}, {INSTANCES} server{'s' if INSTANCES > 1 else ''}): "
          f"{best.tables} tables × {PHONES} phones, {rate:.0f} requests/s"
          + ("" if missed else " (the last step run: the ceiling is higher)"))
    return 0


def steps() -> Iterator[int]:
    """The tables of each step: those listed, then (unless one load was asked for) on by ``STEP_ON`` until a
    step misses or ``MAX_TABLES`` is passed."""
    yield from STEPS
    if os.environ.get("LOADTEST_TABLES"):
        return
    tables = STEPS[-1] + STEP_ON
    while tables <= MAX_TABLES:
        yield tables
        tables += STEP_ON


if __name__ == "__main__":
    sys.exit(main())
