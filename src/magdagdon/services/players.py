"""Players' display names on the daily table: the rule of a name, and the neutral name of a
player who has not set one.

A name is shown as text only (the page sets ``textContent``), so markup in it is harmless; its
rule (``name_rules``) keeps it short, visible, and unlike an unnamed player's name.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import TYPE_CHECKING

from magdagdon.services import name_rules

if TYPE_CHECKING:
    from magdagdon.store import Player, Store

MAX_LENGTH = name_rules.MAX_LENGTH


def clean_name(text: str) -> str:
    """The name to keep for ``text``, or :class:`~magdagdon.services.errors.InvalidNameError`
    (the rule is ``name_rules``')."""
    return name_rules.clean(text)


def player_id(token: str) -> str:
    """Twelve hexadecimal digits naming a player to an operator (``magdagdon admin``), its
    first four the :func:`player_tag`: from a hash of the token, which they do not reveal."""
    digest = hashlib.sha256(f"MAGDAGDON player tag {token}".encode()).hexdigest()
    return digest[:12].upper()


def player_tag(token: str) -> str:
    """Four hexadecimal digits that tell players apart on the daily table when they have no
    name: from a hash of the token, which they do not reveal (16 bits of SHA-256)."""
    return player_id(token)[:4]


def neutral_name(token: str) -> str:
    """The name of a player who has set none: "Manlalaro 4F2A" (the page may translate the
    word; the tag stays)."""
    return f"Manlalaro {player_tag(token)}"


def set_language(store: Store, player: Player, language: str) -> Player:
    """The player with ``language`` kept."""
    if language != player.language:
        with store.write() as rows:
            rows.set_language(player.token, language)
    return replace(player, language=language)


def set_name(store: Store, player: Player, name: str | None) -> Player:
    """The player with ``name`` kept (None clears it), once checked
    (:class:`~magdagdon.services.errors.InvalidNameError`: nothing changes)."""
    kept = None if name is None else clean_name(name)
    if kept != player.name:
        with store.write() as rows:
            rows.set_name(player.token, kept)
    return replace(player, name=kept)
