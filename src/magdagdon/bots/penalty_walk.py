"""The look-ahead's exact tables walked once for every Power penalty still to come.

Near the end (``Settings.exact``) the look-ahead's value of a board depends on the penalty of
the next Power use only through a roll that places nothing and may be saved by BAWAS −1 /
DAGDAG +1; the boards each multiset of values can leave are the same for every penalty. A
review's exact means value each outcome of an I-ROLL ULIT with one more use made, so the same
boards are asked with each later penalty in turn: :func:`boards_by_multiset` lists them once,
and the look-ahead takes each penalty's best from the list (``ExpectimaxBot.after_turn``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from magdagdon.bots.planner import _BITS, _WITH, _number
from magdagdon.engine.board import frame_place, frame_valid_all, iter_cells
from magdagdon.engine.board_codes import Codes, frame_of_codes
from magdagdon.engine.rules import VALUES
from magdagdon.engine.scoring import board_points

if TYPE_CHECKING:
    from collections.abc import Callable

    from magdagdon.engine.board import Frame


def boards_by_multiset(codes: Codes, low: int, high: int) -> dict[tuple[int, ...], list[Codes]]:
    """For every multiset of ``low``–``high`` values that can be staged on ``codes`` (sorted
    tuple), the boards it can leave, each once: the boards ``planner.extension_table`` scores
    under that multiset, so the best of each list is its table's entry for any score."""
    groups: dict[tuple[int, ...], list[Codes]] = {}
    seen: set[int] = set()  # the boards met, as ints (3 bits a cell): one is met in many orders
    add = seen.add

    def grow(board: Codes, number: int, frame: Frame, used: tuple[int, ...]) -> None:
        depth = len(used) + 1
        scored, deeper = depth >= low, depth < high
        with_value = _WITH[used]
        valid = frame_valid_all(frame)
        for value in VALUES:
            cells = valid[value]
            if not cells:
                continue
            key = with_value[value]
            bits = _BITS[value]
            for cell in iter_cells(cells):
                after_number = number | bits[cell]
                if after_number in seen:
                    continue
                add(after_number)
                after = board[:cell] + (value,) + board[cell + 1 :]  # noqa: RUF005 (put, inline)
                if scored:
                    found = groups.get(key)
                    if found is None:
                        groups[key] = [after]
                    else:
                        found.append(after)
                if deeper:
                    grow(after, after_number, frame_place(frame, cell, value), key)

    grow(codes, _number(codes), frame_of_codes(codes), ())
    return groups


def best_by_multiset(
    groups: dict[tuple[int, ...], list[Codes]], score: Callable[[Codes], float]
) -> dict[tuple[int, ...], float]:
    """Each multiset's best ``score`` of the boards it leaves (``groups``): the table
    ``planner.extension_table`` makes for ``score``."""
    return {part: max(map(score, boards)) for part, boards in groups.items()}


def points(board: Codes) -> float:
    """A full board's value to the end: its points (no roll, no Power changes it). A turn that
    must fill every empty cell leaves only such boards, so one table of them serves every
    penalty and every count of uses made."""
    return float(board_points(board))
