"""The rows of device links: a code's SHA-256, its player, when it expires, when it was used.

The rules (how long a link lasts, what a code is) are ``magdagdon.services.links``'s; here only the
statements, built once at import, and the writes of one transaction (``Store.write()``'s
:class:`~magdagdon.store.Rows`). Times are the store's ISO-8601 UTC text, which sorts as time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import bindparam, delete, insert, select, update

from magdagdon.store.tables import device_links

if TYPE_CHECKING:
    from sqlalchemy import Connection

_l = device_links.c
INSERT_LINK = insert(device_links)
# links past their time are of no use to anyone: each new link sweeps them away
DELETE_EXPIRED = delete(device_links).where(_l.expires_at <= bindparam("now"))
LINK = select(_l.player, _l.expires_at, _l.used_at).where(_l.code_hash == bindparam("code_hash"))
# the one statement that spends a link: only an unused one in its time, so two devices racing
# with one code cannot both win (the loser's UPDATE finds no row)
USE_LINK = (
    update(device_links)
    .where(_l.code_hash == bindparam("b_code_hash"), _l.used_at.is_(None))
    .where(_l.expires_at > bindparam("b_now"))
    .values(used_at=bindparam("b_now"))
    .returning(_l.player)
)


@dataclass(frozen=True, slots=True)
class LinkRow:
    player: str
    expires_at: str
    used_at: str | None


class LinkRows:
    """The writes of device links (part of :class:`~magdagdon.store.queries.Rows`)."""

    conn: Connection

    def insert_link(self, code_hash: str, player: str, created_at: str, expires_at: str) -> None:
        """Store a new link of ``player`` (after sweeping the expired ones)."""
        self.conn.execute(DELETE_EXPIRED, {"now": created_at})
        self.conn.execute(
            INSERT_LINK,
            {
                "code_hash": code_hash,
                "player": player,
                "created_at": created_at,
                "expires_at": expires_at,
                "used_at": None,
            },
        )

    def use_link(self, code_hash: str, now: str) -> str | None:
        """Mark the link used; answer its player, or None when it is unknown, used or expired
        (and then nothing is written)."""
        found = self.conn.execute(USE_LINK, {"b_code_hash": code_hash, "b_now": now}).scalar()
        return None if found is None else str(found)

    def link(self, code_hash: str) -> LinkRow | None:
        """The link's row, to say why it could not be used."""
        row = self.conn.execute(LINK, {"code_hash": code_hash}).first()
        return None if row is None else LinkRow(row[0], row[1], row[2])
