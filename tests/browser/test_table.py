"""Hosting the table (``make table``: ``referee.web.host``): the server on the address it is given, printed with
its QR code; phones reach the game by that address; the share page's codes decode to it, the view link first;
over plain http the copy field and the screen-awake explanation appear. Only loopback addresses are used: a
second one (127.0.0.2) stands for the laptop's LAN address, and a name mapped to it in the browser stands for a
plain http address (127.0.0.0/8 itself counts as secure in browsers)."""

from __future__ import annotations

import io
import re

import pytest
from playwright.sync_api import expect

from tests.browser.browserkit import PHONE, shot
from tests.browser.conftest import CHROMIUM

pytestmark = pytest.mark.browser

LAN = "127.0.0.2"


def decoded(locator) -> str:
    """The text of the QR code drawn in ``locator``, read back from a screenshot by a real decoder."""
    import zxingcpp
    from PIL import Image

    image = Image.open(io.BytesIO(locator.screenshot()))
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1, found
    return str(found[0].text)


@pytest.fixture()
def table(serve, tmp_path):
    served = serve("sqlite", host=LAN, module="referee.web.host", log=tmp_path / "table.log")
    printed = re.search(r"for the table: (\S+)", (tmp_path / "table.log").read_text())
    assert printed, (tmp_path / "table.log").read_text()
    return served, printed.group(1)


def test_phones_join_by_the_printed_address_and_the_codes_lead_there(browser, table):
    served, address = table
    assert address == f"http://{LAN}:{served.port}"
    host = browser.new_context(viewport=PHONE, locale="en-GB")
    page = host.new_page()
    page.goto(f"{address}/new?lang=en")
    page.click("button[value=start]")
    edit_url = page.url
    page.click("a[href$='/share']")
    view_code = page.locator(".share-view .qr")
    view_url = decoded(view_code)
    assert view_url.startswith(f"{address}/g/") and view_url != edit_url
    assert page.locator(".share-link").first.get_attribute("class") == "share-link share-view"
    expect(page.locator("details.edit-link-more")).not_to_have_attribute("open", "")  # one more tap to see it
    shot(page, "table-share-view-first")
    page.click("details.edit-link-more > summary")
    assert decoded(page.locator("section.share-edit .qr")) == edit_url
    # a second phone scans the first code: it follows the game and can change nothing
    guest = browser.new_context(viewport=PHONE, locale="de-DE")
    other = guest.new_page()
    other.goto(view_url)
    expect(other.locator("#board")).to_be_visible()
    assert other.locator("#record").count() == 0
    # a request that names another host still gets links on the table's address
    status, game = served.api("POST", "/api/v1/games", {"ruleset": "liverpool", "players": ["A", "B", "C"]},
                              headers={"Host": "evil.example"})
    assert status == 201 and game["view_url"].startswith(f"{address}/g/")
    host.close()
    guest.close()


def test_on_plain_http_the_copy_field_and_the_screen_awake_note_appear(browser, table):
    served, address = table
    plain = browser.browser_type.launch(executable_path=CHROMIUM, args=[
        "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        f"--host-resolver-rules=MAP table.test {LAN}"])  # a name, not a loopback address: not a secure context
    try:
        ctx = plain.new_context(viewport=PHONE, locale="pt-BR")
        page = ctx.new_page()
        page.goto(f"http://table.test:{served.port}/new?lang=pt")
        assert page.evaluate("() => window.isSecureContext") is False
        page.click("button[value=start]")
        note = page.locator("#wake-note")
        expect(note).to_be_visible()
        expect(note).to_contain_text("https")
        assert page.locator("#wake-toggle").is_hidden()
        shot(page, "table-plain-http-wake-note-pt")
        page.click("a[href$='/share']")
        copy = page.locator(".share-view button.copy-link")
        expect(copy).to_be_visible()
        copy.click()
        expect(page.locator(".share-view .copied")).not_to_be_empty()  # copied the old way, or left selected
        selected = page.evaluate("() => { const t = document.querySelector('.share-view .link-text');"
                                 " return t.value.substring(t.selectionStart, t.selectionEnd); }")
        assert selected.startswith(f"{address}/g/")
        shot(page, "table-plain-http-copy-pt")
    finally:
        plain.close()
