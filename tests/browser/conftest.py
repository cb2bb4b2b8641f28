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
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
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
