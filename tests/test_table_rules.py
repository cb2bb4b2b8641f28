"""This table's rulings (``/referee/table``): each dispute a table argues about, answered for the family, its
variants and house rules, from the engine's facts; the document's silence said, with the house rule that changes
the answer."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from babel.support import Translations

from referee.families import FAMILIES
from tests.kit import CATALOGS, said

QUESTIONS = 14
LANGS = ("en", "es", "pt", "de")


def rulings(client, query: str) -> dict[str, tuple[str, str]]:
    """Each question's id, its answer and the note under it (where the answer comes from)."""
    html = client.get(f"/referee/table?{query}").get_data(as_text=True)
    out = {}
    for key, answer in re.findall(r'<div class="ruling[^"]*" id="q-([^"]+)">.*?<dd>(.*?)</dd>', html, re.S):
        note = re.search(r'class="house-note"><span[^>]*>\*</span>(.*?)</p>', answer, re.S)
        words = " ".join(re.sub(r"<[^>]+>", " ", answer.split('class="house-note"')[0]).split())
        said = " ".join(re.sub(r"<[^>]+>", " ", note.group(1)).split()) if note else ""
        out[key] = (html_lib.unescape(words.removesuffix("<p")).strip(), html_lib.unescape(said))
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("family, variant", [(f.id, None) for f in FAMILIES.values()] +
                         [(f.id, v.id) for f in FAMILIES.values() for v in f.variants])
def test_every_family_and_variant_answers_every_dispute(client, family, variant, lang):
    query = f"family={family}&lang={lang}" + (f"&variants={variant}" if variant else "")
    if variant == "custom_contracts":
        query += "&opt_contracts=S3+S3%0AR4+R4"
    answers = rulings(client, query)
    assert len(answers) >= QUESTIONS - 2, (family, variant, lang, list(answers))  # (no buying: no buy questions)
    assert all(a for a, _ in answers.values())


def test_the_documents_answer_or_the_app_says_it_chose(client):
    liverpool = rulings(client, "family=liverpool&lang=en")
    assert liverpool["lay-off-same-turn"][0].startswith("Yes")
    assert "The house rule that changes it: Lay off in the turn you go down" in liverpool["lay-off-same-turn"][1]
    progressive = rulings(client, "family=progressive&lang=en")
    assert progressive["lay-off-same-turn"] == (
        "No: you lay off from your next turn on, not in the turn you go down. Laying off ↗", "")  # 002 states it
    assert "next in turn order" in progressive["who-buys"][0] and "app's choice" in progressive["who-buys"][1]
    contract = rulings(client, "family=contract&lang=en")
    assert contract["buys"][0].startswith("There is no limit on buys.")
    assert "draws from the stock" in contract["buys"][0] and 'May I?' in contract["buy-cost"][0]
    assert contract["joker-cost"][0].startswith("15 penalty points.")
    assert rulings(client, "family=progressive&lang=en")["joker-cost"][0].startswith("25 penalty points.")
    assert "hand 7" in rulings(client, "family=liverpool&variants=nine_hands&lang=en")["going-out"][0]
    assert "hand 5" in rulings(client, "family=liverpool&variants=five_hands&lang=en")["going-out"][0]


def test_a_house_rule_or_a_variant_changes_the_answer_at_once(client):
    before = rulings(client, "family=liverpool&lang=en")
    after = rulings(client, "family=liverpool&lang=en&opt_lay_off_same_turn=no&opt_stock_exhausted=end_hand")
    assert after["lay-off-same-turn"][0].startswith("No") and before["lay-off-same-turn"][0].startswith("Yes")
    assert after["lay-off-same-turn"][1] == "A house rule of this table: Lay off in the turn you go down."
    assert after["stock-out"][0].startswith("The hand ends there")
    twos = rulings(client, "family=contract&variants=twos_wild&lang=en")
    assert twos["twos"][0].startswith("Yes") and rulings(client, "family=contract&lang=en")["twos"][0].startswith("No")
    assert "buys" in rulings(client, "family=liverpool&variants=no_buying&lang=en")
    assert "who-buys" not in rulings(client, "family=liverpool&variants=no_buying&lang=en")
    german = rulings(client, "family=liverpool&lang=de&opt_ace=high")
    assert german["aces"][0].startswith(
        said("An ace plays high only (Q-K-A), never low (A-2-3) or around the corner (K-A-2).", "de"))


def test_a_game_links_to_its_tables_rules(client):
    r = client.post("/api/v1/games", json={"ruleset": "progressive", "players": ["Ana", "Beto", "Carla"],
                                           "variants": ["california"], "options": {"stock_exhausted": "end_hand"}})
    game = r.get_json()
    html = client.get(f"/g/{game['edit_token']}?lang=es").get_data(as_text=True)
    link = re.search(r'href="([^"]*/referee/table\?[^"]+)"', html)
    assert link is not None
    answers = rulings(client, link.group(1).split("?", 1)[1].replace("&amp;", "&") + "&lang=es")
    assert answers["stock-out"][0].startswith(said("The hand ends there, and every player scores the cards in hand.",
                                                   "es"))
    assert said("A house rule of this table: %(rules)s.", "es").split("%(")[0] in answers["stock-out"][1]
    queens = Translations.load(str(CATALOGS), ["es"]).pgettext("the cards that are wild", "queens")
    assert answers["twos"][0] == said("No: the wild cards are %(wilds)s.", "es", wilds=queens)
