"""Removing what no one will play or see again, in small batches (``services.cleanup`` says
when and what the cutoff is):

- an unfinished game (abandoned, or left under way) untouched since the cutoff, with its action
  log; a finished game is kept for ever (High Scores, statistics, reviews);
- a player made before the cutoff with nothing left: no game, no High Score, no row of any
  other table that refers to players.

Every table that refers to ``games`` or ``players`` (``tables.metadata``: features added later
included) keeps what it refers to: a game or player that any of them names is not removed.

Each batch is found by a read (the candidates), then removed in one short write transaction
that locks the candidates and checks them again, so a game played meanwhile stays, and several
server processes cleaning at once remove each row once. On SQLite a batch holds the write lock
for a few milliseconds; the players are read in pages of their primary key (one pass, each
read within a server's statement timeout however many players there are).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import bindparam, delete, exists, select

from magdagdon.store.tables import actions, games, metadata, players

if TYPE_CHECKING:
    from sqlalchemy import ColumnElement, Connection, Table

    from magdagdon.store.store import Store

BATCH = 100


@dataclass(frozen=True, slots=True)
class Removed:
    games: int
    players: int


def _not_named_elsewhere(target: Table, skip: tuple[Table, ...]) -> list[ColumnElement[bool]]:
    """``NOT EXISTS`` a row of another table whose foreign key names the ``target`` row."""
    conditions: list[ColumnElement[bool]] = []
    for table in metadata.tables.values():
        if table in skip:
            continue
        for key in table.foreign_keys:
            if key.column.table is target:
                conditions.append(~exists().where(key.parent == key.column))
    return conditions


_UNFINISHED = ("playing", "abandoned")
_stale_game = [
    games.c.status.in_(_UNFINISHED),
    games.c.created_at < bindparam("cutoff"),  # the index games_by_status_created
    games.c.updated_at < bindparam("cutoff"),
    *_not_named_elsewhere(games, skip=(games, actions)),
]
_empty_player = [
    players.c.created_at < bindparam("cutoff"),
    *_not_named_elsewhere(players, skip=(players,)),
]
STALE_GAMES = select(games.c.id).where(*_stale_game).limit(BATCH)
LOCK_STALE_GAMES = (
    select(games.c.id).where(games.c.id.in_(bindparam("ids", expanding=True)), *_stale_game)
).with_for_update()
DELETE_ACTIONS = delete(actions).where(actions.c.game_id.in_(bindparam("ids", expanding=True)))
DELETE_GAMES = delete(games).where(games.c.id.in_(bindparam("ids", expanding=True)))
# one page of the players' primary key at a time: each read touches at most BATCH players
PAGE_END = (
    select(players.c.token)
    .where(players.c.token > bindparam("after"))
    .order_by(players.c.token)
    .offset(BATCH - 1)
    .limit(1)
)
_after = players.c.token > bindparam("after")
EMPTY_PLAYERS = select(players.c.token).where(_after, *_empty_player)  # the last page
EMPTY_PLAYERS_TO = EMPTY_PLAYERS.where(players.c.token <= bindparam("end"))
LOCK_EMPTY_PLAYERS = (
    select(players.c.token).where(
        players.c.token.in_(bindparam("tokens", expanding=True)), *_empty_player
    )
).with_for_update()
DELETE_PLAYERS = delete(players).where(players.c.token.in_(bindparam("tokens", expanding=True)))


class CleanupReads:
    """The candidates of each batch (part of :class:`~magdagdon.store.queries.Reads`)."""

    conn: Connection

    def stale_games(self, cutoff: str) -> list[str]:
        """Up to :data:`BATCH` unfinished games untouched since ``cutoff``."""
        return list(self.conn.execute(STALE_GAMES, {"cutoff": cutoff}).scalars())

    def empty_players(self, after: str, cutoff: str) -> tuple[list[str], str | None]:
        """The empty players made before ``cutoff`` among the next :data:`BATCH` tokens after
        ``after``; and the page's last token (None: this was the last page)."""
        end = self.conn.execute(PAGE_END, {"after": after}).scalar()
        page = {"after": after, "end": end, "cutoff": cutoff}
        found = self.conn.execute(EMPTY_PLAYERS if end is None else EMPTY_PLAYERS_TO, page)
        return list(found.scalars()), end


class CleanupWrites:
    """The removals of each batch (part of :class:`~magdagdon.store.queries.Rows`): the
    candidates are locked and checked again, so a game played meanwhile stays."""

    conn: Connection

    def remove_games(self, ids: list[str], cutoff: str) -> int:
        """Remove those of ``ids`` still stale, with their logs; answer how many."""
        locked = self.conn.execute(LOCK_STALE_GAMES, {"ids": ids, "cutoff": cutoff})
        ids = [row[0] for row in locked]
        if ids:
            self.conn.execute(DELETE_ACTIONS, {"ids": ids})
            self.conn.execute(DELETE_GAMES, {"ids": ids})
        return len(ids)

    def remove_players(self, tokens: list[str], cutoff: str) -> int:
        """Remove those of ``tokens`` still empty; answer how many."""
        query = {"tokens": tokens, "cutoff": cutoff}
        locked = [row[0] for row in self.conn.execute(LOCK_EMPTY_PLAYERS, query)]
        if locked:
            self.conn.execute(DELETE_PLAYERS, {"tokens": locked})
        return len(locked)


def remove_stale_games(store: Store, cutoff: str) -> int:
    """Remove every unfinished game untouched since ``cutoff`` (an ISO-8601 stamp); answer
    how many."""
    removed = 0
    while True:
        with store.snapshot() as reads:
            ids = reads.stale_games(cutoff)
        if not ids:
            return removed
        with store.write() as rows:
            removed += rows.remove_games(ids, cutoff)


def remove_empty_players(store: Store, cutoff: str) -> int:
    """Remove every player made before ``cutoff`` that nothing refers to; answer how many."""
    removed, after = 0, ""
    while True:
        with store.snapshot() as reads:
            tokens, end = reads.empty_players(after, cutoff)
        if tokens:
            with store.write() as rows:
                removed += rows.remove_players(tokens, cutoff)
        if end is None:
            return removed
        after = end


def remove(store: Store, cutoff: str) -> Removed:
    """Both, games first (a player whose last games go is then empty)."""
    gone = remove_stale_games(store, cutoff)
    return Removed(games=gone, players=remove_empty_players(store, cutoff))
