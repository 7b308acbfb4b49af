"""Reading QR codes as a phone does: zxing-cpp (a QR reader from PyPI) over a bitmap, built from
the terminal's text or from the page's pixels."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import zxingcpp

if TYPE_CHECKING:
    from collections.abc import Sequence

# each character of the terminal's code is two modules tall: (top, bottom), 1 = light
_HALVES = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0)}
_SCALE = 4  # pixels a module: readers want more than one


def terminal_bitmap(lines: Sequence[str]) -> np.ndarray:
    """The modules drawn by ``lines`` (light 255, dark 0), ``_SCALE`` pixels each."""
    rows: list[list[int]] = []
    for line in lines:
        halves = [_HALVES[char] for char in line]
        rows += [[top for top, _ in halves], [bottom for _, bottom in halves]]
    width = max(len(row) for row in rows)
    modules = np.array([row + [1] * (width - len(row)) for row in rows], dtype=np.uint8) * 255
    return np.kron(modules, np.ones((_SCALE, _SCALE), dtype=np.uint8))


def read(bitmap: np.ndarray) -> list[str]:
    """The texts of the QR codes in a grey bitmap."""
    found = zxingcpp.read_barcodes(bitmap)
    return [code.text for code in found if code.format == zxingcpp.BarcodeFormat.QRCode]


def read_terminal(lines: Sequence[str]) -> list[str]:
    return read(terminal_bitmap(lines))


def read_grey(pixels: Sequence[int], width: int, height: int) -> list[str]:
    """The QR codes in a ``width`` × ``height`` picture given as grey values, row by row."""
    return read(np.array(pixels, dtype=np.uint8).reshape(height, width))
