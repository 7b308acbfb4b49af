"""The rows of one write transaction (:class:`Rows`), and how a row becomes a record."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select, update

from magdagdon.engine import (
    Difficulty,
    action_from_json,
    action_to_json,
    state_from_json,
    state_to_json,
)
from magdagdon.store.errors import GameNotFoundError, VersionConflictError
from magdagdon.store.records import GameMode, GameRecord, GameStatus, Player
from magdagdon.store.tables import actions, games, highscores, players

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from sqlalchemy import Connection

    from magdagdon.engine import Action
    from magdagdon.store.records import HighScore

LANGUAGES = ("fil", "en")
GAME_COLUMNS = (
    games.c.id,
    games.c.player,
    games.c.difficulty,
    games.c.seed,
    games.c.state,
    games.c.version,
    games.c.hints_used,
    games.c.status,
    games.c.created_at,
    games.c.updated_at,
    games.c.finished_at,
    games.c.mode,
    games.c.daily_date,
)


def is_key(value: str) -> bool:
    """Whether ``value`` could be a stored key. A key from outside (a cookie, a path) may hold
    NUL, which PostgreSQL's text cannot: such a key names nothing, rather than an error."""
    return "\x00" not in value


def now() -> str:
    """The current UTC time in ISO-8601, to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


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
    query = select(actions.c.action).where(actions.c.game_id == game_id).order_by(actions.c.seq)
    return [action_from_json(json.loads(text)) for text in conn.execute(query).scalars()]


class Rows:
    """What one write transaction may do. Made by ``Store.write()`` only."""

    def __init__(self, conn: Connection, *, for_update: bool) -> None:
        self.conn = conn
        self._for_update = for_update

    def insert_player(self, player: Player, created_at: str) -> None:
        self.conn.execute(
            insert(players).values(
                token=player.token,
                language=player.language,
                name=player.name,
                created_at=created_at,
            )
        )

    def set_language(self, token: str, language: str) -> Player:
        row = self.conn.execute(
            update(players)
            .where(players.c.token == token)
            .values(language=language)
            .returning(players.c.name)
        ).first()
        if row is None:
            raise LookupError("no such player")
        return Player(token, language, row[0])

    def game(self, game_id: str) -> GameRecord | None:
        """The game, locked against other writers until the transaction ends."""
        if not is_key(game_id):
            return None
        query = select(*GAME_COLUMNS).where(games.c.id == game_id)
        if self._for_update:
            query = query.with_for_update()
        row = self.conn.execute(query).first()
        return None if row is None else game_record(row)

    def action(self, game_id: str, seq: int) -> Action | None:
        """The ``seq``-th accepted action of the game (1-based), if there is one."""
        text = self.conn.execute(
            select(actions.c.action).where(actions.c.game_id == game_id, actions.c.seq == seq)
        ).scalar()
        return None if text is None else action_from_json(json.loads(text))

    def abandon(self, player: str, modes: Iterable[str], stamp: str) -> None:
        """Mark the player's unfinished games of these modes abandoned."""
        self.conn.execute(
            update(games)
            .where(games.c.player == player, games.c.status == "playing")
            .where(games.c.mode.in_(list(modes)))
            .values(status="abandoned", updated_at=stamp)
        )

    def insert_game(self, game: GameRecord) -> None:
        self.conn.execute(
            insert(games).values(
                id=game.id,
                player=game.player,
                difficulty=game.difficulty.value,
                seed=game.seed,
                state=to_json_text(state_to_json(game.state)),
                version=game.version,
                hints_used=game.hints_used,
                status=game.status.value,
                created_at=game.created_at,
                updated_at=game.updated_at,
                finished_at=game.finished_at,
                mode=game.mode.value,
                daily_date=game.daily_date,
            )
        )

    def save_move(self, game: GameRecord, action: Action) -> None:
        """Save ``game`` just after ``action``: its new state, and the action as the log's
        entry number ``game.version``. Only over the version before (the read locked the row,
        so this guard never fires unless that lock was skipped): a lost race is a
        ``VersionConflictError``, never a lost update."""
        result = self.conn.execute(
            update(games)
            .where(games.c.id == game.id, games.c.version == game.version - 1)
            .values(
                state=to_json_text(state_to_json(game.state)),
                version=game.version,
                status=game.status.value,
                updated_at=game.updated_at,
                finished_at=game.finished_at,
            )
        )
        if result.rowcount != 1:
            raise VersionConflictError("the game changed meanwhile; reload it")
        self.conn.execute(
            insert(actions).values(
                game_id=game.id,
                seq=game.version,
                action=to_json_text(action_to_json(action)),
                created_at=game.updated_at,
            )
        )

    def insert_high_score(self, player: str, entry: HighScore) -> None:
        self.conn.execute(
            insert(highscores).values(
                game_id=entry.game_id,
                player=player,
                difficulty=entry.difficulty.value,
                score=entry.score,
                date=entry.date,
                turns=entry.turns,
                powers_used=entry.powers_used,
                ruins=entry.ruins,
                hints_used=entry.hints_used,
            )
        )

    def count_hint(self, game_id: str) -> int:
        """One more hint in ``game_id``; answer the new count."""
        count = self.conn.execute(
            update(games)
            .where(games.c.id == game_id)
            .values(hints_used=games.c.hints_used + 1)
            .returning(games.c.hints_used)
        ).scalar()
        if count is None:
            raise GameNotFoundError(game_id)
        return int(count)
