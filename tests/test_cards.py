import pytest

from referee.cards import JOKER, Card, CardError, Rank, Suit, display, parse_cards


class TestParse:
    @pytest.mark.parametrize("text, rank, suit", [
        ("7H", Rank.SEVEN, Suit.HEARTS), ("7h", Rank.SEVEN, Suit.HEARTS), ("10s", Rank.TEN, Suit.SPADES),
        ("TS", Rank.TEN, Suit.SPADES), ("t♠", Rank.TEN, Suit.SPADES), ("A♣", Rank.ACE, Suit.CLUBS),
        ("qd", Rank.QUEEN, Suit.DIAMONDS), ("K♦", Rank.KING, Suit.DIAMONDS), ("J♡", Rank.JACK, Suit.HEARTS),
    ])
    def test_naturals(self, text, rank, suit):
        card = Card.parse(text)
        assert (card.rank, card.suit) == (rank, suit)

    @pytest.mark.parametrize("text", ["JK", "jk", "Jk"])
    def test_joker(self, text):
        assert Card.parse(text) is JOKER and JOKER.is_joker

    @pytest.mark.parametrize("text", ["", "7", "7X", "1H", "11H", "HH", "JKK", "10", "♥7", "AHH"])
    def test_bad(self, text):
        with pytest.raises(CardError) as e:
            Card.parse(text)
        assert e.value.text == text

    def test_round_trip(self):
        text = "AS 2H 10D JC QS KH JK"
        assert " ".join(str(c) for c in parse_cards(text)) == text
        for card in parse_cards(text):
            assert Card.parse(str(card)) == card

    def test_list_or_string(self):
        assert parse_cards("7h, 7d | JK") == parse_cards(["7H", "7D", "JK"])


class TestDisplay:
    @pytest.mark.parametrize("text, lang, shown", [
        ("JH", "en", "J♥"), ("JH", "pt", "V♥"), ("QC", "pt", "D♣"), ("KS", "pt", "R♠"),
        ("JH", "de", "B♥"), ("QH", "de", "D♥"), ("KH", "de", "K♥"), ("AH", "es", "A♥"), ("10D", "de", "10♦"),
        ("JK", "es", "Comodín"), ("JK", "pt", "Coringa"),
    ])
    def test_local_letters(self, text, lang, shown):
        assert display(Card.parse(text), lang) == shown
