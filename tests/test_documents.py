"""Rulings written from the source documents' sentences (each test quotes the sentence it rests on)."""

import pytest

from referee.arrange import arrange
from referee.cards import Card
from referee.contracts import check
from referee.families import FAMILIES, RulesError, resolve
from referee.table import buy, layoff, swap
from tests.kit import cards, melds, resolve_cited, rules


def post(client, path, body):
    return client.post("/api/v1/" + path, json=body)


class TestOneNaturalIsASetOrARun:
    """002: "Los Jokers son comodines y pueden sustituir a cualquier carta en cualquier combinación." With one
    natural card enough (Progressive, Contract), `5♥ JK JK JK` is a set of fives and the run 5♥–8♥."""

    @pytest.mark.parametrize("family", ["progressive", "contract"])
    def test_two_runs(self, family):
        r = rules(family, players=4)
        v = check(r, 3, melds("5h JK JK JK | 9c 10c jc qc"))
        assert v.valid, v.violations
        assert [m.kind for m in v.melds] == ["run", "run"]
        assert [a for _, a in v.melds[0].wilds] == ["6H", "7H", "8H"]

    def test_still_a_set_where_the_contract_asks_for_sets(self):
        v = check(rules("progressive"), 1, melds("5h JK JK | 9c 9d 9s"))
        assert v.valid and [m.kind for m in v.melds] == ["set", "set"]

    def test_arrange_proposes_what_check_accepts(self):
        r = rules("progressive")
        a = arrange(r, 3, cards("5h JK JK JK 9c 10c jc qc"))
        assert a.possible and check(r, 3, a.melds).valid and a.kinds == ["run", "run"]

    def test_lay_off_and_swap_read_it_as_a_run(self):
        r = rules("progressive", joker_swap=True)
        lay = layoff(r, cards("5h JK JK JK"), cards("9h"))
        assert lay.valid and [(str(c), w) for c, w in lay.placed] == [("9H", "high")]
        assert layoff(r, cards("5h JK JK JK"), cards("5c")).valid  # read as the set of fives
        assert not layoff(r, cards("5h JK JK JK"), cards("9h"), kind="set").valid  # put down as a set
        s = swap(r, cards("5h JK JK JK"), Card.parse("6h"))
        assert s.valid and [str(c) for c in s.meld.cards] == ["5H", "6H", "JK", "JK"]

    def test_liverpool_needs_two_naturals_in_a_set(self):
        """000: "Un grupo debe contener al menos dos cartas naturales (no comodín)"."""
        r = rules("liverpool", second_wild_needs_fixed_position=False)
        v = check(r, 3, melds("5h JK JK JK | 9c 10c jc qc"))
        assert v.valid and v.melds[0].kind == "run"
        assert not check(r, 1, melds("5h JK JK | 9c 9d 9s")).valid


class TestOneNaturalInContractRummy:
    """003: "Los comodines sustituyen a cualquier carta." One natural card is enough in Contract rummy, so
    `5♥ JK JK JK` is the set of fives and a run of hearts, whichever the place it is put in needs: in the check,
    in "can I go down?", and on the table for a lay-off or a joker swap."""

    def test_check_reads_it_as_the_contract_needs(self):
        r = rules("contract", players=4)
        runs = check(r, 3, melds("5h JK JK JK | 9c 10c jc qc"))
        assert runs.valid and [m.kind for m in runs.melds] == ["run", "run"]
        sets = check(r, 1, melds("5h JK JK | 9c 9d 9s"))
        assert sets.valid and [m.kind for m in sets.melds] == ["set", "set"]
        mixed = check(r, 2, melds("5h JK JK | 9c 10c jc qc"))  # S3 R4: the three cards are the set
        assert mixed.valid and sorted(m.kind for m in mixed.melds) == ["run", "set"]

    def test_arrange_finds_it_as_a_run_and_as_a_set(self):
        r = rules("contract", players=4)
        runs = arrange(r, 3, cards("5h JK JK JK 9c 10c jc qc"))
        assert runs.possible and runs.kinds == ["run", "run"] and check(r, 3, runs.melds).valid
        sets = arrange(r, 1, cards("5h JK JK 9c 9d 9s"))
        assert sets.possible and sets.kinds == ["set", "set"] and check(r, 1, sets.melds).valid

    def test_lay_off_onto_it_as_either_kind(self):
        r = rules("contract")
        low = layoff(r, cards("5h JK JK JK"), cards("4h"))
        assert low.valid and low.meld.kind == "run" and [(str(c), w) for c, w in low.placed] == [("4H", "low")]
        fives = layoff(r, cards("5h JK JK JK"), cards("5d 5s"))
        assert fives.valid and fives.meld.kind == "set"
        assert not layoff(r, cards("5h JK JK JK"), cards("5d"), kind="run").valid  # put down as a run

    def test_swap_the_card_a_joker_stands_for(self):
        r = rules("contract", joker_swap=True)
        as_run = swap(r, cards("5h JK JK JK"), Card.parse("8h"))
        assert as_run.valid and [str(c) for c in as_run.meld.cards] == ["5H", "JK", "JK", "8H"]
        as_set = swap(r, cards("5h JK JK JK"), Card.parse("5c"))
        assert as_set.valid and [str(c) for c in as_set.meld.cards] == ["5H", "5C", "JK", "JK"]
        put_down_as_set = swap(r, cards("5h JK JK JK"), Card.parse("6h"), kind="set")
        assert not put_down_as_set.valid and [v.code for v in put_down_as_set.violations] == ["swap_wrong_card"]


class TestAnAceAloneFixesNoJoker:
    """000: "No puede añadir un segundo comodín a una combinación que ya contenga un comodín a menos que las
    cartas naturales de la combinación identifiquen claramente la posición del segundo comodín"; 001: "Os Ases
    podem ser jogados BAIXO (A-2-3) ou ALTO (Q-K-A) em sequências". `A♥ JK JK JK` could be A-2-3-4 or J-Q-K-A:
    the ace alone does not say which cards the jokers are. Nor is it a set: 000: "Un grupo debe contener al menos
    dos cartas naturales (no comodín)"."""

    def test_neither_a_run_nor_a_set_in_liverpool(self):
        r = rules("liverpool")
        v = check(r, 3, melds("AH JK JK JK | 9c 10c jc qc"))
        assert not v.valid and [x.code for x in v.violations] == ["second_wild_position"]
        assert "rule-second-wild" in v.rules
        assert not check(r, 1, melds("AH JK JK JK | 9c 9d 9s")).valid

    def test_arrange_asks_for_a_natural_card_instead(self):
        r = rules("liverpool")
        a = arrange(r, 3, cards("AH JK JK JK 9c 10c jc qc"))
        assert not a.possible and a.missing == 1 and a.needs_natural == a.needs
        assert arrange(r, 3, add_needed(cards("AH JK JK JK 9c 10c jc qc"), a.needs)).possible

    def test_fixed_where_the_ace_plays_one_way_or_a_second_natural_says_where(self):
        low_only = check(rules("liverpool", ace="low"), 3, melds("AH JK JK JK | 9c 10c jc qc"))
        assert low_only.valid and [a for _, a in low_only.melds[0].wilds] == ["2H", "3H", "4H"]
        for meld in ("AH 2H JK JK", "AH JK JK KH"):  # A-2-3-4 and J-Q-K-A: only one way each
            assert check(rules("liverpool"), 3, melds(meld + " | 9c 10c jc qc")).valid, meld

    def test_where_the_rule_is_off_it_is_both(self):
        r = rules("progressive")
        assert check(r, 3, melds("AH JK JK JK | 9c 10c jc qc")).valid
        assert check(r, 1, melds("AH JK JK | 9c 9d 9s")).valid


def add_needed(hand, needs):
    return hand + cards(" ".join(needs))


class TestLayOffKeepsTheWildRules:
    """000: "No puede añadir un segundo comodín a una combinación que ya contenga un comodín a menos que las
    cartas naturales de la combinación identifiquen claramente la posición del segundo comodín"."""

    def test_a_second_joker_whose_place_is_not_fixed(self):
        r = layoff(rules(), cards("5h JK 7h 8h"), cards("JK"))  # it could be the 4H or the 9H
        assert not r.valid and [v.code for v in r.violations] == ["second_wild_position"]
        assert "rule-second-wild" in r.rules

    def test_a_second_joker_in_a_fixed_place(self):
        r = layoff(rules(), cards("5h JK 7h 8h"), cards("JK 10h"))  # the joker can only be the 9H
        assert r.valid and [(str(c), w) for c, w in r.placed] == [("JK", "high"), ("10H", "high")]

    def test_one_joker_per_four_goes_where_it_may(self):
        """000: "una escalera puede contener como máximo un comodín por segmento de cuatro cartas según muchas
        reglas de la casa"; the table's joker stays the 8♥."""
        for r in (rules("progressive", run_max_wilds_per_4=1),
                  rules("liverpool", run_max_wilds_per_4=1, second_wild_needs_fixed_position=False)):
            ruling = layoff(r, cards("5h 6h 7h JK"), cards("JK"))
            assert ruling.valid and [(str(c), w) for c, w in ruling.placed] == [("JK", "low")]
            assert [a for _, a in ruling.meld.wilds] == ["4H", "8H"]

    def test_no_room_for_the_joker(self):
        r = layoff(rules("progressive", run_max_wilds_per_4=1), cards("5h JK 7h 8h"), cards("JK"))
        assert not r.valid and [v.code for v in r.violations] == ["run_too_many_wilds"]


class TestSecondWildIsLiverpoolsRule:
    """000: "No puede añadir un segundo comodín … (las reglas de la casa varían)"; 001: "Você não pode adicionar
    um segundo coringa …"; 004: "Sie dürfen keiner Meldung, die bereits einen Joker enthält, einen zweiten Joker
    hinzufügen, es sei denn …"."""

    def test_data(self):
        assert FAMILIES["liverpool"].defaults["second_wild_needs_fixed_position"] is True
        assert FAMILIES["progressive"].defaults["second_wild_needs_fixed_position"] is False
        assert FAMILIES["contract"].defaults["second_wild_needs_fixed_position"] is False

    @pytest.mark.parametrize("lang, words", [("en", "plays it by default"), ("es", "la aplica de entrada"),
                                             ("pt", "a aplica de saída"), ("de", "prüft die App es von Haus aus")])
    def test_rules_pages_say_so(self, client, lang, words):
        html = client.get(f"/rules/liverpool?lang={lang}").get_data(as_text=True)
        assert words in html

    def test_comparison_page(self, client):
        from tests.test_rulebook import _compare_rows

        _, rows = _compare_rows(client)
        row = next(v for k, v in rows.items() if "Second wild card" in k)
        assert row[0].startswith("yes") and row[1].startswith("no") and row[2].startswith("no")


class TestBuyingTable:
    """000: "De tres a ocho jugadores"; 003: "De tres a cinco jugadores". The buy ruling refuses tables the
    family is not played by, as every other ruling does."""

    @pytest.mark.parametrize("family, seats", [("liverpool", 2), ("liverpool", 10), ("contract", 6)])
    def test_refused(self, client, family, seats):
        names = [f"P{i}" for i in range(seats)]
        with pytest.raises(RulesError) as e:
            buy(resolve(family), names, names[0], [names[1]])
        assert (e.value.code, e.value.field) == ("players_out_of_range", "seats")
        r = post(client, "buy", {"ruleset": family, "seats": names, "current": names[0], "callers": [names[1]]})
        assert r.status_code == 400 and r.json["error"]["code"] == "players_out_of_range"
        checked = post(client, "check", {"ruleset": family, "hand": 1, "melds": [], "players": seats})
        assert checked.json["error"]["code"] == "players_out_of_range"

    def test_allowed(self, client):
        r = post(client, "buy", {"ruleset": "contract", "seats": ["A", "B", "C", "D", "E"], "current": "B",
                                 "callers": ["C"]})
        assert r.status_code == 200 and r.json["winner"] == "C"


class TestEveryAnswerCitesItsRule:
    BODIES = [
        ("check", {"ruleset": "liverpool", "hand": 1, "melds": [["7H", "7D", "7S"], ["KC", "KD", "JK"]]}, True),
        ("check", {"ruleset": "liverpool", "hand": 1, "melds": [["7H", "7D", "8S"], ["KC", "KD", "KS"]]}, False),
        ("arrange", {"ruleset": "liverpool", "hand": 1, "cards": "7h 7d 7s kc kd ks"}, True),
        ("arrange", {"ruleset": "liverpool", "hand": 1, "cards": "7h 7d kc kd ks 2h 9s"}, False),
        ("layoff", {"ruleset": "liverpool", "meld": ["5H", "6H", "7H", "8H"], "cards": ["9H"]}, True),
        ("layoff", {"ruleset": "liverpool", "meld": ["5H", "6H", "7H", "8H"], "cards": ["9D"]}, False),
        ("swap", {"ruleset": "liverpool", "meld": ["5H", "JK", "7H", "8H"], "card": "6H"}, True),
        ("swap", {"ruleset": "liverpool", "meld": ["5H", "JK", "7H", "8H"], "card": "9H"}, False),
        ("buy", {"ruleset": "liverpool", "seats": ["A", "B", "C", "D"], "current": "B", "callers": ["C"]}, True),
        ("buy", {"ruleset": "liverpool", "seats": ["A", "B", "C", "D"], "current": "B", "callers": ["A"]}, False),
    ]

    @pytest.mark.parametrize("lang", ["en", "es", "pt", "de"])
    @pytest.mark.parametrize("path, body, yes", BODIES)
    def test_yes_and_no(self, client, path, body, yes, lang):
        r = post(client, path, body | {"lang": lang})
        assert r.status_code == 200, r.json
        answer = r.json.get("valid", r.json.get("possible", r.json.get("winner")))
        assert bool(answer) == yes
        anchors = resolve_cited(client, r.json["rules"], lang)
        assert all(f"lang={lang}" in c["rule_url"] for c in r.json["rules"])
        if path == "check" and not yes:
            assert anchors[0] == "rule-set"  # what is wrong comes first

    def test_no_contract_notation_in_messages(self, client):
        body = {"ruleset": "liverpool", "hand": 1, "melds": [["7H", "7D", "7S"]], "lang": "es"}
        v = post(client, "check", body).json["violations"][0]
        assert v["code"] == "contract_mismatch"
        assert v["message"] == "El contrato de esta mano es dos grupos de 3; las combinaciones forman un grupo de 3."
        assert "S3" not in v["message"]


class TestHowManyCardsShort:
    """000: "Un grupo debe contener al menos dos cartas naturales (no comodín)". A set of one natural card and a
    joker is short of a natural card, not of a joker: one more seven (or queen, or king) makes hand 1."""

    def test_one_more_natural_card(self, client):
        a = arrange(rules(), 1, cards("7H JK JK 9H 9D 9S 2C 4S KD QH"))
        assert not a.possible and a.missing == 1 and a.needs == a.needs_natural and len(a.needs) == 1
        assert a.needs[0] in ("7", "K", "Q")
        r = post(client, "arrange", {"ruleset": "liverpool", "hand": 1, "cards": "7H JK JK 9H 9D 9S 2C 4S KD QH"})
        assert r.json["missing"] == 1 and r.json["needs_natural"] == r.json["needs"]
        resolve_cited(client, r.json["rules"])

    def test_the_page_says_a_wild_card_would_not_do(self, client):
        import re

        html = client.get("/referee/arrange").get_data(as_text=True)
        token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html)
        data = {"family": "liverpool", "hand": "1", "cards": "7H JK JK 9H 9D 9S 2C 4S KD QH"}
        if token:
            data["csrf_token"] = token.group(1)
        page = client.post("/referee/arrange", data=data).get_data(as_text=True)
        assert "Natural cards that a wild card can" in page and "rules-cited" in page


class TestTheFinalHand:
    """002: "Ronda 7 (repartir 12): Tres escaleras de 4, no se permite descarte final (se sale poniendo toda la
    mano sobre la mesa)"; 003: "Tres escaleras de 4: todas las cartas a la vez, sin descarte"."""

    HAND = "3h 4h 5h 6h 7h 9s 10s js qs 2d 3d 4d 5d"  # twelve dealt and one drawn

    @pytest.mark.parametrize("family", ["progressive", "contract"])
    def test_every_card_goes_down(self, client, family):
        r = rules(family, players=4)
        a = arrange(r, 7, cards(self.HAND))
        assert a.possible and a.unused == [] and sorted(len(m) for m in a.melds) == [4, 4, 5]
        assert check(r, 7, a.melds, cards_left=0).valid  # a run of 5, though contract_extra_cards is false
        body = {"ruleset": family, "hand": 7, "cards": self.HAND}
        j = post(client, "arrange", body).json
        assert j["possible"] and j["cards_left"] == 0
        assert post(client, "check", {"ruleset": family, "hand": 7, "melds": j["melds"], "cards_left": 0}).json["valid"]

    def test_a_card_no_run_can_take(self):
        a = arrange(rules("progressive"), 7, cards("3h 4h 5h 6h 3s 4s 5s 6s 3d 4d 5d 6d 9h"))
        assert not a.possible and a.missing == 2 and sorted(a.needs) == ["7H", "8H"]

    def test_still_exact_melds_before_the_final_hand(self):
        assert not check(rules("progressive"), 6, melds("7h 7d 7s | 3h 4h 5h 6h 7h | 9s 10s js qs")).valid
