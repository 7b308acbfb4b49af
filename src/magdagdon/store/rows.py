"""The one way into the database: the queries of a read (:class:`Reads`, from ``Store.read()``
or ``Store.snapshot()``) and of a write transaction (:class:`Rows`, from ``Store.write()``).

Each concern keeps its statements and its methods in its own module (``daily``, ``results``,
``reviews``, ``transfer``, ``links``, ``cleanup``); players, games, the action log and High
Scores are here. A service never holds a connection: every query it makes is a method of these,
so every one gets ``Store``'s failure handling (``failures.py``: 503, never a 500).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from magdagdon.engine import action_from_json, action_to_json, state_to_json
from magdagdon.services.errors import GameNotFoundError, VersionConflictError
from magdagdon.store import statements as sql
from magdagdon.store.cleanup import CleanupReads, CleanupWrites
from magdagdon.store.daily import DailyReads, DailyWrites
from magdagdon.store.links import LinkRows
from magdagdon.store.records import (
    HighScore,
    Player,
    game_record,
    game_row,
    high_score_row,
    is_key,
    to_json_text,
)
from magdagdon.store.results import ResultReads, ResultWrites
from magdagdon.store.reviews import ReviewReads, ReviewWrites
from magdagdon.store.transfer import TransferReads, TransferWrites

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sqlalchemy import Connection

    from magdagdon.engine import Action, Difficulty
    from magdagdon.store.records import GameRecord

LANGUAGES = ("fil", "en")


def checked_language(language: str) -> str:
    if language not in LANGUAGES:
        raise ValueError(f"a language is one of {LANGUAGES}, not {language!r}")
    return language


class Reads(DailyReads, ResultReads, ReviewReads, TransferReads, CleanupReads):
    """The reads over one connection. Made by ``Store.read()`` (each statement atomic on its
    own) and ``Store.snapshot()`` (all of them see one state of the database) only."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def player(self, token: str) -> Player | None:
        if not is_key(token):
            return None
        row = self.conn.execute(sql.PLAYER, {"token": token}).first()
        return None if row is None else Player(row[0], row[1], row[2])

    def game(self, game_id: str) -> GameRecord | None:
        if not is_key(game_id):
            return None
        row = self.conn.execute(sql.GAME, {"game_id": game_id}).first()
        return None if row is None else game_record(row)

    def current_game(self, player: str) -> GameRecord | None:
        """The player's most recent unfinished game, if any; a tutorial is never current."""
        row = self.conn.execute(sql.CURRENT_GAME, {"player": player}).first()
        return None if row is None else game_record(row)

    def actions(self, game_id: str) -> list[Action]:
        """The accepted actions of a game, in order: ``replay(difficulty, seed, actions)``."""
        texts = self.conn.execute(sql.ACTIONS, {"game_id": game_id}).scalars()
        return [action_from_json(json.loads(text)) for text in texts]

    def action(self, game_id: str, seq: int) -> Action | None:
        """The ``seq``-th accepted action of the game (1-based), if there is one."""
        text = self.conn.execute(sql.ACTION, {"game_id": game_id, "seq": seq}).scalar()
        return None if text is None else action_from_json(json.loads(text))

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


class Rows(Reads, ResultWrites, ReviewWrites, TransferWrites, LinkRows, CleanupWrites, DailyWrites):
    """What one write transaction may do (its reads included). Made by ``Store.write()``
    only."""

    def __init__(self, conn: Connection, *, for_update: bool) -> None:
        super().__init__(conn)
        self._game = sql.GAME_FOR_UPDATE if for_update else sql.GAME
        # SQLite's WITH takes no UPDATE: two statements there
        self._one_statement = conn.dialect.name == "postgresql"

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
        return Player(token, language, row[0])

    def set_name(self, token: str, name: str | None) -> None:
        """Set (or, with None, clear) the player's display name."""
        if self.conn.execute(sql.SET_NAME, {"b_token": token, "b_name": name}).first() is None:
            raise LookupError("no such player")

    def game(self, game_id: str) -> GameRecord | None:
        """The game, locked against other writers until the transaction ends (PostgreSQL:
        ``FOR UPDATE``; SQLite: the write lock of ``BEGIN IMMEDIATE`` already holds it)."""
        if not is_key(game_id):
            return None
        row = self.conn.execute(self._game, {"game_id": game_id}).first()
        return None if row is None else game_record(row)

    def abandon(self, player: str, modes: Iterable[str], stamp: str) -> None:
        """Mark the player's unfinished games of these modes abandoned."""
        self.conn.execute(
            sql.ABANDON, {"b_player": player, "b_modes": list(modes), "b_stamp": stamp}
        )

    def insert_game(self, game: GameRecord, *, imported: bool = False) -> None:
        """A new game; ``imported``: one not played on this server as it happened (begun in
        the page's engine while offline): it keeps its history but never ranks."""
        self.conn.execute(sql.INSERT_GAME, {**game_row(game), "imported": imported})

    def save_move(self, game: GameRecord, action: Action) -> None:
        """Save ``game`` just after ``action``: its new state, and the action as the log's
        entry number ``game.version``. Only over the version before (the read locked the row,
        so this guard never fires unless that lock was skipped): a lost race is a
        ``VersionConflictError``, never a lost update. On PostgreSQL both in one statement
        (one round trip to the server fewer)."""
        values = move_values(game)
        action_text = to_json_text(action_to_json(action))
        if self._one_statement:
            values["b_action"] = action_text
            if self.conn.execute(sql.SAVE_MOVE_AND_ACTION, values).rowcount != 1:
                raise VersionConflictError("the game changed meanwhile; reload it")
            return
        if self.conn.execute(sql.SAVE_MOVE, values).rowcount != 1:
            raise VersionConflictError("the game changed meanwhile; reload it")
        self.conn.execute(
            sql.INSERT_ACTION,
            {
                "game_id": game.id,
                "seq": game.version,
                "action": action_text,
                "created_at": game.updated_at,
            },
        )

    def insert_high_score(self, player: str, entry: HighScore) -> None:
        self.conn.execute(sql.INSERT_HIGH_SCORE, high_score_row(player, entry))

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
