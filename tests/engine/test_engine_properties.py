"""Random games through the engine, checking the rules' invariants after every action.

hypothesis draws a difficulty, a seed and, at every step, which legal action to take (and now and
then an action to try that may be illegal). Every check is written independently from docs/rules.md
(see ``engine_helpers``), not with the engine's own search or masks.
"""

from __future__ import annotations

import pytest
from engine_helpers import (
    copy_of,
    live_codes,
    ref_can_place,
    ref_connected,
    ref_neighbours_ok,
    ref_score,
    ref_valid_cells,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from magdagdon.engine import (
    Action,
    Adjust,
    Confirm,
    Difficulty,
    GameState,
    IllegalActionError,
    Phase,
    Reroll,
    Roll,
    Ruin,
    Stage,
    Unstage,
    action_from_json,
    action_to_json,
    replay,
    state_from_json,
    state_to_json,
)
from plans import plan_placement

BASE_MINIMUM = {Difficulty.PEACEFUL: 2, Difficulty.SURVIVAL: 2, Difficulty.NIGHTMARE: 3}
PENALTIES: dict[Difficulty, tuple[int, ...]] = {
    Difficulty.PEACEFUL: (10, 20, 40),
    Difficulty.SURVIVAL: (70,),
    Difficulty.NIGHTMARE: (),
}
ACTIONS_PER_TURN = 8  # after this many actions in a turn, the game is driven to the turn's end


def _check_invariants(s: GameState, log: list[Action]) -> None:
    # legal_actions(): no action twice, the stages first; stage_actions() is that start
    listed = list(s.legal_actions())
    assert len(set(listed)) == len(listed)
    stages = [a for a in listed if isinstance(a, Stage)]
    assert listed[: len(stages)] == stages
    assert list(s.stage_actions()) == stages
    for action in listed:
        assert action_from_json(action_to_json(action)) == action
    codes = s.codes()
    live = live_codes(s)
    # one connected field of numbers, neighbours within 1 — permanent and live
    for board in (codes, live):
        assert ref_connected(board), board
        assert ref_neighbours_ok(board), board
    # the score, recounted
    penalty = sum(PENALTIES[s.difficulty][: s.powers_used])
    assert s.power_penalty == penalty
    assert s.score().total == ref_score(codes, penalty)
    # codec and replay; a state rebuilt from scratch answers the same as this one, which may
    # have been reached through the engine's caches (a position met before in the roll)
    rebuilt = state_from_json(state_to_json(s))
    assert rebuilt == s
    assert rebuilt.legal_actions() == s.legal_actions()
    assert rebuilt.stuck == s.stuck
    assert replay(s.difficulty, s.seed, log) == s
    # the turn count and the game's length
    assert s.turn == sum(isinstance(a, Roll) for a in log)
    assert s.turn <= 32
    assert 0 <= s.powers_used <= len(PENALTIES[s.difficulty])
    empty = codes.count(0)
    if s.phase is not Phase.OVER:
        assert s.min_required == min(BASE_MINIMUM[s.difficulty], empty)
    # phase-specific
    if s.phase in (Phase.ROLL, Phase.OVER):
        assert s.dice == ()
        assert s.staged == ()
        assert s.order == ()
    else:
        assert len(s.dice) == 4
        assert sorted(s.order) == [d for d, c in enumerate(s.staged) if c >= 0]
    if s.phase is not Phase.PLACE:
        assert s.valid_cells() == {}
        assert not s.can_confirm
        assert not s.stuck
    assert s.can_confirm == (s.phase is Phase.PLACE and len(s.order) >= s.min_required)
    assert (s.phase is Phase.OVER) == (empty == 0)
    if s.phase is Phase.PLACE:
        assert ref_can_place(codes, s.dice, s.min_required)
        cells = s.valid_cells()
        assert set(cells) == set(s.tray)
        for die in s.tray:
            assert cells[die] == ref_valid_cells(live, s.dice[die])
        need = s.min_required - len(s.order)
        tray_values = tuple(s.dice[d] for d in s.tray)
        assert s.stuck == (need > 0 and not ref_can_place(live, tray_values, need))
    if s.phase is Phase.MAGDAGDON:
        assert not ref_can_place(codes, s.dice, s.min_required)
        assert s.live == s.board
        assert s.order == ()


def _candidate(data: st.DataObject) -> Action:
    """An action that may or may not be legal now."""
    die = st.integers(-1, 4)
    target = st.integers(-1, 16)
    dice = st.lists(st.integers(-1, 4), max_size=5).map(tuple)
    action: Action = data.draw(
        st.one_of(
            st.just(Roll()),
            st.just(Confirm()),
            st.builds(Stage, die, target),
            st.builds(Unstage, die),
            st.builds(Adjust, die, st.integers(-2, 2)),
            st.builds(Reroll, dice),
            st.builds(Ruin, target),
        ),
        label="try",
    )
    return action


def _normal(action: Action) -> Action:
    if isinstance(action, Reroll) and len(set(action.dice)) == len(action.dice):
        return Reroll(tuple(sorted(action.dice)))
    return action


def _try(s: GameState, action: Action) -> None:
    """A legal action is accepted; any other raises and leaves the state as it was."""
    legal = list(s.legal_actions())
    before = copy_of(s)
    if _normal(action) in legal:
        s.apply(action)
        return
    with pytest.raises(IllegalActionError) as info:
        s.apply(action)
    assert info.value.code != "illegal_action"
    assert s == before
    assert list(s.legal_actions()) == legal


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(difficulty=st.sampled_from(Difficulty), seed=st.integers(0, 2**63), data=st.data())
def test_random_games_keep_every_invariant(
    difficulty: Difficulty, seed: int, data: st.DataObject
) -> None:
    s = GameState.new(difficulty, seed)
    log: list[Action] = []
    in_turn = 0
    _check_invariants(s, log)
    while not s.is_over:
        if data.draw(st.integers(0, 3), label="probe") == 0:
            _try(s, _candidate(data))
        legal = list(s.legal_actions())
        assert legal, "a legal action exists until the end"
        if in_turn >= ACTIONS_PER_TURN and s.phase is Phase.PLACE:
            while s.stuck:
                log.append(Unstage(s.order[-1]))
                s = s.apply(log[-1])
            chosen: list[Action] = [*plan_placement(s), Confirm()]
        elif in_turn >= ACTIONS_PER_TURN and s.phase is Phase.MAGDAGDON:
            chosen = [Ruin(data.draw(st.sampled_from(s.empty_cells()), label="ruin"))]
        else:
            chosen = [legal[data.draw(st.integers(0, len(legal) - 1), label="pick")]]
        for action in chosen:
            s = s.apply(action)
            log.append(action)
            in_turn = 0 if isinstance(action, Roll) else in_turn + 1
            _check_invariants(s, log)
    assert list(s.legal_actions()) == []
    assert s.turn <= 16
