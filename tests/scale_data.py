"""A big database made fast, for the scale tests and ``bench/scale_bench.py``: real engine games
in the store's own row format, written in bulk (``COPY`` on PostgreSQL) through the store's
``Rows``.

A small pool of games is played by the engine (random legal actions, as a person might play:
Powers, unstages, rerolls), the day's challenge on each difficulty and ordinary games; every
player's games are copies of pool games under their own ids, players and times. So a million
players cost the time of writing their rows, not of playing their games.

Who is there (``Shape``): every player made in the last 90 days; the first ``attempts`` players
each finished a ranked attempt at ``day`` (a few of them imported, a few more with a practice
too); every player has ``finished`` ordinary finished games; a share of the players left one
unfinished game untouched for 60 days (stale: the clean-up removes it, with its log), another
share one played yesterday (kept); of the players without an attempt, a share only left a game
when they came (they go with it when it is stale) and a share made 60 to 90 days ago never
played at all (they go).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from api_helpers import random_action
from magdagdon import clock
from magdagdon.engine import Difficulty, GameState, Roll, action_to_json, state_to_json
from magdagdon.services import daily
from magdagdon.store.records import to_json_text
from magdagdon.store.results import result_of
from magdagdon.store.tables import actions, game_results, games, highscores, players

if TYPE_CHECKING:
    from collections.abc import Iterator

    from magdagdon.store import Store

DIFFICULTIES = tuple(Difficulty)
POOL = 12  # games of each kind and difficulty
CHUNK = 5000


@dataclass(frozen=True, slots=True)
class Shape:
    players: int
    attempts: int  # ranked attempts at ``day``, over the three difficulties
    finished: int = 1  # ordinary finished games a player
    stale: float = 0.05  # share of the players with a stale unfinished game
    recent: float = 0.05  # with an unfinished game played yesterday
    never: float = 0.1  # of the players without an attempt: made 60 days ago, never played
    leavers: float = 0.3  # of the others without one: only a stale game, left 60 days ago
    imported: float = 0.01  # share of the attempts that came by an import
    logs: bool = False  # the finished games' action logs too (stale games always have theirs)
    day: date = date(2026, 12, 3)
    seed: int = 7


@dataclass(frozen=True, slots=True)
class Played:
    """A pool game: its final state's JSON text, its log's, and its summary."""

    seed: int
    state: str
    log: tuple[str, ...]
    result: Any
    turns: int


def play(difficulty: Difficulty, seed: int, rng: random.Random) -> Played:
    state = GameState.new(difficulty, seed)
    log = []
    while not state.is_over:
        action = random_action(state, rng)
        state = state.apply(action)
        log.append(to_json_text(action_to_json(action)))
    return Played(
        seed, to_json_text(state_to_json(state)), tuple(log), result_of(state), state.turn
    )


def pool(
    shape: Shape, day_seeds: dict[Difficulty, int]
) -> dict[tuple[str, Difficulty], list[Played]]:
    """The games each player's rows are made of: the day's attempts play its seeds (the
    server's own, ``services.daily.day_seeds``), the other games seeds of their own."""
    rng = random.Random(shape.seed)
    made: dict[tuple[str, Difficulty], list[Played]] = {}
    for difficulty in DIFFICULTIES:
        seed = day_seeds[difficulty]
        made["daily", difficulty] = [play(difficulty, seed, rng) for _ in range(POOL)]
        made["normal", difficulty] = [
            play(difficulty, rng.randrange(2**53), rng) for _ in range(POOL)
        ]
    return made


def _stamp(moment: datetime) -> str:
    return clock.stamp(moment)


class Rows:
    """The rows of every table, made player by player."""

    def __init__(self, shape: Shape, day_seeds: dict[Difficulty, int]) -> None:
        self.shape = shape
        self.pool = pool(shape, day_seeds)
        self.midnight = datetime.combine(shape.day, time(), UTC)
        self.rng = random.Random(shape.seed + 1)
        self.players: list[tuple[Any, ...]] = []
        self.games: list[tuple[Any, ...]] = []
        self.actions: list[tuple[Any, ...]] = []
        self.results: list[tuple[Any, ...]] = []
        self.highscores: list[tuple[Any, ...]] = []
        self.high_score_id = 0
        fresh = self.pool["normal", Difficulty.PEACEFUL][0]
        opened = GameState.new(Difficulty.PEACEFUL, fresh.seed).apply(Roll())
        self.opened = (fresh.seed, to_json_text(state_to_json(opened)))

    def player(self, index: int) -> None:
        shape, rng = self.shape, self.rng
        token = f"scale-{index:09d}"
        never = index >= shape.attempts and rng.random() < shape.never
        age = timedelta(days=rng.uniform(60, 90) if never else rng.uniform(0.5, 90))
        made = self.midnight - age
        name = f"Player {index}" if index % 10 == 0 else None
        self.players.append((token, "fil" if index % 2 else "en", _stamp(made), name, False))
        if never:
            return
        if index >= shape.attempts and rng.random() < shape.leavers:
            self.unfinished(token, index, "s", made)
            return
        if index < shape.attempts:
            imported = rng.random() < shape.imported
            difficulty = DIFFICULTIES[index % 3]
            # distinct ends, 40 ms apart, but now and then in the same millisecond as the
            # attempt three before (the same difficulty)
            tie = 3 if index % 97 == 96 else 0
            ended = self.midnight + timedelta(milliseconds=40 * (index - tie))
            self.finished(
                token, index, "d", difficulty, "daily", ended, imported=imported, ranked=True
            )
            if index % 50 == 0:  # a practice of the same day: never on the table
                self.finished(token, index, "p", difficulty, "practice", ended, ranked=False)
        for number in range(shape.finished):
            difficulty = DIFFICULTIES[(index + number) % 3]
            ended = made + (self.midnight - made) * rng.random()
            self.finished(token, index, f"n{number}", difficulty, "normal", ended, ranked=True)
        if rng.random() < shape.stale:
            self.unfinished(token, index, "s", self.midnight - timedelta(days=60))
        if rng.random() < shape.recent:
            self.unfinished(token, index, "r", max(made, self.midnight - timedelta(days=1)))

    def finished(
        self,
        token: str,
        index: int,
        kind: str,
        difficulty: Difficulty,
        mode: str,
        ended: datetime,
        *,
        ranked: bool,
        imported: bool = False,
    ) -> None:
        source = "daily" if mode in ("daily", "practice") else "normal"
        played = self.rng.choice(self.pool[source, difficulty])
        game_id = f"{token}-{kind}"
        started, end = _stamp(ended - timedelta(minutes=10)), _stamp(ended)
        day = self.shape.day.isoformat() if source == "daily" else None
        hints = index % 4 if mode == "daily" else 0
        self.games.append(
            (
                game_id,
                token,
                difficulty.value,
                played.seed,
                played.state,
                len(played.log),
                hints,
                "finished",
                started,
                end,
                end,
                mode,
                day,
                imported,
            )
        )
        if self.shape.logs:
            self.log(game_id, played.log, end)
        r = played.result
        ranked_day = day if mode == "daily" and not imported else None
        self.results.append(
            (
                game_id,
                token,
                difficulty.value,
                mode,
                r.score,
                r.ruins,
                r.powers_used,
                r.turns,
                r.straights,
                r.fours,
                r.two_pairs,
                ranked_day,
                end,
                hints,
            )
        )
        if ranked:
            self.high_score_id += 1
            self.highscores.append(
                (
                    self.high_score_id,
                    game_id,
                    token,
                    difficulty.value,
                    r.score,
                    end,
                    played.turns,
                    r.powers_used,
                    r.ruins,
                    hints,
                )
            )

    def unfinished(self, token: str, index: int, kind: str, touched: datetime) -> None:
        game_id = f"{token}-{kind}"
        stamp = _stamp(touched)
        status = "abandoned" if index % 2 else "playing"
        seed, state = self.opened
        self.games.append(
            (
                game_id,
                token,
                "peaceful",
                seed,
                state,
                1,
                0,
                status,
                stamp,
                stamp,
                None,
                "normal",
                None,
                False,
            )
        )
        self.log(game_id, (to_json_text(action_to_json(Roll())),), stamp)

    def log(self, game_id: str, log: tuple[str, ...], at: str) -> None:
        self.actions.extend((game_id, seq, text, at) for seq, text in enumerate(log, 1))

    def take(self) -> dict[str, list[tuple[Any, ...]]]:
        """The rows made since the last take, by table."""
        taken = {
            "players": self.players,
            "games": self.games,
            "actions": self.actions,
            "highscores": self.highscores,
            "game_results": self.results,
        }
        self.players, self.games, self.actions, self.results, self.highscores = [], [], [], [], []
        return taken


TABLES = (players, games, actions, highscores, game_results)


def chunks(
    shape: Shape, day_seeds: dict[Difficulty, int]
) -> Iterator[dict[str, list[tuple[Any, ...]]]]:
    made = Rows(shape, day_seeds)
    for index in range(shape.players):
        made.player(index)
        if index % CHUNK == CHUNK - 1:
            yield made.take()
    yield made.take()


def generate(store: Store, shape: Shape) -> None:
    """Fill ``store`` (migrated, empty) with ``shape``'s players, in one transaction a chunk;
    then ANALYZE (and VACUUM, so that a count over an index reads the index only)."""
    seeds = daily.day_seeds(store, shape.day)
    for chunk in chunks(shape, seeds):
        with store.write() as rows:
            for table in TABLES:
                rows.bulk_insert(table, [chunk[table.name]])
    with store.write() as rows:
        rows.restart_high_score_ids()
        rows.recount_days()  # the day's scores, which rows written in bulk leave uncounted
    analyze(store)


def analyze(store: Store) -> None:
    with store.engine.connect() as conn:
        if conn.dialect.name == "postgresql":
            conn.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql("VACUUM ANALYZE")
        else:
            conn.exec_driver_sql("ANALYZE")
            conn.commit()
