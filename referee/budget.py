"""A bound on the work of one search, so that no request can buy more than a sliver of the server.

A search spends one step for each unit of work it does (a state it visits, a candidate meld it builds); when
the steps run out, or its thread has used its share of CPU time, ``spend`` raises ``OutOfBudget`` and the
search answers that it could not decide. The step count keeps the answer the same on a busy machine and an
idle one; the CPU deadline is the backstop on a slow one.

>>> b = Budget(steps=3, cpu_seconds=None)
>>> b.spend(); b.spend(2)
>>> b.spend()
Traceback (most recent call last):
...
referee.budget.OutOfBudget: search budget spent
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Callable, Iterator

STEPS = 50_000  # about 50 ms of one core; a real hand of 18 cards needs under 1,500
CPU_SECONDS = 0.1
CHECK_EVERY = 512  # steps between looks at the clock (reading it costs as much as a few steps)


class OutOfBudget(Exception):
    def __init__(self) -> None:
        super().__init__("search budget spent")


class Budget:
    def __init__(self, steps: int | None = None, cpu_seconds: float | None = CPU_SECONDS,
                 clock: Callable[[], float] = time.thread_time) -> None:
        self.left = STEPS if steps is None else steps
        self.clock = clock
        self.deadline = None if cpu_seconds is None else clock() + cpu_seconds
        self._until_check = CHECK_EVERY

    def spend(self, steps: int = 1) -> None:
        self.left -= steps
        if self.left < 0:
            raise OutOfBudget()
        self._until_check -= steps
        if self._until_check <= 0:  # (what a batch of steps went past the mark counts toward the next one)
            self._until_check = self._until_check % CHECK_EVERY or CHECK_EVERY
            if self.out_of_time():
                raise OutOfBudget()

    def out_of_time(self) -> bool:
        """Whether the thread has used its CPU time (steps may be left: then no other search is worth trying)."""
        return self.deadline is not None and self.clock() > self.deadline

    @contextmanager
    def keeping(self, steps: int) -> Iterator[None]:
        """Within the block, ``steps`` of what is left are kept back: the block runs out of steps that much
        sooner, and a search tried first still leaves that many for another way to the answer."""
        kept = max(0, min(steps, self.left))
        self.left -= kept
        try:
            yield
        finally:
            self.left += kept
