"""``magdagdon admin``: moderation from the command line, on the database a server uses
(``--db`` as for ``serve``; the server may be running). Every action is logged with who did it
(the OS user, or ``--by``) and when; ``magdagdon admin log`` lists them.

    magdagdon admin names [--date YYYY-MM-DD]   the names on a day's tables (default today)
    magdagdon admin hide PLAYER                 show the neutral "Manlalaro XXXX" instead
    magdagdon admin show PLAYER                 show the player's name again
    magdagdon admin reset-name PLAYER           clear the name (the player may choose another)
    magdagdon admin forget PLAYER --yes         remove the player and everything of theirs
    magdagdon admin log [--limit N]             what operators did, the newest first

PLAYER is the twelve-digit id that ``names`` shows.
"""

from __future__ import annotations

import getpass
import sys
from datetime import date
from typing import TYPE_CHECKING

from magdagdon import clock

if TYPE_CHECKING:
    import argparse

    from magdagdon.store import Store

_ACTIONS = ("hide", "show", "reset-name", "forget")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``magdagdon admin`` to its sub-parser."""
    parser.add_argument("--db", default=None, metavar="PATH|URL", help="as for serve")
    parser.add_argument(
        "--by", default=None, metavar="WHO", help="who acts, for the log (default: the OS user)"
    )
    commands = parser.add_subparsers(dest="admin_command", required=True)
    names = commands.add_parser("names", help="list the names on a day's tables")
    names.add_argument("--date", type=date.fromisoformat, default=None, help="default today")
    for action, about in zip(
        _ACTIONS,
        (
            "everyone else sees the neutral name",
            "show the player's name again",
            "clear the name",
            "remove the player, their games, High Scores, links and reviews",
        ),
        strict=True,
    ):
        sub = commands.add_parser(action, help=about)
        sub.add_argument("player", metavar="PLAYER", help="the id that `names` shows")
        if action == "forget":
            sub.add_argument("--yes", action="store_true", help="it cannot be undone")
    log = commands.add_parser("log", help="what operators did, the newest first")
    log.add_argument("--limit", type=int, default=100)


def run(args: argparse.Namespace) -> int:
    """Run ``magdagdon admin``; answer the exit status."""
    from magdagdon.services.moderation import UnknownPlayerError
    from magdagdon.store import SchemaTooNewError, Store, describe, resolve_db
    from magdagdon.store.failures import DATABASE_ERRORS, StorageUnavailableError

    if args.admin_command == "forget" and not args.yes:
        print("magdagdon: forgetting a player cannot be undone: add --yes", file=sys.stderr)
        return 2
    target = resolve_db(args.db)
    refusals: tuple[type[BaseException], ...] = (
        SchemaTooNewError,
        StorageUnavailableError,
        OSError,
        *DATABASE_ERRORS,
    )
    try:
        with Store(target) as store:
            return _run(store, args)
    except UnknownPlayerError as exc:
        print(f"magdagdon: {exc.args[0]}", file=sys.stderr)
        return 1
    except refusals as exc:
        reason = getattr(exc, "orig", None) or exc
        print(f"magdagdon: admin on {describe(target)} failed: {reason}", file=sys.stderr)
        return 1


def _run(store: Store, args: argparse.Namespace) -> int:
    from magdagdon.services import moderation

    command: str = args.admin_command
    if command == "names":
        day = (args.date or clock.today()).isoformat()
        rows = moderation.day_names(store, day)
        print(f"{day}: {len(rows)} ranked attempts")
        for row in rows:
            name = "(no name)" if row.name is None else repr(row.name)
            hidden = "  HIDDEN" if row.name_hidden else ""
            print(f"{row.difficulty:<9} {row.rank:>4} {row.score:>5}  {row.player}  {name}{hidden}")
        return 0
    if command == "log":
        for entry in moderation.log(store, args.limit):
            print(f"{entry.at}  {entry.operator}  {entry.action}  {entry.player}  {entry.detail}")
        return 0
    operator = args.by or getpass.getuser()
    act = {
        "hide": moderation.hide_name,
        "show": moderation.show_name,
        "reset-name": moderation.reset_name,
        "forget": moderation.forget,
    }[command]
    detail = act(store, operator, args.player)
    print(f"{command} {args.player.upper()}: {detail}")
    return 0
