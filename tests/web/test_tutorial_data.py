"""The tutorial's script (web/tutorial.json, written by bench/find_tutorial.py) replayed through the
engine: every step shows what it claims, and every coach text exists in both languages."""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

import pytest

from magdagdon.api.page.static import WEB_DIR
from magdagdon.engine import (
    CELLS,
    Difficulty,
    GameState,
    Phase,
    action_from_json,
    cell_of,
    row_col,
)

SCRIPT: dict[str, Any] = json.loads((WEB_DIR / "tutorial.json").read_text(encoding="utf-8"))
STEPS: list[dict[str, Any]] = SCRIPT["steps"]
#: What the tutorial teaches, in the order it first shows each point: I-ROLL; a tapped die lights
#: its cells (the first die: all of them); the minimum holds KUMPIRMAHIN back; a later die only
#: beside a number and within 1 of it; KUMPIRMAHIN; a cell between two numbers takes only what is
#: within 1 of both; a staged die returns; MAGDAGDON, accepted, and a RUIN; a Majda Power with its
#: cost; a STRAIGHT.
LESSONS = [
    "roll",
    "lit",
    "minimum",
    "beside",
    "confirm",
    "between",
    "returned",
    "magdagdon",
    "ruins",
    "power",
    "straight",
]


def _cell(rc: list[int]) -> int:
    return cell_of(rc[0], rc[1])


def _live_codes(state: GameState) -> list[int]:
    codes = state.codes()
    for die in state.order:
        codes[state.staged[die]] = state.dice[die]
    return codes


def _neighbours(cell: int) -> list[int]:
    row, col = row_col(cell)
    near = [(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]
    return [cell_of(r, c) for r, c in near if 0 <= r < 4 and 0 <= c < 4]


def _check(state: GameState, before: GameState, step: dict[str, Any]) -> set[str]:
    """Checks the step's claims on ``state`` (after its action; ``before``: the state it was
    taken in); answers the lessons it showed."""
    shown: set[str] = set()
    check = step["check"]
    tap = step["tap"]
    if "phase" in check:
        assert state.phase.value == check["phase"]
        if step["send"] == {"type": "roll"}:
            shown.add("roll")
    if check.get("lit") == "all":  # the first die of the game: every cell
        assert sorted(state.valid_cells()[tap["die"]]) == list(range(CELLS))
        assert not any(state.codes())
        shown.add("lit")
    if check.get("lit") == "beside":  # later dice: beside a number, within 1 of it
        value = state.dice[tap["die"]]
        codes = _live_codes(state)
        lit = state.valid_cells()[tap["die"]]
        assert lit
        for cell in lit:
            near = [codes[n] for n in _neighbours(cell) if 1 <= codes[n] <= 6]
            assert near
            assert all(abs(value - n) <= 1 for n in near)
        far = [c for c in range(CELLS) if codes[c] == 0 and c not in lit]
        assert far  # some empty cells stay dark
        shown.add("beside")
    if "between" in check:
        between = check["between"]
        cell = _cell(between["cell"])
        codes = _live_codes(state)
        near = sorted(codes[n] for n in _neighbours(cell) if 1 <= codes[n] <= 6)
        assert near == between["neighbours"]
        fits = [v for v in range(1, 7) if all(abs(v - n) <= 1 for n in near)]
        assert fits == between["fits"]
        tray = state.valid_cells()
        for die, cells in tray.items():
            assert (cell in cells) == (state.dice[die] in fits)
        assert any(state.dice[d] not in fits for d in tray)  # a die of the roll that does not fit
        assert cell in tray[tap["die"]]
        shown.add("between")
    if "min_required" in check:
        assert state.min_required == check["min_required"]
        assert len(state.order) == check["min_required"] - 1
        assert state.can_confirm is check["can_confirm"]
        shown.add("minimum")
    if check.get("can_confirm_before"):
        assert before.can_confirm
        assert state.phase is Phase.ROLL
        assert sum(1 for c in state.codes() if 1 <= c <= 6) == len(before.order)
        shown.add("confirm")
    if "returned" in check:
        die = check["returned"]
        assert before.staged[die] >= 0
        assert die in state.tray
        shown.add("returned")
    if "power" in check:
        power = check["power"]
        assert before.next_penalty == power["penalty"]
        assert state.power_penalty == power["penalty"]
        assert state.dice[power["die"]] == power["value"]
        assert step["params"]["cost"] == power["penalty"]
        shown.add("power")
    if check.get("phase") == "magdagdon":
        assert state.phase is Phase.MAGDAGDON
        shown.add("magdagdon")
    if "ruins" in check:
        assert state.score().ruins == check["ruins"]
        assert step["send"]["type"] == "ruin"
        shown.add("ruins")
    if "no_value" in check:
        assert check["no_value"] not in state.dice
    if "straight" in check:
        line = state.score().rows[check["straight"]["row"]]
        assert (line.combo, line.bonus) == ("straight", check["straight"]["bonus"])
        shown.add("straight")
    return shown


def test_the_script_replays_through_the_engine_and_shows_every_lesson() -> None:
    assert SCRIPT["difficulty"] == "peaceful"
    state = GameState.new(Difficulty.PEACEFUL, SCRIPT["seed"])
    shown: list[str] = []
    for step in STEPS:
        before = state
        tap = step["tap"]
        if "die" in tap:
            assert tap["die"] in state.tray  # a die the player can tap
        if "cell" in tap and step["send"] and step["send"]["type"] == "stage":
            assert _cell(tap["cell"]) in state.valid_cells()[step["send"]["die"]]
        if "board" in tap:
            assert state.staged[step["send"]["die"]] == _cell(tap["board"])
        if step["send"] is not None:
            state = state.apply(action_from_json(step["send"]))
        for lesson in sorted(_check(state, before, step), key=LESSONS.index):
            shown.append(lesson)
    assert sorted(set(shown)) == sorted(LESSONS)
    # the lessons in their order, each the first time it is shown
    firsts = sorted(set(shown), key=shown.index)
    assert firsts == [lesson for lesson in LESSONS if lesson in firsts]
    assert STEPS[-1]["tap"] == {"action": "tutorial-done"}


def test_a_tap_on_a_die_is_followed_by_a_tap_that_uses_it() -> None:
    """The page keeps a tapped die selected: the next step stages it, or changes it."""
    for step, after in itertools.pairwise(STEPS):
        if "die" in step["tap"]:
            sent = after["send"]
            assert sent is not None
            assert sent["type"] in ("stage", "adjust")
            assert sent["die"] == step["tap"]["die"]


@pytest.mark.parametrize("lang", ["fil", "en"])
def test_every_step_has_its_coach_text(lang: str) -> None:
    source = (WEB_DIR / "js" / "i18n" / f"{lang}.long.js").read_text(encoding="utf-8")
    texts = dict(re.findall(r'^  "coach\.(\w+)": "(.*)",$', source, flags=re.MULTILINE))
    for step in STEPS:
        text = texts[step["say"]]
        for name in re.findall(r"\{(\w+)\}", text):
            assert name in step["params"], (step["say"], name)
    assert set(texts) == {step["say"] for step in STEPS} | {"power_minus", "power_plus"}
