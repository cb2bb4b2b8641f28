"""Groups: a roster, the games a group plays (new game, rematch), and its stats across them (routes, forms,
and their database work in services)."""

from . import manage  # (the roster page is on the blueprint: importing it registers it)
from .routes import bp

__all__ = ["bp", "manage"]
