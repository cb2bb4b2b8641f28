"""``make loadtest``: tables of phones against the production server (gunicorn) on loopback.

Each table is a game; each of its phones polls the board every 2 s (a 304 while nothing changed) and one of
them saves a hand every few seconds through the API; a probe asks /healthz throughout, so its figures stand
beside the others in the same run. Bounded in time; prints throughput, p50/p99 per kind of request and
errors. Target on 2 cores: no errors, p99 under 100 ms for polls and saves.

    make loadtest                              # 50 tables × 6 phones for 30 s on SQLite
    LOADTEST_TABLES=20 LOADTEST_PHONES=4 LOADTEST_SECONDS=60 make loadtest
    DATABASE_URL=postgresql://… make loadtest  # against PostgreSQL (migrated first)
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLES = int(os.environ.get("LOADTEST_TABLES", 50))
PHONES = int(os.environ.get("LOADTEST_PHONES", 6))
SECONDS = float(os.environ.get("LOADTEST_SECONDS", 30))
POLL_EVERY = 2.0
SAVE_EVERY = (4.0, 6.0)
WORKERS = int(os.environ.get("WORKERS", 2))
THREADS = int(os.environ.get("THREADS", 8))
PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]

latencies: dict[str, list[float]] = defaultdict(list)
errors: dict[str, list[str]] = defaultdict(list)
statuses: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))


class Connection:
    """One phone's keep-alive HTTP/1.1 connection (a minimal client: Content-Length bodies only)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: dict | None = None,
                      headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        for attempt in (1, 2):  # the server may have closed an idle connection: reconnect once
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
                payload = json.dumps(body).encode() if body is not None else b""
                lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(payload)}"]
                if body is not None:
                    lines.append("Content-Type: application/json")
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
                    head[k.strip().lower()] = v.strip()
                data = await self.reader.readexactly(int(head.get("content-length", 0)))
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


async def timed(kind: str, conn: Connection, method: str, path: str, body: dict | None = None,
                headers: dict[str, str] | None = None, ok: tuple[int, ...] = (200,)) -> tuple[int, dict, bytes]:
    start = time.perf_counter()
    try:
        status, head, data = await conn.request(method, path, body, headers)
    except Exception as e:  # noqa: BLE001 - every failure is counted and reported
        errors[kind].append(f"{type(e).__name__}: {e}")
        return 0, {}, b""
    latencies[kind].append(time.perf_counter() - start)
    statuses[kind][status] += 1
    if status not in ok:
        errors[kind].append(f"HTTP {status}: {data[:120]!r}")
    return status, head, data


async def new_game(conn: Connection) -> dict:
    _, _, data = await timed("create game", conn, "POST", "/api/v1/games",
                             {"ruleset": "liverpool", "players": PLAYERS[:4]}, ok=(201,))
    return json.loads(data)


async def table(port: int, game: dict, stop: float) -> None:
    state = {"game": game, "hand": 1}

    async def phone(i: int) -> None:
        conn = Connection(port)
        etag = ""
        await asyncio.sleep(random.uniform(0, POLL_EVERY))
        while time.perf_counter() < stop:
            headers = {"If-None-Match": etag} if etag else {}
            status, head, _ = await timed("poll board", conn, "GET", f"/g/{state['game']['view_token']}/board",
                                          headers=headers, ok=(200, 304))
            etag = head.get("etag", etag)
            await asyncio.sleep(POLL_EVERY)
        conn.close()

    async def scorer() -> None:
        conn = Connection(port)
        await asyncio.sleep(random.uniform(*SAVE_EVERY))
        while time.perf_counter() < stop:
            g = state["game"]
            body = {"hand": state["hand"], "out": "Ann", "leftovers": {"Ben": ["K", "7"], "Cy": ["A"], "Dee": ["JK"]}}
            status, _, _ = await timed("save hand", conn, "POST", f"/api/v1/games/{g['id']}/hands", body,
                                       {"Authorization": f"Bearer {g['edit_token']}"}, ok=(201,))
            if status == 201:
                state["hand"] += 1
                if state["hand"] > 7:
                    state["game"], state["hand"] = await new_game(conn), 1
            await asyncio.sleep(random.uniform(*SAVE_EVERY))
        conn.close()

    await asyncio.gather(scorer(), *(phone(i) for i in range(PHONES)))


async def probe(port: int, stop: float) -> None:
    conn = Connection(port)
    while time.perf_counter() < stop:
        await timed("healthz", conn, "GET", "/healthz")
        await asyncio.sleep(0.1)
    conn.close()


async def run(port: int) -> float:
    setup = Connection(port)
    games = [await new_game(setup) for _ in range(TABLES)]
    setup.close()
    latencies.clear()
    statuses.clear()
    start = time.perf_counter()
    stop = start + SECONDS
    await asyncio.gather(probe(port, stop), *(table(port, g, stop) for g in games))
    return time.perf_counter() - start


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> int:
    random.seed(1)
    tmp = tempfile.mkdtemp()
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp}/load.sqlite3"
    # every phone of every table comes from 127.0.0.1: the write limit stays on (its cost is measured) but is
    # raised past what the simulated tables send (LOADTEST_RATE_LIMIT overrides)
    env = dict(os.environ, DATABASE_URL=url, SECRET_KEY="loadtest",
               RATE_LIMIT_WRITES=os.environ.get("LOADTEST_RATE_LIMIT", "100000 per minute"))
    bin_dir = Path(sys.executable).parent
    subprocess.run([str(bin_dir / "flask"), "--app", "app", "db", "upgrade"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port = free_port()
    server = subprocess.Popen(
        [str(bin_dir / "gunicorn"), "-w", str(WORKERS), "-k", "gthread", "--threads", str(THREADS),
         "--keep-alive", "5", "-b", f"127.0.0.1:{port}", "--log-level", "warning", "app:app"],
        cwd=ROOT, env=env, start_new_session=True)
    try:
        for _ in range(200):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.05)
        print(f"load test: {TABLES} tables × {PHONES} phones polling every {POLL_EVERY:g} s, a hand saved every "
              f"{SAVE_EVERY[0]:g}–{SAVE_EVERY[1]:g} s per table, {SECONDS:g} s, gunicorn {WORKERS} workers × "
              f"{THREADS} threads, {'PostgreSQL' if url.startswith('postgres') else 'SQLite'}, {os.cpu_count()} cores")
        elapsed = asyncio.run(run(port))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)
    total = sum(len(v) for v in latencies.values())
    print(f"  {total} requests in {elapsed:.1f} s: {total / elapsed:.0f} requests/s")
    failed = False
    for kind in ("healthz", "poll board", "save hand", "create game"):
        samples = sorted(latencies.get(kind, []))
        if not samples:
            continue
        p50 = statistics.median(samples) * 1000
        p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))] * 1000
        codes = ", ".join(f"{c}×{n}" for c, n in sorted(statuses[kind].items()))
        print(f"  {kind:<12} n={len(samples):<6} p50 {p50:7.1f} ms   p99 {p99:7.1f} ms   errors {len(errors[kind])}"
              f"   ({codes})")
        if kind in ("poll board", "save hand") and p99 >= 100:
            failed = True
    for kind, errs in errors.items():
        for e in errs[:3]:
            print(f"  error ({kind}): {e}")
    ok = not failed and not any(errors.values())
    print(f"target (no errors, p99 < 100 ms for polls and saves): {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
