"""No test can hold the suite: one that waits for something that never comes fails at the time limit
(pytest-timeout, ``timeout`` in pyproject.toml) and the tests after it still run."""

from __future__ import annotations

import time


def test_a_hung_wait_fails_at_the_time_limit_and_the_suite_goes_on(pytester):
    pytester.makepyfile(
        test_hangs="""
        import threading

        def test_waits_for_ever():
            threading.Event().wait()  # a reply that never comes

        def test_after_it():
            assert True
        """)
    started = time.monotonic()
    result = pytester.runpytest_subprocess("--timeout=2", "-p", "no:cacheprovider")
    assert time.monotonic() - started < 60
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(["*Timeout*"])
