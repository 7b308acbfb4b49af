"""``magdagdon simulate``: play many seeded games with a bot and print what they came to.

Game ``i`` is seeded from ``--seed`` and ``i`` (its dice and the bot's RNG), so a run gives the same
figures with any ``--jobs``; only the timing differs.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path
from typing import TextIO

from magdagdon.bots.base import Bot, bot_names, make_bot
from magdagdon.engine import Difficulty
from magdagdon.sim.plot import histogram_svg
from magdagdon.sim.summary import GameResult, Summary, game_seed, play_with, summarise

_BOTS: dict[str, Bot] = {}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``magdagdon simulate`` to its sub-parser."""
    parser.add_argument("--bot", required=True, help=f"one of: {', '.join(bot_names())}")
    parser.add_argument(
        "--difficulty", required=True, choices=[d.value for d in Difficulty], type=str.lower
    )
    parser.add_argument("--games", type=_positive, required=True, help="how many games")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    parser.add_argument("--jobs", type=_positive, default=1, help="worker processes (default 1)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--plot", type=Path, help="write a histogram of the scores (SVG)")


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _play(task: tuple[str, str, int]) -> GameResult:
    name, difficulty, seed = task
    bot = _BOTS.get(name)
    if bot is None:
        bot = _BOTS[name] = make_bot(name)
    return play_with(bot, Difficulty(difficulty), seed)


def simulate(
    bot: str,
    difficulty: str,
    games: int,
    seed: int = 0,
    jobs: int = 1,
    progress: TextIO | None = None,
) -> tuple[Summary, list[GameResult]]:
    """Play the run and answer its summary and the result of every game, in game order."""
    tasks = [(bot, difficulty, game_seed(seed, i)) for i in range(games)]
    results: list[GameResult] = []
    start = time.perf_counter()
    bar = _Progress(games, progress)
    if jobs == 1:
        for task in tasks:
            results.append(_play(task))
            bar.update(len(results))
    else:
        context = multiprocessing.get_context("fork")
        with context.Pool(jobs) as pool:
            for result in pool.imap(_play, tasks, chunksize=max(1, min(16, games // (8 * jobs)))):
                results.append(result)
                bar.update(len(results))
    bar.close()
    seconds = time.perf_counter() - start
    summary = summarise(
        results, bot=bot, difficulty=difficulty, seed=seed, jobs=jobs, seconds=seconds
    )
    return summary, results


class _Progress:
    """A one-line progress bar on a terminal stream (nothing when there is none)."""

    def __init__(self, total: int, stream: TextIO | None) -> None:
        self.total, self.stream = total, stream
        self.start = time.perf_counter()
        self.shown = -1.0

    def update(self, done: int) -> None:
        if self.stream is None:
            return
        now = time.perf_counter()
        if done < self.total and now - self.shown < 0.2:
            return
        self.shown = now
        width = 30
        filled = width * done // self.total
        rate = done / max(now - self.start, 1e-9)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} games "
            f"{rate:.1f} games/s"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.stream is not None:
            self.stream.write("\n")
            self.stream.flush()


def run(args: argparse.Namespace) -> int:
    """Run ``magdagdon simulate``; answer the exit status."""
    if args.bot not in bot_names():
        print(f"unknown bot {args.bot!r}; choose one of {', '.join(bot_names())}", file=sys.stderr)
        return 2
    if args.plot is not None and args.plot.suffix.lower() != ".svg":
        print(f"--plot writes an SVG file; {args.plot} does not end in .svg", file=sys.stderr)
        return 2
    summary, results = simulate(
        args.bot,
        args.difficulty,
        args.games,
        seed=args.seed,
        jobs=args.jobs,
        progress=sys.stderr,
    )
    if args.plot is not None:
        title = f"{args.bot} on {args.difficulty.upper()}: {args.games} games, mean {summary.mean}"
        args.plot.write_text(histogram_svg([r.score for r in results], title), encoding="utf-8")
    if args.json:
        print(json.dumps(summary.to_json(), sort_keys=True))
    else:
        print(format_summary(summary))
    return 0


def format_summary(s: Summary) -> str:
    """The figures of a run as lines of text."""
    combos = ", ".join(f"{kind} {count}" for kind, count in s.combos.items())
    return "\n".join(
        [
            f"{s.bot} on {s.difficulty.upper()}: {s.games} games (seed {s.seed}, jobs {s.jobs})",
            f"  mean {s.mean:.1f}   stdev {s.stdev:.1f}   median {s.median:.1f}",
            f"  5th percentile {s.p5:.1f}   95th percentile {s.p95:.1f}   "
            f"best {s.best}   worst {s.worst}",
            f"  MAGDAGDONs per game {s.magdagdons_per_game:.2f}   "
            f"RUINs per game {s.ruins_per_game:.2f}   Powers per game {s.powers_per_game:.2f}   "
            f"turns per game {s.turns_per_game:.2f}",
            f"  combos made {sum(s.combos.values())} ({combos}), {s.combos_per_game:.2f} per game",
            f"  {s.seconds:.1f} s, {s.games_per_second:.1f} games per second",
        ]
    )
