"""The dice: a counter-based, seedable stream, and a roll's exact chance outcomes.

Die number ``n`` of a game (counting every die drawn, rerolls included) is a pure function of the
game's seed and ``n``, so a state needs only its seed and a counter to go on rolling, and replaying
seed + actions reproduces every die. Search code does not draw at all: it enumerates
:func:`roll_outcomes` and applies each outcome with its weight.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement
from math import factorial
from typing import TYPE_CHECKING

from magdagdon.engine.rules import VALUES

if TYPE_CHECKING:
    from collections.abc import Callable

MASK64 = (1 << 64) - 1
#: SplitMix64's constants (Steele, Lea and Flood, 2014): the gamma its states step by, and the
#: multipliers of its two mixing rounds.
GAMMA = 0x9E3779B97F4A7C15
MIX1, MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def splitmix64(z: int) -> int:
    """SplitMix64's output function of a 64-bit state: two xorshift-multiply rounds, then a last
    xorshift.

    >>> splitmix64(GAMMA)  # the first output of the generator seeded with 0
    16294208416658607535
    """
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def _block(seed: int, block: int) -> int:
    """64 random bits: SplitMix64 of the seed and a block number."""
    return splitmix64((seed * GAMMA + (block + 1) * 0xD1B54A32D192ED03) & MASK64)


_DIGITS = 8  # dice a block of 64 bits gives: base-6 digits 0–7 (bias below 1e-12)
_POWERS: tuple[int, ...] = tuple(6**i for i in range(_DIGITS))


def die_value(seed: int, index: int) -> int:
    """Die ``index`` of the stream of ``seed``: 1–6.

    Block ``index // 8`` of the stream is SplitMix64 of the seed and the block number; the die is
    base-6 digit ``index % 8`` of it.

    >>> [die_value(7, i) for i in range(8)]
    [2, 6, 4, 1, 4, 1, 4, 3]
    """
    block, digit = divmod(index, _DIGITS)
    return _block(seed, block) // _POWERS[digit] % 6 + 1


def draw(seed: int, start: int, count: int) -> tuple[int, ...]:
    """``count`` dice of the stream of ``seed`` from die ``start`` on."""
    block, digit = divmod(start, _DIGITS)
    dice = _block_dice(seed, block)
    end = digit + count
    if end <= _DIGITS:
        return dice[digit:end]
    return dice[digit:] + draw(seed, (block + 1) * _DIGITS, end - _DIGITS)


_SIX4 = 6**4
#: The four dice of each number below 6**4: its base-6 digits + 1, lowest first.
_FOUR: tuple[tuple[int, ...], ...] = tuple(
    tuple(n // 6**i % 6 + 1 for i in range(4)) for n in range(_SIX4)
)

#: The dice of the block last drawn: a game's next roll usually reads the same block.
_last: tuple[int, int, tuple[int, ...]] = (0, -1, ())


def _block_dice(seed: int, block: int) -> tuple[int, ...]:
    """The eight dice of one block of the stream (as :func:`die_value`)."""
    global _last
    last = _last
    if last[1] == block and last[0] == seed:
        return last[2]
    bits = _block(seed, block)
    dice = _FOUR[bits % _SIX4] + _FOUR[bits // _SIX4 % _SIX4]
    _last = (seed, block, dice)
    return dice


@cache
def roll_outcomes(count: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every distinct outcome of rolling ``count`` dice, sorted, with its number of ways.

    The ways add up to ``6 ** count``; the probability of an outcome is ``ways / 6 ** count``.

    >>> len(roll_outcomes(4)), sum(w for _, w in roll_outcomes(4))
    (126, 1296)
    """
    out = []
    for values in combinations_with_replacement(VALUES, count):
        ways = factorial(count)
        for v in set(values):
            ways //= factorial(values.count(v))
        out.append((values, ways))
    return tuple(out)


@cache
def roll_chances(count: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every distinct outcome of rolling ``count`` dice, sorted, with its exact probability (in
    :func:`roll_outcomes` order).

    >>> roll_chances(2)[:2]  # a double one, then a one and a two
    (((1, 1), 0.027777777777777776), ((1, 2), 0.05555555555555555))
    """
    total = _ways(count)
    return tuple((values, ways / total) for values, ways in roll_outcomes(count))


def roll_expectation(count: int, value: Callable[[tuple[int, ...]], float]) -> float:
    """The expectation of ``value`` over the outcomes of rolling ``count`` dice (each outcome
    sorted, weighed by its ways).

    >>> roll_expectation(1, lambda values: values[0])  # the mean of one die
    3.5
    """
    total = 0.0
    for values, ways in roll_outcomes(count):
        total += ways * value(values)
    return total / _ways(count)


def _ways(count: int) -> int:
    """The number of ways ``count`` dice can fall (the outcomes' ways add up to it)."""
    return int(len(VALUES) ** count)
