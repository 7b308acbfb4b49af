"""Fit the evaluation's calibration from self-play: how far it is from the final score reached.

    uv run python bench/fit_eval.py collect --difficulty survival --games 800 --seed 12 --out s.json
    uv run python bench/fit_eval.py fit s.json > /tmp/calibration.py
    mv /tmp/calibration.py src/magdagdon/bots/calibration.py   # (the fit imports the old one)

``collect`` plays seeded games with the expectimax bot and records, after every turn, the permanent
board and the final score the game came to (plus the Power penalties already paid then: they are
not the board's to answer for). ``fit`` prints, for each difficulty, the offset by number of empty
cells that makes the evaluation agree with itself a turn later (see :func:`calibration`), as the
module ``bots/calibration.py``. The fit is for the bot's tuned weights (``TUNED``): refit after
changing them. The committed table came from runs of the bot as it was then (uncalibrated, then
calibrated: the table barely moved).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import textwrap
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from magdagdon.bots.advice import codes_of
from magdagdon.bots.evaluate import Evaluator, Weights
from magdagdon.bots.expectimax import TUNED, ExpectimaxBot, Settings
from magdagdon.engine import Difficulty, GameState, Phase
from magdagdon.sim.summary import game_seed

if TYPE_CHECKING:
    from magdagdon.engine.board_codes import Codes

Record = tuple[list[int], int]  # (board codes after a turn, final score + penalties paid then)


def collect(difficulty: Difficulty, games: int, seed: int) -> list[Record]:
    """Every turn's board of ``games`` seeded games, with the score the game came to."""
    bot = ExpectimaxBot()
    records: list[Record] = []
    start = time.perf_counter()
    for i in range(games):
        game = game_seed(seed, i)
        rng = random.Random(game)
        state = GameState.new(difficulty, game)
        boards: list[tuple[list[int], int]] = []
        while not state.is_over:
            state = state.apply(bot.choose(state, rng))
            if state.phase is Phase.ROLL and not state.is_over:
                boards.append((codes_of_list(state), state.power_penalty))
        final = state.score().total
        records.extend((codes, final + paid) for codes, paid in boards)
        if (i + 1) % 50 == 0:
            rate = (i + 1) / (time.perf_counter() - start)
            print(f"{i + 1}/{games} games, {rate:.1f} games/s", file=sys.stderr)
    return records


def codes_of_list(state: GameState) -> list[int]:
    return list(codes_of(state))


def games_of(records: list[Record]) -> list[list[tuple[Codes, int]]]:
    """The records split into games: every turn fills a cell, so a board with no fewer empty
    cells than the one before starts a new game."""
    games: list[list[tuple[Codes, int]]] = []
    for codes, target in records:
        board = tuple(codes)
        if not games or board.count(0) >= games[-1][-1][0].count(0):
            games.append([])
        games[-1].append((board, target))
    return games


def calibration(
    difficulty: Difficulty, records: list[Record], tuned: tuple[Settings, Weights] | None = None
) -> tuple[list[float], list[int]]:
    """The offset by empty cells that makes the evaluation agree with itself one turn later.

    For a board of ``e`` empty cells: the mean of (calibrated evaluation of the next turn's board −
    Power penalty paid in that turn − evaluation of the board), each evaluation as the search's
    look-ahead scores a board (the risk term included); the last board of a game is
    followed by the final score. Offsets are solved from few empty cells to many (a turn always
    fills a cell), which is far less noisy than the final score of every board (TD(0) vs Monte
    Carlo). ``tuned``: the settings and weights to fit for (default: the bot's own). Answers the
    offsets and the number of boards behind each."""
    settings, weights = tuned or TUNED[difficulty]
    bot = ExpectimaxBot(settings, Evaluator(replace(weights, calibration=None)))
    base = difficulty.base_minimum

    def evaluate(board: Codes) -> float:
        return bot.leaf_value(board, base)  # as the look-ahead scores it, uncalibrated

    steps: dict[int, list[tuple[Codes, tuple[Codes, int] | None, int]]] = defaultdict(list)
    for game in games_of(records):
        for i, (board, target) in enumerate(game):
            after = game[i + 1] if i + 1 < len(game) else None
            steps[board.count(0)].append((board, after, target))
    table = [0.0] * 17
    counts = [0] * 17
    for empties in range(1, 17):
        gaps = []
        for board, after, target in steps.get(empties, []):
            if after is None:
                value = float(target)  # the final score (penalties paid before excluded)
            else:
                nxt, later = after  # target − later = −(the penalty paid in the next turn)
                value = evaluate(nxt) + table[nxt.count(0)] + target - later
            gaps.append(value - evaluate(board))
        counts[empties] = len(gaps)
        table[empties] = round(statistics.fmean(gaps), 1) if gaps else table[empties - 1]
    return table, counts


def fit(paths: list[Path]) -> str:
    """The module text of ``bots/calibration.py`` for the recorded runs."""
    runs: dict[Difficulty, list[Record]] = defaultdict(list)
    notes: dict[Difficulty, list[str]] = defaultdict(list)
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        difficulty = Difficulty(data["difficulty"])
        runs[difficulty].extend((codes, final) for codes, final in data["records"])
        notes[difficulty].append(f"{data['games']} games of seed {data['seed']}")
    tables = {d: calibration(d, records)[0] for d, records in runs.items()}
    described = "; ".join(f"{d.value}: {', '.join(n)}" for d, n in notes.items())
    source = (
        "Generated by ``uv run python bench/fit_eval.py fit …`` from self-play of the expectimax "
        f"bot ({described}). A difficulty without data has no offsets."
    )
    lines = [
        '"""The evaluation\'s calibration: points added to a board\'s value by its empty cells.',
        "",
        *textwrap.wrap(source, 99),
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from magdagdon.engine import Difficulty",
        "",
        "#: By difficulty, the offset for 0, 1, …, 16 empty cells.",
        "# fmt: off",
        "CALIBRATION: dict[Difficulty, tuple[float, ...]] = {",
    ]
    for difficulty in Difficulty:
        table = tables.get(difficulty, [0.0] * 17)
        lines.append(f"    Difficulty.{difficulty.name}: (")
        for start in range(0, 17, 9):
            lines.append("        " + " ".join(f"{v}," for v in table[start : start + 9]))
        lines.append("    ),")
    lines += ["}", "# fmt: on"]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("collect")
    play.add_argument("--difficulty", required=True, type=str.lower)
    play.add_argument("--games", type=int, default=300)
    play.add_argument("--seed", type=int, default=11)
    play.add_argument("--out", type=Path, required=True)
    table = sub.add_parser("fit")
    table.add_argument("paths", type=Path, nargs="+")
    args = parser.parse_args()
    if args.command == "collect":
        difficulty = Difficulty(args.difficulty)
        records = collect(difficulty, args.games, args.seed)
        data = {
            "difficulty": difficulty.value,
            "games": args.games,
            "seed": args.seed,
            "records": records,
        }
        args.out.write_text(json.dumps(data), encoding="utf-8")
    else:
        print(fit(args.paths), end="")


if __name__ == "__main__":
    main()
