"""Players' display names on the daily table: the rule of a name, and the neutral name of a
player who has not set one.

A name is shown as text only (the page sets ``textContent``), so markup in it is harmless; the
rule here keeps it short and printable: trimmed, 1–20 characters (after Unicode NFC), and none
that is a control, a surrogate, a line or paragraph separator, or a direction override (which
could make one name look like another).
"""

from __future__ import annotations

import enum
import hashlib
import unicodedata
from dataclasses import replace
from typing import TYPE_CHECKING

from magdagdon.services.errors import InvalidNameError

if TYPE_CHECKING:
    from magdagdon.store import Player, Store

MAX_LENGTH = 20


class Unset(enum.Enum):
    """A setting not given (so not changed), unlike a name given as None (cleared)."""

    UNSET = "unset"


UNSET = Unset.UNSET
#: Unicode categories a name may not hold: controls, surrogates, private use, unassigned,
#: line and paragraph separators.
_REFUSED_CATEGORIES = {"Cc", "Cs", "Co", "Cn", "Zl", "Zp"}
#: The bidirectional formatting characters (embeddings, overrides, isolates, marks).
_BIDI_CONTROLS = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean_name(text: str) -> str:
    """The name to keep for ``text``, or :class:`~magdagdon.services.errors.InvalidNameError`."""
    name = unicodedata.normalize("NFC", text).strip()
    if not name:
        raise InvalidNameError("a name has at least one character that is not a space")
    if len(name) > MAX_LENGTH:
        raise InvalidNameError(f"a name has at most {MAX_LENGTH} characters, not {len(name)}")
    for char in name:
        if unicodedata.category(char) in _REFUSED_CATEGORIES or char in _BIDI_CONTROLS:
            raise InvalidNameError(
                f"a name may not hold the character U+{ord(char):04X} (a control character)"
            )
    return name


def player_tag(token: str) -> str:
    """Four hexadecimal digits that tell players apart on the daily table when they have no
    name: from a hash of the token, which they do not reveal (16 bits of SHA-256)."""
    digest = hashlib.sha256(f"MAGDAGDON player tag {token}".encode()).hexdigest()
    return digest[:4].upper()


def neutral_name(token: str) -> str:
    """The name of a player who has set none: "Manlalaro 4F2A" (the page may translate the
    word; the tag stays)."""
    return f"Manlalaro {player_tag(token)}"


def save_settings(
    store: Store, player: Player, *, language: str | None = None, name: str | Unset | None = UNSET
) -> Player:
    """Change the player's language and name (None clears the name) in one transaction, after
    checking the name (:class:`InvalidNameError`: nothing changes)."""
    kept = player.name if isinstance(name, Unset) else None if name is None else clean_name(name)
    with store.write() as rows:
        if language is not None and language != player.language:
            rows.set_language(player.token, language)
        if kept != player.name:
            rows.set_name(player.token, kept)
    return replace(player, language=language or player.language, name=kept)
