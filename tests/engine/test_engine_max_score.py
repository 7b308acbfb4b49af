"""docs/rules.md "Scoring": the highest possible score is 544 (rows 3333, 4444, 5555, 6666).

A branch-and-bound over full boards whose neighbouring numbers differ by at most 1 (every board a
game can end on is one of them: each die was checked against all its neighbours when placed, and
RUINs may be anywhere). Rows are built from the valid ±1 rows; a branch is cut when even the best
rows left and the best column completions cannot reach 544. It finds 544 and nothing above.
"""

from __future__ import annotations

from itertools import product

from engine_helpers import RUIN, codes_of, is_number, ref_combo_bonus

from magdagdon.engine import Confirm, Difficulty, GameState, Phase, Stage
from magdagdon.engine.scoring import score_codes

Line = tuple[int, ...]
TARGET = 544


def _ok(a: int, b: int) -> bool:
    return not (is_number(a) and is_number(b)) or abs(a - b) <= 1


def _points(line: Line) -> int:
    return sum(x for x in line if is_number(x)) + ref_combo_bonus(list(line))


def _best_boards() -> tuple[int, list[list[int]], int]:
    lines = [
        line
        for line in product(range(1, 8), repeat=4)
        if all(_ok(line[i], line[i + 1]) for i in range(3))
    ]
    row_value = {line: _points(line) - 15 * line.count(RUIN) for line in lines}
    completion: dict[Line, int] = {}  # the best points of a valid line with this prefix
    for line in lines:
        for k in range(5):
            completion[line[:k]] = max(completion.get(line[:k], -1), _points(line))
    best_row = max(row_value.values())
    below = {a: [b for b in lines if all(_ok(a[i], b[i]) for i in range(4))] for a in lines}
    top = -(10**9)
    winners: list[list[int]] = []
    nodes = 0

    def search(rows: list[Line], total: int) -> None:
        nonlocal top, winners, nodes
        nodes += 1
        columns = [tuple(r[c] for r in rows) for c in range(4)]
        if len(rows) == 4:
            score = total + sum(_points(c) for c in columns)
            if score > top:
                top, winners = score, []
            if score == top:
                winners.append([x for r in rows for x in r])
            return
        bound = total + (4 - len(rows)) * best_row + sum(completion[c] for c in columns)
        if bound < TARGET:
            return
        for row in below[rows[-1]] if rows else lines:
            search([*rows, row], total + row_value[row])

    search([], 0)
    return top, winners, nodes


def test_no_valid_full_board_scores_more_than_544() -> None:
    top, winners, nodes = _best_boards()
    assert top == TARGET
    best = codes_of("3333", "4444", "5555", "6666")
    assert best in winners
    # exactly the symmetric images of that board: flipped upside down, and both transposed
    flipped = codes_of("6666", "5555", "4444", "3333")
    images = [best, flipped]
    images += [[b[c * 4 + r] for r in range(4) for c in range(4)] for b in images]
    assert sorted(winners) == sorted(images)
    for board in winners:
        assert score_codes(board, 0).total == TARGET
    assert nodes > 1


def test_the_544_board_is_reachable_in_a_game() -> None:
    s = GameState.new(Difficulty.NIGHTMARE, seed=0)
    for row, value in enumerate((3, 4, 5, 6)):
        s = s.roll_with((value,) * 4)
        assert s.phase is Phase.PLACE
        for die in range(4):
            s = s.apply(Stage(die, row * 4 + die))
        s = s.apply(Confirm())
    assert s.phase is Phase.OVER
    assert s.turn == 4
    assert s.score().total == TARGET
