"""Marking strings for translation without importing Flask.

``N_`` marks a message for extraction (``pybabel extract -k N_``) and returns it unchanged; the web layer
translates it at request time. The engine itself never translates.
"""


# The languages the app speaks, English (the source) first: the catalogs in translations/, the rules texts
# in referee/rulebook/, the language menu and the locale choice all follow this list.
LANGUAGES = ("en", "es", "pt", "de")


def N_(message: str) -> str:
    return message
