"""The operator's rows (``magdagdon admin``, ``services/moderation.py`` says when): the names on a
day's tables, a name hidden or cleared, a player forgotten with everything that refers to them,
and the log of what operators did. Statements are built once at import, as in ``statements.py``.

Forgetting follows the foreign keys of ``tables.metadata`` (as ``cleanup.py`` does), so a table
added later that refers to a player or to one of their games is emptied of them too, before the
rows it refers to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import bindparam, delete, desc, false, insert, or_, select, update

from magdagdon.store.daily import uncount_player
from magdagdon.store.tables import game_results, games, metadata, moderation_log, players

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sqlalchemy import Connection, Delete

_g = games.c
_p = players.c
_log = moderation_log.c

TOKENS = select(_p.token)
DAY_NAMES = (
    select(_g.difficulty, game_results.c.score, _g.id, _g.player, _p.name, _p.name_hidden)
    .select_from(
        game_results.join(games, _g.id == game_results.c.game_id).join(
            players, _p.token == _g.player
        )
    )
    .where(_g.daily_date == bindparam("day"), _g.mode == "daily", _g.status == "finished")
    .where(_g.imported == false())
    .order_by(_g.difficulty, game_results.c.score.desc(), _g.finished_at, _g.id)
)
NAME = select(_p.name, _p.name_hidden).where(_p.token == bindparam("token")).with_for_update()
SET_HIDDEN = (
    update(players)
    .where(_p.token == bindparam("b_token"))
    .values(name_hidden=bindparam("b_hidden"))
)
CLEAR_NAME = update(players).where(_p.token == bindparam("b_token")).values(name=None)
RECORD = insert(moderation_log)
LOG = select(_log.at, _log.operator, _log.action, _log.player, _log.detail).order_by(desc(_log.id))
_OWN_GAMES = select(_g.id).where(_g.player == bindparam("token")).scalar_subquery()


def _forget_statements() -> list[tuple[str, Delete]]:
    """One DELETE a table that names a player (or one of their games), the tables that refer
    to others first; the player's own row last."""
    found: list[tuple[str, Delete]] = []
    for table in reversed(metadata.sorted_tables):
        conditions = []
        for key in table.foreign_keys:
            if key.column.table is players:
                conditions.append(key.parent == bindparam("token"))
            elif key.column.table is games:
                conditions.append(key.parent.in_(_OWN_GAMES))
        if table is players:
            conditions.append(_p.token == bindparam("token"))
        if conditions:
            found.append((table.name, delete(table).where(or_(*conditions))))
    return found


FORGET = _forget_statements()


@dataclass(frozen=True, slots=True)
class NameOnTable:
    """A finished ranked attempt of a day with its player's name as kept (None when unset)."""

    difficulty: str
    score: int
    game_id: str
    player: str
    name: str | None
    name_hidden: bool


@dataclass(frozen=True, slots=True)
class LogEntry:
    at: str
    operator: str
    action: str
    player: str
    detail: str


class ModerationReads:
    """The operator's reads (``Reads``)."""

    conn: Connection

    def player_tokens(self) -> Iterator[str]:
        for row in self.conn.execute(TOKENS):
            yield str(row[0])

    def day_names(self, day: str) -> list[NameOnTable]:
        """Every ranked attempt of ``day`` played on this server, by difficulty, best first."""
        return [
            NameOnTable(row[0], row[1], row[2], row[3], row[4], bool(row[5]))
            for row in self.conn.execute(DAY_NAMES, {"day": day})
        ]

    def moderation_log(self, limit: int) -> list[LogEntry]:
        """The last ``limit`` actions of operators, the newest first."""
        rows = self.conn.execute(LOG.limit(limit))
        return [LogEntry(row[0], row[1], row[2], row[3], row[4]) for row in rows]


class ModerationWrites:
    """The operator's writes (``Rows``)."""

    conn: Connection

    def kept_name(self, token: str) -> tuple[str | None, bool] | None:
        """The player's name and whether it is hidden, the row locked; None: no such player."""
        row = self.conn.execute(NAME, {"token": token}).first()
        return None if row is None else (row[0], bool(row[1]))

    def set_name_hidden(self, token: str, hidden: bool) -> None:
        self.conn.execute(SET_HIDDEN, {"b_token": token, "b_hidden": hidden})

    def clear_name(self, token: str) -> None:
        self.conn.execute(CLEAR_NAME, {"b_token": token})

    def forget_player(self, token: str) -> dict[str, int]:
        """Remove the player and every row that names them or one of their games; answer the
        rows removed by table."""
        removed: dict[str, int] = {}
        uncount_player(self.conn, token)  # their ranked attempts leave the day's scores with them
        for table, statement in FORGET:
            count = self.conn.execute(statement, {"token": token}).rowcount
            if count:
                removed[table] = count
        return removed

    def record_moderation(self, entry: LogEntry) -> None:
        self.conn.execute(
            RECORD,
            {
                "at": entry.at,
                "operator": entry.operator,
                "action": entry.action,
                "player": entry.player,
                "detail": entry.detail,
            },
        )
