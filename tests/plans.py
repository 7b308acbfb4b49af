"""Plain turns planned by the engine, shared by the API, store and page tests."""

from __future__ import annotations

from magdagdon.engine import Action, Confirm, GameState, Phase, Roll, Ruin, Stage


def plan_placement(state: GameState) -> list[Stage]:
    """In phase place: stages (in order) that reach the turn's minimum (depth-first search)."""

    def search(s: GameState) -> list[Stage] | None:
        if len(s.order) >= s.min_required:
            return []
        for action in s.legal_actions():
            if isinstance(action, Stage):
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
