"""The scoreboard: games with edit and view links. The pages of a game being played (``routes``) and its other
pages (``manage``), how a game is shown (``view``); its reads (``reads``, ``gamestate``), writes (``services``,
``changes``, ``seating``, ``create``) and transfer (``transfer``)."""

from . import manage  # (its pages are on the blueprint: importing it registers them)
from .routes import bp

__all__ = ["bp", "manage"]
