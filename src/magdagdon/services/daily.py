"""The daily challenge (docs/rules.md "Modes and records"): one game a day for each difficulty,
the same dice for every player of this server; the first attempt of today is ranked, every
other attempt (another of today's, or any of a past day's) is practice; a streak of days; the
day's table of this server's players.

A day's dice are the server's secret until they are rolled: its seed is drawn at random, once
for every process and host on the database (``store.daily``), and only its commitment
(``engine.daily.commitment``) is told until the day is over; then the seed itself is, so that
anyone can replay the day (``magdagdon daily verify``). No answer carries the seed of a day
that is not over (:func:`is_published`).

The day is the server clock's UTC date (``clock.today()``); a day that has not begun, or one
before the first challenge, answers 409 ``daily_not_open``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field

from magdagdon import clock
from magdagdon.engine import Difficulty
from magdagdon.engine.daily import FIRST_DAY, commitment, daily_number
from magdagdon.engine.rules import SEED_LIMIT
from magdagdon.observe import metrics
from magdagdon.services import games, players
from magdagdon.services.errors import DailyNotOpenError
from magdagdon.store import GameMode
from magdagdon.store.daily import Position

if TYPE_CHECKING:
    from collections.abc import Iterable

    from magdagdon.store import GameRecord, Rows, Store
    from magdagdon.store.daily import TableRow

#: How many rows of the day's table are shown (the player's own row is added when below).
TABLE_LENGTH = 100
#: A row's ``after``: its rank, score, end (``clock.stamp``) and place among the attempts with
#: both the same (``store.daily.Position``), which the next page starts after.
AFTER_PATTERN = (
    r"^[1-9][0-9]{0,8}~-?[0-9]{1,6}~[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]{12}Z~[1-9][0-9]{0,2}$"
)


@dataclass(frozen=True, slots=True)
class Streak:
    current: Annotated[
        int, Field(description="Days in a row with a finished ranked attempt, to today.")
    ]
    best: int


@dataclass(frozen=True, slots=True)
class Challenge:
    """Today's challenge on one difficulty, as the player stands with it."""

    difficulty: Difficulty
    status: Annotated[
        Literal["new", "playing", "over"], Field(description="Of the ranked attempt.")
    ]
    game_id: str | None
    score: int | None
    commitment: Annotated[
        str,
        Field(
            description="The hex SHA-256 of 'MAGDAGDON daily YYYY-MM-DD DIFFICULTY SEED': "
            "the day's seed, committed to from the start of the day."
        ),
    ]
    seed: Annotated[
        int | None, Field(description="Null until the day is over, then the committed seed.")
    ]


@dataclass(frozen=True, slots=True)
class Overview:
    date: str  # YYYY-MM-DD, the day asked for (UTC), today's when none
    number: int
    streak: Streak
    challenges: tuple[Challenge, ...]
    now: Annotated[str, Field(description="The server's time of this answer (ISO-8601, UTC).")]
    next_at: Annotated[
        str, Field(description="When the next day's challenge begins: the next UTC midnight.")
    ]


@dataclass(frozen=True, slots=True)
class TableEntry:
    rank: int
    name: Annotated[str, Field(description="The player's name, or a neutral one; show it as text.")]
    named: Annotated[
        bool, Field(description="Whether the player set the name (else the neutral one).")
    ]
    tag: Annotated[
        str, Field(description="Four digits telling unnamed players apart (Manlalaro 4F2A).")
    ]
    score: int
    turns: int
    hints: Annotated[int, Field(description="The hints the attempt used (0: hint-free).")]
    game_id: Annotated[str | None, Field(description="Only on the asking player's own row.")] = None
    after: Annotated[
        str, Field(description="The page that follows this row: pass it as ``after``.")
    ] = ""


def open_day(day: date | None) -> date:
    """The challenge's day: today when None; a day not begun yet is refused."""
    today = clock.today()
    day = today if day is None else day
    if day > today:
        raise DailyNotOpenError(
            f"the challenge of {day.isoformat()} has not begun: today is {today.isoformat()} (UTC)"
        )
    if day < FIRST_DAY:
        raise DailyNotOpenError(f"the first daily challenge was {FIRST_DAY.isoformat()}")
    return day


def start(store: Store, player: str, difficulty: Difficulty, day: date | None = None) -> GameRecord:
    """A new game of the day's challenge: ranked (``daily``) when it is today's and the player
    has no ranked attempt at it yet; else ``practice``, which changes no ranked result."""
    day = open_day(day)
    text = day.isoformat()
    with store.write() as rows:
        rows.lock_player(player)
        ranked = day == clock.today() and not any(
            game.mode == "daily" and game.difficulty == difficulty.value
            for game in rows.games_of_day(player, text)
        )
        mode = GameMode.DAILY if ranked else GameMode.PRACTICE
        seed = keep_seed(rows, day, difficulty)
        game = games.start_in(rows, player, difficulty, seed, mode=mode, daily_date=text)
    metrics.daily_attempt(difficulty.value, ranked)  # counted once committed: a refused one is not
    return game


def is_published(day: date) -> bool:
    """Whether the seed of ``day``'s challenge may be told: once the day is over."""
    return day < clock.today()


def told_seed(game: GameRecord) -> int | None:
    """The seed of ``game`` as an answer may carry it: None for a game of a day's challenge
    that is not over (the page then cannot roll its dice: they wait for the server)."""
    if game.daily_date is None or is_published(date.fromisoformat(game.daily_date)):
        return game.seed
    return None


def keep_seed(rows: Rows, day: date, difficulty: Difficulty) -> int:
    """The seed of ``day``'s challenge on ``difficulty``, drawn now when it has none yet (the
    first process to store one wins; every other one uses it)."""
    drawn = secrets.randbelow(SEED_LIMIT)
    return rows.keep_day_seed(day.isoformat(), difficulty.value, drawn, clock.stamp())


def day_seeds(store: Store, day: date) -> dict[Difficulty, int]:
    """The seeds of ``day``'s challenges, drawn for the difficulties that have none yet (a read
    when every one has: the usual case)."""
    text = day.isoformat()
    with store.read() as reads:
        found = {d: reads.day_seed(text, d.value) for d in Difficulty}
    seeds = {d: seed for d, seed in found.items() if seed is not None}
    if len(seeds) < len(found):
        with store.write() as rows:
            seeds = {d: keep_seed(rows, day, d) for d in Difficulty}
    return seeds


def published_seed(store: Store, day: date, difficulty: Difficulty) -> int | None:
    """The seed of ``day``'s challenge once the day is over; None before (it is a secret)."""
    if not is_published(day) or day < FIRST_DAY:
        return None
    return day_seeds(store, day)[difficulty]


def overview(store: Store, player: str, day: date | None = None) -> Overview:
    """The day's challenges (today's when None), their commitments and, once the day is over,
    their seeds; and the player's streak."""
    moment = clock.now()
    today = moment.date()
    day = open_day(day)
    seeds = day_seeds(store, day)
    published = is_published(day)
    with store.snapshot() as reads:
        of_day = reads.games_of_day(player, day.isoformat())
        days = reads.streak_days(player)
    ranked = {game.difficulty: game for game in of_day if game.mode == "daily"}
    challenges = []
    for difficulty in Difficulty:
        seed = seeds[difficulty]
        committed = commitment(day, difficulty, seed)
        told = seed if published else None
        game = ranked.get(difficulty.value)
        if game is None:
            challenges.append(Challenge(difficulty, "new", None, None, committed, told))
        else:
            status: Literal["playing", "over"] = "over" if game.status == "finished" else "playing"
            challenges.append(Challenge(difficulty, status, game.id, game.score, committed, told))
    return Overview(
        day.isoformat(),
        daily_number(day),
        streak(map(date.fromisoformat, days), today),
        tuple(challenges),
        clock.stamp(moment),
        clock.stamp(next_day_start(today)),
    )


def next_day_start(today: date) -> datetime:
    """When the day after ``today`` begins, and with it its challenge (the UTC midnight)."""
    return datetime.combine(today + timedelta(days=1), time(), UTC)


def player_streak(store: Store, player: str) -> Streak:
    with store.read() as reads:
        days = reads.streak_days(player)
    return streak(map(date.fromisoformat, days), clock.today())


def streak(days: Iterable[date], today: date) -> Streak:
    """docs/rules.md "Modes and records" (Streak): the consecutive days, each with a finished
    ranked attempt, that end today,
    or yesterday while today's are not yet played; and the longest such run ever."""
    played = set(days)
    end = today if today in played else today - timedelta(days=1)
    current = 0
    while end - timedelta(days=current) in played:
        current += 1
    best = 0
    for day in played:
        if day - timedelta(days=1) not in played:  # the first day of a run
            length = 1
            while day + timedelta(days=length) in played:
                length += 1
            best = max(best, length)
    return Streak(current, max(best, current))


def table(
    store: Store,
    player: str,
    difficulty: Difficulty,
    day: date | None = None,
    after: str | None = None,
) -> list[TableEntry]:
    """The day's ranked attempts of this server's players, best first (ties: the one that
    ended first): the first :data:`TABLE_LENGTH`, or as many after a row's ``after`` (a keyset
    page); and the asking player's own row when it is not among them."""
    day = open_day(day)
    text = day.isoformat()
    rank, position = (0, None) if after is None else parse_after(after)
    with store.snapshot() as reads:
        page = reads.day_table(text, difficulty, TABLE_LENGTH, position)
        mine = reads.my_attempt(player, text, difficulty)
        placed = []
        for row in page:
            rank += 1
            tied = 1
            if position is not None and key(position) == key(row):
                tied = position.tied + 1
            position = Position(row.score, row.finished_at, tied)
            placed.append((rank, position, row))
        if mine is not None and all(row.game_id != mine.game_id for row in page):
            placed.append((*reads.place(text, difficulty, mine), mine))
    return [_entry(rank, at, row, row.player == player) for rank, at, row in placed]


def key(row: Position | TableRow) -> tuple[int, str]:
    return row.score, row.finished_at


def parse_after(after: str) -> tuple[int, Position]:
    """A row's ``after`` (one that :data:`AFTER_PATTERN` matches): the rank of that row, and
    its position. A rank made up by the client only numbers its own pages wrongly."""
    rank, score, finished_at, tied = after.split("~")
    return int(rank), Position(int(score), finished_at, int(tied))


def _entry(rank: int, at: Position, row: TableRow, mine: bool) -> TableEntry:
    return TableEntry(
        rank=rank,
        name=row.name if row.name is not None else players.neutral_name(row.player),
        named=row.name is not None,
        tag=players.player_tag(row.player),
        score=row.score,
        turns=row.turns,
        hints=row.hints,
        game_id=row.game_id if mine else None,
        after=f"{rank}~{at.score}~{at.finished_at}~{at.tied}",
    )
