"""The one way into the database: the queries of a read (:class:`Reads`, from ``Store.read()``
or ``Store.snapshot()``) and of a write transaction (:class:`Rows`, from ``Store.write()``).

Each concern keeps its statements and its methods in its own module (``daily``, ``results``,
``reviews``, ``transfer``, ``links``, ``cleanup``); players, games, the action log and High
Scores are here. A service never holds a connection: every query it makes is a method of these,
so every one gets ``Store``'s failure handling (``failures.py``: 503, never a 500).

The statements of an action's path (the read of a game, the writes of a move and of a game's
end) run prepared, on the driver's own cursor of the same connection and transaction
(``prepared.py``): the one way for an action from every route, a sync and an import alike.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from magdagdon.engine import action_from_json, action_to_json, state_to_json
from magdagdon.store import statements as sql
from magdagdon.store.bulk import BulkReads, BulkWrites
from magdagdon.store.cleanup import CleanupReads, CleanupWrites
from magdagdon.store.counts import CountRows
from magdagdon.store.daily import DailyReads, DailyWrites, count_attempts
from magdagdon.store.errors import GameNotFoundError, VersionConflictError
from magdagdon.store.health import HealthReads, HealthWrites
from magdagdon.store.links import LinkRows
from magdagdon.store.moderation import ModerationReads, ModerationWrites
from magdagdon.store.prepared import Driver
from magdagdon.store.records import (
    GameMode,
    HighScore,
    Player,
    game_record,
    game_row,
    high_score_row,
    is_key,
    to_json_text,
)
from magdagdon.store.results import INSERT_RESULT, ResultReads, ResultWrites, result_row
from magdagdon.store.reviews import ReviewReads, ReviewWrites
from magdagdon.store.transfer import TransferReads, TransferWrites

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sqlalchemy import Connection
    from sqlalchemy.sql import ClauseElement

    from magdagdon.engine import Action, Difficulty
    from magdagdon.store.prepared import Statements
    from magdagdon.store.records import GameRecord
    from magdagdon.store.results import GameResult

LANGUAGES = ("fil", "en")


def checked_language(language: str) -> str:
    if language not in LANGUAGES:
        raise ValueError(f"a language is one of {LANGUAGES}, not {language!r}")
    return language


class Reads(
    DailyReads,
    ResultReads,
    ReviewReads,
    TransferReads,
    CleanupReads,
    HealthReads,
    BulkReads,
    ModerationReads,
):
    """The reads over one connection. Made by ``Store.read()`` (each statement atomic on its
    own) and ``Store.snapshot()`` (all of them see one state of the database) only."""

    def __init__(self, conn: Connection, statements: Statements) -> None:
        self.conn = conn
        self.statements = statements
        self.driver = Driver(conn)  # the prepared statements' cursor

    def player(self, token: str) -> Player | None:
        if not is_key(token):
            return None
        row = self.conn.execute(sql.PLAYER, {"token": token}).first()
        return None if row is None else Player(row[0], row[1], row[2], bool(row[3]))

    def game(self, game_id: str) -> GameRecord | None:
        if not is_key(game_id):
            return None
        row = self.driver.run(self.statements.game, {"game_id": game_id}).fetchone()
        return None if row is None else game_record(row)

    def current_game(self, player: str) -> GameRecord | None:
        """The player's most recent unfinished game, if any; a tutorial is never current."""
        row = self.conn.execute(sql.CURRENT_GAME, {"player": player}).first()
        return None if row is None else game_record(row)

    def actions(self, game_id: str) -> list[Action]:
        """The accepted actions of a game, in order: ``replay(difficulty, seed, actions)``."""
        texts = self.conn.execute(sql.ACTIONS, {"game_id": game_id}).scalars()
        return [action_from_json(json.loads(text)) for text in texts]

    def highscores(self, player: str, difficulty: Difficulty, limit: int) -> list[HighScore]:
        """The player's High Scores of ``difficulty``, best first."""
        query = {"player": player, "difficulty": difficulty.value, "limit": limit}
        rows = self.conn.execute(sql.HIGH_SCORES, query).all()
        return [
            HighScore(
                rank=rank,
                score=row[0],
                date=row[1],
                turns=row[2],
                powers_used=row[3],
                ruins=row[4],
                hints_used=row[5],
                game_id=row[6],
                difficulty=difficulty,
            )
            for rank, row in enumerate(rows, 1)
        ]

    def rank(self, game_id: str) -> int | None:
        """The 1-based rank of a ranked finished game among its player's High Scores of its
        difficulty; None for a game without a High Score."""
        row = self.conn.execute(sql.RANK, {"game_id": game_id}).first()
        return None if row is None else int(row[0])

    def ranked_games(self, player: str, difficulty: Difficulty) -> int:
        """How many games the player's High Scores of ``difficulty`` hold."""
        query = {"player": player, "difficulty": difficulty.value}
        return int(self.conn.execute(sql.RANKED_GAMES, query).scalar_one())


class Rows(
    Reads,
    ResultWrites,
    ReviewWrites,
    TransferWrites,
    LinkRows,
    CleanupWrites,
    HealthWrites,
    CountRows,
    BulkWrites,
    DailyWrites,
    ModerationWrites,
):
    """What one write transaction may do (its reads included). Made by ``Store.write()``
    only."""

    def savepoint(self, name: str) -> None:
        """Mark a point the transaction can go back to (:meth:`rollback_to`), or, again with
        the same name, forget it (``groupcommit.py``: one action of a group refused alone)."""
        self.driver.execute(f"SAVEPOINT {name}")

    def rollback_to(self, name: str) -> None:
        self.driver.execute(f"ROLLBACK TO {name}")

    def release(self, name: str) -> None:
        self.driver.execute(f"RELEASE {name}")

    def insert_player(self, player: Player, created_at: str) -> None:
        self.conn.execute(
            sql.INSERT_PLAYER,
            {
                "token": player.token,
                "language": player.language,
                "name": player.name,
                "created_at": created_at,
            },
        )

    def lock_player(self, player: str) -> None:
        """Hold the player's row until the transaction ends (PostgreSQL ``FOR UPDATE``;
        SQLite's ``BEGIN IMMEDIATE`` already holds the whole database), so that two requests
        of one player cannot both find "no attempt yet"."""
        self.conn.execute(sql.LOCK_PLAYER, {"player": player})

    def set_language(self, token: str, language: str) -> Player:
        query = {"b_token": token, "b_language": checked_language(language)}
        row = self.conn.execute(sql.SET_LANGUAGE, query).first()
        if row is None:
            raise LookupError("no such player")
        return Player(token, language, row[0], bool(row[1]))

    def set_name(self, token: str, name: str | None) -> None:
        """Set (or, with None, clear) the player's display name."""
        if self.conn.execute(sql.SET_NAME, {"b_token": token, "b_name": name}).first() is None:
            raise LookupError("no such player")

    def game(self, game_id: str) -> GameRecord | None:
        """The game, locked against other writers until the transaction ends (PostgreSQL:
        ``FOR UPDATE``; SQLite: the write lock of ``BEGIN IMMEDIATE`` already holds it)."""
        if not is_key(game_id):
            return None
        row = self.driver.run(self.statements.game_for_update, {"game_id": game_id}).fetchone()
        return None if row is None else game_record(row)

    def action(self, game_id: str, seq: int) -> Action | None:
        """The ``seq``-th accepted action of the game (1-based), if there is one."""
        row = self.driver.run(self.statements.action, {"game_id": game_id, "seq": seq}).fetchone()
        return None if row is None else action_from_json(json.loads(row[0]))

    def abandon(self, player: str, modes: Iterable[str], stamp: str) -> None:
        """Mark the player's unfinished games of these modes abandoned."""
        self.conn.execute(
            sql.ABANDON, {"b_player": player, "b_modes": list(modes), "b_stamp": stamp}
        )

    def insert_game(self, game: GameRecord, *, imported: bool = False) -> None:
        """A new game; ``imported``: one not played on this server as it happened (begun in
        the page's engine while offline): it keeps its history but never ranks."""
        self.conn.execute(sql.INSERT_GAME, {**game_row(game), "imported": imported})

    def insert_game_once(self, game: GameRecord, *, imported: bool = False) -> bool:
        """:meth:`insert_game`, unless a game with its id is there already (then nothing):
        whether it was inserted. Two transactions inserting one id at once: the second waits
        for the first and then inserts nothing (never a unique-key error)."""
        statement = sql.INSERT_GAME_ONCE[self.conn.dialect.name]
        done = self.conn.execute(statement, {**game_row(game), "imported": imported})
        return bool(done.rowcount == 1)

    def save_move(self, game: GameRecord, action: Action) -> None:
        """Save ``game`` just after ``action``: its new state, and the action as the log's
        entry number ``game.version``. Only over the version before (the read locked the row,
        so this guard never fires unless that lock was skipped): a lost race is a
        ``VersionConflictError``, never a lost update. On PostgreSQL both in one statement
        (one round trip to the server fewer)."""
        values = move_values(game)
        action_text = to_json_text(action_to_json(action))
        both = self.statements.save_move_and_action
        if both is not None:
            values["b_action"] = action_text
            if self.driver.run(both, values).rowcount != 1:
                raise VersionConflictError("the game changed meanwhile; reload it")
            return
        if self.driver.run(self.statements.save_move, values).rowcount != 1:
            raise VersionConflictError("the game changed meanwhile; reload it")
        entry = {
            "game_id": game.id,
            "seq": game.version,
            "action": action_text,
            "created_at": game.updated_at,
        }
        self.driver.run(self.statements.insert_action, entry)

    def insert_result(self, game: GameRecord, result: GameResult) -> None:
        """Write the summary of ``game``, which has just ended with ``result``; a ranked
        attempt is counted in its day's scores."""
        self._insert(INSERT_RESULT, result_row(game, result))
        if game.mode is GameMode.DAILY:  # only a daily game can be ranked (INSERT_RESULT)
            count_attempts(self.conn, [game.id])

    def insert_high_score(self, player: str, entry: HighScore) -> None:
        self._insert(sql.INSERT_HIGH_SCORE, high_score_row(player, entry))

    def _insert(self, statement: ClauseElement, row: dict[str, object]) -> None:
        self.driver.run(self.statements.insert(statement, tuple(row)), row)

    def count_hint(self, game_id: str) -> int:
        """One more hint in ``game_id``; answer the new count."""
        count = self.conn.execute(sql.COUNT_HINT, {"b_id": game_id}).scalar()
        if count is None:
            raise GameNotFoundError(game_id)
        return int(count)


def move_values(game: GameRecord) -> dict[str, object]:
    """The parameters of saving ``game`` just after a move: over the version before only."""
    return {
        "b_id": game.id,
        "b_before": game.version - 1,
        "b_state": to_json_text(state_to_json(game.state)),
        "b_version": game.version,
        "b_status": game.status.value,
        "b_stamp": game.updated_at,
        "b_finished_at": game.finished_at,
    }
