"""One kind of error for input the engine refuses.

Every refusal carries a stable ``code`` (its words and its rule live in one registry), the ``field`` of the
input it is about (``None`` when it is about the whole input) and the ``params`` a translated message needs.
Bad notation, an unknown option and a player who is not at the table are all ``RefereeError``s; an illegal
meld is not an error but a verdict (``verdicts.Violation``).

>>> from referee.cards import Card
>>> try:
...     Card.parse("ZZ")
... except RefereeError as e:
...     (e.code, e.field, e.params)
('bad_card', None, {'text': 'ZZ'})
"""

from __future__ import annotations

from typing import Any


class RefereeError(ValueError):
    """Input refused: ``code`` names the message, ``field`` the input, ``params`` fill the message in."""

    def __init__(self, code: str, field: str | None = None, **params: Any) -> None:
        super().__init__(f"{code}: {field} {params!r}")
        self.code = code
        self.field = field
        self.params = params
