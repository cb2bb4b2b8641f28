"""``make bench-compare [BASE=<rev>]``: this engine against the engine of an earlier revision, on one corpus.

Extracts ``referee/`` at ``BASE`` (default: the revision named in docs/bench.md) into a temporary directory
with ``git archive``, imports it beside the working tree's engine as a second package, and runs the bench
corpus (bench/corpus.py) through both: a contract check of each hand's arrangement and an arrangement search
of each hand. Calls alternate between the two engines, item by item and round by round, and are timed in
CPU time of this thread (``time.thread_time``), so that a shared, loaded machine slows both alike. Prints
median and p99 side by side with the ratio new / base, and how many verdicts differ (rulings that changed
on purpose show up there; the timings are of the same inputs either way). The temporary copy is removed.
"""

from __future__ import annotations

import argparse
import importlib
import io
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))

from corpus import hands  # noqa: E402

DEFAULT_BASE = "5be4184"
BASE_PACKAGE = "referee_base"


def load_base(rev: str, into: Path) -> dict[str, ModuleType]:
    """``referee/`` at ``rev``, importable as ``referee_base`` (its modules import each other relatively)."""
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev, "referee/"],
                         check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(into, filter="data")
    (into / "referee").rename(into / BASE_PACKAGE)
    sys.path.insert(0, str(into))
    return {m: importlib.import_module(f"{BASE_PACKAGE}.{m}") for m in ("cards", "families", "contracts", "arrange")}


def load_new() -> dict[str, ModuleType]:
    return {m: importlib.import_module(f"referee.{m}") for m in ("cards", "families", "contracts", "arrange")}


def cpu(fn: Callable[[], object], repeat: int) -> float:
    start = time.thread_time()
    for _ in range(repeat):
        fn()
    return (time.thread_time() - start) / repeat


def stats(samples: list[float]) -> tuple[float, float]:
    s = sorted(samples)
    return statistics.median(s), s[min(len(s) - 1, int(len(s) * 0.99))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", nargs="?", default=DEFAULT_BASE, help="git revision to compare against")
    ap.add_argument("--rounds", type=int, default=5, help="passes over the corpus (each interleaved)")
    ap.add_argument("--repeat", type=int, default=20, help="calls per check sample")
    args = ap.parse_args()
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.base], check=True,
                         capture_output=True, text=True).stdout.strip()

    tmp = Path(tempfile.mkdtemp(prefix="bench-compare-"))
    try:
        engines = {"base": load_base(rev, tmp), "new": load_new()}
        # the corpus as text, read by each engine with its own types
        plain = [(r.family.id, r.players, h, [str(c) for c in cards]) for r, h, cards in hands()]
        ready: dict[str, list[Any]] = {}
        for name, e in engines.items():
            items = []
            for fid, players, h, cards in plain:
                rules = e["families"].resolve(fid, players=players)
                parsed = e["cards"].parse_cards(cards)
                items.append((rules, h, parsed))
            ready[name] = items
        # melds to check: the new engine's arrangement of each hand that has one
        checks: dict[str, list[Any]] = {"base": [], "new": []}
        for i, (rules, h, cards) in enumerate(ready["new"]):
            a = engines["new"]["arrange"].arrange(rules, h, cards)
            if a.melds:
                text = [[str(c) for c in m] for m in a.melds]
                for name, e in engines.items():
                    r, hh, _ = ready[name][i]
                    checks[name].append((r, hh, [e["cards"].parse_cards(m) for m in text]))

        differ_check = sum(
            engines["base"]["contracts"].check(*b).valid != engines["new"]["contracts"].check(*n).valid
            for b, n in zip(checks["base"], checks["new"]))
        differ_arrange = sum(
            engines["base"]["arrange"].arrange(*b).possible != engines["new"]["arrange"].arrange(*n).possible
            for b, n in zip(ready["base"], ready["new"]))

        times: dict[tuple[str, str], list[float]] = {(k, n): [] for k in ("check", "arrange") for n in engines}
        order = ["base", "new"]
        for rnd in range(args.rounds):
            for i in range(len(checks["new"])):
                for name in order:
                    check = engines[name]["contracts"].check
                    r, h, m = checks[name][i]
                    times["check", name].append(cpu(lambda: check(r, h, m), args.repeat))
                order.reverse()
            for i in range(len(ready["new"])):
                for name in order:
                    arrange = engines[name]["arrange"].arrange
                    r, h, c = ready[name][i]
                    times["arrange", name].append(cpu(lambda: arrange(r, h, c), 1))
                order.reverse()

        print(f"base {rev} against the working tree; {len(plain)} hands, {len(checks['new'])} checks; "
              f"{args.rounds} interleaved rounds; CPU time (thread)")
        for kind, unit, scale in (("check", "µs", 1e6), ("arrange", "ms", 1e3)):
            bm, bp = stats(times[kind, "base"])
            nm, np_ = stats(times[kind, "new"])
            print(f"  {kind:<8} median {bm * scale:8.2f} → {nm * scale:8.2f} {unit} ({nm / bm:5.2f}×)   "
                  f"p99 {bp * scale:8.2f} → {np_ * scale:8.2f} {unit} ({np_ / bp:5.2f}×)")
        print(f"  verdicts that differ: check {differ_check} of {len(checks['new'])}, "
              f"arrangement (possible) {differ_arrange} of {len(plain)}")
    finally:
        sys.path.remove(str(tmp)) if str(tmp) in sys.path else None
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
