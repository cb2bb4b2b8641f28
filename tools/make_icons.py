"""Draw the app's icons as PNG files (no image library: a few shapes, zlib and the PNG format by hand).

    python tools/make_icons.py      # writes static/icons/icon-192.png, icon-512.png, icon-maskable-512.png
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

GREEN = (11, 93, 59)
WHITE = (255, 255, 255)
RED = (179, 18, 26)
BLACK = (27, 27, 27)
OUT = Path(__file__).resolve().parents[1] / "static" / "icons"


def png(path: Path, pixels: list[list[tuple[int, int, int]]]) -> None:
    height, width = len(pixels), len(pixels[0])
    raw = b"".join(b"\x00" + bytes(c for px in row for c in px) for row in pixels)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def draw(size: int, safe: float) -> list[list[tuple[int, int, int]]]:
    """Two fanned cards on green: a red diamond on the front card, a black one peeking behind it. ``safe`` is
    the fraction of the icon the drawing keeps to (maskable icons need a margin)."""
    img = [[GREEN] * size for _ in range(size)]
    m = size * (1 - safe) / 2
    unit = size * safe

    def card(x0: float, y0: float, w: float, h: float, r: float, colour) -> None:  # type: ignore[no-untyped-def]
        for y in range(int(y0), int(y0 + h)):
            for x in range(int(x0), int(x0 + w)):
                dx = max(x0 + r - x, 0, x - (x0 + w - r))
                dy = max(y0 + r - y, 0, y - (y0 + h - r))
                if dx * dx + dy * dy <= r * r and 0 <= x < size and 0 <= y < size:
                    img[y][x] = colour

    def diamond(cx: float, cy: float, rx: float, ry: float, colour) -> None:  # type: ignore[no-untyped-def]
        for y in range(int(cy - ry), int(cy + ry) + 1):
            for x in range(int(cx - rx), int(cx + rx) + 1):
                if abs(x - cx) / rx + abs(y - cy) / ry <= 1 and 0 <= x < size and 0 <= y < size:
                    img[y][x] = colour

    w, h, r = unit * 0.46, unit * 0.64, unit * 0.05
    card(m + unit * 0.14, m + unit * 0.12, w, h, r, BLACK)
    card(m + unit * 0.17, m + unit * 0.15, w - unit * 0.06, h - unit * 0.06, r * 0.7, WHITE)
    diamond(m + unit * 0.29, m + unit * 0.32, unit * 0.06, unit * 0.09, BLACK)
    card(m + unit * 0.40, m + unit * 0.24, w, h, r, BLACK)
    card(m + unit * 0.43, m + unit * 0.27, w - unit * 0.06, h - unit * 0.06, r * 0.7, WHITE)
    diamond(m + unit * 0.63, m + unit * 0.56, unit * 0.12, unit * 0.18, RED)
    return img


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    png(OUT / "icon-192.png", draw(192, 1.0))
    png(OUT / "icon-512.png", draw(512, 1.0))
    png(OUT / "icon-maskable-512.png", draw(512, 0.8))
    print("icons written to", OUT)
