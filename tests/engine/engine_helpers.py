"""Helpers for the engine tests: literal boards, and an independent reference of the rules.

Everything here is written from docs/rules.md's words, not from the engine's code, so the tests
compare
two independent readings of the rules. Cells are ``row * 4 + col``; a board in list form is 16
cell codes: 0 empty, 1–6 a number, 7 a RUIN.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

import pytest

from magdagdon.engine import Action, Difficulty, GameState, IllegalActionError, Stage
from magdagdon.engine.board import Board, from_codes

EMPTY = 0
RUIN = 7
SIZE = 4

_CHARS = {".": EMPTY, "R": RUIN, **{str(v): v for v in range(1, 7)}}


def codes_of(*rows: str) -> list[int]:
    """16 cell codes from four row strings of '.', 'R' and '1'–'6' (spaces ignored)."""
    assert len(rows) == SIZE, rows
    out: list[int] = []
    for row in rows:
        cells = row.replace(" ", "")
        assert len(cells) == SIZE, row
        out.extend(_CHARS[ch] for ch in cells)
    return out


def board_of(*rows: str) -> Board:
    """An engine board from four row strings (see :func:`codes_of`)."""
    return from_codes(codes_of(*rows))


def cell(row: int, col: int) -> int:
    return row * SIZE + col


def state_on(
    difficulty: Difficulty, rows: tuple[str, str, str, str], roll: tuple[int, int, int, int]
) -> GameState:
    """The state right after a ROLL of ``roll`` on the board of ``rows``."""
    return GameState(difficulty, 1, board=board_of(*rows)).roll_with(roll)


# ----- the reference rules, from docs/rules.md
# ------------------------------------------------------


def _neighbours(c: int) -> tuple[int, ...]:
    r, k = divmod(c, SIZE)
    out = []
    for dr, dk in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, kk = r + dr, k + dk
        if 0 <= rr < SIZE and 0 <= kk < SIZE:
            out.append(rr * SIZE + kk)
    return tuple(out)


_NEIGHBOURS = tuple(_neighbours(c) for c in range(16))


def neighbours(c: int) -> tuple[int, ...]:
    """The cells sharing a side with ``c`` (up, down, left, right)."""
    return _NEIGHBOURS[c]


def is_number(code: int) -> bool:
    return 1 <= code <= 6


def ref_valid(codes: list[int], c: int, v: int) -> bool:
    """docs/rules.md "Valid placement": may a die of value ``v`` be staged on cell ``c``?"""
    if codes[c] != EMPTY:
        return False
    if not any(1 <= x <= 6 for x in codes):
        return True
    near = [codes[n] for n in _NEIGHBOURS[c] if 1 <= codes[n] <= 6]
    return bool(near) and all(abs(v - w) <= 1 for w in near)


def ref_valid_cells(codes: list[int], v: int) -> list[int]:
    return [c for c in range(16) if ref_valid(codes, c, v)]


def ref_sequences(codes: list[int], dice: tuple[int, ...], length: int) -> int:
    """The number of ordered (die, cell) sequences of ``length`` stages, each valid when made."""
    if length == 0:
        return 1
    total = 0
    for d, v in enumerate(dice):
        if v == 0:  # already used
            continue
        for c in ref_valid_cells(codes, v):
            after = list(codes)
            after[c] = v
            rest = list(dice)
            rest[d] = 0
            total += ref_sequences(after, tuple(rest), length - 1)
    return total


def ref_can_place(codes: list[int], dice: tuple[int, ...], need: int) -> bool:
    """Is there an order of placing ``need`` of ``dice``, each valid when placed? (brute force)"""
    return _can_place(tuple(codes), tuple(sorted(dice)), need)


@lru_cache(maxsize=100_000)
def _can_place(codes: tuple[int, ...], dice: tuple[int, ...], need: int) -> bool:
    if need <= 0:
        return True
    orders = {tuple(dice[d] for d in order) for order in permutations(range(len(dice)), need)}
    return any(_place_in_order(list(codes), list(values)) for values in orders)


def _place_in_order(codes: list[int], values: list[int]) -> bool:
    if not values:
        return True
    v = values[0]
    for c in ref_valid_cells(codes, v):
        after = list(codes)
        after[c] = v
        if _place_in_order(after, values[1:]):
            return True
    return False


def ref_combo_bonus(line: list[int]) -> int:
    """docs/rules.md "Scoring": the bonus of a line (the highest combination that applies)."""
    if len(line) != 4 or not all(is_number(x) for x in line):
        return 0
    a, b, c, d = line
    if (b - a, c - b, d - c) in ((1, 1, 1), (-1, -1, -1)):
        return 60
    if a == b == c == d:
        return 40
    values = sorted(line)
    if values[0] == values[1] and values[2] == values[3] and values[1] != values[2]:
        return 20
    return 0


def ref_lines(codes: list[int]) -> list[list[int]]:
    rows = [codes[r * 4 : r * 4 + 4] for r in range(4)]
    cols = [[codes[r * 4 + k] for r in range(4)] for k in range(4)]
    return rows + cols


def ref_score(codes: list[int], power_penalty: int) -> int:
    """Final-score formula: base + line bonuses − 15 × RUINs − Power penalties."""
    total = 0
    for line in ref_lines(codes):
        total += sum(x for x in line if is_number(x)) + ref_combo_bonus(line)
    return total - 15 * codes.count(RUIN) - power_penalty


def ref_connected(codes: list[int]) -> bool:
    """The numbers form one orthogonally connected field (an empty set counts as connected)."""
    numbers = [c for c in range(16) if is_number(codes[c])]
    if not numbers:
        return True
    seen = {numbers[0]}
    todo = [numbers[0]]
    while todo:
        c = todo.pop()
        for n in neighbours(c):
            if n not in seen and is_number(codes[n]):
                seen.add(n)
                todo.append(n)
    return len(seen) == len(numbers)


def ref_neighbours_ok(codes: list[int]) -> bool:
    """Every two neighbouring numbers differ by at most 1."""
    for c in range(16):
        for n in neighbours(c):
            if is_number(codes[c]) and is_number(codes[n]) and abs(codes[c] - codes[n]) > 1:
                return False
    return True


def live_codes(state: GameState) -> list[int]:
    """The permanent board with the staged dice on it, as cell codes."""
    out = state.codes()
    for die, c in enumerate(state.staged):
        if c >= 0:
            out[c] = state.dice[die]
    return out


def expect_illegal(state: GameState, action: Action, code: str) -> None:
    """``action`` is refused with ``code``, and the state is unchanged."""
    snapshot = copy_of(state)
    legal_before = list(state.legal_actions())
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert info.value.code == code, (info.value.code, code, info.value.message)
    assert info.value.message
    assert state == snapshot
    assert list(state.legal_actions()) == legal_before


def copy_of(state: GameState) -> GameState:
    """An equal but separate state, built field by field."""
    return GameState(
        state.difficulty,
        state.seed,
        draws=state.draws,
        phase=state.phase,
        turn=state.turn,
        board=state.board,
        dice=state.dice,
        staged=state.staged,
        order=state.order,
        powers_used=state.powers_used,
        min_required=state.min_required,
    )


def engine_sequences(state: GameState, length: int) -> int:
    """The same count as :func:`ref_sequences`, through the engine's legal actions."""
    if length == 0:
        return 1
    return sum(
        engine_sequences(state.apply(a), length - 1)
        for a in state.legal_actions()
        if isinstance(a, Stage)
    )
