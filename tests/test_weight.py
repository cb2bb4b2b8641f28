"""What a first visit to each page costs on a weak signal: the page and everything it loads (style sheet, scripts,
icon, manifest), counted as they come over the wire (status line, headers and body), with the browser saying it
accepts gzip, on both servers (``make run``'s and the production server). Each is at most 35 KB. The service
worker's install, which keeps the offline shell in the background once the page is shown, is not part of it."""

from __future__ import annotations

import gzip
import http.client
import re
import threading

import pytest
from werkzeug.serving import make_server

from tests.conftest import make_app
from tests.kit import said

LIMIT = 35_000
LANGUAGES = ("en", "es", "pt", "de")
LOADED = re.compile(r'<(?:link rel="(?:stylesheet|manifest|icon)"|script)[^>]* (?:href|src)="(/[^"]+)"')


def fetch(port: int, path: str, lang: str, body: object = None, **headers: str) -> tuple[int, int, bytes, dict]:
    """A request as a first visit sends it: the status, the bytes on the wire, the body (decompressed)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    sent = {"Accept-Encoding": "gzip", "Accept-Language": lang, **headers}
    conn.request("GET" if body is None else "POST", path, body=body, headers=sent)
    resp = conn.getresponse()
    raw = resp.read()
    conn.close()
    head = len(f"HTTP/1.1 {resp.status} {resp.reason}\r\n") + sum(
        len(f"{k}: {v}\r\n") for k, v in resp.getheaders()) + 2
    got = {k.title(): v for k, v in resp.getheaders()}
    data = gzip.decompress(raw) if got.get("Content-Encoding") == "gzip" else raw
    return resp.status, head + len(raw), data, got


def first_visit(port: int, path: str, lang: str) -> tuple[int, dict[str, int]]:
    status, size, html, _ = fetch(port, path, lang)
    assert status == 200, (path, status)
    sizes = {path: size}
    for url in LOADED.findall(html.decode()):
        url = url.replace("&amp;", "&")
        if url not in sizes:
            status, sizes[url], _, got = fetch(port, url, lang)
            assert status == 200, (url, status)
            if got.get("Content-Type", "").startswith(("text/", "application/manifest", "application/javascript")):
                assert got.get("Content-Encoding") == "gzip", url
    return sum(sizes.values()), sizes


def pages(port: int) -> list[str]:
    """One of each page the phones at a table open (a game and a group made for it)."""
    import json

    def post(path: str, body: dict) -> dict:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        out = json.loads(resp.read())
        assert resp.status == 201, out
        return out

    group = post("/api/v1/groups", {"name": "Thursday"})
    game = post("/api/v1/games", {"ruleset": "liverpool", "players": ["Ana", "Beto", "Carla", "Dani", "Eva"],
                                  "group": group["id"], "group_token": group["edit_token"]})
    edit = game["edit_url"].rsplit("/", 1)[-1] if "edit_url" in game else game["edit_token"]
    # late in a long evening: eight players with long names, six hands on the board, the last one to type
    names = [f"{first} {last}" for first, last in zip(
        ["Ana Beatriz", "Bernardo", "Carla Sofia", "Daniela", "Eduardo", "Fabiana", "Guilherme", "Heloisa"],
        ["Albuquerque", "Nascimento", "Vasconcelos", "Figueiredo", "Magalhaes", "Cavalcanti", "Bittencourt", "Damasceno"])]
    late = post("/api/v1/games", {"ruleset": "liverpool", "players": names})
    for hand in range(1, 7):
        out = names[hand % 8]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        conn.request("POST", f"/api/v1/games/{late['id']}/hands", body=json.dumps(
            {"hand": hand, "out": out, "leftovers": {n: ["K", "7", "A", "Q"] for n in names if n != out}}),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {late['edit_token']}"})
        assert conn.getresponse().status == 201
    return [f"/g/{late['edit_token']}", f"/g/{late['view_token']}","/", f"/g/{edit}", f"/g/{game['view_token']}", f"/g/{edit}/share", "/referee/", "/referee/arrange",
            f"/groups/{group['edit_token']}", f"/groups/{group['view_token']}", "/new", f"/groups/{group['edit_token']}/new", "/rules",
            "/rules/liverpool", "/rules/progressive", "/rules/contract", "/rules/compare"]


def heaviest(port: int) -> tuple[int, str, dict[str, int]]:
    worst = (0, "", {})
    for path in pages(port):
        for lang in LANGUAGES:
            total, sizes = first_visit(port, path, lang)
            worst = max(worst, (total, f"{path} ({lang})", sizes), key=lambda w: w[0])
    return worst


def test_a_first_visit_to_any_page_is_at_most_35_kb_on_the_development_server(request, tmp_path):
    app = make_app(request, tmp_path, "sqlite")
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        total, where, sizes = heaviest(server.server_port)
    finally:
        server.shutdown()
    assert total <= LIMIT, (where, total, sizes)


@pytest.mark.parametrize("backend", ["sqlite"])
def test_a_first_visit_to_any_page_is_at_most_35_kb_on_the_production_server(serve, tmp_path, backend):
    served = serve(backend)
    total, where, sizes = heaviest(served.port)
    assert total <= LIMIT, (where, total, sizes)


def test_answers_are_compressed_only_for_who_accepts_it_and_say_they_vary(request, tmp_path):
    app = make_app(request, tmp_path, "sqlite")
    c = app.test_client()
    plain = c.get("/rules/liverpool")
    assert "Content-Encoding" not in plain.headers and b"<html" in plain.data
    packed = c.get("/rules/liverpool", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"]
    assert gzip.decompress(packed.data) == plain.data


def test_the_manifest_is_in_the_readers_language(client):
    for lang in ("en", "es", "pt", "de"):
        name = said("Rummy companion", lang)
        page = client.get("/rules", headers={"Accept-Language": lang}).get_data(as_text=True)
        link = re.search(r'<link rel="manifest" href="([^"]+)"', page)
        assert link is not None and link.group(1) == f"/manifest/{lang}.webmanifest"
        data = client.get(link.group(1)).get_json(force=True)
        assert data["lang"] == lang and data["display"] == "standalone" and data["icons"]
        assert data["name"] == name
    assert client.get("/manifest/xx.webmanifest").status_code == 404
