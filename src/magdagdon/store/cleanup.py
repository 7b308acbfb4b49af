"""Removing what no one will play or see again, in small batches (``services.cleanup`` says
when and what the cutoff is):

- an unfinished game (abandoned, or left under way) untouched since the cutoff, with its action
  log; a finished game is kept for ever (High Scores, statistics, reviews);
- a player made before the cutoff with nothing left: no game, no High Score, no row of any
  other table that refers to players.

Every table that refers to ``games`` or ``players`` (``tables.metadata``: features added later
included) keeps what it refers to: a game or player that any of them names is not removed.

The cost is linear in what there is to remove, and next to nothing when there is nothing
(docs/store.md "The clean-up"). Each pass walks an index by keyset, a page of :data:`BATCH`
keys at a time, and never reads a key twice:

- the games: the unfinished games made before the cutoff (``games_by_status_created``), which
  are nearly all stale; a game's player is checked in the batch that removes the game, since
  that is how a player who played becomes empty;
- the players: only those made since the last run's page (``players_by_created``, from the
  mark kept in ``cleanup_marks``), which are the ones that can have never had anything. So a
  run does not pass over every player, and the first run on a database only once.

Each batch is found by a read (the candidates), then removed in one short write transaction
that locks the candidates and checks them again, so a game played meanwhile stays, and several
server processes cleaning at once remove each row once. On SQLite a batch holds the write lock
for a few milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import bindparam, delete, exists, select, tuple_
from sqlalchemy.dialects import postgresql, sqlite

from magdagdon.store.tables import actions, cleanup_marks, games, metadata, players

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sqlalchemy import BindParameter, ColumnElement, Connection, Table

    from magdagdon.store.store import Store

BATCH = 100
#: The ``cleanup_marks`` row of the players' pass.
PLAYERS_MARK = "players"


@dataclass(frozen=True, slots=True)
class Removed:
    games: int
    players: int

    def __add__(self, other: Removed) -> Removed:
        return Removed(self.games + other.games, self.players + other.players)


NOTHING = Removed(0, 0)


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


_UNFINISHED = ("abandoned", "playing")
_cutoff: BindParameter[str] = bindparam("cutoff")
_stale_game = [
    games.c.status.in_(_UNFINISHED),
    games.c.created_at < _cutoff,
    games.c.updated_at < _cutoff,
    *_not_named_elsewhere(games, skip=(games, actions)),
]
_empty_player = [
    players.c.created_at < _cutoff,
    *_not_named_elsewhere(players, skip=(players,)),
]
_ids: BindParameter[list[str]] = bindparam("ids", expanding=True)
_tokens: BindParameter[list[str]] = bindparam("tokens", expanding=True)
# the next page of one status's unfinished games made before the cutoff, after the last key
# read; ``created_at >= :created`` bounds the index range, the row comparison orders the ties
GAME_PAGE = (
    select(games.c.created_at, games.c.id)
    .where(games.c.status == bindparam("status"), games.c.created_at < _cutoff)
    .where(games.c.created_at >= bindparam("created"))
    .where(tuple_(games.c.created_at, games.c.id) > tuple_(bindparam("created"), bindparam("id")))
    .order_by(games.c.created_at, games.c.id)
    .limit(BATCH)
)
STALE_AMONG = select(games.c.id).where(games.c.id.in_(_ids), *_stale_game)
LOCK_STALE_GAMES = (
    select(games.c.id, games.c.player).where(games.c.id.in_(_ids), *_stale_game).with_for_update()
)
DELETE_ACTIONS = delete(actions).where(actions.c.game_id.in_(_ids))
DELETE_GAMES = delete(games).where(games.c.id.in_(_ids))
# the next page of the players made before the cutoff, after the mark
PLAYER_PAGE = (
    select(players.c.created_at, players.c.token)
    .where(players.c.created_at < _cutoff, players.c.created_at >= bindparam("created"))
    .where(
        tuple_(players.c.created_at, players.c.token)
        > tuple_(bindparam("created"), bindparam("token"))
    )
    .order_by(players.c.created_at, players.c.token)
    .limit(BATCH)
)
EMPTY_AMONG = select(players.c.token).where(players.c.token.in_(_tokens), *_empty_player)
LOCK_EMPTY_PLAYERS = EMPTY_AMONG.with_for_update()
DELETE_PLAYERS = delete(players).where(players.c.token.in_(_tokens))
MARK = select(cleanup_marks.c.position).where(cleanup_marks.c.name == bindparam("name"))
_SEPARATOR = " "  # before every character of a stamp's end and of a token: the text orders
_NEW_MARK: dict[str, BindParameter[str]] = {
    "name": bindparam("name"),
    "position": bindparam("position"),
}
_ONLY_FORWARD = cleanup_marks.c.position < bindparam("position")
_MARK_UPSERT = {
    # each dialect's INSERT … ON CONFLICT DO UPDATE, the same statement on both
    name: dialect.insert(cleanup_marks)
    .values(_NEW_MARK)
    .on_conflict_do_update(
        index_elements=[cleanup_marks.c.name],
        set_={"position": bindparam("position")},
        where=_ONLY_FORWARD,
    )
    for name, dialect in (("postgresql", postgresql), ("sqlite", sqlite))
}


def mark_of(created_at: str, token: str) -> str:
    """The text of a page's last key: ordered as the keys are (a stamp's length is fixed)."""
    return f"{created_at}{_SEPARATOR}{token}"


def key_of_mark(mark: str) -> tuple[str, str]:
    created_at, _, token = mark.partition(_SEPARATOR)
    return created_at, token


class CleanupReads:
    """The candidates of each batch (part of :class:`~magdagdon.store.queries.Reads`)."""

    conn: Connection

    def unfinished_page(self, status: str, cutoff: str, after: tuple[str, str]) -> list[str]:
        """The keys (made, id) of the next :data:`BATCH` games of ``status`` made before
        ``cutoff`` after the key ``after``, as made + space + id, in order."""
        query = {"status": status, "cutoff": cutoff, "created": after[0], "id": after[1]}
        return [mark_of(row[0], row[1]) for row in self.conn.execute(GAME_PAGE, query)]

    def stale_among(self, ids: list[str], cutoff: str) -> list[str]:
        """Those of ``ids`` that are stale (unfinished, untouched since ``cutoff``)."""
        return list(self.conn.execute(STALE_AMONG, {"ids": ids, "cutoff": cutoff}).scalars())

    def players_mark(self) -> str:
        """Where the players' pass stopped (empty: it has not run)."""
        found = self.conn.execute(MARK, {"name": PLAYERS_MARK}).scalar()
        return "" if found is None else str(found)

    def new_players_page(self, cutoff: str, mark: str) -> list[str]:
        """The keys of the next :data:`BATCH` players made before ``cutoff``, after ``mark``."""
        created, token = key_of_mark(mark)
        query = {"cutoff": cutoff, "created": created, "token": token}
        return [mark_of(row[0], row[1]) for row in self.conn.execute(PLAYER_PAGE, query)]

    def empty_among(self, tokens: list[str], cutoff: str) -> list[str]:
        """Those of ``tokens`` made before ``cutoff`` that nothing refers to."""
        found = self.conn.execute(EMPTY_AMONG, {"tokens": tokens, "cutoff": cutoff})
        return list(found.scalars())


class CleanupWrites:
    """The removals of each batch (part of :class:`~magdagdon.store.queries.Rows`): the
    candidates are locked and checked again, so a game played meanwhile stays."""

    conn: Connection

    def remove_games(self, ids: list[str], cutoff: str) -> Removed:
        """Remove those of ``ids`` still stale, with their logs, then those of their players
        left with nothing; answer how many of each."""
        locked = self.conn.execute(LOCK_STALE_GAMES, {"ids": ids, "cutoff": cutoff}).all()
        if not locked:
            return NOTHING
        ids = [row[0] for row in locked]
        self.conn.execute(DELETE_ACTIONS, {"ids": ids})
        self.conn.execute(DELETE_GAMES, {"ids": ids})
        owners = sorted({row[1] for row in locked})
        return Removed(len(ids), self.remove_players(owners, cutoff))

    def remove_players(self, tokens: list[str], cutoff: str) -> int:
        """Remove those of ``tokens`` still empty; answer how many."""
        query = {"tokens": tokens, "cutoff": cutoff}
        locked = [row[0] for row in self.conn.execute(LOCK_EMPTY_PLAYERS, query)]
        if locked:
            self.conn.execute(DELETE_PLAYERS, {"tokens": locked})
        return len(locked)

    def move_players_mark(self, mark: str) -> None:
        """The players' pass has checked every player up to ``mark`` (never moved back)."""
        upsert = _MARK_UPSERT[self.conn.dialect.name]
        self.conn.execute(upsert, {"name": PLAYERS_MARK, "position": mark})


def stale_game_batches(store: Store, cutoff: str) -> Iterator[Removed]:
    """Remove every unfinished game untouched since ``cutoff`` (an ISO-8601 stamp), and the
    players it leaves with nothing: one page at a time, each step one read and at most one
    write."""
    for status in _UNFINISHED:
        after = ("", "")
        while True:
            with store.snapshot() as reads:
                page = reads.unfinished_page(status, cutoff, after)
                stale = reads.stale_among([key_of_mark(k)[1] for k in page], cutoff) if page else []
            removed = NOTHING
            if stale:
                with store.write() as rows:
                    removed = rows.remove_games(stale, cutoff)
            yield removed  # outside the transaction: the next step may come much later
            if len(page) < BATCH:
                break
            after = key_of_mark(page[-1])


def new_player_batches(store: Store, cutoff: str) -> Iterator[Removed]:
    """Remove the players made before ``cutoff`` since the last run's mark that nothing refers
    to, a page at a time; the mark moves with each page."""
    with store.read() as reads:
        mark = reads.players_mark()
    while True:
        with store.snapshot() as reads:
            page = reads.new_players_page(cutoff, mark)
            empty = reads.empty_among([key_of_mark(k)[1] for k in page], cutoff) if page else []
        if not page:
            return
        mark = page[-1]
        with store.write() as rows:
            gone = rows.remove_players(empty, cutoff) if empty else 0
            rows.move_players_mark(mark)
        yield Removed(0, gone)
        if len(page) < BATCH:
            return


def batches(store: Store, cutoff: str) -> Iterator[Removed]:
    """Both passes, games first, one batch a step (``services.cleanup`` runs each step on its
    own, so a request's worker is never held longer than one)."""
    yield from stale_game_batches(store, cutoff)
    yield from new_player_batches(store, cutoff)


def remove(store: Store, cutoff: str) -> Removed:
    """Both passes at once; answer what went."""
    total = NOTHING
    for removed in batches(store, cutoff):
        total += removed
    return total
