"""Helpers for the browser tests."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.kit import said

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
PHONE = {"width": 390, "height": 844}


def shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def fits_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def on_error_page(page) -> bool:
    """Whether a navigation that met no network left the page on the browser's own error page. (After a failed
    ``goto`` Playwright's ``page.url`` still names the page asked for; the document knows where it is.)"""
    deadline = time.monotonic() + 3  # (the error page is shown a moment after the navigation has failed)
    while True:
        if page.url.startswith("chrome-error://"):
            return True
        try:
            if str(page.evaluate("() => location.href")).startswith("chrome-error://"):
                return True
        except Exception:  # (a page between two documents: asked again)
            pass
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(100)


@contextmanager
def offline(page) -> Iterator[None]:
    """The page's browser context without a network for the ``with`` block: the page and its service worker
    alike (``context.set_offline``; pinned by ``test_harness.py``). Then online again; a page that a navigation
    left on the browser's error page meanwhile is taken back to the app page it showed before, as a person
    would go back, so that the test goes on in the app.

    Seen here: a page that a reload left on the browser's error page for "no internet" reloaded itself a moment
    later and reached the server although the context was still offline. Test a reload without a server by
    stopping the server (``served.stop()``) rather than with this."""
    before = page.url
    page.context.set_offline(True)
    try:
        yield
    finally:
        page.context.set_offline(False)
        if on_error_page(page):
            page.goto(before)


def save(page, button: str = "#record button.primary") -> None:
    """Tap a form's button that the page sends by script (``static/outbox.js``) and wait for the page it opens
    when the server takes it: the save is sent by fetch, not by the browser's own form submission."""
    with page.expect_navigation():
        page.click(button)


def block(page, n: int):
    """Seat ``n``'s block in the end-of-hand form (its name, penalty, chips and text fields), as it stands."""
    return page.locator(f"#record fieldset.leftovers[data-seat='{n}']")


def seat(page, n: int):
    """Point the end-of-hand form's one pad (and its text fields) at seat ``n``, as a player taps the name;
    returns that seat's block. Without a script every seat's fields show and there is nothing to tap."""
    tab = block(page, n).locator(".seat-tab")
    if page.locator("#record .picker.ready").count() and tab.get_attribute("aria-pressed") != "true":
        tab.click()
    return block(page, n)


def tap(page, n: int, *ranks: str) -> None:
    """Tap ranks (as the pad names them: 'A', '10', 'JK' …) into seat ``n``'s leftover cards."""
    seat(page, n)
    for rank in ranks:
        page.locator(f"#record .rank-pad button[data-rank='{rank}']").click()


def fill_seat(page, n: int, cards: str | None = None, total: str | None = None) -> None:
    """Type seat ``n``'s leftover cards, or their total, into its text fields."""
    seat(page, n)
    if cards is not None:
        page.fill(f"#cards_{n}", cards)
    if total is not None:
        page.fill(f"#total_{n}", total)


def waiting(lang: str, *labels: str) -> str:
    """The outbox's line while ``labels`` wait on the phone to be sent, in ``lang``."""
    return said("Kept on this phone until the connection is back, then sent by itself: %(list)s.", lang,
                list=", ".join(labels))
