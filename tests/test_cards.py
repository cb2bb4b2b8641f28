import pytest

from referee.cards import JOKER, NOTATION, Card, CardError, Rank, Reading, ReadingError, Suit, display, parse_cards
from tests.kit import reading


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
        assert display(Card.parse(text), reading(lang)) == shown


class TestReadingLocal:
    """A language's letters are data the engine is handed; letters that would make a card mean two things are
    refused when the reading is made."""

    FACES = {Rank.ACE: "A", Rank.JACK: "B", Rank.QUEEN: "D", Rank.KING: "K"}

    def test_letters_and_name_are_read_and_shown(self):
        r = Reading.local(self.FACES, "Joker")
        assert Card.parse("bh", r) == Card.parse("JH") and Card.parse("JH", r) == Card.parse("JH")
        assert Card.parse("joker", r) is JOKER and Card.parse("JK", r) is JOKER
        assert r.card_text(Card.parse("QD")) == "D♦" and r.rank_text(Rank.TEN) == "10" and r.rank_text(None) == "Joker"

    @pytest.mark.parametrize("letters, joker", [
        ({Rank.JACK: "D", Rank.QUEEN: "D"}, "Joker"),  # one letter, two ranks
        ({Rank.QUEEN: "K"}, "Joker"),  # the notation's king
        ({Rank.JACK: "Q"}, "Joker"),
        ({Rank.ACE: "10"}, "Joker"),  # a number rank's figure
        ({Rank.KING: "T"}, "Joker"),  # the notation's ten
        ({Rank.JACK: ""}, "Joker"),  # missing
        ({Rank.JACK: "B B"}, "Joker"),  # cannot be typed as one card
        ({Rank.JACK: "JK"}, "Joker"),  # the joker's notation
        ({Rank.JACK: "B"}, "B"),  # a joker named as a rank
        ({Rank.JACK: "B"}, "BH"),  # a joker named as a card
        ({Rank.JACK: "B"}, ""),
        ({Rank.JACK: "B"}, "Le Joker"),
    ])
    def test_ambiguous_or_missing_letters_refused(self, letters, joker):
        with pytest.raises(ReadingError):
            Reading.local(letters, joker)

    def test_the_notation_shows_itself(self):
        assert NOTATION.card_text(Card.parse("qd")) == "Q♦" and NOTATION.rank_text(None) == "JK"
        assert display(Card.parse("10s")) == "10♠"
