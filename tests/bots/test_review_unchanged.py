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
            226.91120862671667,
            226.91120862671667,
            181.1968628786749,
            181.1968628786749,
            181.19686287867484,
            181.19686287867484,
            184.24210440404698,
            184.24210440404698,
            168.80292588785548,
            168.80292588785548,
            196.19647805914113,
            196.19647805914113,
            169.78234163968565,
            169.78234163968565,
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
            418.8779136372792,
            418.8779136372792,
            416.6256875141576,
            416.6256875141576,
            416.6256875141576,
            416.6256875141576,
            416.6256875141576,
            416.6256875141576,
            375.60728344809263,
            375.60728344809263,
            375.60728344809263,
            375.60728344809263,
            398.08188736973074,
            398.08188736973074,
            398.08188736973074,
            398.08188736973074,
            414.19396621034247,
            414.19396621034247,
            414.19396621034247,
            414.19396621034247,
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
            355.53560506783685,
            355.53560506783685,
            380.7538924714143,
            380.7538924714143,
            380.7538924714143,
            380.7538924714143,
            313.66079686215534,
            313.66079686215534,
            307.30476487019706,
            307.30476487019706,
            329.62168244642027,
            329.62168244642027,
            318.7050511924727,
            318.7050511924727,
            334.80564412699107,
            334.80564412699107,
            334.80564412699107,
            334.80564412699107,
            334.4431906782006,
            334.4431906782006,
            331.88544589942006,
            331.88544589942006,
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
            418.8779136372792,
            418.8779136372792,
            406.28247997196615,
            406.28247997196615,
            390.9877881035284,
            390.9877881035284,
            397.6052700304932,
            397.6052700304932,
            314.13606070162507,
            314.13606070162507,
            314.11842264977577,
            314.11842264977577,
            227.4977545205704,
            227.4977545205704,
            201.0891679006112,
            201.0891679006112,
            201.0891679006112,
            201.0891679006112,
            136.44838333937946,
            136.44838333937946,
            142.62410326309478,
            142.62410326309478,
            77.41694143645667,
            77.41694143645667,
            94.52791394116707,
            94.52791394116707,
            67.68258127150365,
            67.68258127150365,
            59.37758102367511,
            59.37758102367511,
            57.87664627378575,
            57.87664627378575,
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
            418.8779136372792,
            418.8779136372792,
            411.5966500246207,
            411.5966500246207,
            376.56642139267217,
            376.56642139267217,
            404.94980570443687,
            404.94980570443687,
            404.94980570443687,
            404.94980570443687,
            390.6827118184608,
            390.6827118184608,
            341.16215580293135,
            341.16215580293135,
            354.8581562253402,
            354.8581562253402,
            354.8581562253402,
            354.8581562253402,
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
