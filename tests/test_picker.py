"""Cards in the reader's letters: the engine's notation reads them (one place), every web form with cards
reads them, the JSON API keeps its notation; and the card picker's facts come from the engine."""

import re
from html import unescape
from pathlib import Path

import pytest

from referee.cards import JOKER, NOTATION, Card, CardError, Rank, display, parse_cards
from referee.families import resolve
from referee.i18n import LANGUAGES
from referee.scoring import Leftover
from tests.kit import reading, refusal, said


class TestLocalLetters:
    @pytest.mark.parametrize("text, lang, card", [
        ("BH", "de", "JH"), ("b♥", "de", "JH"), ("DD", "de", "QD"), ("K♣", "de", "KC"), ("Joker", "de", "JK"),
        ("VS", "pt", "JS"), ("D♦", "pt", "QD"), ("rc", "pt", "KC"), ("Coringa", "pt", "JK"), ("coringa", "pt", "JK"),
        ("Comodín", "es", "JK"), ("JH", "es", "JH"), ("10♠", "pt", "10S"), ("T♠", "de", "10S"),
        # the notation stays readable in every language: no local letter is a notation letter of another rank
        ("JH", "de", "JH"), ("QD", "de", "QD"), ("KH", "pt", "KH"), ("JK", "pt", "JK"), ("QS", "pt", "QS"),
    ])
    def test_read(self, text, lang, card):
        assert str(Card.parse(text, reading(lang))) == card

    @pytest.mark.parametrize("text, lang", [("BH", "en"), ("BH", None), ("VH", "de"), ("RH", "de"), ("BH", "pt"),
                                            ("Coringa", "de"), ("Comodín", None), ("B", "de"), ("DX", "de")])
    def test_refused(self, text, lang):
        with pytest.raises(CardError):
            Card.parse(text, reading(lang))

    def test_the_notation_alone_without_a_language(self):
        with pytest.raises(CardError):
            parse_cards("BH DD", None)
        assert parse_cards("B♥ D♦ K♣", reading("de")) == parse_cards("JH QD KC")

    @pytest.mark.parametrize("lang", sorted(LANGUAGES))
    def test_no_letter_means_two_ranks(self, lang):
        notation = NOTATION.ranks
        for text, rank in reading(lang).ranks.items():
            assert notation.get(text, rank) == rank, (lang, text)

    @pytest.mark.parametrize("lang", sorted(LANGUAGES))
    def test_round_trip_in_every_language(self, lang):
        for rank in Rank:
            for suit in "SHDC":
                card = Card.parse(rank.symbol + suit)
                assert Card.parse(display(card, reading(lang)), reading(lang)) == card
        assert Card.parse(display(JOKER, reading(lang)), reading(lang)) is JOKER

    @pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
    def test_every_catalog_writes_every_letter_and_the_joker(self, lang):
        """Each language's letters and joker name live in its catalog (context "card rank"): none may be missing,
        and together they must read every card one way only (``Reading.local`` refuses them otherwise)."""
        from babel.messages.pofile import read_po

        from referee.web.i18n import card_readings

        root = Path(__file__).resolve().parents[1] / "translations"
        with open(root / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
            catalog = read_po(f)
        for msgid in ("A", "J", "Q", "K", "Joker"):
            entry = catalog.get(msgid, context="card rank")
            assert entry is not None and entry.string and not entry.fuzzy, (lang, msgid)
        r = card_readings(str(root), (lang,))[lang]
        shown = [r.rank_text(rank) for rank in Rank] + [r.joker]
        assert len({t.upper() for t in shown}) == len(shown), (lang, shown)
        for text in shown:
            assert Leftover.parse(text, r) == Leftover.parse(text.upper(), r)

    def test_a_catalog_with_ambiguous_letters_stops_the_app(self, tmp_path):
        """A translation that gives two ranks one letter fails when the readings are made (the app does this
        when it starts), not at the first card typed."""
        from babel.messages.catalog import Catalog
        from babel.messages.mofile import write_mo

        from referee.cards import ReadingError
        from referee.web.i18n import card_readings

        cat = Catalog(locale="de")
        for msgid, text in (("A", "A"), ("J", "D"), ("Q", "D"), ("K", "K"), ("Joker", "Joker")):
            cat.add(msgid, text, context="card rank")
        (tmp_path / "de" / "LC_MESSAGES").mkdir(parents=True)
        with open(tmp_path / "de" / "LC_MESSAGES" / "messages.mo", "wb") as f:
            write_mo(f, cat)
        with pytest.raises(ReadingError):
            card_readings(str(tmp_path), ("en", "de"))

    def test_leftovers_by_rank_in_the_reader_letters(self):
        assert [str(x) for x in Leftover.parse_all("B D K Joker 7 bh", reading("de"))] == ["J", "Q", "K", "JK", "7",
                                                                                             "JH"]
        assert [str(x) for x in Leftover.parse_all("V D R Coringa", reading("pt"))] == ["J", "Q", "K", "JK"]
        with pytest.raises(CardError):
            Leftover.parse_all("B", None)

    def test_rank_copies(self):
        assert resolve("liverpool", players=4).rank_copies(Rank.ACE) == 8
        assert resolve("liverpool", players=6).rank_copies(Rank.ACE) == 12
        assert resolve("liverpool", players=6).rank_copies(None) == 6


def csrf(client, path):
    page = client.get(path).get_data(as_text=True)
    m = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    return {"csrf_token": m.group(1)} if m else {}


def post(client, path, data):
    return client.post(path, data=data | csrf(client, path))


def verdict_of(html):
    return html.split('id="verdict"', 1)[1].split("<form", 1)[0]


class TestRefereeForms:
    def test_german_letters_typed(self, client):
        r = post(client, "/referee/check?lang=de", {"family": "liverpool", "hand": "1",
                                                        "melds": "B♥ BD b♠\nDH DD Joker"})
        v = verdict_of(r.get_data(as_text=True))
        assert r.status_code == 200 and "verdict good" in v
        assert "B♥" in v and "J♥" not in v and "D♦" in v

    def test_portuguese_letters_typed(self, client):
        r = post(client, "/referee/layoff?lang=pt", {"family": "liverpool", "meld": "9♥ 10♥ V♥ D♥",
                                                         "cards": "RH", "down": "y"})
        v = verdict_of(r.get_data(as_text=True))
        assert "verdict good" in v and "R♥" in v

    def test_a_bad_card_is_named_with_the_reader_letters(self, client):
        r = post(client, "/referee/arrange?lang=pt", {"family": "liverpool", "hand": "1", "cards": "ZH 7H"})
        v = verdict_of(r.get_data(as_text=True))
        pt = reading("pt")
        faces = " ".join(pt.rank_text(r) for r in (Rank.JACK, Rank.QUEEN, Rank.KING))
        assert r.status_code == 422 and refusal("bad_typed_card", "pt", text="ZH", faces=faces, joker=pt.joker) in \
            unescape(v)
        assert 'ZH 7H</textarea>' in r.get_data(as_text=True)  # what was typed stays

    def test_the_page_speaks_the_reader_letters(self, client):
        html = client.get("/referee/arrange?lang=de").get_data(as_text=True)
        assert 'data-rank="J">B' in html and 'data-rank="Q">D' in html and "B D K" in html
        assert "K♣ K♦ K♠" in html  # the example in the field, in the reader's letters and suit symbols
        html = client.get("/referee/arrange?lang=pt").get_data(as_text=True)
        pt = reading("pt")
        assert f'data-rank="K">{pt.rank_text(Rank.KING)}' in html and f">{pt.joker}<" in html

    def test_the_picker_facts_follow_the_table(self, client):
        f = client.get("/referee/picker?mode=arrange&family=liverpool&players=6&hand=5&lang=de").json
        assert (f["copies"], f["jokers"], f["size"]) == (3, 6, 12)
        assert f["count"] == said("Cards: %(n)s of %(size)s", "de", n="{n}", size=12) and "{card}" in f["full"] and "3" in f["full"]
        f = client.get("/referee/picker?mode=layoff&family=contract&players=3").json
        assert (f["copies"], f["jokers"], f["size"]) == (2, 2, None)
        f = client.get("/referee/picker?mode=check&family=liverpool&players=99&hand=40").json  # no such table
        assert (f["copies"], f["size"]) == (2, 10)

    def test_the_page_renders_the_same_facts(self, client):
        html = client.get("/referee/arrange?family=liverpool&players=6&hand=5").get_data(as_text=True)
        assert "&#34;copies&#34;: 3" in html and "&#34;size&#34;: 12" in html


class TestTheApiKeepsItsNotation:
    def test_local_letters_refused(self, client):
        r = client.post("/api/v1/check", json={"ruleset": "liverpool", "hand": 1, "lang": "de",
                                               "melds": [["BH", "BD", "BS"], ["7H", "7D", "7S"]]})
        assert r.status_code == 400 and r.json["error"]["code"] == "bad_card"
        r = client.post("/api/v1/check", json={"ruleset": "liverpool", "hand": 1, "lang": "de",
                                               "melds": [["JH", "JD", "JS"], ["7H", "7D", "7S"]]})
        assert r.status_code == 200 and r.json["valid"]


class TestScoreboardForm:
    def test_leftovers_in_german_letters(self, client):
        g = client.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["Ann", "Ben", "Cy"]}).json
        url = f"/g/{g['edit_token']}"
        r = client.post(url + "/hand?lang=de", data={"hand": "1", "out": "0", "cards_1": "B D Joker",
                                                     "cards_2": "bh 7"}, follow_redirects=True)
        assert r.status_code == 200
        state = client.get(f"/api/v1/games/{g['id']}", headers={"Authorization": f"Bearer {g['view_token']}"}).json
        hand = state["hands"][0]
        assert hand["leftovers"]["Ben"] == ["J", "Q", "JK"] and hand["leftovers"]["Cy"] == ["JH", "7"]
        rules = resolve("liverpool", players=3)
        assert hand["penalties"]["Ben"] == 2 * rules.rank_points(Rank.JACK) + rules.rank_points(None)
        # the correction form shows them in the reader's letters again
        html = client.get(url + "/hands/1?lang=de").get_data(as_text=True)
        assert 'value="B D Joker"' in html and 'value="B♥ 7"' in html
        html = client.get(url + "/hands/1?lang=pt").get_data(as_text=True)
        pt = reading("pt")
        assert f'value="{pt.rank_text(Rank.JACK)} {pt.rank_text(Rank.QUEEN)} {pt.joker}"' in html

    def test_a_bad_leftover_is_named(self, client):
        g = client.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["Ann", "Ben", "Cy"]}).json
        r = client.post(f"/g/{g['edit_token']}/hand?lang=de", data={"hand": "1", "out": "0", "cards_1": "B X",
                                                                    "cards_2": "7"})
        html = r.get_data(as_text=True)
        assert r.status_code == 422 and 'value="B X"' in html
        # the refusal names the card and the reader's own letters for the faces and the joker
        de = reading("de")
        faces = " ".join(de.rank_text(r) for r in (Rank.JACK, Rank.QUEEN, Rank.KING))
        assert refusal("bad_typed_card", "de", text="X", faces=faces, joker=de.joker) in unescape(html)

    def test_too_many_of_a_rank_is_said_in_the_reader_letters(self, client):
        g = client.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["Ann", "Ben", "Cy"]}).json
        r = client.post(f"/g/{g['edit_token']}/hand?lang=pt", data={"hand": "1", "out": "0", "cards_1": "V V V V V",
                                                                    "cards_2": "V V V V"})
        html = r.get_data(as_text=True)
        # the jack in the reader's letters (pt V), not the notation's J
        assert r.status_code == 422
        assert refusal("too_many_copies_left", "pt", card="J", players=["Ben", "Cy"], count=9, copies=8) in html
