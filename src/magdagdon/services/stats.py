"""A player's Statistics of one difficulty (the STATISTIKA sheet): over their ``normal``,
``daily`` and ``practice`` games (tutorials are not the player's own games yet).

"games" counts those started, "finished" those over; the scores and the per-game figures are of
the finished ones, read from their stored summaries (``results``) in a few statements, so that
10,000 games take milliseconds (``bench/stats_bench.py``).
"""

from __future__ import annotations

import statistics as pystats
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

from pydantic import Field

from magdagdon.bots.strength import COMPUTER_MEAN
from magdagdon.services import daily

if TYPE_CHECKING:
    from magdagdon.engine import Difficulty
    from magdagdon.store import Store

MODES = ("normal", "daily", "practice")
BIN_WIDTH = 50
TOP_BIN = 500  # the highest possible score is 544: the last bin is 500–549


@dataclass(frozen=True, slots=True)
class Bin:
    low: Annotated[int, Field(alias="from", description="The lowest score of the bin.")]
    high: Annotated[int, Field(alias="to", description="The highest score of the bin (included).")]
    count: int


@dataclass(frozen=True, slots=True)
class Combos:
    straight: Annotated[int, Field(description="Lines (rows and columns) made into a STRAIGHT.")]
    four_of_a_kind: int
    two_pairs: int


@dataclass(frozen=True, slots=True)
class Statistics:
    difficulty: str
    games: Annotated[int, Field(description="normal, daily and practice games started.")]
    finished: int
    mean: float | None
    median: float | None
    best: int | None
    best_game_id: Annotated[
        str | None, Field(description="The best game (to review it); null when none.")
    ]
    histogram: tuple[Bin, ...]
    streak: daily.Streak
    ruins_per_game: float | None
    powers_per_game: float | None
    combos: Combos
    computer_mean: Annotated[
        float,
        Field(description="The computer player's mean on this difficulty (6,000 measured games)."),
    ]


def statistics(store: Store, player: str, difficulty: Difficulty) -> Statistics:
    with store.snapshot() as reads:
        started = reads.started(player, difficulty, MODES)
        scores = reads.scores(player, difficulty, MODES)
        ruins, powers, straights, fours, two_pairs = reads.totals(player, difficulty, MODES)
        best_game = reads.best_game(player, difficulty, MODES, scores[-1]) if scores else None
    finished = len(scores)
    return Statistics(
        difficulty=difficulty.value,
        games=started,
        finished=finished,
        mean=round(sum(scores) / finished, 2) if finished else None,
        median=float(pystats.median(scores)) if finished else None,
        best=scores[-1] if finished else None,
        best_game_id=best_game,
        histogram=histogram(scores),
        streak=daily.player_streak(store, player),
        ruins_per_game=round(ruins / finished, 2) if finished else None,
        powers_per_game=round(powers / finished, 2) if finished else None,
        combos=Combos(straight=straights, four_of_a_kind=fours, two_pairs=two_pairs),
        computer_mean=COMPUTER_MEAN[difficulty],
    )


def histogram(scores: list[int]) -> tuple[Bin, ...]:
    """Bins of :data:`BIN_WIDTH` points from 0 (or lower, to hold the lowest score) to 549."""
    lowest = min(0, (scores[0] // BIN_WIDTH) * BIN_WIDTH) if scores else 0
    counts = dict.fromkeys(range(lowest, TOP_BIN + 1, BIN_WIDTH), 0)
    for score in scores:
        counts[min(TOP_BIN, (score // BIN_WIDTH) * BIN_WIDTH)] += 1
    return tuple(Bin(low, low + BIN_WIDTH - 1, count) for low, count in counts.items())
