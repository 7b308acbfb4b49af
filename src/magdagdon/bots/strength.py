"""How strong the computer player is, measured: what Statistics compare a player's mean with.

The mean final score of ``magdagdon simulate --bot expectimax --difficulty D --games 1000
--seed S`` over the six seeds S = 0–5 (6,000 games a difficulty; the table of docs/bots.md
"Where the bot stands", standard error of the mean in brackets there: 0.9 / 1.2 / 1.3).
Measure again and change these when the bot changes.

The same figure is V at the start of a game (``bots/value.py``), the review's start and the hint's
value before the first ROLL: fitted on other games of the computer, it agrees with these within the
calibration's tolerance (``tests/bots/test_value_calibration.py``). They were measured before the
computer played the end of a game exactly (``bots/endgame.py``), which adds 2.1 points a game on
PEACEFUL (se 0.4, ``bench/endgame_bench.py``): V at the start, 420.9, counts it.
"""

from __future__ import annotations

from magdagdon.engine import Difficulty

COMPUTER_MEAN: dict[Difficulty, float] = {
    Difficulty.PEACEFUL: 418.1,
    Difficulty.SURVIVAL: 354.4,
    Difficulty.NIGHTMARE: 229.0,
}
#: The standard error of each mean.
COMPUTER_MEAN_SE: dict[Difficulty, float] = {
    Difficulty.PEACEFUL: 0.9,
    Difficulty.SURVIVAL: 1.2,
    Difficulty.NIGHTMARE: 1.3,
}
