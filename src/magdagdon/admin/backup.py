"""``magdagdon db backup --to FILE``: the command's side of ``store/backup.py``."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", default=None, metavar="PATH", help="as for serve")
    parser.add_argument("--to", dest="target", required=True, metavar="FILE", help="a new file")


def run(args: argparse.Namespace) -> int:
    from magdagdon.store import describe, resolve_db
    from magdagdon.store.backup import BackupError, backup

    source = resolve_db(args.db)
    try:
        copied = backup(source, args.target)
    except (BackupError, OSError) as exc:
        print(f"magdagdon: db backup failed: {exc}", file=sys.stderr)
        return 1
    print(
        f"backed up {copied.players} players, {copied.games} games ({copied.actions} actions), "
        f"{copied.bytes} bytes, from {describe(source)} to {args.target}"
    )
    return 0
