"""What an operator may do about players (``magdagdon admin``): list the names on a day's
tables, hide a name (everyone else sees the neutral "Manlalaro XXXX"; the player is told in
SETTINGS) or show it again, clear it, and forget a player with everything of theirs. Each action
and its entry in the moderation log are one transaction.

A player is named by :func:`~magdagdon.services.players.player_id`, twelve digits from a hash
of the cookie's token: the listing shows it, the log keeps it, and neither reveals the token.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from magdagdon import clock
from magdagdon.services.players import player_id
from magdagdon.store.moderation import LogEntry

if TYPE_CHECKING:
    from magdagdon.store import Rows, Store

ID_LENGTH = 12


class UnknownPlayerError(LookupError):
    """No player has that id (or the id is not one)."""


@dataclass(frozen=True, slots=True)
class NameRow:
    """A ranked attempt of the day as an operator sees it: the name as kept, hidden or not."""

    difficulty: str
    rank: int
    score: int
    game_id: str
    player: str  # the player's id
    name: str | None
    name_hidden: bool


def day_names(store: Store, day: str) -> list[NameRow]:
    """The ranked attempts of ``day`` (YYYY-MM-DD) on this server, by difficulty, best first."""
    with store.read() as reads:
        found = reads.day_names(day)
    rows: list[NameRow] = []
    rank = 0
    for index, row in enumerate(found):
        rank = 1 if index == 0 or found[index - 1].difficulty != row.difficulty else rank + 1
        rows.append(
            NameRow(
                row.difficulty,
                rank,
                row.score,
                row.game_id,
                player_id(row.player),
                row.name,
                row.name_hidden,
            )
        )
    return rows


def _token(rows: Rows, wanted: str) -> str:
    wanted = wanted.strip().upper()
    if len(wanted) != ID_LENGTH:
        raise UnknownPlayerError(f"a player id has {ID_LENGTH} hexadecimal digits: {wanted!r}")
    for token in rows.player_tokens():
        if player_id(token) == wanted:
            return token
    raise UnknownPlayerError(f"no player has the id {wanted}")


def _act(store: Store, operator: str, action: str, wanted: str) -> str:
    """Do ``action`` on the player ``wanted`` and log it, in one transaction; answer the
    log's detail."""
    with store.write() as rows:
        token = _token(rows, wanted)
        kept = rows.kept_name(token)
        if kept is None:
            raise UnknownPlayerError(f"no player has the id {wanted}")
        name, _hidden = kept
        if action == "hide":
            rows.set_name_hidden(token, True)
            detail = f"name {name!r}" if name is not None else "no name set"
        elif action == "show":
            rows.set_name_hidden(token, False)
            detail = f"name {name!r}" if name is not None else "no name set"
        elif action == "reset_name":
            rows.clear_name(token)
            detail = f"was {name!r}" if name is not None else "no name set"
        else:
            removed = rows.forget_player(token)
            detail = ", ".join(f"{table} {count}" for table, count in removed.items())
        entry = LogEntry(clock.stamp(clock.now()), operator, action, player_id(token), detail)
        rows.record_moderation(entry)
    return detail


def hide_name(store: Store, operator: str, player: str) -> str:
    """Everyone but the player sees the neutral name, whatever name they set, until
    :func:`show_name`."""
    return _act(store, operator, "hide", player)


def show_name(store: Store, operator: str, player: str) -> str:
    return _act(store, operator, "show", player)


def reset_name(store: Store, operator: str, player: str) -> str:
    """Clear the name (the player may choose another)."""
    return _act(store, operator, "reset_name", player)


def forget(store: Store, operator: str, player: str) -> str:
    """Remove the player, their games (with logs, results, reviews), High Scores and device
    links: the day's tables then rank without them. Answer what was removed."""
    return _act(store, operator, "forget", player)


def log(store: Store, limit: int = 100) -> list[LogEntry]:
    with store.read() as reads:
        return reads.moderation_log(limit)
