"""Calibration benchmark: is V (``bots/value.py``) the computer's expected final score?

    uv run python bench/calibration_bench.py collect --difficulty D --games 2000 --seed S \\
        --jobs 2 --out runs/D-S.jsonl
    uv run python bench/calibration_bench.py report runs/*-S.jsonl
    uv run python bench/calibration_bench.py fit runs/*-F.jsonl   # rewrites the offsets

``collect`` plays the computer's own games (game ``i`` seeded by ``game_seed(S, i)``, as
``magdagdon simulate --seed S``: the same games) and values every state a hint or a review values
on the way: each phase roll, each decision (nothing staged), and the reroll node of each I-ROLL
ULIT. A line per state: V in its parts (the look-ahead's value and the key of its offset, none
when exact) and the game's final score. With ``--player risky``, ``bots/risky.py`` plays each
game's first turns and the computer the rest (its states only): V must be the computer's
expectation from a RUIN-heavy board too.

``report`` prints, by difficulty, the mean of (final − V(s)) with its standard error (clustered
by game: the states of one game are not independent) at the start, in each stage of the game by
empty cells, with and without Power uses left, and by the RUINs on the board; V is taken with the
offsets as they are now (``bots/value_calibration.py``). Target (SPEC "Review"): every mean
within ±3 points, or within 2 standard errors where that is wider. Run it on seeds the offsets
were not fitted on.

``fit`` fits the offsets by least squares on the phase-roll states (the look-ahead's value against
the final score, one term for each count of empty cells, each count of Power uses left, and each
stage of the game with 1, 2, or 3 or more RUINs on the board) and on the reroll nodes (by stage and
Power uses left), and writes ``bots/value_calibration.py``. A reroll is rare (about one in ten
games of SURVIVAL), so its offset is the mean, in its cell, of V of the decision the reroll's
outcome led to (the fitted offsets on; an outcome's V varies far less than the final score) less
the look-ahead's value, and one level for the difficulty: the mean over all its rerolls of the
final score less that.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
import random
import statistics
import sys
import textwrap
from collections import defaultdict
from pathlib import Path
from typing import Any

from consistency_bench import player_turn
from magdagdon.bots.value import Key, Value, Values, after_advice, by_board, offset, stage_of
from magdagdon.engine import Adjust, Difficulty, GameState, Phase, Reroll, Roll
from magdagdon.engine.board import RUIN_CODE
from magdagdon.engine.board_codes import EMPTY
from magdagdon.sim.summary import game_seed

MODULE = Path(__file__).resolve().parent.parent / "src/magdagdon/bots/value_calibration.py"
_values: Values | None = None

Row = dict[str, Any]
#: The phase roll's offsets of one difficulty: by empty cells, by Power uses left, by stage and
#: RUINs.
RollOffsets = tuple[list[float], list[float], list[list[float]]]


def _row(state: GameState, kind: str, found: Value) -> Row:
    codes = tuple(state.codes())
    key = found.key
    return {
        "kind": kind,
        "turn": state.turn,
        "codes": codes,
        "empties": codes.count(EMPTY),
        "powers_left": state.powers_left,
        "ruins": codes.count(RUIN_CODE),
        "raw": found.raw,
        "key": None if key is None else [key.reroll, key.empties, key.powers_left, key.ruins],
        "v": found.value,
        "by_board": found.by_board,
    }


def play(task: tuple[str, int, str]) -> list[Row]:
    """One game of the computer, every state a hint or a review values on the way; with the
    player ``risky`` (``bots/risky.py``), ``humanlike`` (``consistency_bench.py``'s) or
    ``random``, that player plays the first turns (1–6, by the seed) and the computer the rest,
    and only the computer's states are kept (V is the computer's expectation from any board, and
    the risky player's boards are RUIN-heavy, the human-like player's a few slips away from its
    own, the random player's far from both)."""
    global _values
    if _values is None:
        _values = Values()
    values = _values
    name, seed, player = task
    state = GameState.new(Difficulty(name), seed)
    if player != "computer":
        turn = player_turn(player, seed)
        hand_over = random.Random(seed).randint(1, 6)
        while not state.is_over and not (state.phase is Phase.ROLL and state.turn >= hand_over):
            for action in turn(state):
                state = state.apply(action)
    rows: list[Row] = []
    while not state.is_over:
        if state.phase is Phase.ROLL:
            rows.append(_row(state, "roll", values.explain(state)[0]))
            state = state.apply(Roll())
            continue
        found, advice = values.explain(state)
        assert advice is not None
        rows.append(_row(state, "decision", found))
        if isinstance(advice.action, Reroll):
            rows.append(_row(state, "reroll", values.reroll(state, advice.action.dice)))
        if isinstance(advice.action, Adjust | Reroll):
            state = state.apply(advice.action)
        else:  # the whole placement and KUMPIRMAHIN, or the RUIN
            state = after_advice(state, advice)
    final = state.score().total
    for row in rows:
        row["final"] = final
        row["seed"] = seed
        row["player"] = player
    return rows


def collect(args: argparse.Namespace) -> None:
    tasks = [
        (args.difficulty, game_seed(args.seed, i), args.player)
        for i in range(args.first, args.games)
    ]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = 0
    with out.open("w") as sink, multiprocessing.Pool(args.jobs) as pool:
        for rows in pool.imap(play, tasks, chunksize=4):
            for row in rows:
                row["difficulty"] = args.difficulty
                row["run_seed"] = args.seed
                sink.write(json.dumps(row) + "\n")
            done += 1
            if done % 50 == 0:
                sink.flush()
                print(f"{args.first + done}/{args.games} games", file=sys.stderr, flush=True)


def load(paths: list[str]) -> list[Row]:
    rows: list[Row] = []
    for path in paths:
        with open(path) as source:
            lines = source.read().split("\n")
        if lines and lines[-1]:  # a run still going (or stopped) leaves a line unfinished
            lines.pop()
        rows.extend(json.loads(line) for line in lines if line)
    return rows


def value_now(row: Row, offsets: Any = offset, *, corrected: bool = True) -> float:
    """V of a collected state with the offsets as they are now (or ``offsets``), and, unless
    ``corrected`` is False, a phase roll's correction by the board as it is now (a decision's,
    which is its next state's, as collected)."""
    if row["key"] is None:
        return float(row["raw"])
    key = Key(Difficulty(row["difficulty"]), *row["key"])
    board = 0.0
    if corrected:
        # a decision collected before the correction was kept has none
        board = (
            by_board(tuple(row["codes"]), key)
            if row["kind"] == "roll"
            else row.get("by_board", 0.0)
        )
    return float(row["raw"]) + float(offsets(key)) + board


def _uses(row: Row) -> int:
    return Difficulty(row["difficulty"]).power_uses


def _mid_clean(row: Row) -> bool:
    """A state of the middle game with no RUIN yet, where V stands furthest from boards a bad
    player leaves (``docs/bots.md``, "Boards unlike the computer's")."""
    return 5 <= row["empties"] <= 12 and row["ruins"] == 0 and _uses(row) > 0


BUCKETS: tuple[tuple[str, Any], ...] = (
    ("start", lambda r: r["kind"] == "roll" and r["empties"] == 16 and r["turn"] == 0),
    ("16-13 empty", lambda r: stage_of(r["empties"]) == 0),
    ("12-9 empty", lambda r: stage_of(r["empties"]) == 1),
    ("8-5 empty", lambda r: stage_of(r["empties"]) == 2),
    ("4-1 empty", lambda r: stage_of(r["empties"]) == 3),
    ("Powers left", lambda r: r["powers_left"] > 0),
    ("no Powers left", lambda r: r["powers_left"] == 0),
    ("a RUIN on the board", lambda r: r["ruins"] > 0),
    ("1 RUIN", lambda r: r["ruins"] == 1),
    ("2 RUINs", lambda r: r["ruins"] == 2),
    ("3 or more RUINs", lambda r: r["ruins"] >= 3),
    ("12-5, no RUIN, no use", lambda r: _mid_clean(r) and r["powers_left"] == _uses(r)),
    ("12-5, no RUIN, a use", lambda r: _mid_clean(r) and r["powers_left"] < _uses(r)),
    ("phase roll", lambda r: r["kind"] == "roll"),
    ("decisions", lambda r: r["kind"] == "decision"),
    ("reroll nodes", lambda r: r["kind"] == "reroll"),
    ("reroll, 1 use left", lambda r: r["kind"] == "reroll" and r["powers_left"] == 1),
    ("reroll, 2 uses left", lambda r: r["kind"] == "reroll" and r["powers_left"] == 2),
    ("reroll, 3 uses left", lambda r: r["kind"] == "reroll" and r["powers_left"] == 3),
)


def clustered(rows: list[Row]) -> tuple[float, float, int, int]:
    """The mean of (final − V) over ``rows``, its standard error clustered by game, the number
    of states and of games."""
    by_game: dict[tuple[str, int, int], list[float]] = defaultdict(list)
    for row in rows:
        by_game[(row["difficulty"], row["run_seed"], row["seed"])].append(
            row["final"] - value_now(row)
        )
    count = sum(len(v) for v in by_game.values())
    mean = sum(sum(v) for v in by_game.values()) / count
    games = len(by_game)
    spread = sum((sum(v) - mean * len(v)) ** 2 for v in by_game.values())
    se = math.sqrt(spread * games / max(games - 1, 1)) / count
    return mean, se, count, games


def report(args: argparse.Namespace) -> None:
    rows = load(args.paths)
    by_difficulty: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by_difficulty[row["difficulty"]].append(row)
    failed = 0
    print("mean of (final - V(s)), se clustered by game; target within 3 points or 2 se")
    for difficulty in Difficulty:
        part = by_difficulty.get(difficulty.value)
        if not part:
            continue
        seeds = sorted({r["run_seed"] for r in part})
        finals = {(r["run_seed"], r["seed"]): r["final"] for r in part}
        print(
            f"\n{difficulty.value.upper()}: {len(finals)} games (seeds {seeds}), mean final "
            f"{statistics.fmean(finals.values()):.1f}"
        )
        print(f"  {'states':22s} {'mean':>7s} {'se':>6s} {'states':>7s} {'games':>6s}")
        for name, test in BUCKETS:
            if name.startswith("reroll, ") and difficulty.power_uses <= 1:
                continue  # one use: every reroll has 1 left, the row above
            chosen = [r for r in part if test(r)]
            if not chosen:
                continue
            mean, se, count, games = clustered(chosen)
            ok = abs(mean) <= max(3.0, 2 * se)
            failed += not ok
            mark = "" if ok else "  <- out"
            print(f"  {name:22s} {mean:+7.2f} {se:6.2f} {count:7d} {games:6d}{mark}")
    print(f"\n{failed} bucket(s) out of the target")


def fit(args: argparse.Namespace) -> None:
    import numpy as np  # only the fit needs it

    rows = load(args.paths)
    roll_offsets: dict[str, RollOffsets] = {}
    reroll_offsets: dict[str, list[list[float]]] = {}
    sources: dict[str, str] = {}
    start_se: dict[str, float] = {}
    for difficulty in Difficulty:
        part = [r for r in rows if r["difficulty"] == difficulty.value and r["key"]]
        if not part:
            continue
        games = {(r["run_seed"], r["seed"]) for r in part}
        seeds = sorted({r["run_seed"] for r in part})
        sources[difficulty.value] = f"{len(games)} games of seed(s) {', '.join(map(str, seeds))}"
        finals = [r["final"] for r in part if r["kind"] == "roll" and r["turn"] == 0]
        start_se[difficulty.value] = statistics.stdev(finals) / math.sqrt(len(finals))
        every_roll = [r for r in part if not r["key"][0]]
        # The terms by empty cells and Powers from the computer's own games only: they are most
        # of what a hint and a review meet, and a bad player's board with no RUIN looks like
        # one of them (``docs/bots.md``).
        rolls = [r for r in every_roll if r.get("player", "computer") == "computer"]
        uses = difficulty.power_uses
        first_ruin = 17 + (uses + 1)  # then a column for each stage and 1, 2, 3+ RUINs
        columns = first_ruin + 4 * 3
        matrix = np.zeros((len(rolls), columns))
        target = np.zeros(len(rolls))
        cell_of = _ruin_cells(rolls)
        for i, r in enumerate(rolls):
            _, empties, powers_left, ruins = r["key"]
            matrix[i, empties] = 1.0
            matrix[i, 17 + powers_left] = 1.0
            cell = cell_of.get((stage_of(empties), min(ruins, 3)), 0)
            if cell:
                matrix[i, first_ruin + 3 * stage_of(empties) + cell - 1] = 1.0
            target[i] = r["final"] - r["raw"]
        # One column of each group is redundant with the empty cells' terms: a small ridge picks
        # the least-norm split; the offsets' sums are what is fitted.
        ridge = 1e-3 * np.eye(columns)
        solution = np.linalg.solve(matrix.T @ matrix + ridge, matrix.T @ target)
        by_empties = [0.0] * 17
        for e in range(17):
            if matrix[:, e].any():
                by_empties[e] = float(solution[e])
        by_powers = [0.0] * 4
        for p in range(uses + 1):
            by_powers[p] = float(solution[17 + p])
        by_ruins = _ruin_terms(every_roll, by_empties, by_powers)
        roll_offsets[difficulty.value] = (by_empties, by_powers, by_ruins)
        reroll_offsets[difficulty.value] = _reroll_offsets(rows, difficulty, roll_offsets)
    MODULE.write_text(_module(roll_offsets, reroll_offsets, start_se, sources, args.paths))
    print(f"wrote {MODULE}")


def _ruin_terms(
    rolls: list[Row], by_empties: list[float], by_powers: list[float]
) -> list[list[float]]:
    """The terms by stage and RUINs, from every game (the computer's own and those it took over
    from a bad player): in each cell, the mean of the final score less the look-ahead's value
    and the other two terms."""
    cell_of = _ruin_cells(rolls)
    found: dict[tuple[int, int], list[float]] = defaultdict(list)
    for r in rolls:
        cell = cell_of.get((stage_of(r["empties"]), min(r["ruins"], 3)), 0)
        if cell:
            rest = r["final"] - r["raw"] - by_empties[r["empties"]] - by_powers[r["powers_left"]]
            found[(stage_of(r["empties"]), cell)].append(rest)
    by_ruins = [[0.0] * 4 for _ in range(4)]
    for (stage, count), cell in cell_of.items():
        if cell:
            by_ruins[stage][count] = statistics.fmean(found[(stage, cell)])
    return by_ruins


#: A RUIN term is fitted from at least this many games: a count of RUINs with fewer in its stage
#: shares the term of one RUIN fewer (none: no term).
MIN_GAMES = 40


def _ruin_cells(rolls: list[Row]) -> dict[tuple[int, int], int]:
    """For each stage and count of RUINs (1, 2, 3+) the count whose term it takes (0: none)."""
    games: dict[tuple[int, int], set[tuple[int, int]]] = defaultdict(set)
    for r in rolls:
        if r["ruins"]:
            games[(stage_of(r["empties"]), min(r["ruins"], 3))].add((r["run_seed"], r["seed"]))
    cells: dict[tuple[int, int], int] = {}
    for stage in range(4):
        for count in range(1, 4):
            enough = len(games[(stage, count)]) >= MIN_GAMES
            cells[(stage, count)] = count if enough else cells.get((stage, count - 1), 0)
    return cells


def _reroll_offsets(
    rows: list[Row],
    difficulty: Difficulty,
    roll_offsets: dict[str, RollOffsets],
) -> list[list[float]]:
    """The reroll node's offsets by stage and Power uses left (see the module's text): each
    reroll row is followed, in its file, by the decision its outcome led to."""
    pairs = [
        (a, b)
        for a, b in itertools.pairwise(rows)
        if a["difficulty"] == difficulty.value
        and a["kind"] == "reroll"
        and a["key"]
        and a.get("player", "computer") == "computer"
        and b["kind"] == "decision"
        and (b["run_seed"], b["seed"]) == (a["run_seed"], a["seed"])
    ]
    cells = [[0.0] * 4 for _ in range(4)]
    if not pairs:
        return cells

    def fitted(key: Key) -> float:
        if key.reroll:
            return cells[stage_of(key.empties)][key.powers_left]
        empties, powers, ruins = roll_offsets[difficulty.value]
        by_ruins = ruins[stage_of(key.empties)][min(key.ruins, 3)]
        return empties[key.empties] + powers[key.powers_left] + by_ruins

    for _ in range(3):  # an outcome's decision can be another reroll: settle the cells
        by_cell: dict[tuple[int, int], list[float]] = defaultdict(list)
        for a, b in pairs:
            by_cell[(stage_of(a["empties"]), a["powers_left"])].append(
                value_now(b, fitted) - a["raw"]
            )
        level = statistics.fmean(
            a["final"]
            - a["raw"]
            - statistics.fmean(by_cell[(stage_of(a["empties"]), a["powers_left"])])
            for a, _ in pairs
        )
        cells = [[0.0] * 4 for _ in range(4)]
        for (stage, left), found in by_cell.items():
            cells[stage][left] = statistics.fmean(found) + level
    return cells


def _numbers(values: list[float]) -> str:
    return ", ".join(f"{v:.1f}" for v in values)


def _module(
    roll_offsets: dict[str, RollOffsets],
    reroll_offsets: dict[str, list[list[float]]],
    start_se: dict[str, float],
    sources: dict[str, str],
    paths: list[str],
) -> str:
    story = (
        "Generated by ``uv run python bench/calibration_bench.py fit "
        + " ".join(Path(p).name for p in paths)
        + "`` from the computer's own games and games it took over from ``bots/risky.py``, each "
        "file made by ``bench/calibration_bench.py collect --difficulty D --games N --seed S "
        "[--player risky] --out D-S.jsonl`` ("
        + "; ".join(f"{name}: {text}" for name, text in sources.items())
        + "). ``calibration_bench.py report`` checks them on other seeds (``docs/bots.md``)."
    )
    lines = [
        '"""The offsets that make the look-ahead\'s value an expected final score '
        "(``bots/value.py``).",
        "",
        *textwrap.wrap(story, 99, break_on_hyphens=False),
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from magdagdon.engine import Difficulty",
        "",
        "#: By difficulty: the offset of phase roll by empty cells (0–16), by Power uses left "
        "(0–3), and",
        "#: by the stage of the game (16–13, 12–9, 8–5, 4–1 empty) and the RUINs on the board "
        "(0, 1, 2, 3+).",
        "# fmt: off",
        "Offsets = tuple[tuple[float, ...], tuple[float, ...], tuple[tuple[float, ...], ...]]",
        "ROLL_OFFSETS: dict[Difficulty, Offsets] = {",
    ]
    zero: RollOffsets = ([0.0] * 17, [0.0] * 4, [[0.0] * 4 for _ in range(4)])
    for difficulty in Difficulty:
        empties, powers, ruins = roll_offsets.get(difficulty.value, zero)
        lines += [
            f"    Difficulty.{difficulty.name}: (",
            f"        ({_numbers(empties[:9])},",
            f"         {_numbers(empties[9:])}),",
            f"        ({_numbers(powers)}),",
            "        (",
            *(f"            ({_numbers(stage)})," for stage in ruins),
            "        ),",
            "    ),",
        ]
    lines += [
        "}",
        "#: By difficulty: the offset of a reroll node by the stage of the game (16–13, 12–9, "
        "8–5, 4–1),",
        "#: then by the Power uses left (0–3) before the reroll.",
        "REROLL_OFFSETS: dict[Difficulty, tuple[tuple[float, ...], ...]] = {",
    ]
    for difficulty in Difficulty:
        cells = reroll_offsets.get(difficulty.value, [[0.0] * 4 for _ in range(4)])
        lines.append(f"    Difficulty.{difficulty.name}: (")
        lines += [f"        ({_numbers(stage)})," for stage in cells]
        lines.append("    ),")
    lines += [
        "}",
        "#: By difficulty: the standard error of V at the start (the mean final score of the games",
        "#: fitted on).",
        "START_SE: dict[Difficulty, float] = {",
    ]
    for difficulty in Difficulty:
        se = start_se.get(difficulty.value, 0.0)
        lines.append(f"    Difficulty.{difficulty.name}: {se:.1f},")
    lines += ["}", "# fmt: on", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("collect")
    run.add_argument("--difficulty", choices=[d.value for d in Difficulty], required=True)
    run.add_argument("--games", type=int, default=2000)
    run.add_argument("--seed", type=int, required=True)
    run.add_argument(
        "--first", type=int, default=0, help="the first game's index (to go on with a run)"
    )
    run.add_argument("--jobs", type=int, default=2)
    run.add_argument(
        "--player",
        choices=["computer", "risky", "humanlike", "random"],
        default="computer",
        help="who plays the first turns (risky: bots/risky.py; humanlike: the computer's move "
        "but in 30 %% of turns, as consistency_bench.py's; random: bots/random_bot.py; then the "
        "computer)",
    )
    run.add_argument("--out", required=True)
    run.set_defaults(run=collect)
    shown = commands.add_parser("report")
    shown.add_argument("paths", nargs="+")
    shown.set_defaults(run=report)
    fitted = commands.add_parser("fit")
    fitted.add_argument("paths", nargs="+")
    fitted.set_defaults(run=fit)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
