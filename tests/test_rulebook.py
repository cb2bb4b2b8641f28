"""The rules texts: every page in every language, the same anchors, and no number that the data does not hold."""

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
