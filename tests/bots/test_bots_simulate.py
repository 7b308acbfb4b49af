"""``magdagdon simulate``: its figures are those of the games replayed through the engine, a seeded
run plays the same games (with any ``--jobs``), and the SVG plot."""

from __future__ import annotations

import json
import random
import statistics
import xml.etree.ElementTree as ET
from collections import Counter
from typing import TYPE_CHECKING, Any

import pytest

from magdagdon.bots.base import make_bot
from magdagdon.cli import main
from magdagdon.engine import Difficulty, GameState, Phase
from magdagdon.sim.command import simulate
from magdagdon.sim.summary import GameResult, game_seed, percentile

if TYPE_CHECKING:
    from pathlib import Path

TIMING = {"seconds", "games_per_second", "jobs"}
#: Per game (score, turns, MAGDAGDONs, RUINs, Powers used): the games these runs played before
#: the engine's rules were gathered in one place (computed then, with fresh bots, game by game).
RANDOM_PEACEFUL_SEED_3 = [
    (124, 7, 0, 0, 3),
    (72, 8, 2, 2, 3),
    (2, 8, 2, 2, 3),
    (-6, 11, 6, 6, 3),
    (-45, 9, 3, 3, 3),
]
GREEDY_SURVIVAL_SEED_7 = [
    (285, 8, 1, 1, 0),
    (241, 9, 3, 3, 0),
    (275, 9, 1, 1, 0),
    (206, 10, 4, 4, 0),
    (395, 8, 1, 1, 0),
    (401, 8, 1, 1, 0),
]
EXPECTIMAX_NIGHTMARE_SEED_7 = [(322, 6, 2, 2, 0), (298, 7, 2, 2, 0), (175, 8, 3, 3, 0)]


def _simulate(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["simulate", *args, "--json"]) == 0
    out = capsys.readouterr().out
    figures: dict[str, Any] = json.loads(out)
    return figures


def _replay(bot: str, difficulty: str, seed: int, games: int) -> list[tuple[GameState, int]]:
    """The run's games played here through the engine, each with a fresh bot: the final state and
    the number of turns that met a MAGDAGDON."""
    finals = []
    for index in range(games):
        game = game_seed(seed, index)
        player, rng = make_bot(bot), random.Random(game)
        state = GameState.new(Difficulty(difficulty), game)
        magdagdon_turns = set()
        while not state.is_over:
            state = state.apply(player.choose(state, rng))
            if state.phase is Phase.MAGDAGDON:
                magdagdon_turns.add(state.turn)
        finals.append((state, len(magdagdon_turns)))
    return finals


def _per_game(results: list[GameResult]) -> list[tuple[int, int, int, int, int]]:
    return [(r.score, r.turns, r.magdagdons, r.ruins, r.powers_used) for r in results]


def test_a_game_s_seed_comes_from_the_run_s_seed_and_its_index() -> None:
    assert [game_seed(7, i) for i in range(3)] == [711907749, 1277805682, 185514244]
    assert game_seed(0, 0) == 618567835


def test_the_json_figures_are_those_of_the_games_played(capsys: pytest.CaptureFixture[str]) -> None:
    figures = _simulate(
        capsys, "--bot", "random", "--difficulty", "peaceful", "--games", "5", "--seed", "3"
    )
    assert {k: v for k, v in figures.items() if k not in TIMING} == {
        "bot": "random",
        "difficulty": "peaceful",
        "seed": 3,
        "games": 5,
        "mean": 29.4,  # (124 + 72 + 2 - 6 - 45) / 5
        "stdev": 67.645,
        "median": 2.0,
        "p5": -37.2,  # a fifth of the way from -45 to -6
        "p95": 113.6,
        "best": 124,
        "worst": -45,
        "magdagdons_per_game": 2.6,
        "ruins_per_game": 2.6,
        "powers_per_game": 3.0,
        "turns_per_game": 8.6,
        "combos": {"straight": 1, "four_of_a_kind": 2, "two_pairs": 3},
        "combos_per_game": 1.2,
    }
    assert figures["jobs"] == 1
    assert figures["games_per_second"] > 0


@pytest.mark.parametrize(
    ("bot", "difficulty", "games"),
    [("greedy", "survival", 10), ("random", "nightmare", 10), ("expectimax", "peaceful", 3)],
)
def test_the_json_figures_are_the_means_of_the_games_replayed(
    capsys: pytest.CaptureFixture[str], bot: str, difficulty: str, games: int
) -> None:
    figures = _simulate(capsys, "--bot", bot, "--difficulty", difficulty, "--games", str(games))
    finals = _replay(bot, difficulty, 0, games)
    scores = sorted(state.score().total for state, _ in finals)
    five, *_, ninety_five = statistics.quantiles(scores, n=20, method="inclusive")
    combos = Counter(
        line.combo
        for state, _ in finals
        for line in (*state.score().rows, *state.score().columns)
        if line.combo
    )
    assert figures["games"] == games
    assert figures["mean"] == round(statistics.fmean(scores), 3)
    assert figures["stdev"] == round(statistics.stdev(scores), 3)
    assert figures["median"] == statistics.median(scores)
    assert figures["p5"] == round(five, 3)
    assert figures["p95"] == round(ninety_five, 3)
    assert (figures["worst"], figures["best"]) == (scores[0], scores[-1])
    assert figures["turns_per_game"] == round(sum(s.turn for s, _ in finals) / games, 4)
    assert figures["ruins_per_game"] == round(sum(s.score().ruins for s, _ in finals) / games, 4)
    assert figures["powers_per_game"] == round(sum(s.powers_used for s, _ in finals) / games, 4)
    assert figures["magdagdons_per_game"] == round(sum(m for _, m in finals) / games, 4)
    assert figures["combos"] == {k: combos[k] for k in ("straight", "four_of_a_kind", "two_pairs")}


@pytest.mark.parametrize(
    ("bot", "difficulty", "seed", "expected"),
    [
        ("random", "peaceful", 3, RANDOM_PEACEFUL_SEED_3),
        ("greedy", "survival", 7, GREEDY_SURVIVAL_SEED_7),
        ("expectimax", "nightmare", 7, EXPECTIMAX_NIGHTMARE_SEED_7),
    ],
)
def test_a_seeded_run_plays_the_same_games_as_before(
    bot: str, difficulty: str, seed: int, expected: list[tuple[int, int, int, int, int]]
) -> None:
    _, results = simulate(bot, difficulty, len(expected), seed=seed)
    assert _per_game(results) == expected
    replayed = _replay(bot, difficulty, seed, len(expected))
    assert [(s.score().total, s.turn, m, s.score().ruins, s.powers_used) for s, m in replayed] == (
        expected
    )


def test_same_seed_same_games_with_any_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    _, one = simulate("greedy", "survival", 12, seed=7, jobs=1)
    _, two = simulate("greedy", "survival", 12, seed=7, jobs=2)
    _, again = simulate("greedy", "survival", 12, seed=7, jobs=1)
    _, other = simulate("greedy", "survival", 12, seed=8, jobs=1)
    assert one == two == again  # every game, in order, with its combinations
    assert _per_game(one)[:6] == GREEDY_SURVIVAL_SEED_7
    assert _per_game(other) != _per_game(one)
    args = ["--bot", "greedy", "--difficulty", "survival", "--games", "12", "--seed", "7"]
    figures = _simulate(capsys, *args, "--jobs", "2")
    assert figures["jobs"] == 2
    assert figures["mean"] == round(statistics.fmean(r.score for r in one), 3)


def test_text_output_and_svg_histogram(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    plot = tmp_path / "scores.svg"
    args = ["simulate", "--bot", "random", "--difficulty", "nightmare", "--games", "25"]
    assert main([*args, "--plot", str(plot)]) == 0
    captured = capsys.readouterr()
    assert "mean" in captured.out
    assert "games per second" in captured.out
    assert "25/25 games" in captured.err  # the progress bar
    root = ET.fromstring(plot.read_text(encoding="utf-8"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    bars = [e for e in root.iter("{http://www.w3.org/2000/svg}rect") if e.get("class") == "bar"]
    counts = [
        int(bar.findtext("{http://www.w3.org/2000/svg}title", "").rsplit(": ", 1)[1])
        for bar in bars
    ]
    assert sum(counts) == 25


def test_bad_arguments_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["simulate", "--bot", "nobody", "--difficulty", "peaceful", "--games", "1"]) == 2
    plot = str(tmp_path / "x.png")
    args = ["simulate", "--bot", "random", "--difficulty", "peaceful", "--games", "1"]
    assert main([*args, "--plot", plot]) == 2
    with pytest.raises(SystemExit):
        main(["simulate", "--bot", "random", "--difficulty", "easy", "--games", "1"])
    with pytest.raises(SystemExit):
        main(["simulate", "--bot", "random", "--difficulty", "peaceful", "--games", "0"])
    assert "unknown bot" in capsys.readouterr().err


def test_percentile_interpolates_between_ranks() -> None:
    assert percentile([10, 20, 30, 40, 50], 0.5) == 30
    assert percentile([10, 20], 0.05) == pytest.approx(10.5)
    assert percentile([0, 100], 0.95) == pytest.approx(95)
