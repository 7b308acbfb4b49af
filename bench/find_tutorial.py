"""Finds the tutorial's game: a PEACEFUL seed whose rolls, played by one fixed script, show each
point of the rules in turn, and writes that script to ``src/magdagdon/web/tutorial.json``.

The script (rows and columns from 0; the coach says "row 2" for row 1):

* turn 1: I-ROLL; tap a 3: every cell is lit (the first die goes anywhere); stage it at (1, 1);
  one die is below the minimum of 2, so KUMPIRMAHIN waits; tap a 4: only the cells beside the 3
  are lit (the ±1 rule); stage it at (1, 2); KUMPIRMAHIN.
* turn 2: I-ROLL; stage a 5 at (2, 2) under the 4; tap a 4: the cell (2, 1), between the 3 and
  the 5, takes it and no other die of the roll; stage it there; return it (tap it on the board),
  stage it again; KUMPIRMAHIN.
* turn 3: I-ROLL is a MAGDAGDON; TANGGAPIN; the corner (3, 3) becomes a RUIN.
* turn 4: I-ROLL has a 5 but no 2; a 1 (DAGDAG +1) or a 3 (BAWAS −1) becomes the 2 for one Majda
  Power (10 points); the 2 at (1, 0) and the 5 at (1, 3) make row 1 2-3-4-5; KUMPIRMAHIN scores
  the STRAIGHT.

Every step names the one tap the coach asks for (``tap``), the action that tap sends (``send``,
or null), the text the coach shows (``say`` and its ``params``) and what the step claims about
the game (``check``); ``tests/web/test_tutorial_data.py`` replays the file through the engine and
checks every claim. Dice are a pure function of the seed and the draw, so the script on the seed
is fully determined.

Run: ``uv run python bench/find_tutorial.py [--start N] [--write]``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from magdagdon.engine import (
    Action,
    Adjust,
    Confirm,
    Difficulty,
    GameState,
    Phase,
    Roll,
    Ruin,
    Stage,
    Unstage,
    action_to_json,
    cell_of,
)

OUT = Path(__file__).resolve().parents[1] / "src" / "magdagdon" / "web" / "tutorial.json"
Step = dict[str, Any]

FIRST, SECOND = cell_of(1, 1), cell_of(1, 2)  # the 3 and the 4 of turn 1
UNDER, BETWEEN = cell_of(2, 2), cell_of(2, 1)  # the 5 under the 4, the cell between 3 and 5
RUIN_CELL = cell_of(3, 3)
START, END = cell_of(1, 0), cell_of(1, 3)  # the 2 and the 5 that finish row 1


def _die_of(state: GameState, value: int, *, besides: tuple[int, ...] = ()) -> int | None:
    for die in state.tray:
        if state.dice[die] == value and die not in besides:
            return die
    return None


def _rc(cell: int) -> list[int]:
    return [cell // 4, cell % 4]


class Script:
    """The steps written so far, and the state they lead to."""

    def __init__(self, seed: int) -> None:
        self.state = GameState.new(Difficulty.PEACEFUL, seed)
        self.steps: list[Step] = []

    def step(
        self,
        say: str,
        tap: dict[str, Any],
        send: Action | None = None,
        check: dict[str, Any] | None = None,
        **params: int,
    ) -> None:
        if send is not None:
            self.state = self.state.apply(send)
        self.steps.append(
            {
                "say": say,
                "params": params,
                "tap": tap,
                "send": None if send is None else action_to_json(send),
                "check": check or {},
            }
        )

    def tap_die(
        self, say: str, die: int, check: dict[str, Any] | None = None, **params: int
    ) -> None:
        self.step(say, {"die": die}, None, check, **params)

    def stage(self, say: str, die: int, cell: int, **params: int) -> None:
        if cell not in self.state.valid_cells().get(die, []):
            raise ValueError("not valid")
        self.step(say, {"cell": _rc(cell)}, Stage(die, cell), None, **params)


def script_for(seed: int) -> list[Step] | None:
    """The tutorial's steps on ``seed``, or None when its rolls do not fit the script."""
    s = Script(seed)
    # Turn 1: the first die anywhere, the second beside it, the minimum, KUMPIRMAHIN.
    s.step("roll", {"action": "roll"}, Roll(), {"phase": "place"})
    three, four = _die_of(s.state, 3), _die_of(s.state, 4)
    if three is None or four is None:
        return None
    s.tap_die("pickFirst", three, {"lit": "all"}, v=3)
    s.stage("placeFirst", three, FIRST)
    s.tap_die("minimum", four, {"min_required": 2, "can_confirm": False, "lit": "beside"}, v=4)
    s.stage("beside", four, SECOND, v=4)
    s.step("confirm", {"action": "confirm"}, Confirm(), {"can_confirm_before": True})
    # Turn 2: the cell between a 3 and a 5 takes only a 4; a staged die returns.
    s.step("roll2", {"action": "roll"}, Roll(), {"phase": "place"})
    five = _die_of(s.state, 5)
    four = _die_of(s.state, 4)
    if five is None or four is None:
        return None
    others = [d for d in s.state.tray if d not in (five, four) and s.state.dice[d] != 4]
    if not others:
        return None
    s.tap_die("pickUnder", five, None, v=5)
    s.stage("placeUnder", five, UNDER, v=5)
    between = {"cell": _rc(BETWEEN), "neighbours": [3, 5], "fits": [4]}
    s.tap_die("pickBetween", four, {"between": between}, v=4)
    s.stage("placeBetween", four, BETWEEN, v=4, a=3, b=5)
    s.step("unstage", {"board": _rc(BETWEEN)}, Unstage(four), {"returned": four}, v=4)
    s.tap_die("pickAgain", four, None, v=4)
    s.stage("placeAgain", four, BETWEEN, v=4)
    s.step("confirm2", {"action": "confirm"}, Confirm())
    # Turn 3: MAGDAGDON, accepted; a RUIN.
    s.step("roll3", {"action": "roll"}, Roll(), {"phase": "magdagdon"})
    if s.state.phase is not Phase.MAGDAGDON:
        return None
    s.step("magdagdon", {"action": "accept"}, None, None, n=s.state.min_required)
    s.step("ruin", {"cell": _rc(RUIN_CELL)}, Ruin(RUIN_CELL), {"ruins": 1})
    # Turn 4: one Majda Power makes the 2 of a STRAIGHT.
    s.step("roll4", {"action": "roll"}, Roll(), {"phase": "place", "no_value": 2})
    rolled = s.state
    if rolled.phase is not Phase.PLACE or _die_of(rolled, 2) is not None:
        return None
    five = _die_of(s.state, 5)
    one, three = _die_of(s.state, 1), _die_of(s.state, 3)
    if five is None or (one is None and three is None):
        return None
    power, delta = (one, 1) if one is not None else (three, -1)
    assert power is not None
    if START in s.state.valid_cells()[power]:
        return None
    cost = s.state.next_penalty
    assert cost is not None
    s.tap_die("pickPower", power, None, v=s.state.dice[power])
    button = "plus" if delta == 1 else "minus"
    check = {"power": {"die": power, "value": 2, "penalty": cost}}
    s.step(f"power_{button}", {"action": button}, Adjust(power, delta), check, cost=cost)
    if START not in s.state.valid_cells()[power]:
        return None
    s.stage("placeStart", power, START, v=2)
    s.tap_die("pickEnd", five, None, v=5)
    if END not in s.state.valid_cells()[five]:
        return None
    s.stage("placeEnd", five, END, v=5)
    s.step("straight", {"action": "confirm"}, Confirm(), {"straight": {"row": 1, "bonus": 60}})
    s.step("done", {"action": "tutorial-done"})
    return s.steps


def find(start: int, limit: int) -> tuple[int, list[Step]]:
    for seed in range(start, start + limit):
        try:
            steps = script_for(seed)
        except ValueError:
            continue
        if steps is not None:
            return seed, steps
    raise SystemExit(f"no seed in {start}..{start + limit - 1}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", type=int, default=1)
    parser.add_argument("--limit", type=int, default=200_000)
    parser.add_argument("--write", action="store_true", help=f"write {OUT.name}")
    args = parser.parse_args()
    seed, steps = find(args.start, args.limit)
    data = {"difficulty": Difficulty.PEACEFUL.value, "seed": seed, "steps": steps}
    print(f"seed {seed}: {len(steps)} steps")
    if args.write:
        text = json.dumps(data, separators=(",", ":"))
        OUT.write_text(text.replace('},{"say"', '},\n{"say"') + "\n", encoding="utf-8")
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
