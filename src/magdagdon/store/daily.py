"""The daily challenge's reads: a player's games of a day, the day's table of the server's
players, the days of a streak. Statements are built once at import, as in ``statements.py``;
the rules that use them are ``magdagdon.services.daily``'s."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import bindparam, case, false, select

from magdagdon.store.tables import game_results, games, players

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
# a name an operator hid is read as none: everyone sees the neutral name (``magdagdon admin``)
_SHOWN_NAME = case((players.c.name_hidden, None), else_=players.c.name)
TABLE = (
    select(_r.score, _r.turns, _g.id, _g.player, _SHOWN_NAME, _g.hints_used)
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
