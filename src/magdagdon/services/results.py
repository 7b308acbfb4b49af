"""A finished game's summary, read off the engine's final score: what Statistics add up.

It is written when a game ends (``games.play``, in the action's transaction), when a game is
imported, and by the migration that made the table (for the games finished before it), so that
Statistics of 10,000 games read 10,000 small rows instead of replaying 10,000 games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from magdagdon.engine import GameState

COMBOS = ("straight", "four_of_a_kind", "two_pairs")


@dataclass(frozen=True, slots=True)
class GameResult:
    score: int
    ruins: int
    powers_used: int
    turns: int
    straights: int  # lines (rows and columns) of each combination
    fours: int
    two_pairs: int


def result_of(state: GameState) -> GameResult:
    """The summary of a finished game's final state."""
    if not state.is_over:
        raise ValueError("only a finished game has a result")
    score = state.score()
    combos = [line.combo for line in (*score.rows, *score.columns)]
    return GameResult(
        score=score.total,
        ruins=score.ruins,
        powers_used=state.powers_used,
        turns=state.turn,
        straights=combos.count("straight"),
        fours=combos.count("four_of_a_kind"),
        two_pairs=combos.count("two_pairs"),
    )
