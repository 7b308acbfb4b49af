"""Device links: one player on every device. A device asks for a one-time code; another device
that brings the code back within :data:`LIFETIME` becomes the same player (its cookie names
that player from then on).

A code is :data:`CODE_BYTES` random bytes (144 bits, so guessing is hopeless even before the
rate limits of ``api/edge/ratelimit.py``), shown once and stored only as its SHA-256: the database
alone cannot make a device anyone. A code works once: it is spent by one conditional UPDATE, so
two devices racing with one code cannot both win. A wrong, used or expired code changes nothing.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from magdagdon import clock
from magdagdon.services.errors import LinkInvalidError

if TYPE_CHECKING:
    from magdagdon.store import Player, Store
    from magdagdon.store.links import LinkRow

LIFETIME = timedelta(minutes=10)
CODE_BYTES = 18
_CODE = re.compile(r"[A-Za-z0-9_-]{16,64}")  # what token_urlsafe makes; anything else is wrong


@dataclass(frozen=True, slots=True)
class DeviceLink:
    code: str
    expires_at: str  # ISO-8601 UTC, as the API shows times


def code_hash(code: str) -> str:
    """What the store keeps of a code."""
    return hashlib.sha256(code.encode()).hexdigest()


def make(store: Store, player: str) -> DeviceLink:
    """A new one-time link that makes another device ``player``."""
    code = secrets.token_urlsafe(CODE_BYTES)
    moment = clock.now()
    expires_at = clock.stamp(moment + LIFETIME)
    with store.write() as rows:
        rows.insert_link(code_hash(code), player, clock.stamp(moment), expires_at)
    return DeviceLink(code, expires_at)


def use(store: Store, code: str) -> Player:
    """Spend ``code``: answer the player it makes this device. :class:`LinkInvalidError`, with
    nothing written, for a wrong, used or expired one."""
    if not _CODE.fullmatch(code):
        raise LinkInvalidError("unknown")
    digest, now = code_hash(code), clock.stamp()
    with store.write() as rows:
        token = rows.use_link(digest, now)
        if token is None:
            raise LinkInvalidError(_reason(rows.link(digest)))
    player = store.player(token)
    assert player is not None  # a link's player is a real player (a foreign key)
    return player


def _reason(row: LinkRow | None) -> str:
    if row is None:
        return "unknown"
    return "used" if row.used_at is not None else "expired"
