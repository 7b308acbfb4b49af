"""The daily challenge's reads and writes: a player's games of a day, the day's table of the
server's players, the days of a streak, and display names. Statements are built once at import,
as in ``statements.py``; the rules that use them are ``magdagdon.services.daily``'s."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import bindparam, false, select, update

from magdagdon.store.tables import game_results, games, players

if TYPE_CHECKING:
    from sqlalchemy import Connection

    from magdagdon.engine import Difficulty

_g = games.c
_r = game_results.c

LOCK_PLAYER = (
    select(players.c.token).where(players.c.token == bindparam("player")).with_for_update()
)
GAMES_OF_DAY = (
    select(_g.id, _g.difficulty, _g.mode, _g.status, _r.score)
    .select_from(games.outerjoin(game_results, _r.game_id == _g.id))
    .where(_g.player == bindparam("player"), _g.daily_date == bindparam("day"))
    .where(_g.mode.in_(("daily", "practice")))
    .order_by(_g.created_at, _g.id)
)
TABLE = (
    select(_r.score, _r.turns, _g.id, _g.player, players.c.name)
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
SET_NAME = (
    update(players)
    .where(players.c.token == bindparam("b_token"))
    .values(name=bindparam("b_name"))
    .returning(players.c.language)
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


def lock_player(conn: Connection, player: str) -> None:
    """Hold the player's row until the transaction ends (PostgreSQL ``FOR UPDATE``; SQLite's
    ``BEGIN IMMEDIATE`` already holds the whole database), so that two requests of one player
    cannot both find "no attempt yet"."""
    conn.execute(LOCK_PLAYER, {"player": player})


def games_of_day(conn: Connection, player: str, day: str) -> list[DayGame]:
    """The player's daily and practice games of ``day`` (YYYY-MM-DD), oldest first."""
    rows = conn.execute(GAMES_OF_DAY, {"player": player, "day": day}).all()
    return [DayGame(row[0], row[1], row[2], row[3], row[4]) for row in rows]


def day_table(conn: Connection, day: str, difficulty: Difficulty) -> list[TableRow]:
    """The day's finished ranked attempts on ``difficulty`` played on this server (not
    imported), best first; on a tie the one that ended first."""
    rows = conn.execute(TABLE, {"day": day, "difficulty": difficulty.value}).all()
    return [TableRow(row[0], row[1], row[2], row[3], row[4]) for row in rows]


def streak_days(conn: Connection, player: str) -> list[str]:
    """Every day (YYYY-MM-DD) on which the player finished a ranked daily attempt on this
    server (not imported)."""
    return [str(day) for day in conn.execute(STREAK_DAYS, {"player": player}).scalars()]


def set_name(conn: Connection, player: str, name: str | None) -> str:
    """Set (or, with None, clear) the player's display name; answer the player's language."""
    language = conn.execute(SET_NAME, {"b_token": player, "b_name": name}).scalar()
    if language is None:
        raise LookupError("no such player")
    return str(language)
