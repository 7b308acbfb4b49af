"""Train the evaluation's learned correction (``bots/residual.py``) by TD(0) from self-play.

    uv run python bench/train_residual.py --difficulty nightmare --games 60000 --seed 101

The ``greedy`` policy on the difficulty's tuned evaluation plus the correction being trained plays
seeded games. After each game, every board a turn left (with an empty cell) moves toward the value
of the board the next turn left, which at the end is the final score: the weights the board reads
change by ``alpha`` times the difference, shared among them and the weights its seven images
(turned and mirrored) read, so that the tables value all eight alike. The result is written to
``bots/data/residual-<difficulty>.bin`` (every ``--save-every`` games too). The same arguments give
the same tables.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time
from dataclasses import replace
from pathlib import Path

from magdagdon.bots.advice import codes_of
from magdagdon.bots.evaluate import Codes, Evaluator
from magdagdon.bots.greedy import GreedyBot
from magdagdon.bots.residual import TUPLES, Residual, data_path
from magdagdon.bots.tuning import WEIGHTS
from magdagdon.engine import Difficulty, GameState, Phase
from magdagdon.sim.stats import game_seed

_TURN_ENDED = (Phase.ROLL, Phase.OVER)


def turn_boards(bot: GreedyBot, difficulty: Difficulty, seed: int) -> tuple[list[Codes], int]:
    """One game: the board left by every turn, and the final score."""
    rng = random.Random(seed)
    state = GameState.new(difficulty, seed)
    boards: list[Codes] = []
    while not state.is_over:
        state = state.apply(bot.choose(state, rng))
        if state.phase in _TURN_ENDED:
            boards.append(codes_of(state))
    return boards, state.score().total


def train(
    difficulty: Difficulty, games: int, seed: int, alpha: float, out: Path, save_every: int
) -> Residual:
    residual = Residual()
    weights = replace(WEIGHTS[difficulty], residual=None)
    fixed = Evaluator(weights)  # the evaluation without the correction, memoised

    def value(board: Codes) -> float:
        return fixed(board) + residual(board) if board.count(0) else fixed(board)

    policy = Evaluator(weights, residual)
    bot = GreedyBot(policy)
    share = alpha / (len(TUPLES) + 1)
    scores: list[int] = []
    start = time.perf_counter()
    for i in range(games):
        boards, score = turn_boards(bot, difficulty, game_seed(seed, i))
        scores.append(score)
        for board, after in itertools.pairwise(boards):
            if board.count(0):
                residual.update_images(board, share * (value(after) - value(board)))
        policy.forget()  # its memoised values are the old correction's
        done = i + 1
        if done % save_every == 0 or done == games:
            out.write_bytes(residual.to_bytes())
            rate = done / (time.perf_counter() - start)
            recent = statistics.mean(scores[-save_every:])
            print(f"{done} games: mean of the last {save_every} {recent:.1f}, {rate:.1f} games/s")
    return residual


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--difficulty", type=Difficulty, default=Difficulty.NIGHTMARE)
    parser.add_argument("--games", type=int, default=60_000)
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--save-every", type=int, default=2_000)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    out = args.out or data_path(args.difficulty.value)
    out.parent.mkdir(parents=True, exist_ok=True)
    train(args.difficulty, args.games, args.seed, args.alpha, out, args.save_every)


if __name__ == "__main__":
    main()
