"""V on a board with no number yet (RUINs only, docs/bots.md "The whole board at the edge"):
how far V before a roll stands from the exact mean of V over the roll's outcomes, on boards of
RUINs at the counts whose tables read the whole board's levels.

Such a board comes after a MAGDAGDON on each roll from the start, so it is rare (ten empty
cells on NIGHTMARE take six in a row, about 0.5 % of games), and the tables saw none when they
were fitted.

Usage: ``python bench/no_number_bench.py [--boards 40]`` (one core, about a minute). For each
difficulty and count of RUINs: ``--boards`` boards drawn at random (one of each set of images),
each at every count of Power uses, and the RMS, mean and largest of V − mean.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
from typing import TYPE_CHECKING

from magdagdon.bots.value import Values
from magdagdon.engine import Difficulty, GameState
from magdagdon.engine.board import RUIN_CODE, from_codes
from magdagdon.engine.board_codes import EMPTY, images

if TYPE_CHECKING:
    from collections.abc import Iterator

    from magdagdon.engine.board_codes import Codes

#: By difficulty, the counts of RUINs measured: boards at the counts of empty cells whose tables
#: read the whole board's levels (NIGHTMARE 10, 9 and 8 cells; SURVIVAL 8).
RUINS = {Difficulty.NIGHTMARE: (6, 7, 8), Difficulty.SURVIVAL: (8,)}


def no_number_boards(ruins: int, count: int, rng: random.Random) -> Iterator[Codes]:
    """``count`` boards of ``ruins`` RUINs and no number, no two images of one board."""
    seen: set[Codes] = set()
    placings = list(itertools.combinations(range(16), ruins))
    rng.shuffle(placings)
    for cells in placings:
        codes = tuple(RUIN_CODE if cell in cells else EMPTY for cell in range(16))
        key = min(images(codes))
        if key not in seen:
            seen.add(key)
            yield codes
            if len(seen) == count:
                return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=40)
    args = parser.parse_args()
    values = Values(memo=200_000)
    for difficulty, counts in RUINS.items():
        for ruins in counts:
            gaps: list[float] = []
            for codes in no_number_boards(ruins, args.boards, random.Random(ruins)):
                for used in range(difficulty.power_uses + 1):
                    board = from_codes(list(codes))
                    state = GameState(difficulty, 1, board=board, powers_used=used)
                    gaps.append(values.explain(state)[0].value - values.expected(state))
            rms = math.sqrt(sum(g * g for g in gaps) / len(gaps))
            print(
                f"{difficulty.value:9} {16 - ruins:2} empty, no number: {len(gaps):3} nodes  "
                f"V - mean RMS {rms:5.1f}  mean {sum(gaps) / len(gaps):+5.1f}  "
                f"largest {max(gaps, key=abs):+6.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
