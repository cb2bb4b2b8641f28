"""The rules engine for contract rummy: cards, rule families, melds, contracts, arrangements, scoring and
table rulings. Plain Python: nothing here imports Flask."""
