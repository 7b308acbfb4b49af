"""Action logs written short, as the bots' tests pin whole games: ``R`` roll, ``C`` confirm,
``S`` die cell (a stage), ``U`` die (an unstage), ``A`` die ± (BAWAS −1 / DAGDAG +1), ``X`` dice
(I-ROLL ULIT), ``M`` cell (a RUIN); cells in hex."""

from __future__ import annotations

from magdagdon.engine import Action, Adjust, Confirm, Reroll, Roll, Ruin, Stage, Unstage


def actions_of(log: str) -> list[Action]:
    """The actions of a short log."""
    actions: list[Action] = []
    for word in log.split():
        kind, rest = word[0], word[1:]
        if kind == "R":
            actions.append(Roll())
        elif kind == "C":
            actions.append(Confirm())
        elif kind == "S":
            actions.append(Stage(int(rest[0]), int(rest[1:], 16)))
        elif kind == "U":
            actions.append(Unstage(int(rest)))
        elif kind == "A":
            actions.append(Adjust(int(rest[0]), 1 if rest[1] == "+" else -1))
        elif kind == "X":
            actions.append(Reroll(tuple(int(d) for d in rest)))
        else:
            assert kind == "M"
            actions.append(Ruin(int(rest, 16)))
    return actions
