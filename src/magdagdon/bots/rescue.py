"""The expectation over the 126 rolls of four dice of the best board each roll leaves, a roll
that places nothing taking a RUIN's value or, with a Power use left, the best board one BAWAS −1 /
DAGDAG +1 away less its penalty.

The look-ahead asks it of a turn's table (the best value of each multiset of dice it can place)
once for every Power penalty, and near the end of a game those tables are small: a few multisets
each, most rolls placing none of them. So for a small table each roll's value is read through a
pick kept by the table's multisets ranked best first: a roll takes the best multiset it holds, a
roll that places nothing the best one a change away (that one less the penalty, or the RUIN's if
that is more). Rounding keeps order (x − penalty never falls as x rises), so this is the best of
each less the penalty, and the sum adds the same products in the same order as the roll by roll
loop of a larger table (``rescued``): the same value to the last bit.
"""

from __future__ import annotations

from functools import cache, lru_cache
from operator import mul
from typing import cast

from magdagdon.bots.ordered import ordered_sum
from magdagdon.bots.planner import ONE_CHANGE, ROLL_CHANCES, ROLL_VALUES, SUPERSETS, best_by_roll

#: Tables of at most this many multisets are read through a kept pick (``_pick``); a larger
#: table's rankings seldom come again (callgrind, a PEACEFUL review: 4 → 10 saves 0.9 % of its
#: instructions, 24 less).
SMALL = 10


def rescued_mean(table: dict[tuple[int, ...], float], ruin: float, penalty: int | None) -> float:
    """The mean over the 126 rolls of the best value in ``table`` of a multiset each roll holds,
    a roll that holds none taking ``ruin`` or, with a use left (``penalty`` not None), the best
    value one change away less ``penalty`` where that is more."""
    if len(table) > SMALL:
        return rescued(best_by_roll(table), ruin, penalty)
    order, values = _ranked(table)
    return _small_mean(order, values, ruin, _saved(values, ruin, penalty), penalty is not None)


def rescued_means(
    table: dict[tuple[int, ...], float], asked: list[tuple[float, int | None]]
) -> list[float]:
    """:func:`rescued_mean` of ``table`` for each ``(ruin, penalty)`` of ``asked``, the table
    ranked (or read roll by roll) once for all of them, and a mean whose rolls all take the
    same values as one before it not summed again."""
    if len(table) > SMALL:
        best = best_by_roll(table)
        gaps = gaps_of(best)
        return [rescued(best, ruin, penalty, gaps) for ruin, penalty in asked]
    order, values = _ranked(table)
    means: dict[tuple[float, tuple[float, ...]], float] = {}
    found = []
    for ruin, penalty in asked:
        saved = _saved(values, ruin, penalty)
        mean = means.get((ruin, saved))
        if mean is None:
            mean = _small_mean(order, values, ruin, saved, penalty is not None)
            means[ruin, saved] = mean
        found.append(mean)
    return found


def _ranked(
    table: dict[tuple[int, ...], float],
) -> tuple[tuple[tuple[int, ...], ...], list[float]]:
    """A small table's multisets, best first, and their values."""
    order = tuple(sorted(table, key=table.__getitem__, reverse=True))
    return order, [table[part] for part in order]


def _saved(values: list[float], ruin: float, penalty: int | None) -> tuple[float, ...]:
    """What a roll that places nothing takes when one of ``values`` (best first) is a change
    away: that value less ``penalty`` where that is more than ``ruin``, else ``ruin``; with no use
    left (``penalty`` None), ``ruin`` always."""
    if penalty is None:
        return (ruin,) * len(values)
    return tuple(value - penalty if value - penalty > ruin else ruin for value in values)


def _small_mean(
    order: tuple[tuple[int, ...], ...],
    values: list[float],
    ruin: float,
    saved: tuple[float, ...],
    rescue: bool,
) -> float:
    """The mean of a table of at most ``SMALL`` multisets (``order``, best first, and their
    ``values``), each roll through the pick (with the rolls a change away where ``rescue``; where
    a ``saved`` is all ``ruin``, with them or without, each roll takes the same value)."""
    at = (*values, *saved, ruin).__getitem__
    return ordered_sum(map(mul, ROLL_CHANCES, map(at, _pick(order, rescue))))


@lru_cache(maxsize=4096)
def _pick(order: tuple[tuple[int, ...], ...], rescue: bool) -> tuple[int, ...]:
    """For each roll, where its value is, for a table of the multisets ``order`` (best first):
    the rank of the best it holds; else (``rescue``) the count of multisets plus the rank of the
    best one a change away; else twice the count (the RUIN's)."""
    count = len(order)
    none = 2 * count
    pick = [none] * len(ROLL_VALUES)
    for rank, part in enumerate(order):
        for i in SUPERSETS[part]:
            if pick[i] == none:
                pick[i] = rank
    for rank, part in enumerate(order if rescue else ()):
        for i in _near(part):
            if pick[i] == none:
                pick[i] = count + rank
    return tuple(pick)


@cache
def _near(part: tuple[int, ...]) -> tuple[int, ...]:
    """The rolls one BAWAS −1 / DAGDAG +1 away from a roll that holds ``part`` (found when first
    asked: a process that reviews nothing pays nothing for them)."""
    holders = set(SUPERSETS[part])
    return tuple(i for i in range(len(ROLL_VALUES)) if not holders.isdisjoint(ONE_CHANGE[i]))


def by_roll(table: dict[tuple[int, ...], float], ruin: float) -> list[float]:
    """For each of the 126 rolls, the best value in ``table`` of a multiset it holds, ``ruin``
    where it holds none (a new list)."""
    if len(table) > SMALL:
        return [ruin if value is None else value for value in best_by_roll(table)]
    order = tuple(sorted(table, key=table.__getitem__, reverse=True))
    at = (*(table[part] for part in order), *(ruin for _ in order), ruin).__getitem__
    return list(map(at, _pick(order, False)))


def rescued(
    best: list[float | None], ruin: float, penalty: int | None, gaps: list[int] | None = None
) -> float:
    """The expectation over the 126 rolls of the best board each leaves (``best``), a roll
    that places nothing taking the RUIN's ``ruin`` or, with a use left, the best one BAWAS −1 /
    DAGDAG +1 away less ``penalty``. ``gaps``: the rolls that place nothing, where a caller
    keeps them (``gaps_of``)."""
    if gaps is None:
        gaps = gaps_of(best)
    if not gaps:
        return ordered_sum(map(mul, ROLL_CHANCES, cast("list[float]", best)))
    values = best.copy()
    for i in gaps:
        value = ruin
        if penalty is not None:
            for j in ONE_CHANGE[i]:
                saved = best[j]
                if saved is not None and saved - penalty > value:
                    value = saved - penalty
        values[i] = value
    return ordered_sum(map(mul, ROLL_CHANCES, cast("list[float]", values)))


def gaps_of(best: list[float | None]) -> list[int]:
    """The rolls of ``best`` that place nothing."""
    return [i for i, value in enumerate(best) if value is None]
