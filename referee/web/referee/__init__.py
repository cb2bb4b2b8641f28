"""The referee pages: check, can I go down?, lay-off, joker swap, buy."""

from .routes import bp

__all__ = ["bp"]
