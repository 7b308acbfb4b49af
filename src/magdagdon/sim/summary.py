"""Playing simulated games and summarising them: one result per game, one summary per run."""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from magdagdon.engine import Difficulty, GameState, Phase
from magdagdon.engine.dice import GAMMA, MASK64, MIX1, MIX2

if TYPE_CHECKING:
    from collections.abc import Sequence


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded with ``seed``: a SplitMix64-like mix of both,
    with one mixing round, not the dice stream's two (``engine.dice.splitmix64``). Every figure
    ``magdagdon simulate --seed`` has printed comes from these seeds, so they stay as they are.
    """
    z = (seed * GAMMA + (index + 1) * MIX1) & MASK64
    z = ((z ^ (z >> 30)) * MIX2) & MASK64
    return (z ^ (z >> 31)) & 0x7FFFFFFF


@dataclass(frozen=True, slots=True)
class GameResult:
    """What one simulated game came to."""

    score: int
    turns: int
    magdagdons: int
    ruins: int
    powers_used: int
    combos: tuple[str, ...]


# Read once: an enum member read off its class is a Python-level call in 3.11, once per action here.
_MAGDAGDON = Phase.MAGDAGDON
_OVER = Phase.OVER


def play_with(bot: object, difficulty: Difficulty, seed: int) -> GameResult:
    """Play one game of ``seed`` with ``bot`` (anything with ``choose(state, rng)``); the bot's
    RNG is seeded with ``seed`` too."""
    choose = bot.choose  # type: ignore[attr-defined]
    rng = random.Random(seed)
    state = GameState.new(difficulty, seed)
    magdagdon_turns: set[int] = set()
    magdagdon, over = _MAGDAGDON, _OVER
    while state.phase is not over:
        state = state.apply(choose(state, rng))
        if state.phase is magdagdon:
            magdagdon_turns.add(state.turn)
    score = state.score()
    combos = tuple([line.combo for line in (*score.rows, *score.columns) if line.combo])
    # By position: a call by keyword costs more.
    return GameResult(
        score.total, state.turn, len(magdagdon_turns), score.ruins, state.powers_used, combos
    )


def percentile(values: Sequence[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values``, by linear interpolation between ranks (the
    figures of ``simulate`` and of the benchmarks in ``bench/``).

    >>> percentile([30, 10, 20], 0.5), percentile([10, 20], 0.05)
    (20.0, 10.5)
    """
    if not values:
        return math.nan
    sorted_values = sorted(values)
    position = fraction * (len(sorted_values) - 1)
    low = math.floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    return float(sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low))


@dataclass(slots=True)
class Summary:
    """The figures of a run, as ``simulate`` prints them."""

    bot: str
    difficulty: str
    seed: int
    jobs: int
    games: int
    mean: float
    stdev: float
    median: float
    p5: float
    p95: float
    best: int
    worst: int
    magdagdons_per_game: float
    ruins_per_game: float
    powers_per_game: float
    turns_per_game: float
    combos: dict[str, int] = field(default_factory=dict)
    combos_per_game: float = 0.0
    seconds: float = 0.0
    games_per_second: float = 0.0

    def to_json(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}


def summarise(
    results: list[GameResult], *, bot: str, difficulty: str, seed: int, jobs: int, seconds: float
) -> Summary:
    """The summary of ``results`` (at least one)."""
    scores = sorted(r.score for r in results)
    n = len(results)
    combos = Counter(c for r in results for c in r.combos)
    return Summary(
        bot=bot,
        difficulty=difficulty,
        seed=seed,
        jobs=jobs,
        games=n,
        mean=round(statistics.fmean(scores), 3),
        stdev=round(statistics.stdev(scores), 3) if n > 1 else 0.0,
        median=percentile(scores, 0.5),
        p5=round(percentile(scores, 0.05), 3),
        p95=round(percentile(scores, 0.95), 3),
        best=scores[-1],
        worst=scores[0],
        magdagdons_per_game=round(sum(r.magdagdons for r in results) / n, 4),
        ruins_per_game=round(sum(r.ruins for r in results) / n, 4),
        powers_per_game=round(sum(r.powers_used for r in results) / n, 4),
        turns_per_game=round(sum(r.turns for r in results) / n, 4),
        combos={kind: combos[kind] for kind in ("straight", "four_of_a_kind", "two_pairs")},
        combos_per_game=round(sum(combos.values()) / n, 4),
        seconds=round(seconds, 3),
        games_per_second=round(n / seconds, 3) if seconds > 0 else math.inf,
    )
