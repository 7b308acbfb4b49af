"""How strong the computer player is, measured: what Statistics compare a player's mean with.

The mean final score of ``magdagdon simulate --bot expectimax --difficulty D --games 1000
--seed S`` over the six seeds S = 0–5 (6,000 games a difficulty; the table of docs/bots.md
"Where the bot stands", standard error of the mean in brackets there: 0.9 / 1.2 / 1.3). Measure
again and change these when the bot changes.
"""

from __future__ import annotations

from magdagdon.engine import Difficulty

COMPUTER_MEAN: dict[Difficulty, float] = {
    Difficulty.PEACEFUL: 418.1,
    Difficulty.SURVIVAL: 354.4,
    Difficulty.NIGHTMARE: 229.0,
}
