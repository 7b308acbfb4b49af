"""Engine benchmark: prints figures, asserts nothing.

(a) The MAGDAGDON check in its worst case — an empty board, four far-apart dice, minimum 3 —
    as the search itself (``search.search_frame``) and as ``GameState.roll_with`` (which keeps the
    answers for boards with no number): median over many runs (target ≤ 0.5 ms).
(b) Random games through the public API (``legal_actions`` / ``apply``, every choice uniform from a
    seeded ``random.Random``): complete games per second on one core (target ≥ 2,000) and actions
    per game, for each difficulty.
(c) The "random placer": roll, stage random valid dice until the minimum, confirm; when stuck,
    return a random staged die; in MAGDAGDON, a RUIN on a random empty cell. No Powers.

Run: ``uv run python bench/engine_bench.py [--seconds S]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from functools import partial
from typing import TYPE_CHECKING

from magdagdon.engine import Confirm, Difficulty, GameState, Phase, Roll, Ruin, Unstage
from magdagdon.engine.board import EMPTY_BOARD, frame_of
from magdagdon.engine.search import can_place, search_frame

if TYPE_CHECKING:
    from collections.abc import Callable


def _median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        fn()
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times) / 1e6


def bench_check(runs: int) -> None:
    print("(a) MAGDAGDON check, empty board, minimum 3 (median of", runs, "runs; target ≤ 0.5 ms)")
    print("    the search itself (search_frame), and roll_with as a game meets it (answers for")
    print("    boards with no number are kept, so after the first time it is a look-up)")
    new = GameState.new(Difficulty.NIGHTMARE, seed=1)
    empty = frame_of(EMPTY_BOARD)
    for values in ((1, 3, 5, 1), (1, 1, 6, 6), (1, 3, 5, 6), (1, 2, 4, 6)):
        result = search_frame(empty, values, 3)
        assert result == can_place(EMPTY_BOARD, values, 3)
        ms = _median_ms(partial(search_frame, empty, values, 3), runs)
        roll_ms = _median_ms(partial(new.roll_with, values), runs)
        phase = new.roll_with(values).phase.value
        print(
            f"    {values}: can_place={result!s:5}  search {ms:.4f} ms   "
            f"roll_with -> {phase:9}  {roll_ms:.4f} ms"
        )


def random_game(difficulty: Difficulty, rng: random.Random) -> int:
    """A game choosing uniformly among ``legal_actions()``; the number of actions."""
    state = GameState.new(difficulty, rng.getrandbits(63))
    actions = 0
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
        actions += 1
    return actions


# Enum members read off their class cost a Python call each in 3.11: bind them once.
ROLL, MAGDAGDON = Phase.ROLL, Phase.MAGDAGDON
ROLL_ACTION, CONFIRM = Roll(), Confirm()


def placer_game(difficulty: Difficulty, rng: random.Random) -> int:
    """A game of the random placer; the number of actions."""
    state = GameState.new(difficulty, rng.getrandbits(63))
    actions = 0
    while not state.is_over:
        phase = state.phase
        if phase is ROLL:
            state = state.apply(ROLL_ACTION)
        elif phase is MAGDAGDON:
            state = state.apply(Ruin(rng.choice(state.empty_cells())))
        elif state.can_confirm:
            state = state.apply(CONFIRM)
        elif state.stuck:
            state = state.apply(Unstage(rng.choice(state.order)))
        else:
            state = state.apply(rng.choice(state.stage_actions()))
        actions += 1
    return actions


def bench_games(
    name: str, play: Callable[[Difficulty, random.Random], int], seconds: float
) -> None:
    print(f"({name}) games per second on one core (target ≥ 2,000); wall clock and CPU time")
    for difficulty in Difficulty:
        rng = random.Random(12345)
        games = actions = 0
        start, cpu_start = time.perf_counter(), time.process_time()
        while (elapsed := time.perf_counter() - start) < seconds:
            actions += play(difficulty, rng)
            games += 1
        cpu = time.process_time() - cpu_start
        print(
            f"    {difficulty.value:9}  {games / elapsed:8.0f} games/s   "
            f"{games / cpu:8.0f} games/CPU-s   {actions / games:6.1f} actions/game   "
            f"({games} games in {elapsed:.1f} s)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per difficulty")
    parser.add_argument("--runs", type=int, default=2000, help="runs of each check")
    args = parser.parse_args()
    bench_check(args.runs)
    bench_games("b", random_game, args.seconds)
    bench_games("c", placer_game, args.seconds)


if __name__ == "__main__":
    main()
