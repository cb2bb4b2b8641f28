"""``make loadtest`` finds the ceiling by itself: after the steps listed it steps on until a step misses."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import loadtest  # noqa: E402 - (the benchmark, beside the tests)


def test_steps_go_on_past_the_list_up_to_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LOADTEST_TABLES", raising=False)
    monkeypatch.setattr(loadtest, "STEPS", [50, 100])
    monkeypatch.setattr(loadtest, "MAX_TABLES", 220)
    assert list(loadtest.steps()) == [50, 100, 150, 200]


def test_one_load_asked_for_is_the_only_step(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOADTEST_TABLES", "300")
    monkeypatch.setattr(loadtest, "STEPS", [300])
    assert list(loadtest.steps()) == [300]
