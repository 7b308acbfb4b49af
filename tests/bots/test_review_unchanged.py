"""The review made faster says what it said: on literal games of every difficulty (a greedy
player's, whose boards are unlike the computer's, so that the review takes the exact mean of V
before many rolls; the computer's own, with its Powers and rerolls; a random player's who uses
Powers), V at the start and the exact value before and after every step, to the last bit, as the
review computed them before its memos and the faster evaluation (``docs/bots.md``, "The
review's cost"). V is pinned with its correction by the board as committed
(``bots/value_board.py``) and the review's way of valuing as committed (``REVIEW_FORMAT``):
refitting those tables or changing that way moves it, and the literals are then written again
from the code as it stands."""

from __future__ import annotations

import pytest

import magdagdon.bots.review as review
from action_logs import actions_of
from magdagdon.bots.value import Values
from magdagdon.engine import Difficulty

PEACEFUL, SURVIVAL, NIGHTMARE = Difficulty.PEACEFUL, Difficulty.SURVIVAL, Difficulty.NIGHTMARE

#: (difficulty, seed, the action log (R roll, C confirm, S die cell, U die, A die ±, X dice, M
#: cell; cells in hex), V at the start then each step's exact before and after).
GAMES: list[tuple[Difficulty, int, str, tuple[float, ...]]] = [
    (
        NIGHTMARE,
        584399246,
        # greedy
        ("R S01 S15 S39 C R S10 S26 S38 C R S02 S14 S3a C R S0b S1e S3c C R Md R M7 R S13 S3f C "),
        (
            227.47967146494918,
            227.47967146494918,
            182.80570598464908,
            182.80570598464908,
            182.80570598464905,
            182.80570598464905,
            179.8437304981042,
            179.8437304981042,
            170.79400051284486,
            170.79400051284486,
            197.7343349496201,
            197.7343349496201,
            171.06573956060197,
            171.06573956060197,
            219.78549613025405,
            219.78549613025405,
            219.78549613025405,
            219.78549613025405,
            196.11748611322798,
            196.11748611322798,
            190.33011063904547,
            190.33011063904547,
            178.92506858710541,
            178.92506858710541,
            178.92506858710541,
            178.92506858710541,
            174.0,
            174.0,
            174.0,
        ),
    ),
    (
        PEACEFUL,
        2,
        # expectimax
        (
            "R A0+ S06 S1a S3e C R X0123 S09 S12 S2d S31 C R S0c S25 S38 C R S07 S1f S20 C R A2- "
            "S24 S3b C R M3 "
        ),
        (
            419.58890892398233,
            419.58890892398233,
            417.63944128221425,
            417.63944128221425,
            417.63944128221425,
            417.63944128221425,
            417.63944128221425,
            417.63944128221425,
            374.89145867649927,
            374.89145867649927,
            374.89145867649927,
            374.89145867649927,
            400.4912504309204,
            400.4912504309204,
            400.4912504309204,
            400.4912504309204,
            421.300501328155,
            421.300501328155,
            421.300501328155,
            421.300501328155,
            452.8724154304756,
            452.8724154304756,
            452.8724154304756,
            452.8724154304756,
            422.1959876543203,
            422.1959876543203,
            422.1959876543203,
            422.1959876543203,
            422.1959876543203,
            422.1959876543203,
            353.0,
            353.0,
            353.0,
        ),
    ),
    (
        SURVIVAL,
        5,
        # greedy
        (
            "R S15 S36 C R Md R S17 S24 C R S2a S0e C R S29 S3b C R S0f S21 S33 C R S10 S22 C R "
            "S18 S2c C "
        ),
        (
            355.6675625988122,
            355.6675625988122,
            382.11269669733593,
            382.11269669733593,
            382.11269669733593,
            382.11269669733593,
            307.0243364436749,
            307.0243364436749,
            308.96905486225376,
            308.96905486225376,
            321.67821175573,
            321.67821175573,
            315.95849262061654,
            315.95849262061654,
            329.2136251857568,
            329.2136251857568,
            329.2136251857568,
            329.2136251857568,
            334.445092317159,
            334.445092317159,
            333.07893859938275,
            333.07893859938275,
            339.10461735393187,
            339.10461735393187,
            339.10461735393187,
            339.10461735393187,
            358.38421341544756,
            358.38421341544756,
            358.38421341544756,
            358.38421341544756,
            331.0,
            331.0,
            331.0,
        ),
    ),
    (
        PEACEFUL,
        3,
        # randompow
        (
            "R S10 S24 C R S38 S05 X2 C R S09 A2+ S2d C R S1e X03 S01 C R S12 S2a C R S3f S16 C R "
            "S1c S3b C R S27 S33 C "
        ),
        (
            419.58890892398233,
            419.58890892398233,
            406.32318259521304,
            406.32318259521304,
            390.89003122210136,
            390.89003122210136,
            397.54237238700586,
            397.54237238700586,
            311.4804818163298,
            311.4804818163298,
            317.11960654038575,
            317.11960654038575,
            221.55923658540544,
            221.55923658540544,
            195.3946157091275,
            195.3946157091275,
            195.3946157091275,
            195.3946157091275,
            131.0874022499568,
            131.0874022499568,
            134.92721035874354,
            134.92721035874354,
            61.689955220590235,
            61.689955220590235,
            68.16968868693779,
            68.16968868693779,
            34.37724324689171,
            34.37724324689171,
            55.49209369586193,
            55.49209369586193,
            53.401020326293214,
            53.401020326293214,
            59.51981374540148,
            59.51981374540148,
            16.13203110767965,
            16.13203110767965,
            36.72236094440625,
            36.72236094440625,
            36.72236094440625,
            36.72236094440625,
            50.0,
            50.0,
            50.0,
        ),
    ),
    (
        PEACEFUL,
        7,
        # greedy
        (
            "R S0a S3e C R S36 S02 S25 C R S03 S3f C R S01 S29 C R S28 S0c C R S00 S14 C R M7 R "
            "S0d S1b C "
        ),
        (
            419.58890892398233,
            419.58890892398233,
            411.90665822126823,
            411.90665822126823,
            379.0652126190813,
            379.0652126190813,
            408.0501712295484,
            408.0501712295484,
            408.0501712295484,
            408.0501712295484,
            385.7015256467156,
            385.7015256467156,
            342.2411239517495,
            342.2411239517495,
            352.36987789697537,
            352.36987789697537,
            352.36987789697537,
            352.36987789697537,
            357.3769540249175,
            357.3769540249175,
            315.86405428937366,
            315.86405428937366,
            322.61763907629233,
            322.61763907629233,
            322.61763907629233,
            322.61763907629233,
            311.00000000000034,
            311.00000000000034,
            300.64559746276643,
            300.64559746276643,
            321.0,
            321.0,
            321.0,
        ),
    ),
]


@pytest.mark.parametrize(("difficulty", "seed", "log", "exact"), GAMES)
def test_the_review_is_the_one_before(
    monkeypatch: pytest.MonkeyPatch,
    difficulty: Difficulty,
    seed: int,
    log: str,
    exact: tuple[float, ...],
) -> None:
    seen: list[float] = []
    summary = review._summary

    def kept(start: float, end: object, steps: list[dict[str, object]]) -> dict[str, object]:
        seen.append(start)
        for step in steps:
            seen.extend(step["_exact"])  # type: ignore[arg-type]
        return summary(start, end, steps)  # type: ignore[arg-type]

    monkeypatch.setattr(review, "_summary", kept)
    review.review_game(difficulty, seed, actions_of(log), values=Values())
    assert seen == list(exact)
