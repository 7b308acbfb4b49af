"""Bot benchmark: hint latency (the best bot's advice) over mid-game states, and random-bot speed.

    uv run python bench/bot_bench.py [--states 100] [--games 2000]

Targets: hint p95 <= 500 ms per difficulty; random bot >= 2,000 games per second on one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from magdagdon.bots.base import make_bot
from magdagdon.bots.hints import best
from magdagdon.engine import Difficulty, GameState, Phase
from magdagdon.sim.summary import game_seed, percentile, play_with


def mid_game_states(difficulty: Difficulty, count: int, seed: int) -> list[GameState]:
    """``count`` states in phase place or magdagdon, from greedy games cut at a random turn."""
    greedy = make_bot("greedy")
    rng = random.Random(seed)
    states: list[GameState] = []
    game = 0
    while len(states) < count:
        state = GameState.new(difficulty, game_seed(seed, game))
        game += 1
        stop = rng.randint(1, 6)
        while not state.is_over:
            if state.phase in (Phase.PLACE, Phase.MAGDAGDON) and state.turn >= stop:
                states.append(state)
                break
            state = state.apply(greedy.choose(state, rng))
    return states


def hint_latency(difficulty: Difficulty, count: int) -> None:
    """The hint as a compute process answers it (``hints.best``: the advice and V, one bot and
    its caches for all requests, as the process keeps one)."""
    times, cpu = [], []
    for state in mid_game_states(difficulty, count, seed=99):
        start, start_cpu = time.perf_counter(), time.process_time()
        best(state)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    print(
        f"hint {difficulty.value:9s} states {len(times)}  p50 {statistics.median(times):6.1f} ms  "
        f"p95 {percentile(times, 0.95):6.1f} ms  max {max(times):6.1f} ms  (target p95 <= 500 ms)"
    )
    # On a shared machine the wall time counts the other processes' turns too; the process's
    # own CPU time is what the hint costs on a free core.
    print(
        f"     {'':9s} CPU time  p50 {statistics.median(cpu):6.1f} ms  "
        f"p95 {percentile(cpu, 0.95):6.1f} ms  max {max(cpu):6.1f} ms"
    )


def random_speed(games: int, runs: int = 3) -> None:
    """The same ``games`` seeded games ``runs`` times: the best run, and every run (the machine is
    shared, so the best is the figure least disturbed by other work)."""
    bot = make_bot("random")
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        for i in range(games):
            play_with(bot, Difficulty.PEACEFUL, game_seed(1, i))
        rates.append(games / (time.perf_counter() - start))
    print(
        f"random bot: {games} games, best of {runs} runs {max(rates):.0f} games per second on one "
        f"core ({', '.join(f'{r:.0f}' for r in rates)}; target >= 2000)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=100)
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    for difficulty in Difficulty:
        hint_latency(difficulty, args.states)
    random_speed(args.games)


if __name__ == "__main__":
    main()
