"""The rules texts: every page in every language, the same anchors, and no number that the data does not hold."""

import html as html_lib
import re

import pytest

from referee import rulebook
from referee.families import FAMILIES, OPTIONS, facts
from referee.verdicts import CODES

PAGES = [(f, lang) for f in FAMILIES for lang in rulebook.LANGS]


def data_numbers(fam) -> set[int]:
    """Every number the family's data holds (what a code span in its text may mention)."""
    nums = set(facts(fam).values()) | set(fam.penalties.values()) | set(fam.hand_lists) | {52}
    for d in fam.deck_rules:
        nums |= {*d.players, d.decks, d.jokers, *d.jokers_range, d.decks * 52 + d.jokers}
    for n, (notation, deal) in fam.contracts.items():
        nums |= {n, deal} | {int(x) for x in re.findall(r"\d+", notation)}
    for v in fam.variants:
        nums |= {x for x in v.options.values() if isinstance(x, int) and not isinstance(x, bool)}
    for o in OPTIONS.values():
        nums |= {c for c in o.choices if isinstance(c, int)} | {o.minimum, o.maximum}
    return nums


@pytest.mark.parametrize("family, lang", PAGES)
def test_sections_and_anchors(family, lang):
    text = rulebook.source(family, lang)
    heads = rulebook.headings(text)
    sections = [h.anchor for h in heads if h.level == 2]
    assert tuple(sections) == rulebook.SECTIONS
    current = None
    found = {}
    for h in heads:
        if h.level == 2:
            current = h.anchor
        else:
            found[h.anchor] = current
    for anchor, section in rulebook.RULE_ANCHORS.items():
        assert found.get(anchor) == section, f"{anchor} should be under {section}"


@pytest.mark.parametrize("family, lang", PAGES)
def test_no_number_outside_the_data(family, lang):
    text = rulebook.source(family, lang)
    assert rulebook.prose_numbers(text) == [], "write rule numbers as {{fact:…}} placeholders"
    allowed = data_numbers(FAMILIES[family]) | set(range(1, 11))  # and card ranks in examples
    stray = [n for n in rulebook.code_numbers(text) if n not in allowed]
    assert stray == [], f"numbers in code spans that the {family} data does not hold"


@pytest.mark.parametrize("family, lang", PAGES)
def test_placeholders_exist(family, lang):
    text = rulebook.source(family, lang)
    known = facts(FAMILIES[family])
    for kind, name in rulebook.PLACEHOLDER.findall(text):
        if kind == "fact":
            assert name in known, f"{family} has no fact {name}"
        elif kind == "contract":
            assert int(name) in FAMILIES[family].contracts
        elif kind == "option":
            assert name in FAMILIES[family].defaults, f"{family} has no house rule {name}"
        else:
            assert name in rulebook.TABLES
    for table in rulebook.TABLES:
        assert "{{table:%s}}" % table in text


@pytest.mark.parametrize("family, lang", PAGES)
def test_page_renders_every_anchor(client, family, lang):
    r = client.get(f"/rules/{family}?lang={lang}")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert f'<html lang="{lang}">' in html
    ids = set(re.findall(r'id="([a-z0-9-]+)"', html))
    cited = {c.rule for c in CODES.values()} | {o.rule for o in OPTIONS.values()}
    assert cited <= ids, cited - ids
    assert "{{" not in html


@pytest.mark.parametrize("family", FAMILIES)
def test_silence_is_said(family):
    fam = FAMILIES[family]
    for lang in rulebook.LANGS:
        text = rulebook.source(family, lang)
        if fam.silent:
            assert re.search(r"^> ", text, re.M), f"{family}/{lang} never says where its source is silent"


def test_tables_come_from_the_data(client):
    html = client.get("/rules/progressive?lang=en").get_data(as_text=True)
    table = html[html.index('id="contract-1"') - 200:]
    assert ">25<" in html  # the progressive joker penalty, from the data
    assert 'id="contract-7"' in table


def _compare_rows(client, lang="en"):
    html = client.get(f"/rules/compare?lang={lang}").get_data(as_text=True)
    rows = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S):
        cells = [html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", c))).replace(" :", ":").strip()
                 for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        label = cells[0].split("differs:")[-1].strip()
        assert label not in rows, f"the row {label} appears twice"
        rows[label] = cells[1:]
    return html, rows


def test_comparison_shows_known_values_and_marks_the_apps_choices(client):
    html, rows = _compare_rows(client)
    assert "by the table" not in html
    assert rows["Ask \"May I?\" to buy"] == ["no", "no", "yes"]  # Contract buys by asking "May I?"
    who = rows["Who gets a discard several players want"]
    assert "clockwise" in who[0] and who[1].endswith("*") and "without a penalty card" in who[2]
    assert rows["Hands in a game"] == ["7 (variants: 5, 6, 9)", "7 (variants: 6, 8)", "7 (variants: 6)"]
    assert rows["When the stock runs out"][0].endswith("*")  # the Liverpool document offers both
    assert rows["Lay off in the turn you go down"][0] == "yes *"
    assert rows["Extra cards in contract melds"][1] == "no *"  # Progressive's "exact contract", as read here
    assert rows["Extra hand 8"][0].endswith("*") and rows["Extra hand 9"][1] == "—"
    assert "Exact-cut bonus (named in the Contract Rummy document)" in rows["Variants"][0]
    # 002 states it («en los turnos siguientes»); Liverpool's tie order, its house rule on wild cards in a run
    # and another document's exact-cut bonus are this app's choices
    assert rows["Lay off in the turn you go down"][1] == "no"
    assert rows["Ties"][0].endswith("*") and not rows["Ties"][1].endswith("*")
    assert rows["Wild cards in any four of a run"][0].endswith("*")
    assert rows["Exact-cut bonus"][0].endswith("*")
    # one name, two variants: each said with what it changes
    assert "May I? (A buyer must ask" in rows["Variants"][0] and "May I? (Extra cards" in rows["Variants"][2]
    assert "Shanghai (An 8th hand" in rows["Variants"][1] and "Shanghai (11 cards" in rows["Variants"][2]
    assert "Nine hands;" in rows["Variants"][0] and "Nine hands (" not in rows["Variants"][0]


@pytest.mark.parametrize("family, lang, says, never", [
    ("liverpool", "es", "séptima mano", "puntos de la última mano"),
    ("liverpool", "en", "seventh hand", "penalty points in the last hand"),
    ("progressive", "es", "ronda 7", "puntos en la última mano"),
    ("progressive", "de", "Runde 7", "in der letzten Runde weniger"),
    ("contract", "de", "deine ganze Hand", "alle 12 Karten"),
])
def test_the_rules_pages_say_what_the_documents_say(client, family, lang, says, never):
    """000: ties go to the lower score of «la séptima mano» (hand 7 of a nine-hand game, not the last); 002: «la
    ronda 7»; in the final hand a player melds the whole hand, twelve dealt and one drawn."""
    text = html_lib.unescape(re.sub(r"<[^>]+>", "", client.get(f"/rules/{family}?lang={lang}").get_data(as_text=True)))
    text = text.replace("\u00ad", "")
    assert says in text and never not in text


def test_rules_pages_show_the_known_defaults(client):
    html = client.get("/rules/liverpool?lang=en").get_data(as_text=True)
    assert "by the table" not in html
    assert "10 in hands 1 to 4, then 12" in html and "2 for 3–4 players; 3 for 5–8 players" in html
    assert "106–108" in html and "159–162" in html  # the document's pack sizes, beside the app's
    assert '<span class="shorthand">G-G</span>' in client.get("/rules/liverpool?lang=es").get_data(as_text=True)
    assert "000_02fafbf1f984f0a5" not in html and "Spanish, Portuguese and German" in html
