"""Plain turns planned by the engine, shared by the API, store and page tests."""

from __future__ import annotations

from magdagdon.engine import OFF, Action, Confirm, GameState, Phase, Roll, Ruin, Stage, Unstage


def plan_placement(state: GameState) -> list[Stage]:
    """In phase place: the stages, in order, that take ``state`` to the turn's minimum — the
    first such sequence depth first, in legal-action order (from what is staged already)."""

    def search(s: GameState) -> list[Stage] | None:
        if s.can_confirm:
            return []
        for action in s.stage_actions():
            assert isinstance(action, Stage)
            rest = search(s.apply(action))
            if rest is not None:
                return [action, *rest]
        return None

    plan = search(state)
    assert plan is not None, f"no placement reaches the minimum from {state!r}"
    return plan


def plain_turn(state: GameState) -> list[Action]:
    """The actions of a turn without Powers: roll, or the planned stages and CONFIRM, or a RUIN."""
    if state.phase is Phase.ROLL:
        return [Roll()]
    if state.phase is Phase.PLACE:
        return [*plan_placement(state), Confirm()]
    if state.phase is Phase.MAGDAGDON:
        return [Ruin(state.empty_cells()[0])]
    return []


def cascade_pair(state: GameState) -> tuple[Stage, Stage] | None:
    """Two stages of ``state`` where returning the first takes the second back with it (the
    second touches only the first), or None."""
    for first in state.legal_actions():
        if not isinstance(first, Stage):
            continue
        after = state.apply(first)
        for second in after.legal_actions():
            if (
                isinstance(second, Stage)
                and after.apply(second).apply(Unstage(first.die)).staged[second.die] == OFF
            ):
                return first, second
    return None
