"""``make table`` (``referee.web.host``): the address phones reach, found without sending anything to it, and
every link given out on ``PUBLIC_URL`` whatever the request's ``Host`` header says."""

from __future__ import annotations

import ipaddress
import re
from html import unescape

import pytest

from referee.web import host
from tests.kit import said


@pytest.mark.parametrize("candidates, chosen", [
    (["127.0.0.1", "127.0.1.1", "192.168.1.20"], "192.168.1.20"),  # Debian names itself 127.0.1.1
    (["169.254.7.7", "10.0.0.5"], "10.0.0.5"),  # link-local (no DHCP answer) is not reachable from phones
    (["100.70.1.2", "172.20.1.9"], "172.20.1.9"),  # the local network's address before a shared one (a VPN)
    (["100.70.1.2"], "100.70.1.2"),
    ([None, "", "not an address", "0.0.0.0"], "127.0.0.1"),  # offline: the table is this machine
    ([], "127.0.0.1"),
])
def test_the_address_phones_can_reach_is_picked(candidates, chosen):
    assert host.pick(candidates) == chosen


def test_the_address_is_found_from_the_route_and_the_machines_name():
    assert host.lan_address([lambda: None, lambda: ["127.0.1.1", "192.168.0.9"]]) == "192.168.0.9"
    assert host.lan_address([lambda: "10.1.2.3", lambda: ["192.168.0.9"]]) == "10.1.2.3"


def test_the_route_is_asked_without_sending_anything(monkeypatch):
    """A UDP socket's connect picks the route and sends no packet; the address asked for is in the
    documentation range (nothing there answers), never the machine's own."""
    asked = []
    real = host.socket.socket

    class Watched(real):  # type: ignore[misc,valid-type]
        def connect(self, address):
            asked.append((self.type, address))
            return super().connect(address)

        def send(self, *a, **k):  # pragma: no cover - would be a failure
            raise AssertionError("sent")

        sendto = sendall = send

    monkeypatch.setattr(host.socket, "socket", Watched)
    found = host.routed_address()
    assert found is None or ipaddress.IPv4Address(found)
    assert asked == [(host.socket.SOCK_DGRAM, host.ROUTE_PROBE)]
    assert ipaddress.IPv4Address(host.ROUTE_PROBE[0]) in ipaddress.IPv4Network("192.0.2.0/24")


def test_the_banner_gives_the_address_and_its_code():
    text = host.banner("http://192.168.1.20:8000")
    assert "http://192.168.1.20:8000" in text and "HTTPS" in text
    assert len(re.findall("\u2580|\u2584|\u2588", text)) > 100  # the QR code, drawn in blocks


def test_public_url_wins_over_the_host_header_for_every_link(app):
    app.config["PUBLIC_URL"] = "http://192.168.1.20:8000"
    c = app.test_client()
    evil = {"Host": "evil.example"}
    g = c.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["A", "B", "C"]}, headers=evil).json
    assert g["edit_url"] == f"http://192.168.1.20:8000/g/{g['edit_token']}"
    assert g["view_url"] == f"http://192.168.1.20:8000/g/{g['view_token']}"
    grp = c.post("/api/v1/groups", json={"name": "Tuesday"}, headers=evil).json
    assert grp["edit_url"].startswith("http://192.168.1.20:8000/groups/")
    assert grp["view_url"].startswith("http://192.168.1.20:8000/groups/")
    for path in (f"/g/{g['edit_token']}/share", f"/g/{g['view_token']}/share",
                 f"/groups/{grp['edit_token']}/share", f"/groups/{grp['view_token']}/share"):
        html = c.get(path, headers=evil).get_data(as_text=True)
        assert "evil.example" not in html, path
        assert "http://192.168.1.20:8000/" in html, path
    for path in (f"/g/{g['edit_token']}/export.json", f"/g/{g['edit_token']}/export.csv",
                 f"/groups/{grp['edit_token']}/export.json"):
        assert "evil.example" not in c.get(path, headers=evil).get_data(as_text=True), path


def test_the_share_pages_give_the_view_link_first(app):
    c = app.test_client()
    g = c.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["A", "B", "C"]}).json
    grp = c.post("/api/v1/groups", json={"name": "Tuesday"}).json
    for path, view in ((f"/g/{g['edit_token']}/share", g["view_token"]),
                       (f"/groups/{grp['edit_token']}/share", grp["view_token"])):
        html = c.get(path + "?lang=de").get_data(as_text=True)
        first = re.search(r'<textarea id="link-(\w+)"[^>]*>([^<]+)</textarea>', html)
        assert first and first.group(1) == "view" and first.group(2).endswith(view)
        assert html.index('<details class="edit-link-more">') < html.index('id="link-edit"')
        assert said("Show the edit link (it changes the scores)", "de") in unescape(html)
