"""The reads of a player's export and the batched writes of an import (``services.transfer``
holds the rules: what a file must say, how its games are replayed and what becomes of them)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, select

from magdagdon.store import statements as sql
from magdagdon.store.records import game_row, high_score_row
from magdagdon.store.tables import actions, game_results, games

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from sqlalchemy import Connection

    from magdagdon.store.records import GameRecord, HighScore

_g = games.c
PLAYER_GAMES = (
    select(
        _g.id,
        _g.difficulty,
        _g.seed,
        _g.mode,
        _g.daily_date,
        _g.status,
        _g.created_at,
        _g.finished_at,
        _g.hints_used,
        game_results.c.score,
    )
    .select_from(games.outerjoin(game_results, game_results.c.game_id == _g.id))
    .where(_g.player == bindparam("player"))
    .order_by(_g.created_at, _g.id)
)
PLAYER_ACTIONS = (
    select(actions.c.game_id, actions.c.action)
    .select_from(actions.join(games, _g.id == actions.c.game_id))
    .where(_g.player == bindparam("player"))
    .order_by(actions.c.game_id, actions.c.seq)
)
OWNERS = select(_g.id, _g.player).where(_g.id.in_(bindparam("ids", expanding=True)))
RANKED_DAYS = select(_g.daily_date, _g.difficulty).where(
    _g.player == bindparam("player"), _g.mode == "daily"
)
_COPY_ACTIONS = "COPY actions (game_id, seq, action, created_at) FROM STDIN"
_CHUNK = 500  # ids bound in one IN (…): far below every database's limit


@dataclass(frozen=True, slots=True)
class ExportedGame:
    id: str
    difficulty: str
    seed: int
    mode: str
    daily_date: str | None
    status: str
    created_at: str
    finished_at: str | None
    hints_used: int
    score: int | None
    actions: list[Any]  # the actions' JSON


class TransferReads:
    """Part of :class:`~magdagdon.store.queries.Reads`."""

    conn: Connection

    def exported_games(self, player: str) -> list[ExportedGame]:
        """Every game of the player, oldest first, with its action log."""
        logs: dict[str, list[Any]] = {}
        parsed: dict[str, Any] = {}  # a game's actions are few kinds: each text is read once
        for game_id, text in self.conn.execute(PLAYER_ACTIONS, {"player": player}):
            action = parsed.get(text)
            if action is None:
                action = parsed[text] = json.loads(text)
            logs.setdefault(game_id, []).append(action)
        return [
            ExportedGame(
                id=row[0],
                difficulty=row[1],
                seed=int(row[2]),
                mode=row[3],
                daily_date=row[4],
                status=row[5],
                created_at=row[6],
                finished_at=row[7],
                hints_used=int(row[8]),
                score=None if row[9] is None else int(row[9]),
                actions=logs.get(row[0], []),
            )
            for row in self.conn.execute(PLAYER_GAMES, {"player": player})
        ]

    def owners(self, ids: Sequence[str]) -> dict[str, str]:
        """The player of each of ``ids`` that some game has."""
        found: dict[str, str] = {}
        for start in range(0, len(ids), _CHUNK):
            chunk = list(ids[start : start + _CHUNK])
            found.update({row[0]: row[1] for row in self.conn.execute(OWNERS, {"ids": chunk})})
        return found

    def ranked_days(self, player: str) -> set[tuple[str, str]]:
        """The (day, difficulty) of each of the player's ranked daily attempts."""
        return {(row[0], row[1]) for row in self.conn.execute(RANKED_DAYS, {"player": player})}


class TransferWrites:
    """Part of :class:`~magdagdon.store.queries.Rows`."""

    conn: Connection

    def insert_games(self, records: Sequence[GameRecord]) -> None:
        """Imported games: marked so (``games.imported``), they never rank on a day's table."""
        if records:
            rows = [{**game_row(record), "imported": True} for record in records]
            self.conn.execute(sql.INSERT_GAME, rows)

    def insert_actions(self, logs: Iterable[tuple[str, Sequence[str], str]]) -> None:
        """The action logs of new games: (game id, each action's JSON text, their time)."""
        if self.conn.dialect.name == "postgresql":
            # COPY: an executemany of 350,000 rows (10,000 games) costs psycopg a minute's third
            driver: Any = self.conn.connection.driver_connection
            with driver.cursor() as cursor, cursor.copy(_COPY_ACTIONS) as copy:
                for game_id, log, stamp in logs:
                    for seq, text in enumerate(log, 1):
                        copy.write_row((game_id, seq, text, stamp))
            return
        found = [
            {"game_id": game_id, "seq": seq, "action": text, "created_at": stamp}
            for game_id, log, stamp in logs
            for seq, text in enumerate(log, 1)
        ]
        if found:
            self.conn.execute(sql.INSERT_ACTION, found)

    def insert_high_scores(self, player: str, entries: Sequence[HighScore]) -> None:
        """High Scores, in this order: an entry's id orders ties (the game that ended first)."""
        if entries:
            self.conn.execute(sql.INSERT_HIGH_SCORE, [high_score_row(player, e) for e in entries])
