"""Hostile input: random and malformed bodies, huge strings, unicode, wrong types and wrong tokens on every
form and every API endpoint. Never a 500; never a changed game without its edit token."""

from __future__ import annotations

import json
import urllib.parse

import pytest
from flask_migrate import upgrade
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.web import create_app
from tests.test_hostile_classes import API_FORM_FIELDS as FORM_FIELDS
from tests.test_hostile_classes import FORM_VALUES, HUGE, SURROGATE, urlencoded

FUZZ = settings(max_examples=int(__import__("os").environ.get("FUZZ_EXAMPLES", "60")), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                       HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=20)
texts = st.one_of(st.text(max_size=60), st.just("A" * 100_000), st.sampled_from(
    ["<script>alert(1)</script>", "7H 7D JK", "'; DROP TABLE games; --", "\x00", "🃏" * 50, "-1", "99999999999999999999",
     "JK " * 200, "%(name)s", "{{7*7}}", "remove", "remove:x", "remove:²", "²", "٣", "add", "start", "update",
     "stock", "0", "1", "3", "yes", "none", "1e9"]))
FIELDS = ["family", "hand", "players", "melds", "cards", "cards_left", "meld", "card", "down", "same_turn", "seats",
          "current", "callers", "buys_used", "variants", "out", "version", "seat", "action", "name", "first_dealer",
          "json", "cards_0", "cards_1", "cards_2", "total_0", "total_1", "opt_ace", "opt_buy_limit", "opt_wild_ranks",
          "opt_joker_swap", "gone_down"]


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    db = tmp_path_factory.mktemp("hostile") / "hostile.sqlite3"
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "DATABASE_URL": f"sqlite:///{db}"})
    with app.app_context():
        upgrade()
    return app


@pytest.fixture(scope="module")
def game(app):
    c = app.test_client()
    g = c.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["Ann", "Ben", "Cy"]}).json
    assert c.post(f"/api/v1/games/{g['id']}/hands", json={"hand": 1, "out": "Ann", "leftovers": {"Ben": ["K"],
                  "Cy": ["A"]}}, headers={"Authorization": f"Bearer {g['edit_token']}"}).status_code == 201
    return g


def version(app, game):
    c = app.test_client()
    return c.get(f"/api/v1/games/{game['id']}", headers={"Authorization": f"Bearer {game['view_token']}"}).json[
        "version"]


API = ["check", "layoff", "swap", "arrange", "penalty", "buy", "games"]


@FUZZ
@given(path=st.sampled_from(API), body=json_values)
def test_api_bodies(app, path, body):
    r = app.test_client().post(f"/api/v1/{path}", json=body)
    assert r.status_code < 500 and (r.status_code in (200, 201) or "error" in r.json)


@FUZZ
@given(path=st.sampled_from(API), raw=st.binary(max_size=300))
def test_api_raw_bytes(app, path, raw):
    r = app.test_client().post(f"/api/v1/{path}", data=raw, content_type="application/json")
    assert r.status_code < 500


@FUZZ
@given(path=st.sampled_from(["check", "arrange", "layoff", "swap", "buy", "penalty"]),
       field=st.sampled_from(["ruleset", "hand", "melds", "cards", "meld", "card", "seats", "current", "callers",
                              "options", "players", "variants", "lang", "buys_used", "cards_left"]),
       value=json_values)
def test_api_one_bad_field(app, path, field, value):
    base = {"ruleset": "liverpool", "hand": 1, "melds": [["7H", "7D", "7S"]], "cards": ["7H"], "meld": ["7H", "7D",
            "JK"], "card": "7C", "seats": ["A", "B", "C"], "current": "A", "callers": ["B"]}
    r = app.test_client().post(f"/api/v1/{path}", json=base | {field: value})
    assert r.status_code < 500


@FUZZ
@given(token=st.text(max_size=80), body=json_values,
       path=st.sampled_from(["hands", "buys", "hands/1"]))
def test_game_writes_need_the_edit_token(app, game, token, body, path):
    before = version(app, game)
    c = app.test_client()
    method = c.put if path == "hands/1" else c.post
    for t in (token, game["view_token"]):
        headers = {"Authorization": f"Bearer {t}"} if t.isprintable() else {}
        r = method(f"/api/v1/games/{game['id']}/{path}", json=body, headers=headers)
        assert r.status_code in (400, 401, 403)
    assert version(app, game) == before


@FUZZ
@given(token=st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="/?#%"), max_size=70),
       form=st.dictionaries(st.sampled_from(FIELDS), texts, max_size=6),
       path=st.sampled_from(["", "/hand", "/buy", "/down", "/undo", "/hands/1", "/delete"]))
def test_game_forms_with_wrong_tokens(app, game, token, form, path):
    if token in (game["edit_token"], game["view_token"]):
        return
    before = version(app, game)
    c = app.test_client()
    r = c.post(f"/g/{token}{path}", data=form) if path else c.get(f"/g/{token}")
    assert r.status_code in (404, 405, 308)
    r = c.post(f"/g/{game['view_token']}{path}", data=form)
    assert r.status_code in (403, 405)
    assert version(app, game) == before


@FUZZ
@given(form=st.dictionaries(st.sampled_from(FIELDS), texts, max_size=8),
       path=st.sampled_from(["/hand", "/buy", "/down", "/undo", "/hands/1"]))
def test_game_forms_with_the_edit_token_never_500(app, game, form, path):
    r = app.test_client().post(f"/g/{game['edit_token']}{path}", data=form)
    assert r.status_code < 500


@FUZZ
@given(form=st.dictionaries(st.sampled_from(FIELDS), texts | st.lists(texts, max_size=4), max_size=8),
       path=st.sampled_from(["/new", "/import", "/referee/check", "/referee/arrange", "/referee/layoff",
                             "/referee/swap", "/referee/buy", "/games/forget"]))
def test_forms_never_500(app, form, path):
    r = app.test_client().post(path, data=form)
    assert r.status_code < 500


@FUZZ
@given(query=st.dictionaries(st.sampled_from(FIELDS + ["q", "lang"]), st.text(max_size=50), max_size=5),
       path=st.sampled_from(["/", "/rules", "/rules/search", "/rules/compare", "/rules/liverpool", "/new", "/games",
                             "/referee/check", "/referee/buy", "/import"]))
def test_pages_with_odd_queries(app, query, path):
    r = app.test_client().get(path, query_string=query)
    assert r.status_code < 500


def test_markup_names_stay_inert_everywhere(app):
    c = app.test_client()
    names = ['<img src=x onerror=alert(1)>', '"><script>alert(2)</script>', "Cy"]
    g = c.post("/api/v1/games", json={"ruleset": "liverpool", "players": names}).json
    auth = {"Authorization": f"Bearer {g['edit_token']}"}
    c.post(f"/api/v1/games/{g['id']}/hands", json={"hand": 1, "out": "Cy", "leftovers": {names[0]: ["A"],
           names[1]: ["K"]}}, headers=auth)
    for path in ("", "/board", "/sheet", "/history", "/share"):
        html = c.get(f"/g/{g['edit_token']}{path}").get_data(as_text=True)
        assert "<img src=x" not in html and "<script>alert" not in html, path
    exported = c.get(f"/g/{g['edit_token']}/export.json")
    assert exported.headers["Content-Type"].startswith("application/json")
    assert json.loads(exported.data)["players"] == names
    csv = c.get(f"/g/{g['edit_token']}/export.csv")
    assert csv.headers["Content-Type"].startswith("text/csv")


# ------------------------------------------------------------------------------------ the fuzz, every class
# The classes of tests/test_hostile_classes.py, mixed at random into every JSON endpoint, game write and form.
hostile_leaves = st.one_of(
    st.integers(min_value=-(2**80), max_value=2**80), st.sampled_from([HUGE, -HUGE, 2**63, -(2**63) - 1]),
    st.text(max_size=20), st.sampled_from([SURROGATE, "\ud800", "\udfff", "A\x00", "\x00", "Ann", "Ben", "Cy", "K",
                                           "7H", "liverpool", "stock"]),
    st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none())
hostile_json = st.recursive(hostile_leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.sampled_from(["ruleset", "players", "hand", "out", "leftovers", "player", "version", "cards", "melds",
                     "meld", "card", "seats", "current", "callers", "buys_used", "options", "variants", "lang",
                     "first_dealer", "exact_cut", "Ann", "Ben", "Cy", SURROGATE, "\x00"]), inner, max_size=6),
    max_leaves=25)
nestings = st.integers(min_value=1, max_value=3000).map(lambda n: "[" * n + "]" * n)


@FUZZ
@given(body=hostile_json | nestings, target=st.sampled_from(API + ["hands", "buys", "hands/1", "import"]))
def test_fuzz_every_hostile_class_everywhere(app, game, body, target):
    c = app.test_client()
    text = body if isinstance(body, str) and body.startswith("[") else json.dumps(body)
    if target in API:
        r = c.post(f"/api/v1/{target}", data=text, content_type="application/json")
    elif target == "import":
        r = c.post("/import", data={"json": text})
    else:
        method = c.put if target == "hands/1" else c.post
        r = method(f"/api/v1/games/{game['id']}/{target}", data=text, content_type="application/json",
                   headers={"Authorization": f"Bearer {game['edit_token']}"})
    assert r.status_code < 500, (target, text[:200])
    r.get_data().decode("utf-8")


@FUZZ
@given(pairs=st.lists(st.tuples(st.sampled_from(FORM_FIELDS), st.sampled_from(FORM_VALUES) |
                                st.text(alphabet="0123456789-AKQJ %", max_size=30).map(urllib.parse.quote)),
                      max_size=12),
       path=st.sampled_from(["/new", "/import", "/referee/check", "/referee/arrange", "/referee/layoff",
                             "/referee/swap", "/referee/buy", "/hand", "/buy", "/down", "/hands/1"]))
def test_fuzz_hostile_forms(app, game, pairs, path):
    if not path.startswith(("/new", "/import", "/referee")):
        path = f"/g/{game['edit_token']}{path}"
    r = app.test_client().post(path, data=urlencoded(pairs), content_type="application/x-www-form-urlencoded")
    assert r.status_code < 500, (path, pairs)
