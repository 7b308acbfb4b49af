"""QR codes of URLs, drawn by segno: text for a terminal, SVG for the page.

Both are drawn from one symbol (:func:`symbol`), so the terminal's code, the page's and the
tests' reading of them agree. The error correction is M (15 %): a phone reads it off a screen
with glare or a dirty lens, and a URL of this server still fits in a small version.
"""

from __future__ import annotations

import io
from functools import lru_cache

import segno

QUIET_ZONE = 4  # the white border the standard asks for, in modules


@lru_cache(maxsize=64)
def symbol(url: str) -> segno.QRCode:
    """The QR code of ``url`` (never a Micro QR: phones do not read those)."""
    return segno.make(url, error="m", micro=False, boost_error=False)


def terminal_text(url: str) -> str:
    """The code as lines of text for a terminal: each character two modules tall (``█``,
    ``▀``, ``▄``, space), the light modules drawn, so it reads on a dark terminal as dark
    modules on light (readers also take the inverse)."""
    out = io.StringIO()
    symbol(url).terminal(out=out, compact=True, border=QUIET_ZONE)
    return out.getvalue()


@lru_cache(maxsize=64)
def svg(url: str) -> str:
    """The code as a standalone SVG document (a ``viewBox``, no fixed size, no script, no
    style): black modules on a white square whatever the page's colours, to be shown as an
    ``<img>``."""
    out = io.BytesIO()
    symbol(url).save(
        out,
        kind="svg",
        xmldecl=False,
        svgns=True,
        omitsize=True,
        svgclass=None,
        lineclass=None,
        dark="#000",
        light="#fff",
        border=QUIET_ZONE,
        nl=False,
    )
    return out.getvalue().decode("ascii")
