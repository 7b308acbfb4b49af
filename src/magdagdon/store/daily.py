"""The daily challenge's rows: a player's games of a day, the day's table of the server's
players, the days of a streak, and each day's secret seed (drawn once: the first process to
store it wins, every other one reads it). Statements are built once at import, as in
``statements.py``; the rules that use them are ``magdagdon.services.daily``'s."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import bindparam, false, select
from sqlalchemy.dialects import postgresql, sqlite

from magdagdon.store.tables import daily_seeds, game_results, games, players

if TYPE_CHECKING:
    from sqlalchemy import Connection

    from magdagdon.engine import Difficulty

_g = games.c
_r = game_results.c

GAMES_OF_DAY = (
    select(_g.id, _g.difficulty, _g.mode, _g.status, _r.score)
    .select_from(games.outerjoin(game_results, _r.game_id == _g.id))
    .where(_g.player == bindparam("player"), _g.daily_date == bindparam("day"))
    .where(_g.mode.in_(("daily", "practice")))
    .order_by(_g.created_at, _g.id)
)
TABLE = (
    select(_r.score, _r.turns, _g.id, _g.player, players.c.name, _g.hints_used)
    .select_from(
        game_results.join(games, _g.id == _r.game_id).join(players, players.c.token == _g.player)
    )
    .where(_g.daily_date == bindparam("day"), _g.difficulty == bindparam("difficulty"))
    .where(_g.mode == "daily", _g.status == "finished", _g.imported == false())
    .order_by(_r.score.desc(), _g.finished_at.asc(), _g.id.asc())
)
STREAK_DAYS = (
    select(_g.daily_date)
    .where(_g.player == bindparam("player"), _g.mode == "daily", _g.status == "finished")
    .where(_g.imported == false())
    .distinct()
)
# every attempt of a day's challenge played on this server, for its replay once the day is over
DAY_GAMES = (
    select(_g.id)
    .where(_g.daily_date == bindparam("day"), _g.difficulty == bindparam("difficulty"))
    .where(_g.mode.in_(("daily", "practice")), _g.imported == false())
    .order_by(_g.created_at, _g.id)
)
_s = daily_seeds.c
DAY_SEED = select(_s.seed).where(
    _s.day == bindparam("day"), _s.difficulty == bindparam("difficulty")
)
# two processes drawing the day's seed at once: the second insert does nothing (it waits for
# the first to commit on PostgreSQL; SQLite's write lock orders them), and both read the first's
INSERT_DAY_SEED = {
    "sqlite": sqlite.insert(daily_seeds).on_conflict_do_nothing(),
    "postgresql": postgresql.insert(daily_seeds).on_conflict_do_nothing(),
}


@dataclass(frozen=True, slots=True)
class DayGame:
    """One of a player's games of a day's challenge."""

    id: str
    difficulty: str
    mode: str
    status: str
    score: int | None


@dataclass(frozen=True, slots=True)
class TableRow:
    """A finished ranked attempt of the day, with its player's name (None when unset)."""

    score: int
    turns: int
    game_id: str
    player: str
    name: str | None
    hints: int


class DailyReads:
    """The daily challenge's reads (part of :class:`~magdagdon.store.rows.Reads`)."""

    conn: Connection

    def games_of_day(self, player: str, day: str) -> list[DayGame]:
        """The player's daily and practice games of ``day`` (YYYY-MM-DD), oldest first."""
        rows = self.conn.execute(GAMES_OF_DAY, {"player": player, "day": day}).all()
        return [DayGame(row[0], row[1], row[2], row[3], row[4]) for row in rows]

    def day_table(self, day: str, difficulty: Difficulty) -> list[TableRow]:
        """The day's finished ranked attempts on ``difficulty`` played on this server (not
        imported), best first; on a tie the one that ended first."""
        rows = self.conn.execute(TABLE, {"day": day, "difficulty": difficulty.value}).all()
        return [TableRow(row[0], row[1], row[2], row[3], row[4], row[5]) for row in rows]

    def streak_days(self, player: str) -> list[str]:
        """Every day (YYYY-MM-DD) on which the player finished a ranked daily attempt on this
        server (not imported)."""
        return [str(day) for day in self.conn.execute(STREAK_DAYS, {"player": player}).scalars()]

    def day_games(self, day: str, difficulty: str) -> list[str]:
        """The ids of every attempt (ranked or practice) at ``day``'s challenge on
        ``difficulty`` played on this server, oldest first."""
        query = {"day": day, "difficulty": difficulty}
        return [str(found) for found in self.conn.execute(DAY_GAMES, query).scalars()]

    def day_seed(self, day: str, difficulty: str) -> int | None:
        """The seed of ``day``'s challenge on ``difficulty``; None when none is drawn yet."""
        found = self.conn.execute(DAY_SEED, {"day": day, "difficulty": difficulty}).scalar()
        return None if found is None else int(found)


class DailyWrites:
    """The daily challenge's writes (part of :class:`~magdagdon.store.rows.Rows`)."""

    conn: Connection

    def keep_day_seed(self, day: str, difficulty: str, drawn: int, created_at: str) -> int:
        """The seed of ``day``'s challenge on ``difficulty``: ``drawn`` when no process stored
        one before, else the stored one (which every process then uses)."""
        row = {"day": day, "difficulty": difficulty, "seed": drawn, "created_at": created_at}
        self.conn.execute(INSERT_DAY_SEED[self.conn.dialect.name], row)
        found = self.conn.execute(DAY_SEED, {"day": day, "difficulty": difficulty}).scalar_one()
        return int(found)
