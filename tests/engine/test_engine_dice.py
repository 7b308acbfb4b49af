"""The dice stream: ``draw`` reads the same dice as ``die_value``, whatever block it starts in."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from magdagdon.engine.dice import die_value, draw


@given(
    seeds=st.lists(st.integers(0, 2**63 - 1), min_size=1, max_size=3),
    start=st.integers(0, 100),
    count=st.integers(1, 4),
)
def test_draw_is_die_value_in_sequence(seeds: list[int], start: int, count: int) -> None:
    # Several seeds in turn, so that a block kept from one game is never read for another.
    for seed in seeds:
        assert draw(seed, start, count) == tuple(die_value(seed, start + i) for i in range(count))


def test_draw_across_a_block_boundary() -> None:
    # Dice 6–9 of a stream span its first two blocks of eight.
    assert draw(7, 6, 4) == (die_value(7, 6), die_value(7, 7), die_value(7, 8), die_value(7, 9))


def test_die_value_is_a_fixed_stream() -> None:
    # Pinned: a saved game replays only while the stream never changes.
    assert [die_value(7, i) for i in range(8)] == [2, 6, 4, 1, 4, 1, 4, 3]
    assert draw(7, 0, 4) + draw(7, 4, 4) == (2, 6, 4, 1, 4, 1, 4, 3)
