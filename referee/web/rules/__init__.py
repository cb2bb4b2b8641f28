"""The home page, the rules reference (one page per family, the comparison, search) and the files served from
the root."""

from .routes import bp

__all__ = ["bp"]
