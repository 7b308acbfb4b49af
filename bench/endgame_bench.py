"""End-game benchmark: what the exact search (``bots/endgame.py``) costs, and what it is worth.

    uv run python bench/endgame_bench.py [--games 200] [--seed 31] [--upto 6]

For each difficulty, ``--games`` of the computer's games (``game_seed(seed, i)``) are played and
every position of phase roll with at most ``--upto`` empty cells is kept (with the Power uses made).

- **Cost**: the time of a cold exact search (a new ``Endgame``, nothing memoised) of each kept
  position, by its empty cells: median, 95th percentile and worst. The threshold
  ``EXACT_UPTO`` is the largest count whose worst stays well inside the hint's 500 ms.
- **Worth**: at each decision of those games inside the threshold, what the one-roll look-ahead
  (the bot's choice before the exact search, ``ExpectimaxBot.look_ahead``) gives up against the
  best move, both valued exactly; summed by game. That is what the computer gave up near the end
  and the exact search now wins.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from magdagdon.bots.advice import Advice, codes_of
from magdagdon.bots.endgame import EXACT_UPTO, INDEX, Endgame
from magdagdon.bots.expectimax import ExpectimaxBot
from magdagdon.bots.value import after_advice
from magdagdon.engine import Adjust, Difficulty, GameState, Phase, Reroll, Roll
from magdagdon.engine.board_codes import EMPTY
from magdagdon.engine.rules import adjusted
from magdagdon.sim.summary import game_seed, percentile


def exact_worth(endgame: Endgame, state: GameState, advice: Advice) -> float:
    """The exact value of following ``advice`` at ``state`` (penalties of the uses still to come
    taken off, not those already paid)."""
    codes = codes_of(state)
    used = state.powers_used
    action = advice.action
    if isinstance(action, Adjust):
        value = adjusted(state.dice[action.die], action.delta)
        assert value is not None
        dice = tuple(sorted((*state.dice[: action.die], value, *state.dice[action.die + 1 :])))
        return endgame.dice_values(codes, used + 1)[INDEX[dice]] - state.difficulty.penalties[used]
    if isinstance(action, Reroll):
        kept = tuple(sorted(v for d, v in enumerate(state.dice) if d not in action.dice))
        return endgame.reroll_value(codes, used, kept) - state.difficulty.penalties[used]
    after = after_advice(state, advice)
    return endgame.roll_value(codes_of(after), used)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--upto", type=int, default=6)
    args = parser.parse_args()
    for difficulty in Difficulty:
        bot = ExpectimaxBot()
        upto = EXACT_UPTO[difficulty]
        endgame = bot.endgame(difficulty)
        kept: dict[int, list[tuple[tuple[int, ...], int]]] = defaultdict(list)
        given_up: list[float] = []
        decisions = 0
        for i in range(args.games):
            state = GameState.new(difficulty, game_seed(args.seed, i))
            lost = 0.0
            while not state.is_over:
                codes = codes_of(state)
                empties = codes.count(EMPTY)
                if state.phase is Phase.ROLL:
                    if empties <= args.upto:
                        kept[empties].append((codes, state.powers_used))
                    state = state.apply(Roll())
                    continue
                advice = bot.advise(state)
                if empties <= upto:
                    decisions += 1
                    best = endgame.dice_values(codes, state.powers_used)[
                        INDEX[tuple(sorted(state.dice))]
                    ]
                    lost += best - exact_worth(endgame, state, bot.look_ahead(state))
                if isinstance(advice.action, Adjust | Reroll):
                    state = state.apply(advice.action)
                else:
                    state = after_advice(state, advice)
            given_up.append(lost)
        print(
            f"{difficulty.value.upper()}: exact from {upto} empty cells; over {args.games} games "
            f"({decisions} decisions there) the look-ahead gave up "
            f"{statistics.fmean(given_up):.2f} points a game (se "
            f"{statistics.stdev(given_up) / len(given_up) ** 0.5:.2f}), "
            f"{sum(g > 1e-9 for g in given_up)} games with a loss"
        )
        for empties in sorted(kept):
            times = []
            for codes, used in kept[empties][:40]:
                cold = Endgame(difficulty)
                start = time.process_time()  # the machine may be shared: the CPU's time
                cold.roll_value(codes, used)
                times.append((time.process_time() - start) * 1000)
            print(
                f"  cold exact search at {empties} empty cells, CPU time: {len(times)} positions, "
                f"median {statistics.median(times):7.1f} ms, "
                f"p95 {percentile(times, 0.95):7.1f} ms, "
                f"worst {max(times):7.1f} ms"
            )


if __name__ == "__main__":
    main()
