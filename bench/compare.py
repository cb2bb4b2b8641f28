"""``make bench-compare [BASE=<rev>]``: this engine against the engine of an earlier revision, on one corpus.

Extracts ``referee/`` at ``BASE`` (default: the revision named in docs/bench.md) into a temporary directory
with ``git archive``, imports it beside the working tree's engine as a second package, and runs the bench
corpus (bench/corpus.py) through both: a contract check of each hand's arrangement and an arrangement search
of each hand. Calls alternate between the two engines, item by item and round by round, and are timed in
CPU time of this thread (``time.thread_time``), so that a shared, loaded machine slows both alike. Prints
median and p99 side by side with the ratio new / base, and how many verdicts differ (rulings that changed
on purpose show up there; the timings are of the same inputs either way), and how many arrangements differ in
any field. ``--random N`` compares every field of both engines' answers on N random hands under a dozen sets
of house rules as well (untimed): a change meant only to be faster should find none. The temporary copy is
removed.
"""

from __future__ import annotations

import argparse
import importlib
import io
import random
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


# house rules the random hands are played under (``--random``): each changes what the search may build
HOUSE_RULES: list[dict[str, Any]] = [
    {}, {"wild_ranks": ["JK", "2"]}, {"set_min_naturals": 2}, {"set_min_naturals": 1}, {"run_max_wilds_per_4": 1},
    {"second_wild_needs_fixed_position": True},
    {"second_wild_needs_fixed_position": False, "wild_ranks": ["JK", "2"]},
    {"run_max_wilds_per_4": 1, "set_min_naturals": 2, "wild_ranks": ["JK", "2"]},
    {"ace": "low"}, {"ace": "high"}, {"contract_extra_cards": True}, {"lay_off_same_turn": True},
]


def answer(a: Any) -> tuple[Any, ...]:
    """Every field of an arrangement, as text: two engines' answers compare equal only if they say the same (a
    field an older engine did not have yet reads as None)."""
    return (a.possible, [[str(c) for c in m] for m in a.melds], sorted(map(str, a.unused)), a.missing, a.needs,
            [v.code for v in a.violations]) + tuple(getattr(a, f, None) for f in
                                                      ("exhausted", "kinds", "needs_natural", "rules"))


def random_hands(count: int, seed: int) -> list[tuple[str, dict[str, Any], int, list[str]]]:
    """Hands of 6–18 cards, near a contract more often than a fair deal is (two suits and a span of ranks
    favoured), under the house rules above."""
    from referee.cards import NATURALS
    from referee.families import resolve

    rng = random.Random(seed)
    ranks = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    out: list[tuple[str, dict[str, Any], int, list[str]]] = []
    while len(out) < count:
        fid, options = rng.choice(["liverpool", "progressive", "contract"]), rng.choice(HOUSE_RULES)
        rules = resolve(fid, [], options, 4)
        suits, low = rng.sample("SHDC", 2), rng.randint(1, 8)
        pack = [str(c) for c in NATURALS for _ in range(rules.decks)
                if (str(c)[-1] in suits and low <= ranks.index(str(c)[:-1]) + 1 <= low + 7) or rng.random() < 0.2]
        size, wilds = rng.randint(6, 18), rng.randint(0, min(4, rules.jokers))
        cards = rng.sample(pack, min(len(pack), size - wilds)) + ["JK"] * wilds
        out.append((fid, options, rng.randint(1, len(rules.hands)), cards))
    return out


def stats(samples: list[float]) -> tuple[float, float]:
    s = sorted(samples)
    return statistics.median(s), s[min(len(s) - 1, int(len(s) * 0.99))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", nargs="?", default=DEFAULT_BASE, help="git revision to compare against")
    ap.add_argument("--rounds", type=int, default=5, help="passes over the corpus (each interleaved)")
    ap.add_argument("--repeat", type=int, default=20, help="calls per check sample")
    ap.add_argument("--random", type=int, default=0, metavar="N",
                    help="also compare every field of both engines' answers on N random hands (not timed)")
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
        answers = [(answer(engines["base"]["arrange"].arrange(*b)), answer(engines["new"]["arrange"].arrange(*n)))
                   for b, n in zip(ready["base"], ready["new"])]
        differ_arrange = sum(b[0] != n[0] for b, n in answers)
        differ_answer = sum(b != n for b, n in answers)

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
              f"arrangement (possible) {differ_arrange} of {len(plain)}, "
              f"arrangement (any field) {differ_answer} of {len(plain)}")
        if args.random:
            differ = 0
            for fid, options, h, cards in random_hands(args.random, seed=1):
                said = [answer(e["arrange"].arrange(e["families"].resolve(fid, [], options, 4), h,
                                                    e["cards"].parse_cards(cards)))
                        for e in (engines["base"], engines["new"])]
                if said[0] != said[1]:
                    differ += 1
                    if differ <= 3:
                        print(f"    differs: {fid} {options} hand {h}: {' '.join(cards)}")
            print(f"  random hands whose answers differ in any field: {differ} of {args.random}")
    finally:
        sys.path.remove(str(tmp)) if str(tmp) in sys.path else None
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
