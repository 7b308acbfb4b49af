"""Draw the app's home-screen icons (PNG, standard library only): ``python tools/make_icons.py``.

The icon is a corner of the board: three dice (5, 4, 3, a falling run) and a RUIN on the game's red.
The maskable icon keeps everything inside the middle 60 % (the platform may cut a circle of 80 %).
The PNGs are committed under ``src/magdagdon/web/icons/``; run this again only to change them.
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

OUT = Path(__file__).resolve().parents[1] / "src" / "magdagdon" / "web" / "icons"
RED = (163, 54, 31)
CREAM = (248, 241, 228)
INK = (43, 33, 24)
RUIN = (74, 64, 56)
SAMPLES = 3  # per axis: 9 samples a pixel for smooth edges

Colour = tuple[int, int, int]


def _in_rounded(x: float, y: float, box: tuple[float, float, float, float], r: float) -> bool:
    x0, y0, x1, y1 = box
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


PIPS = {
    3: ((0.25, 0.75), (0.5, 0.5), (0.75, 0.25)),
    4: ((0.25, 0.25), (0.25, 0.75), (0.75, 0.25), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.25, 0.75), (0.5, 0.5), (0.75, 0.25), (0.75, 0.75)),
}


Shape = tuple["Callable[[float, float], bool]", Colour]


def _rounded(box: tuple[float, float, float, float], r: float) -> Callable[[float, float], bool]:
    return lambda x, y: _in_rounded(x, y, box, r)


def _circle(cx: float, cy: float, r: float) -> Callable[[float, float], bool]:
    return lambda x, y: (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def _shapes(scale: float) -> list[Shape]:
    """The drawing in unit coordinates (0–1), the content within ``scale`` of the middle; later
    shapes paint over earlier ones."""
    margin = (1 - scale) / 2
    gap = 0.06 * scale
    side = (scale - gap) / 2
    shapes: list[Shape] = []
    tiles = ((0, 0, 5), (1, 0, 4), (0, 1, 3), (1, 1, 0))
    for col, row, value in tiles:
        x0 = margin + col * (side + gap)
        y0 = margin + row * (side + gap)
        box = (x0, y0, x0 + side, y0 + side)
        shapes.append((_rounded(box, side * 0.18), CREAM if value else RUIN))
        for px, py in PIPS.get(value, ()):
            shapes.append((_circle(x0 + px * side, y0 + py * side, side * 0.1), INK))
    return shapes


def _colour(shapes: list[Shape], x: float, y: float) -> Colour:
    colour = RED
    for covers, paint in shapes:
        if covers(x, y):
            colour = paint
    return colour


def draw(size: int, scale: float, rounded: bool) -> bytes:
    shapes = _shapes(scale)
    outline = _rounded((0, 0, 1, 1), 0.2) if rounded else None
    rows = []
    for j in range(size):
        row = bytearray([0])  # PNG filter: none
        for i in range(size):
            red = green = blue = hits = 0
            for sj in range(SAMPLES):
                for si in range(SAMPLES):
                    x = (i + (si + 0.5) / SAMPLES) / size
                    y = (j + (sj + 0.5) / SAMPLES) / size
                    if outline is not None and not outline(x, y):
                        continue
                    r, g, b = _colour(shapes, x, y)
                    red, green, blue, hits = red + r, green + g, blue + b, hits + 1
            if hits:
                alpha = 255 * hits // (SAMPLES * SAMPLES)
                row += bytes((red // hits, green // hits, blue // hits, alpha))
            else:
                row += bytes(4)
        rows.append(bytes(row))
    return _png(size, b"".join(rows))


def _png(size: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    icons = {
        "icon-192.png": (192, 0.72, True),
        "icon-512.png": (512, 0.72, True),
        "icon-maskable-512.png": (512, 0.56, False),
        "apple-touch-icon.png": (180, 0.66, False),
    }
    for name, (size, scale, rounded) in icons.items():
        (OUT / name).write_bytes(draw(size, scale, rounded))
        print(f"{name}: {(OUT / name).stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
