"""The rows of one write transaction (:class:`Rows`), and how a row becomes a record."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from magdagdon import clock
from magdagdon.engine import (
    Difficulty,
    action_from_json,
    action_to_json,
    state_from_json,
    state_to_json,
)
from magdagdon.store import statements as sql
from magdagdon.store.errors import GameNotFoundError, VersionConflictError
from magdagdon.store.records import GameMode, GameRecord, GameStatus, Player

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from sqlalchemy import Connection

    from magdagdon.engine import Action
    from magdagdon.store.records import HighScore

LANGUAGES = ("fil", "en")


def is_key(value: str) -> bool:
    """Whether ``value`` could be a stored key. A key from outside (a cookie, a path) may hold
    NUL, which PostgreSQL's text cannot: such a key names nothing, rather than an error."""
    return "\x00" not in value


def now() -> str:
    """The current UTC time in ISO-8601, to the millisecond (the server's clock)."""
    return clock.stamp()


def to_json_text(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


def game_record(row: Sequence[Any]) -> GameRecord:
    return GameRecord(
        id=row[0],
        player=row[1],
        difficulty=Difficulty(row[2]),
        seed=int(row[3]),
        state=state_from_json(json.loads(row[4])),
        version=int(row[5]),
        hints_used=int(row[6]),
        status=GameStatus(row[7]),
        created_at=row[8],
        updated_at=row[9],
        finished_at=row[10],
        mode=GameMode(row[11]),
        daily_date=row[12],
    )


def read_actions(conn: Connection, game_id: str) -> list[Action]:
    texts = conn.execute(sql.ACTIONS, {"game_id": game_id}).scalars()
    return [action_from_json(json.loads(text)) for text in texts]


def game_row(game: GameRecord) -> dict[str, Any]:
    """The ``games`` row of a record (``INSERT_GAME``'s values)."""
    return {
        "id": game.id,
        "player": game.player,
        "difficulty": game.difficulty.value,
        "seed": game.seed,
        "state": to_json_text(state_to_json(game.state)),
        "version": game.version,
        "hints_used": game.hints_used,
        "status": game.status.value,
        "created_at": game.created_at,
        "updated_at": game.updated_at,
        "finished_at": game.finished_at,
        "mode": game.mode.value,
        "daily_date": game.daily_date,
    }


def high_score_row(player: str, entry: HighScore) -> dict[str, Any]:
    """The ``highscores`` row of an entry (``INSERT_HIGH_SCORE``'s values)."""
    return {
        "game_id": entry.game_id,
        "player": player,
        "difficulty": entry.difficulty.value,
        "score": entry.score,
        "date": entry.date,
        "turns": entry.turns,
        "powers_used": entry.powers_used,
        "ruins": entry.ruins,
        "hints_used": entry.hints_used,
    }


class Rows:
    """What one write transaction may do. Made by ``Store.write()`` only."""

    def __init__(self, conn: Connection, *, for_update: bool) -> None:
        self.conn = conn
        self._game = sql.GAME_FOR_UPDATE if for_update else sql.GAME

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

    def set_language(self, token: str, language: str) -> Player:
        row = self.conn.execute(
            sql.SET_LANGUAGE, {"b_token": token, "b_language": language}
        ).first()
        if row is None:
            raise LookupError("no such player")
        return Player(token, language, row[0])

    def game(self, game_id: str) -> GameRecord | None:
        """The game, locked against other writers until the transaction ends (PostgreSQL:
        ``FOR UPDATE``; SQLite: the write lock of ``BEGIN IMMEDIATE`` already holds it)."""
        if not is_key(game_id):
            return None
        row = self.conn.execute(self._game, {"game_id": game_id}).first()
        return None if row is None else game_record(row)

    def action(self, game_id: str, seq: int) -> Action | None:
        """The ``seq``-th accepted action of the game (1-based), if there is one."""
        text = self.conn.execute(sql.ACTION, {"game_id": game_id, "seq": seq}).scalar()
        return None if text is None else action_from_json(json.loads(text))

    def abandon(self, player: str, modes: Iterable[str], stamp: str) -> None:
        """Mark the player's unfinished games of these modes abandoned."""
        self.conn.execute(
            sql.ABANDON, {"b_player": player, "b_modes": list(modes), "b_stamp": stamp}
        )

    def insert_game(self, game: GameRecord) -> None:
        self.conn.execute(sql.INSERT_GAME, game_row(game))

    def save_move(self, game: GameRecord, action: Action) -> None:
        """Save ``game`` just after ``action``: its new state, and the action as the log's
        entry number ``game.version``. Only over the version before (the read locked the row,
        so this guard never fires unless that lock was skipped): a lost race is a
        ``VersionConflictError``, never a lost update."""
        result = self.conn.execute(
            sql.SAVE_MOVE,
            {
                "b_id": game.id,
                "b_before": game.version - 1,
                "b_state": to_json_text(state_to_json(game.state)),
                "b_version": game.version,
                "b_status": game.status.value,
                "b_stamp": game.updated_at,
                "b_finished_at": game.finished_at,
            },
        )
        if result.rowcount != 1:
            raise VersionConflictError("the game changed meanwhile; reload it")
        self.conn.execute(
            sql.INSERT_ACTION,
            {
                "game_id": game.id,
                "seq": game.version,
                "action": to_json_text(action_to_json(action)),
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
