import pytest

from referee.contracts import check
from tests.kit import melds, rules


def verdict(family_rules, hand, text, cards_left=None):
    return check(family_rules, hand, melds(text), cards_left)


def codes(*args, **kw):
    return [v.code for v in verdict(*args, **kw).violations]


class TestContracts:
    @pytest.mark.parametrize("hand, text", [
        (1, "7h 7d 7s | kc kd JK"),
        (2, "7h 7d 7s | 5c 6c 7c 8c"),
        (3, "5c 6c 7c 8c | 9d 10d jd JK"),
        (4, "7h 7d 7s | kc kd JK | 2s 2h 2d"),
        (5, "7h 7d 7s | kc kd kh | 5c 6c 7c 8c"),
        (6, "7h 7d 7s | 5c 6c 7c 8c | 9d 10d jd qd"),
        (7, "3s 4s 5s 6s 7s 8s 9s"),
    ])
    def test_liverpool_contracts(self, hand, text):
        v = verdict(rules(), hand, text)
        assert v.valid, v.violations

    def test_wrong_count_or_kind(self):
        assert codes(rules(), 1, "7h 7d 7s") == ["contract_mismatch"]
        assert codes(rules(), 1, "7h 7d 7s | 5c 6c 7c 8c") == ["contract_mismatch"]

    def test_run_shorter_than_contract(self):
        v = verdict(rules(), 7, "3s 4s 5s 6s")
        assert [(x.code, x.meld) for x in v.violations] == [("contract_mismatch", 0)]

    def test_extra_cards(self):
        assert codes(rules(), 1, "7h 7d 7s 7c | kc kd JK") == []  # liverpool allows them
        v = verdict(rules("progressive"), 1, "7h 7d 7s 7c | kc kd JK")
        assert [(x.code, x.meld, x.rule) for x in v.violations] == [("contract_extra_cards", 0, "rule-going-down")]

    def test_meld_faults_are_named_with_their_meld(self):
        v = verdict(rules(), 2, "7h 7d 8s | 5c 6c 8c 9c")
        assert [(x.code, x.meld) for x in v.violations] == [("set_mixed_ranks", 0), ("run_gap", 1)]

    def test_too_many_copies(self):
        v = verdict(rules(players=4), 1, "7h 7h 7h | kc kd ks")
        assert [(x.code, x.meld, x.params["copies"], x.params["count"]) for x in v.violations] == [
            ("too_many_copies", 0, 2, 3)]
        assert verdict(rules(players=5), 1, "7h 7h 7h | kc kd ks").valid

    def test_jokers_count_against_the_pack(self):
        assert "too_many_copies" in codes(rules("contract", players=3), 1, "7h 7d JK | kc kd JK | 5s 5d JK")
        assert "too_many_copies" in codes(rules("progressive", "california"), 1, "7h 7d JK | kc kd ks")

    def test_final_hand_cards_left(self):
        assert codes(rules(), 7, "3s 4s 5s 6s 7s 8s 9s", cards_left=2) == ["final_hand_cards_left"]
        assert codes(rules(), 7, "3s 4s 5s 6s 7s 8s 9s", cards_left=0) == []
        assert codes(rules(), 6, "7h 7d 7s | 5c 6c 7c 8c | 9d 10d jd qd", cards_left=3) == []

    def test_every_violation_names_a_rule(self):
        v = verdict(rules(), 3, "5c 6c | JK JK JK")
        assert v.violations and all(x.rule.startswith("rule-") for x in v.violations)
