"""The scoreboard: games with edit and view links, hand by hand (routes), and their database work (services)."""

from .routes import bp

__all__ = ["bp"]
