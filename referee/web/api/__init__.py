"""The JSON API v1: the referee's checks (``routes``), and games and groups (``games``), on one blueprint."""

from . import games  # (its endpoints are on the blueprint: importing it registers them)
from .routes import bp

__all__ = ["bp", "games"]
