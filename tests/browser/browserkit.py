"""Helpers for the browser tests."""

from __future__ import annotations

from pathlib import Path

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
PHONE = {"width": 390, "height": 844}


def shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def fits_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
