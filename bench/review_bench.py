"""Review benchmark: the time to review a whole game (``bots/review.py``), as a job computes it.

    uv run python bench/review_bench.py [--games 20] [--others 5] [--seed 1]
    PYTHONPATH=/work/main/src uv run python bench/review_bench.py   # main's code: "before"
    PYTHONPATH=src uv run python bench/review_bench.py --against /work/main/src   # paired

With ``--against SRC`` the greedy games are reviewed in turn by two processes, one importing the
package from SRC ("before") and one from this interpreter's path ("after"), each game by one
then the other (the first of the two alternating), so that both meet the same load on a shared
machine: the paired figures are the fair comparison of two versions.

The games: ``--games`` seeded NIGHTMARE games played by ``greedy`` (a fair player whose boards
are not the look-ahead's own, so the review's searches find nothing cached from the play),
``--others`` such games of PEACEFUL and of SURVIVAL (PEACEFUL's exact means weigh every Power
too), and for scale one PEACEFUL game with Powers and a reroll played by ``expectimax`` and one
by a random player who uses Powers. Each review starts with cold search caches (a new
``Values``, as a first review in a new compute process; the tables are loaded once before, as a
process's ``warm`` does). Budget (issue 39): CPU median <= 1.5 s, worst <= 5 s on every
difficulty. The machine is shared: the load average is printed before and after, and each
review's CPU time beside its wall time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import magdagdon
from magdagdon.bots.base import make_bot
from magdagdon.bots.review import review_game
from magdagdon.bots.value import Values
from magdagdon.engine import Action, Adjust, Confirm, Difficulty, GameState, Reroll, Unstage
from magdagdon.sim.summary import game_seed


def played(bot_name: str, difficulty: Difficulty, seed: int) -> list[Action]:
    bot = make_bot(bot_name)
    rng = random.Random(seed)
    state = GameState.new(difficulty, seed)
    log: list[Action] = []
    while not state.is_over:
        action = bot.choose(state, rng)
        log.append(action)
        state = state.apply(action)
    return log


def random_with_powers(difficulty: Difficulty, seed: int) -> list[Action]:
    """A random player that uses a Power one time in four and confirms as soon as it may."""
    rng = random.Random(seed)
    state = GameState.new(difficulty, seed)
    log: list[Action] = []
    while not state.is_over:
        legal = state.legal_actions()
        powers = [a for a in legal if isinstance(a, Adjust | Reroll)]
        moves = [a for a in legal if not isinstance(a, Adjust | Reroll | Unstage)]
        if powers and rng.random() < 0.25:
            action: Action = rng.choice(powers)
        elif state.can_confirm:
            action = Confirm()
        else:
            action = rng.choice(moves or list(legal))
        log.append(action)
        state = state.apply(action)
    return log


def timed(difficulty: Difficulty, seed: int, log: list[Action]) -> tuple[float, int]:
    start, start_cpu = time.perf_counter(), time.process_time()
    review = review_game(difficulty, seed, log, values=Values())
    CPU.append(time.process_time() - start_cpu)
    return time.perf_counter() - start, len(review["steps"])


#: Each review's CPU time: on a shared machine, what it costs on a free core.
CPU: list[float] = []


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def warm() -> None:
    """Load the tables once, as a compute process's ``warm`` does."""
    review_game(Difficulty.NIGHTMARE, 1, played("greedy", Difficulty.NIGHTMARE, 1))
    for difficulty in Difficulty:
        Values().of(GameState.new(difficulty, 0))


def worker() -> None:
    """Review the games asked on stdin (a difficulty and a seed a line): CPU seconds on stdout."""
    warm()
    print("ready", flush=True)
    for line in sys.stdin:
        name, seed = line.split()
        difficulty = Difficulty(name)
        log = played("greedy", difficulty, int(seed))
        timed(difficulty, int(seed), log)
        print(f"{CPU[-1]:.4f}", flush=True)


def paired(against: Path, games: list[tuple[Difficulty, int]]) -> None:
    """Each game reviewed by the package at ``against`` and by this one, in turn."""
    here = Path(magdagdon.__file__).parent.parent
    sides = []
    for path in (str(against), str(here)):
        env = {**os.environ, "PYTHONPATH": path}
        sides.append(
            subprocess.Popen(
                [sys.executable, __file__, "--worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=env,
            )
        )
    for side in sides:
        assert side.stdout is not None
        assert side.stdout.readline().strip() == "ready"
    print(f"load average before: {load()}  (2 cores)")
    times: dict[Difficulty, tuple[list[float], list[float]]] = {}
    for n, (difficulty, seed) in enumerate(games):
        cpu = [0.0, 0.0]
        for i in (0, 1) if n % 2 == 0 else (1, 0):
            side = sides[i]
            assert side.stdin is not None
            assert side.stdout is not None
            side.stdin.write(f"{difficulty.value} {seed}\n")
            side.stdin.flush()
            cpu[i] = float(side.stdout.readline())
        before, after = times.setdefault(difficulty, ([], []))
        before.append(cpu[0])
        after.append(cpu[1])
        print(f"  {difficulty.value:9s} seed {seed:>10}  CPU {cpu[0]:6.2f} s -> {cpu[1]:6.2f} s")
    for difficulty, (before, after) in times.items():
        print(
            f"{difficulty.value.upper()}, {len(before)} greedy games, CPU median "
            f"{statistics.median(before):.2f} -> {statistics.median(after):.2f} s, worst "
            f"{max(before):.2f} -> {max(after):.2f} s, mean {statistics.mean(before):.2f} -> "
            f"{statistics.mean(after):.2f} s"
        )
    print(f"load average after: {load()}")
    for side in sides:
        assert side.stdin is not None
        side.stdin.close()
        side.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--others", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", type=Path, help="the package's source to compare with")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    if args.against is not None:
        games = [
            (difficulty, game_seed(args.seed, i))
            for difficulty, count in (
                (Difficulty.NIGHTMARE, args.games),
                (Difficulty.SURVIVAL, args.others),
                (Difficulty.PEACEFUL, args.others),
            )
            for i in range(count)
        ]
        paired(args.against, games)
        return
    warm()
    print(f"load average before: {load()}  (2 cores)")
    for difficulty, games in (
        (Difficulty.NIGHTMARE, args.games),
        (Difficulty.SURVIVAL, args.others),
        (Difficulty.PEACEFUL, args.others),
    ):
        CPU.clear()
        for i in range(games):
            seed = game_seed(args.seed, i)
            seconds, steps = timed(difficulty, seed, played("greedy", difficulty, seed))
            print(
                f"  {difficulty.value:9s} seed {seed:>10}  {steps:3d} steps  {seconds:6.2f} s  "
                f"(CPU {CPU[-1]:.2f} s)"
            )
        if CPU:
            print(
                f"{difficulty.value.upper()}, {games} greedy games, CPU: median "
                f"{statistics.median(CPU):.2f} s, worst {max(CPU):.2f} s, mean "
                f"{statistics.mean(CPU):.2f} s (budget: median <= 1.5 s, worst <= 5 s)"
            )
    for name, log in (
        ("expectimax", played("expectimax", Difficulty.PEACEFUL, 2)),
        ("random with Powers", random_with_powers(Difficulty.PEACEFUL, 2)),
    ):
        powers = sum(isinstance(a, Adjust | Reroll) for a in log)
        seconds, steps = timed(Difficulty.PEACEFUL, 2, log)
        print(
            f"PEACEFUL seed 2 by {name}: {powers} Powers, {steps} steps, {seconds:.2f} s "
            f"(CPU {CPU[-1]:.2f} s)"
        )
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
