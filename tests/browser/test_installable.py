"""Installable on a phone (manifest, icons, a service worker) and the rules readable offline once opened."""

import pytest

from tests.browser.browserkit import PHONE, shot

pytestmark = pytest.mark.browser


def test_manifest_and_icons(page, live_server):
    page.goto(f"{live_server}/")
    manifest = page.request.get(f"{live_server}/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    data = manifest.json()
    assert data["display"] == "standalone" and data["start_url"] == "/"
    sizes = {i["sizes"] for i in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        r = page.request.get(live_server + icon["src"])
        assert r.ok and r.headers["content-type"] == "image/png" and r.body()[:8] == b"\x89PNG\r\n\x1a\n"


def test_chromium_sees_an_installable_app(page, live_server):
    page.goto(f"{live_server}/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    cdp = page.context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # a test browser context is incognito, which alone keeps Chromium from offering to install
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []


def test_rules_readable_offline_once_visited(browser, live_server):
    ctx = browser.new_context(viewport=PHONE, locale="es-ES")
    page = ctx.new_page()
    page.goto(f"{live_server}/rules/liverpool")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now under the service worker, which keeps a copy
    assert page.evaluate("caches.open('pages-v1').then(c => c.keys()).then(k => k.length)") >= 1
    ctx.set_offline(True)
    page.goto(f"{live_server}/rules/liverpool")
    assert page.locator("#rule-joker-swap").count() == 1
    assert page.locator("html").get_attribute("lang") == "es"
    shot(page, "offline-rules-es")
    r = page.evaluate("fetch('/api/v1/rulesets').then(r => r.status).catch(() => 'offline')")
    assert r == "offline"  # scores and the API are never served stale
    ctx.close()
