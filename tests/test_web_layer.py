"""The web layer's plumbing: house rules from their descriptions on every screen, static files with versioned
URLs and a service worker that follows them, the language list, the referee form's limits from the data."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from werkzeug.datastructures import MultiDict

from referee.families import FAMILIES, OPTIONS, REFEREE, SETUP, options_on
from referee.i18n import LANGUAGES
from referee.web import assets
from referee.web import options as house
from referee.web.referee.forms import PLAYERS
from tests.kit import said


@pytest.fixture()
def web(app):
    return app


# ------------------------------------------------------------------------------------------ house rules
def test_every_offered_option_is_described_whole():
    for o in OPTIONS.values():
        assert o.label and o.help and o.rule.startswith("rule-")
        if o.kind == "choice" and o.name != "hands":
            assert {v for v, _ in o.choice_labels} == set(o.choices), o.name
        assert set(o.screens) <= {SETUP, REFEREE}
    assert {o.name for o in options_on(REFEREE, FAMILIES["liverpool"])} < \
        {o.name for o in options_on(SETUP, FAMILIES["liverpool"])}


@pytest.mark.parametrize("name", sorted(o.name for o in OPTIONS.values() if set(o.screens) == {SETUP, REFEREE}))
def test_each_house_rule_is_named_wherever_house_rules_are(client, name):
    """The setup screen, the referee page, a family's rules page (its house-rule list) and the comparison page
    name every house rule both screens offer, in the reader's language."""
    from html import unescape

    label = OPTIONS[name].label
    for path, lang in (("/new?family=contract", "de"), ("/referee/check?family=contract", "pt"),
                       ("/rules/contract", "es"), ("/rules/compare", "de")):
        html = unescape(client.get(f"{path}{'&' if '?' in path else '?'}lang={lang}").get_data(as_text=True))
        assert said(label, lang) in html, path


@pytest.mark.parametrize("name, value", [
    ("ace", "high"), ("wild_ranks", ["JK", "2"]), ("set_min_naturals", 2), ("run_max_wilds_per_4", None),
    ("run_max_wilds_per_4", 1), ("joker_swap", True), ("lay_off_same_turn", False), ("buy_limit", 0),
    ("buy_limit", None), ("stock_exhausted", "end_hand"), ("exact_cut_bonus", 10), ("contracts", ["S3 S3", "R7"]),
])
def test_a_value_written_into_a_field_reads_back(name, value):
    o = OPTIONS[name]
    assert house.parse(o, house.as_text(o, value)) == value


SAMPLES = {"ace": "high", "wild_ranks": ["JK", "2"], "set_min_naturals": 2, "run_max_wilds_per_4": None,
           "second_wild_needs_fixed_position": False, "contract_extra_cards": True, "lay_off_same_turn": False,
           "joker_swap": True, "buy_limit": 0, "stock_exhausted": "end_hand", "jokers": 3, "final_run": 7,
           "wild_rank_points": 15, "exact_cut_bonus": 10, "contracts": ["S3 S3", "R7"]}


@pytest.mark.parametrize("screen", [SETUP, REFEREE])
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_one_form_draws_reads_and_links_every_option_a_screen_offers(web, screen, family):
    """The fields come from the options' descriptions: a game's stored house rules written into a link and
    read back from it are the same rules, and every field is drawn with the control its kind asks for."""
    fam = FAMILIES[family]
    offered = options_on(screen, fam)
    stored = {o.name: SAMPLES[o.name] for o in offered if o.name in SAMPLES}
    with web.test_request_context("/?lang=pt"):
        link = house.house_rules_form(screen, fam, options=stored).query()
        assert house.link_query(screen, fam, stored) == link
        form = house.house_rules_form(screen, fam, MultiDict(link))
        assert form.options() == stored
        assert [f.name for f in form.option_fields()] == [house.field_name(o) for o in offered]
        for f in form.option_fields():
            html = str(f())
            tag = {"bool": "<select", "choice": "<select", "contracts": "<textarea"}.get(f.option.kind, "<input")
            assert html.startswith(tag + f' id="{f.name}" name="{f.name}"'), html
            if f.option.kind == "bool":
                assert f'>{said("yes", "pt")}</option>' in html and f'>{said("no", "pt")}</option>' in html
        empty = house.house_rules_form(screen, fam, MultiDict())
        assert empty.options() == {} and empty.query() == []


def test_each_screen_offers_its_options_and_nothing_else(web):
    client = web.test_client()
    setup = client.get("/new?family=progressive").get_data(as_text=True)
    referee = client.get("/referee/check?family=progressive").get_data(as_text=True)
    fam = FAMILIES["progressive"]
    for screen, html in ((SETUP, setup), (REFEREE, referee)):
        shown = re.findall(r'name="opt_([a-z_0-9]+)"', html)
        assert shown == [o.name for o in options_on(screen, fam)]


def test_the_scoreboard_opens_the_referee_with_the_games_house_rules(web):
    client = web.test_client()
    options = {"ace": "high", "wild_ranks": ["JK", "2"], "joker_swap": True, "buy_limit": 1,
               "stock_exhausted": "end_hand"}
    g = client.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["Ann", "Ben", "Cy"],
                                           "options": options}).json
    html = client.get(f"/g/{g['edit_token']}").get_data(as_text=True)
    link = re.search(r'href="(/referee/check\?[^"]+)"', html).group(1).replace("&amp;", "&")
    query = MultiDict(parse_qsl(urlsplit(link).query))
    read = house.from_form(query, REFEREE, FAMILIES["liverpool"])
    assert read == {k: v for k, v in options.items() if k != "stock_exhausted"}  # the referee has no stock rule
    page = client.get(link).get_data(as_text=True)
    assert re.search(r'<option value="high" selected>', page)


# ------------------------------------------------------------------------------------------ static files
def test_static_urls_carry_their_version_and_are_kept_a_year(web):
    client = web.test_client()
    html = client.get("/").get_data(as_text=True)
    url = re.search(r'href="(/static/style\.css\?v=([0-9a-f]+))"', html)
    assert url, "the style sheet's URL has no version"
    with web.test_request_context():
        assert url.group(2) == assets.version("style.css")
    r = client.get(url.group(1))
    assert r.status_code == 200 and "immutable" in r.headers["Cache-Control"]
    stale = client.get("/static/style.css?v=0123456789ab")
    assert "immutable" not in stale.headers.get("Cache-Control", "")


def test_the_service_worker_changes_when_a_file_it_keeps_changes(web, monkeypatch):
    client = web.test_client()
    first = client.get("/sw.js")
    text = first.get_data(as_text=True)
    assert first.headers["Cache-Control"] == "no-cache" and first.mimetype == "text/javascript"
    shell = re.search(r"const SHELL = (\[.*\]);", text).group(1)
    assert "/static/style.css?v=" in shell and "/static/app.js?v=" in shell
    for url in re.findall(r'"(/static/[^"]+)"', shell):
        assert client.get(url).status_code == 200
    real = assets.version
    monkeypatch.setattr(assets, "version", lambda name: "feedfacecafe" if name == "style.css" else real(name))
    second = client.get("/sw.js").get_data(as_text=True)
    name = re.compile(r'const STATIC = "(static-[0-9a-f]+)"')
    assert name.search(second).group(1) != name.search(text).group(1)
    assert "/static/style.css?v=feedfacecafe" in second


def test_the_service_worker_keeps_the_offline_page_in_each_language_without_choosing_one(web):
    client = web.test_client()
    text = client.get("/sw.js").get_data(as_text=True)
    offline = json.loads(re.search(r"const OFFLINE = (\{.*\});", text).group(1))
    assert sorted(offline) == sorted(LANGUAGES)
    for code, url in offline.items():
        r = client.get(url, headers={"Accept-Language": "es"})
        assert r.status_code == 200 and r.headers["Content-Language"] == code
        assert f"<h1>{said('No connection', code)}</h1>" in r.get_data(as_text=True)
        assert "Set-Cookie" not in r.headers  # fetching all four must not choose the reader's language
    assert client.get("/offline/xx").status_code == 404
    # every page says its language (the worker remembers the last, for its offline page); the board does not
    assert client.get("/rules", headers={"Accept-Language": "pt-BR"}).headers["Content-Language"] == "pt"


# ------------------------------------------------------------------------------------------ languages, limits
def test_the_language_menu_lists_the_languages_once_written(web):
    html = web.test_client().get("/").get_data(as_text=True)
    for code, name in zip(LANGUAGES, ("English", "Español", "Português", "Deutsch")):
        assert f"lang={code}" in html and name in html
    assert web.config["LANGUAGES"] == LANGUAGES


def test_the_referee_form_takes_the_player_counts_the_families_allow(web):
    assert PLAYERS == (min(f.players[0] for f in FAMILIES.values()), max(f.players[1] for f in FAMILIES.values()))
    assert PLAYERS == (3, 8)
    client = web.test_client()
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"',
                      client.get("/referee/check").get_data(as_text=True))
    form = {"family": "liverpool", "melds": "7H 7D 7S\n8C 8D 8S", "hand": "1",
            "csrf_token": token.group(1) or token.group(2)}
    assert client.post("/referee/check", data=form | {"players": "3"}).status_code == 200
    r = client.post("/referee/check", data=form | {"players": "2"})
    assert r.status_code == 422 and "Players" in r.get_data(as_text=True)


@pytest.mark.parametrize("name, html", [
    ("Ann", '<span class="pname" title="Ann" data-reveal><span>Ann</span></span>'),
    ("Mary  Ann", '<span class="pname" title="Mary  Ann" data-reveal><span>Mary</span> <span>Ann</span></span>'),
    ("Jean-Luc Le-Roy", '<span class="pname" title="Jean-Luc Le-Roy" data-reveal><span>Jean-</span><span>Luc</span> '
                        '<span>Le-</span><span>Roy</span></span>'),
    ("-a--b-", '<span class="pname" title="-a--b-" data-reveal><span>-</span><span>a-</span><span>-</span>'
               '<span>b-</span><span></span></span>'),
    ('<b>"Al" & Bo</b>', '<span class="pname" title="&lt;b&gt;&#34;Al&#34; &amp; Bo&lt;/b&gt;" data-reveal>'
                         '<span>&lt;b&gt;&#34;Al&#34;</span> <span>&amp;</span> <span>Bo&lt;/b&gt;</span></span>'),
])
def test_a_name_in_a_narrow_column_breaks_only_at_spaces_and_hyphens(app, name, html):
    """Each word of a name (split at spaces) is a box, broken again after each hyphen; the whole name, escaped,
    is the title; a name in a link takes no focus of its own."""
    with app.test_request_context("/"):
        template = app.jinja_env.from_string("{{ pname(n) }}|{{ pname(n, reveal=False) }}")
        assert template.render(n=name) == html + "|" + html.replace(' data-reveal', "", 1)


# ------------------------------------------------------------------------------------------ a server's start
def test_a_warmed_process_compiles_no_template_for_its_first_pages(app, monkeypatch):
    """``warm`` (run by the production entry point as each server process starts) compiles the templates the
    first requests would otherwise compile while a phone waits: the first board, page and rules page, in
    each language, compile nothing."""
    from referee.web import warm

    warm(app)
    compiled: list[str] = []
    compile_ = app.jinja_env.compile
    monkeypatch.setattr(app.jinja_env, "compile", lambda *a, **k: compiled.append(str(a[1:2])) or compile_(*a, **k))
    client = app.test_client()
    r = client.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["Ann", "Ben", "Cy"]})
    game = r.get_json()
    for code in LANGUAGES:
        headers = {"Accept-Language": code}
        for path in (f"/g/{game['view_token']}/board", f"/g/{game['edit_token']}", "/rules/liverpool"):
            assert client.get(path, headers=headers).status_code == 200, path
    assert compiled == []
