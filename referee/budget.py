"""A bound on the work of a request, so that no request can buy more than a sliver of the server.

A search spends one step for each unit of work it does (a state it visits, a candidate meld it builds, a cell of
a table it fills); when the steps run out, or its thread has used its share of CPU time, ``spend`` raises
``OutOfBudget`` and the search answers that it could not decide. The step count keeps the answer the same on a
busy machine and an idle one; the CPU deadline is the backstop on a slow one.

One budget serves a whole request: the web layer opens it as the request starts (``for_request``), and every
search the request makes draws on it (``current``), however many it makes (a save checks each typed total,
then all of them together, then which players are at fault). Outside a request each search gets its own.

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
from contextvars import ContextVar
from typing import Callable, Iterator

STEPS = 50_000  # about 50 ms of one core; a real hand of 18 cards needs under 1,500
CPU_SECONDS = 0.1
CHECK_EVERY = 512  # steps between looks at the clock (reading it costs as much as a few steps)


class OutOfBudget(Exception):
    def __init__(self) -> None:
        super().__init__("search budget spent")


class Budget:
    def __init__(self, steps: int | None = None, cpu_seconds: float | None = CPU_SECONDS,
                 clock: Callable[[], float] = time.thread_time, from_first_step: bool = False) -> None:
        """``from_first_step``: the CPU time counts from the first step spent, not from now (a request's budget:
        its searches share the time, whatever the framework spent before the first of them)."""
        self.left = STEPS if steps is None else steps
        self.clock = clock
        self.cpu_seconds = cpu_seconds
        self.deadline = None if cpu_seconds is None or from_first_step else clock() + cpu_seconds
        self._until_check = CHECK_EVERY

        self.spent = False  # it ran out: a search was cut short
        self.charged = 0  # steps spent in all (tests and the benchmark read it)

    def spend(self, steps: int = 1) -> None:
        if self.deadline is None and self.cpu_seconds is not None:
            self.deadline = self.clock() + self.cpu_seconds  # (a request's budget: from its first step)
        self.left -= steps
        if self.left < 0:
            self.spent = True
            raise OutOfBudget()
        self.charged += steps
        self._until_check -= steps
        if self._until_check <= 0:  # (what a batch of steps went past the mark counts toward the next one)
            self._until_check = self._until_check % CHECK_EVERY or CHECK_EVERY
            if self.out_of_time():
                self.spent = True
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


_REQUEST: ContextVar[Budget | None] = ContextVar("request_budget", default=None)
_provider: list[Callable[[], Budget | None]] = []  # the web layer's: the budget of the request in progress


def current() -> Budget:
    """The budget of the request in progress (``for_request``, or the web layer's ``provide``); outside one, a
    fresh budget."""
    found = _REQUEST.get()
    if found is None and _provider:
        found = _provider[0]()
    return found if found is not None else Budget()


@contextmanager
def for_request(budget: Budget | None = None) -> Iterator[Budget]:
    """Within the block every search draws on one budget (a fresh default one unless given)."""
    budget = budget if budget is not None else Budget()
    token = _REQUEST.set(budget)
    try:
        yield budget
    finally:
        _REQUEST.reset(token)


def provide(lookup: Callable[[], Budget | None]) -> None:
    """Where a framework keeps its request's budget (the web layer: on Flask's ``g``, made as the request
    starts), so that it ends with the request whatever happens."""
    _provider[:] = [lookup]
