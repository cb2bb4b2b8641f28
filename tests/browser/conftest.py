"""Browser tests: the app on a real server on loopback, driven in headless Chromium at a phone's size.

They need Debian's chromium at /usr/bin/chromium; without it they are skipped, except under CI=true, where
.ci/run has installed it and a missing browser is a failure. Screenshots land in screenshots/ (not committed).
"""

from __future__ import annotations

import os
import threading

import pytest

from tests.browser.browserkit import PHONE

CHROMIUM = "/usr/bin/chromium"
# How long a browser test waits for what it expects before it fails: seconds, so that a missing element fails
# the test at once rather than holding the suite (the whole test has its own limit: ``timeout`` in
# pyproject.toml). Generous for a loaded machine: a page here answers in milliseconds.
ACTION_MS = 10_000  # a click, a fill, a wait for an element
NAVIGATION_MS = 15_000  # a page load
EXPECT_MS = 5_000  # expect(...) assertions


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    from flask_migrate import upgrade
    from werkzeug.serving import make_server

    from referee.web import create_app

    db_file = tmp_path_factory.mktemp("live") / "live.sqlite3"
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{db_file}", "SECRET_KEY": "browser-tests"})
    with app.app_context():
        upgrade()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: .ci/run should have installed Debian's chromium")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=EXPECT_MS)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        new_context = b.new_context

        def quick_context(*args, **kwargs):
            ctx = new_context(*args, **kwargs)
            ctx.set_default_timeout(ACTION_MS)
            ctx.set_default_navigation_timeout(NAVIGATION_MS)
            return ctx

        def quick_page(*args, **kwargs):
            return quick_context(*args, **kwargs).new_page()

        b.new_context = quick_context  # every context a test opens waits seconds, not Playwright's 30 s
        b.new_page = quick_page
        yield b
        b.close()


@pytest.fixture()
def context(browser):
    ctx = browser.new_context(viewport=PHONE, locale="en-GB")
    yield ctx
    ctx.close()


@pytest.fixture()
def page(context):
    """A phone-sized page that fails the test on a script error or a Content-Security-Policy violation."""
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" and (
        "Content Security Policy" in m.text or "Refused" in m.text) else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    yield page
    assert problems == [], problems
