"""The JSON API v1."""

from .routes import bp

__all__ = ["bp"]
