import pytest

from referee.families import FAMILIES, RulesError, facts, resolve


class TestPresets:
    @pytest.mark.parametrize("family, hand, notation, deal", [
        ("liverpool", 1, "S3 S3", 10), ("liverpool", 4, "S3 S3 S3", 10), ("liverpool", 5, "S3 S3 R4", 12),
        ("liverpool", 7, "R7", 12), ("progressive", 7, "R4 R4 R4", 12), ("progressive", 2, "S3 R4", 10),
        ("contract", 3, "R4 R4", 10), ("contract", 4, "S3 S3 S3", 12), ("contract", 6, "S3 R4 R4", 12),
    ])
    def test_contracts_and_deals(self, family, hand, notation, deal):
        spec = resolve(family).hand(hand)
        assert (spec.contract.notation, spec.deal) == (notation, deal)

    @pytest.mark.parametrize("family", FAMILIES)
    def test_last_hand_has_no_discard(self, family):
        r = resolve(family)
        assert [h.contract.no_discard for h in r.hands] == [False] * 6 + [True]

    @pytest.mark.parametrize("family, players, decks, jokers", [
        ("liverpool", 3, 2, 4), ("liverpool", 4, 2, 4), ("liverpool", 5, 3, 6), ("liverpool", 8, 3, 6),
        ("progressive", 6, 2, 4), ("progressive", 7, 3, 6), ("contract", 3, 2, 2), ("contract", 4, 2, 3),
        ("contract", 5, 2, 4),
    ])
    def test_pack(self, family, players, decks, jokers):
        r = resolve(family, players=players)
        assert (r.decks, r.jokers) == (decks, jokers)

    def test_penalties(self):
        lv, pr, co = (resolve(f) for f in ("liverpool", "progressive", "contract"))
        from referee.cards import parse_cards
        a, k, ten, seven, jk = parse_cards("AH KH 10H 7H JK")
        assert [lv.points(c) for c in (a, k, ten, seven, jk)] == [15, 10, 10, 5, 15]
        assert [pr.points(c) for c in (a, k, ten, seven, jk)] == [15, 10, 10, 5, 25]
        assert [co.points(c) for c in (a, k, ten, seven, jk)] == [15, 10, 10, 7, 15]

    def test_option_defaults_of_rules_md(self):
        lv = FAMILIES["liverpool"].defaults
        assert (lv["set_min_naturals"], lv["contract_extra_cards"], lv["lay_off_same_turn"], lv["joker_swap"],
                lv["buy_limit"]) == (2, True, True, True, 3)
        co = FAMILIES["contract"].defaults
        assert (co["set_min_naturals"], co["contract_extra_cards"], co["buy_limit"]) == (1, False, None)


class TestVariants:
    def test_nine_hands(self):
        r = resolve("liverpool", ["nine_hands"])
        assert [h.contract.notation for h in r.hands[7:]] == ["R4 R4 R4", "R5 R5"]
        assert r.hand(7).contract.no_discard and not r.hand(9).contract.no_discard

    def test_five_hands_keep_the_final_run(self):
        r = resolve("liverpool", ["five_hands"])
        assert [h.contract_number for h in r.hands] == [1, 2, 3, 4, 7]

    def test_california(self):
        r = resolve("progressive", ["california"])
        from referee.cards import Card
        assert r.is_wild(Card.parse("QH")) and not r.is_wild(Card.parse("JK")) and r.jokers == 0

    def test_shanghai_contract_and_progressive(self):
        assert resolve("progressive", ["shanghai"]).hand(8).contract.notation == "S3 S3 S3 R4"
        sh = resolve("contract", ["shanghai"])
        assert sh.ace == "high" and {h.deal for h in sh.hands} == {11}

    def test_double_progressive(self):
        r = resolve("progressive", ["double_progressive"])
        assert [h.deal for h in r.hands[:2]] == [7, 10]

    def test_options_override_variants(self):
        assert resolve("liverpool", ["no_buying"], {"buy_limit": 2}).buy_limit == 2

    def test_custom_contracts(self):
        r = resolve("progressive", ["custom_contracts"], {"contracts": ["R7", "S3 S3"]})
        assert [h.contract.notation for h in r.hands] == ["R7", "S3 S3"]

    def test_custom_contracts_need_the_contracts(self):
        with pytest.raises(RulesError) as e:
            resolve("progressive", ["custom_contracts"])
        assert (e.value.code, e.value.field) == ("contracts_missing", "options.contracts")

    def test_fixed_hand_is_not_ten_cards(self):
        fixed, ten = resolve("liverpool", ["fixed_hand"]), resolve("liverpool", ["ten_cards"])
        assert {h.deal for h in fixed.hands} == {h.deal for h in ten.hands} == {10}
        assert fixed.hand(7).contract.notation == "R6" and ten.hand(7).contract.notation == "R7"
        assert all(v.options or v.asks for f in FAMILIES.values() for v in f.variants)  # no variant sets nothing
        assert len({tuple(sorted(v.options.items())) for v in resolve("liverpool").family.variants}) == \
            len(resolve("liverpool").family.variants)

    def test_contract_buys_by_asking_may_i(self):
        assert resolve("contract").may_i and not resolve("liverpool").may_i
        assert resolve("liverpool", ["may_i"]).may_i

    def test_fixed_hand_final_run(self):
        r = resolve("liverpool", ["fixed_hand"], {"final_run": 6})
        assert r.hand(7).contract.notation == "R6" and {h.deal for h in r.hands} == {10}


class TestBadInput:
    @pytest.mark.parametrize("args, code, field", [
        (("bridge",), "unknown_ruleset", "ruleset"),
        (("liverpool", ["shanghai"]), "unknown_variant", "variants"),
        (("liverpool", [], {"colour": 1}), "unknown_option", "options.colour"),
        (("liverpool", [], {"ace": "middle"}), "option_choice", "options.ace"),
        (("liverpool", [], {"buy_limit": -1}), "option_range", "options.buy_limit"),
        (("liverpool", [], {"joker_swap": "yes"}), "option_type", "options.joker_swap"),
        (("liverpool", [], {"wild_ranks": ["JK", "Z"]}), "option_ranks", "options.wild_ranks"),
        (("liverpool", [], {"hands": 8}), "option_choice", "options.hands"),
        (("contract", [], None, 6), "players_out_of_range", "players"),
        (("progressive", [], {"contracts": ["S9 X"]}), "bad_contract", "options.contracts"),
    ])
    def test_named_errors(self, args, code, field):
        with pytest.raises(RulesError) as e:
            resolve(*args)
        assert (e.value.code, e.value.field) == (code, field)

    def test_hand_out_of_range(self):
        with pytest.raises(RulesError) as e:
            resolve("liverpool").hand(8)
        assert e.value.code == "hand_out_of_range"


def test_facts_are_the_data():
    f = facts(FAMILIES["contract"])
    assert (f["deal_small"], f["deal_large"], f["large_from_hand"], f["last_small_hand"]) == (10, 12, 4, 3)
    assert "buy_limit" not in f and "penalty_low" not in f
    assert facts(FAMILIES["liverpool"])["final_run"] == 7
