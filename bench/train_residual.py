"""Train the evaluation's learned correction (``bots/residual.py``) by TD(0) from self-play.

    uv run python bench/train_residual.py --difficulty nightmare --games 60000 --seed 101
    uv run python bench/train_residual.py --difficulty nightmare --policy expectimax --jobs 2 \
        --batch 500 --games 12000 --seed 303 --alpha 0.03 \
        --init src/magdagdon/bots/data/residual-nightmare.bin

The ``greedy`` policy on the difficulty's tuned evaluation plus the correction being trained plays
seeded games (or, with ``--policy expectimax``, the look-ahead with its share of the correction,
``--jobs`` games at a time; the tables then change after each batch of ``--batch`` games).
After each game, every board a turn left (with an empty cell) moves toward the value
of the board the next turn left, which at the end is the final score: the weights the board reads
change by ``alpha`` times the difference, shared among them and the weights its seven images
(turned and mirrored) read, so that the tables value all eight alike. The result is written to
``bots/data/residual-<difficulty>.bin`` (``-lookahead.bin`` for the look-ahead's), every
``--save-every`` games too. The same arguments give the same tables, with any ``--jobs``.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import random
import statistics
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from magdagdon.bots.advice import TurnBot, codes_of
from magdagdon.bots.evaluate import Evaluator, Weights
from magdagdon.bots.expectimax import RESIDUAL_SHARE, TUNED, ExpectimaxBot
from magdagdon.bots.greedy import GreedyBot
from magdagdon.bots.residual import TUPLES, Residual, data_path
from magdagdon.bots.tuning import WEIGHTS
from magdagdon.engine import Difficulty, GameState, Phase
from magdagdon.engine.board_codes import Codes
from magdagdon.sim.summary import game_seed

if TYPE_CHECKING:
    from collections.abc import Callable

_TURN_ENDED = (Phase.ROLL, Phase.OVER)

#: One game: the board left by every turn, and the final score.
Game = tuple[list[Codes], int]


def turn_boards(bot: TurnBot, difficulty: Difficulty, seed: int) -> Game:
    """One game: the board left by every turn, and the final score."""
    rng = random.Random(seed)
    state = GameState.new(difficulty, seed)
    boards: list[Codes] = []
    while not state.is_over:
        state = state.apply(bot.choose(state, rng))
        if state.phase in _TURN_ENDED:
            boards.append(codes_of(state))
    return boards, state.score().total


# The look-ahead of a worker process, with the tables of the batch it plays (by batch number).
_worker: dict[int, ExpectimaxBot] = {}


def expectimax_game(task: tuple[Difficulty, int, bytes, int]) -> Game:
    """One game of the look-ahead with the tables of batch ``task[1]`` (``task[2]``)."""
    difficulty, batch, table, seed = task
    bot = _worker.get(batch)
    if bot is None:
        _worker.clear()
        settings, weights = TUNED[difficulty]
        weights = replace(weights, residual=None, residual_share=RESIDUAL_SHARE)
        bot = _worker[batch] = ExpectimaxBot(
            settings, Evaluator(weights, Residual.from_bytes(table))
        )
    return turn_boards(bot, difficulty, seed)


def greedy_games(
    difficulty: Difficulty, residual: Residual, weights: Weights
) -> Callable[[list[int]], list[Game]]:
    """Games of ``greedy`` on the evaluation plus ``residual`` as it is before each game."""
    policy = Evaluator(weights, residual)
    bot = GreedyBot(policy)

    def play(seeds: list[int]) -> list[Game]:
        games = []
        for seed in seeds:
            games.append(turn_boards(bot, difficulty, seed))
            policy.forget()  # its memoised values are the old correction's
        return games

    return play


def train(
    difficulty: Difficulty,
    games: int,
    seed: int,
    alpha: float,
    out: Path,
    save_every: int,
    *,
    policy: str = "greedy",
    jobs: int = 1,
    batch: int = 1,
    init: Residual | None = None,
) -> Residual:
    """Train the tables (from ``init``, or zero) on ``games`` games, ``batch`` at a time."""
    residual = init or Residual()
    weights = replace(WEIGHTS[difficulty], residual=None)
    fixed = Evaluator(weights)  # the evaluation without the correction, memoised

    def value(board: Codes) -> float:
        return fixed(board) + residual(board) if board.count(0) else fixed(board)

    share = alpha / (len(TUPLES) + 1)
    scores: list[int] = []
    start = time.perf_counter()
    pool = multiprocessing.get_context("fork").Pool(jobs) if policy == "expectimax" else None
    play_greedy = greedy_games(difficulty, residual, weights)
    for first in range(0, games, batch):
        seeds = [game_seed(seed, i) for i in range(first, min(first + batch, games))]
        if pool is None:
            played = play_greedy(seeds)
        else:
            table = residual.to_bytes()
            played = pool.map(expectimax_game, [(difficulty, first, table, s) for s in seeds], 1)
        for boards, score in played:
            scores.append(score)
            for board, after in itertools.pairwise(boards):
                if board.count(0):
                    residual.update_images(board, share * (value(after) - value(board)))
        done = len(scores)
        if done // save_every > (done - len(played)) // save_every or done == games:
            out.write_bytes(residual.to_bytes())
            rate = done / (time.perf_counter() - start)
            recent = statistics.mean(scores[-save_every:])
            print(f"{done} games: mean of the last {save_every} {recent:.1f}, {rate:.1f} games/s")
    if pool is not None:
        pool.close()
    return residual


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--difficulty", type=Difficulty, default=Difficulty.NIGHTMARE)
    parser.add_argument("--games", type=int, default=60_000)
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--save-every", type=int, default=2_000)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--policy", choices=("greedy", "expectimax"), default="greedy")
    parser.add_argument("--jobs", type=int, default=1, help="processes (expectimax)")
    parser.add_argument("--batch", type=int, default=1, help="games between changes of the tables")
    parser.add_argument("--init", type=Path, default=None, help="tables to start from")
    args = parser.parse_args()
    suffix = "-lookahead" if args.policy == "expectimax" else ""
    out = args.out or data_path(args.difficulty.value + suffix)
    out.parent.mkdir(parents=True, exist_ok=True)
    init = Residual.from_bytes(args.init.read_bytes()) if args.init else None
    train(
        args.difficulty,
        args.games,
        args.seed,
        args.alpha,
        out,
        args.save_every,
        policy=args.policy,
        jobs=args.jobs,
        batch=args.batch,
        init=init,
    )


if __name__ == "__main__":
    main()
