"""Forms with their CSRF token as a phone uses them: open for an evening, and over HTTPS without a Referer."""

import re
import time

import pytest

from tests.conftest import backends, make_app
from tests.test_games import PLAYERS, auth, create


@pytest.fixture(params=list(backends()))
def csrf_client(request, tmp_path):
    app = make_app(request, tmp_path, request.param)
    app.config["WTF_CSRF_ENABLED"] = True
    return app.test_client()


def token_of(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, "the page has no form token"
    return found.group(1)


def record_form(token: str, hand: int = 1) -> dict[str, str]:
    return {"csrf_token": token, "hand": str(hand), "out": "0", "cards_1": "K", "cards_2": "7", "cards_3": "A"}


def hands_of(client, game) -> int:
    return len(client.get(f"/api/v1/games/{game['id']}", headers=auth(game["view_token"])).json["hands"])


def test_a_page_open_for_four_hours_still_saves(csrf_client, monkeypatch):
    game = create(csrf_client)
    page = csrf_client.get(f"/g/{game['edit_token']}")
    token = token_of(page.get_data(as_text=True))
    opened = time.time()
    monkeypatch.setattr(time, "time", lambda: opened + 4 * 3600)  # the clock moves four hours on
    r = csrf_client.post(f"/g/{game['edit_token']}/hand", data=record_form(token))
    assert r.status_code == 302, r.get_data(as_text=True)
    assert hands_of(csrf_client, game) == 1


def test_a_form_without_its_token_is_still_refused(csrf_client):
    game = create(csrf_client)
    csrf_client.get(f"/g/{game['edit_token']}")
    r = csrf_client.post(f"/g/{game['edit_token']}/hand", data=record_form("forged"))
    assert r.status_code == 400 and "expired" in r.get_data(as_text=True)
    assert hands_of(csrf_client, game) == 0


@pytest.mark.parametrize("how", ["proxy", "tls"])
def test_forms_work_over_https_without_a_referer(csrf_client, how):
    """Behind a proxy that says X-Forwarded-Proto: https (trusted with ``TRUST_PROXY``), or with TLS in the
    server itself: the browser sends no Referer (Referrer-Policy: no-referrer), and the form must still save."""
    game = create(csrf_client, players=PLAYERS)
    kw = ({"environ_overrides": {"wsgi.url_scheme": "https"}, "headers": {"X-Forwarded-Proto": "https"}}
          if how == "proxy" else {"base_url": "https://localhost"})
    page = csrf_client.get(f"/g/{game['edit_token']}", **kw)
    assert page.headers["Referrer-Policy"] == "no-referrer"
    r = csrf_client.post(f"/g/{game['edit_token']}/hand", data=record_form(token_of(page.get_data(as_text=True))),
                         **kw)
    assert "Referer" not in r.request.headers
    assert r.status_code == 302, r.get_data(as_text=True)
    assert hands_of(csrf_client, game) == 1
    forged = csrf_client.post(f"/g/{game['edit_token']}/hand", data=record_form("forged", 2), **kw)
    assert forged.status_code == 400 and hands_of(csrf_client, game) == 1
