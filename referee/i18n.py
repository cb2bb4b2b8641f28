"""Marking strings for translation without importing Flask.

``N_`` marks a message for extraction (``pybabel extract -k N_``) and returns it unchanged; the web layer
translates it at request time. The engine itself never translates.
"""


def N_(message: str) -> str:
    return message
