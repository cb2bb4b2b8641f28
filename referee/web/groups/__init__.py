"""Groups: a roster, the games a group plays (new game, rematch), and its stats across them (routes, forms,
and their database work in services)."""

from .routes import bp

__all__ = ["bp"]
