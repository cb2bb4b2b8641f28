"""``make bench``: the engine's and the HTTP API's speed, measured side by side in one run.

Prints median and p99 of a contract check and of an arrangement search over a fixed corpus of hard hands
(bench/corpus.py), the search's speed-up over the brute-force oracle on the same hands, and the same calls
through the HTTP API beside ``/healthz`` on a real server on loopback. Targets (docs/bench.md): check under
50 µs median in-process; arrangement p99 under 5 ms; through HTTP, each within 2× of /healthz.
"""

from __future__ import annotations

import atexit
import gc
import http.client
import json
import logging
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus import hands  # noqa: E402
from flask_migrate import upgrade  # noqa: E402
from werkzeug.serving import WSGIRequestHandler, make_server  # noqa: E402

from referee.arrange import arrange, brute_force  # noqa: E402
from referee.contracts import check  # noqa: E402
from referee.web import create_app, warm  # noqa: E402
from referee.web.models import db  # noqa: E402
from referee.web.scoreboard import create, reads, services  # noqa: E402


def timed(fn: Callable[[], object], repeat: int = 1) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def stats(samples: list[float]) -> tuple[float, float]:
    s = sorted(samples)
    return statistics.median(s), s[min(len(s) - 1, int(len(s) * 0.99))]


def line(label: str, samples: list[float], unit: str = "µs") -> tuple[float, float]:
    scale = 1e6 if unit == "µs" else 1e3
    med, p99 = stats(samples)
    print(f"  {label:<38} median {med * scale:9.1f} {unit}   p99 {p99 * scale:9.1f} {unit}   (n={len(samples)})")
    return med, p99


def seeded_game(app) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """A four-player game three hands in, as a table would have it; returns its view and edit tokens."""
    with app.app_context():
        game, edit = create.new_game("liverpool", [], {}, ["Ann", "Ben", "Cy", "Dee"])
        db.session.commit()
        for n, out in ((1, 0), (2, 1), (3, 2)):
            entries = {s: services.entry(cards=["A", "K", "7"]) for s in range(4) if s != out}
            services.record_hand(game, n, out, entries)
            db.session.commit()
        return game.view_token, edit


def another_version(app, edit: str, down: bool) -> None:  # type: ignore[no-untyped-def]
    """A change from another phone (a player goes down in the hand being played, or not): the board's next
    version, of the same size."""
    with app.app_context():
        found = reads.find(edit)
        assert found is not None
        services.set_down(found[0], 4, 1, down)
        db.session.commit()


SEARCHES = [urlencode({"q": q, "lang": lang}) for lang, q in (
    ("en", "can I lay off the turn I go down"), ("es", "¿puedo bajarme con comodines?"),
    ("de", "wer bekommt die abgelegte Karte"), ("pt", "quantas compras posso fazer"), ("en", "ace high or low"))]


def main() -> None:
    corpus = hands()
    print(f"corpus: {len(corpus)} hands of 12–14 cards, 0–4 wild cards, contracts 5–7, three families")

    # melds to check: each hand's arrangement where it has one, its near miss where it does not
    arranged = [(r, h, c, arrange(r, h, c)) for r, h, c in corpus]
    checks = [(r, h, a.melds) for r, h, c, a in arranged if a.melds]
    print(f"  possible: {sum(1 for *_, a in arranged if a.possible)}; impossible: "
          f"{sum(1 for *_, a in arranged if not a.possible)}")

    print("in-process")
    for r, h, m in checks[:20]:
        check(r, h, m)  # warm up
    check_med, _ = line("contract check", [timed(lambda: check(r, h, m), 20) for r, h, m in checks])
    _, arrange_p99 = line("arrangement search", [timed(lambda: arrange(r, h, c)) for r, h, c in corpus], "ms")

    sample = corpus[::8]
    fast = [timed(lambda: arrange(r, h, c)) for r, h, c in sample]
    slow = [timed(lambda: brute_force(r, h, c)) for r, h, c in sample]
    print(f"  brute force on {len(sample)} of the hands: total {sum(slow) * 1e3:.0f} ms against "
          f"{sum(fast) * 1e3:.1f} ms for the search: {sum(slow) / sum(fast):.0f}× faster "
          f"(median per hand {statistics.median(s / f for s, f in zip(slow, fast)):.0f}×)")

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    tmp = tempfile.mkdtemp()
    atexit.register(shutil.rmtree, tmp, True)
    app = create_app({"TESTING": False, "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3"})
    with app.app_context():
        upgrade()
    view, edit = seeded_game(app)
    # served as app.py serves it: templates compiled and languages read first, then what the process holds at
    # start set aside from the garbage collector (here with the corpus, which a server does not hold)
    warm(app)
    gc.collect()
    gc.freeze()
    WSGIRequestHandler.protocol_version = "HTTP/1.1"  # keep the connection open between requests
    server = make_server("127.0.0.1", 0, app, threaded=True)
    port = server.server_port
    threading.Thread(target=server.serve_forever, daemon=True).start()
    conn = http.client.HTTPConnection("127.0.0.1", port)

    tag = [""]

    def call(method: str, path: str, body: dict | None = None, headers: dict | None = None,
             expect: int = 200) -> None:
        payload = json.dumps(body).encode() if body is not None else None
        sent = dict(headers or {}) | ({"Content-Type": "application/json"} if payload else {})
        conn.request(method, path, body=payload, headers=sent)
        resp = conn.getresponse()
        resp.read()
        if resp.status != expect:
            raise SystemExit(f"{path}: HTTP {resp.status}")

    conn.request("GET", f"/g/{view}/board")
    first = conn.getresponse()
    first.read()
    tag[0] = first.getheader("ETag") or ""

    def body(r, h, extra):  # type: ignore[no-untyped-def]
        return {"ruleset": r.family.id, "hand": h, "players": r.players} | extra

    check_bodies = [body(r, h, {"melds": [[str(c) for c in m] for m in melds]}) for r, h, melds in checks]
    arrange_bodies = [body(r, h, {"cards": [str(c) for c in cards]}) for r, h, cards in corpus]
    for _ in range(50):
        call("GET", "/healthz")
    print(f"through HTTP (werkzeug, keep-alive, loopback, port {port})")
    rounds = 3
    health, checked, arranged_http = [], [], []
    for _ in range(rounds):  # interleaved, so that the machine's noise falls on all three alike
        for cb, ab in zip(check_bodies * 2, arrange_bodies):
            health.append(timed(lambda: call("GET", "/healthz")))
            checked.append(timed(lambda: call("POST", "/api/v1/check", cb)))
            arranged_http.append(timed(lambda: call("POST", "/api/v1/arrange", ab)))
    page, poll, fresh, kept = [], [], [], []
    stale = 'W/"an-older-version"'
    for i in range(rounds * 80):
        # after another phone's change: the first phone to ask draws the board, the others at the table get it
        # as drawn (each asks with the tag of the version before)
        another_version(app, edit, i % 2 == 0)
        fresh.append(timed(lambda: call("GET", f"/g/{view}/board", headers={"If-None-Match": stale})))
        kept.append(timed(lambda: call("GET", f"/g/{view}/board", headers={"If-None-Match": stale})))
        page.append(timed(lambda: call("GET", f"/g/{view}")))
        conn.request("GET", f"/g/{view}/board")  # the tag of the version now, as a phone that has it holds it
        resp = conn.getresponse()
        resp.read()
        tag[0] = resp.getheader("ETag") or ""
        # /healthz and the poll side by side, each after a request (not after the change made in this process)
        health.append(timed(lambda: call("GET", "/healthz")))
        poll.append(timed(lambda: call("GET", f"/g/{view}/board", headers={"If-None-Match": tag[0]}, expect=304)))
    # the rules search, as players type their questions (the index was built by ``warm``, as a server builds it)
    searches = []
    for _ in range(rounds * 10):
        for q in SEARCHES:
            health.append(timed(lambda: call("GET", "/healthz")))
            searches.append(timed(lambda: call("GET", "/rules/search?" + q)))
    h_med, h_p99 = line("GET /healthz", health)
    c_med, c_p99 = line("POST /api/v1/check", checked)
    a_med, a_p99 = line("POST /api/v1/arrange", arranged_http)
    p_med, p_p99 = line("GET /g/<view> (scoreboard page)", page)
    f_med, f_p99 = line("GET /g/<view>/board, first after a change", fresh)
    k_med, k_p99 = line("GET /g/<view>/board, drawn already", kept)
    q_med, q_p99 = line("GET /g/<view>/board, unchanged (304)", poll)
    s_med, s_p99 = line("GET /rules/search (a question)", searches)
    # what a table's phones fetch after a save, 6 phones to a table: one draws, five get it as drawn (per
    # server process: with two workers, up to two draw)
    b_med = (f_med + 5 * k_med) / 6
    print("  ratio to /healthz (median / p99): "
          f"check {c_med / h_med:.2f}× / {c_p99 / h_p99:.2f}×, arrange {a_med / h_med:.2f}× / {a_p99 / h_p99:.2f}×, "
          f"scoreboard page {p_med / h_med:.2f}× / {p_p99 / h_p99:.2f}×, "
          f"board first after a change {f_med / h_med:.2f}× / {f_p99 / h_p99:.2f}×, "
          f"board drawn already {k_med / h_med:.2f}× / {k_p99 / h_p99:.2f}×, "
          f"unchanged poll {q_med / h_med:.2f}× / {q_p99 / h_p99:.2f}×, "
          f"rules search {s_med / h_med:.2f}× / {s_p99 / h_p99:.2f}×")
    print(f"  a table's full boards after a save (1 first, 5 drawn already): {b_med / h_med:.2f}× /healthz")
    server.shutdown()

    print("targets")
    print(f"  check median < 50 µs in-process: {'met' if check_med < 50e-6 else 'NOT met'}")
    print(f"  arrangement p99 < 5 ms: {'met' if arrange_p99 < 5e-3 else 'NOT met'}")
    print(f"  HTTP medians within 2× of /healthz: check {'met' if c_med < 2 * h_med else 'NOT met'}, "
          f"arrange {'met' if a_med < 2 * h_med else 'NOT met'}")
    print(f"  unchanged poll <= 1.3× /healthz: {'met' if q_med <= 1.3 * h_med else 'NOT met'}; full board <= 3×: "
          f"first after a change {'met' if f_med <= 3 * h_med else 'NOT met'}, drawn already "
          f"{'met' if k_med <= 3 * h_med else 'NOT met'}, a table's (1 + 5) "
          f"{'met' if b_med <= 3 * h_med else 'NOT met'}")
    print(f"  rules search p99 < 50 ms through HTTP: {'met' if s_p99 < 50e-3 else 'NOT met'}")


if __name__ == "__main__":
    main()
