"""The ``magdagdon`` command: ``serve`` (the default), ``db copy``, ``db check``, ``db backup``,
``daily verify``, ``admin`` and ``simulate``."""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import webbrowser
from datetime import date
from typing import TYPE_CHECKING

from magdagdon import __version__

if TYPE_CHECKING:
    from collections.abc import Sequence

    from magdagdon.store import Store

DEFAULT_HOST = "127.0.0.1"
LAN_HOST = "0.0.0.0"  # every IPv4 address of the machine
DEFAULT_PORT = 8765


def _parser() -> argparse.ArgumentParser:
    from magdagdon.admin import backup
    from magdagdon.admin import command as admin
    from magdagdon.sim import command as simulate

    parser = argparse.ArgumentParser(
        prog="magdagdon", description="MAGDAGDON: a dice-placement puzzle game in the browser."
    )
    parser.add_argument("--version", action="version", version=f"magdagdon {__version__}")
    commands = parser.add_subparsers(dest="command")
    serve = commands.add_parser("serve", help="start the web game (the default)")
    where = serve.add_mutually_exclusive_group()
    where.add_argument("--host", default=DEFAULT_HOST, help=f"address (default {DEFAULT_HOST})")
    where.add_argument(
        "--lan",
        action="store_true",
        help="listen on the machine's network addresses, and print the URL and its QR code "
        "for a phone on the same network",
    )
    serve.add_argument(
        "--port",
        type=int,
        default=None,
        help=f"port (default {DEFAULT_PORT}, or a free one when busy); 0 picks a free port",
    )
    serve.add_argument(
        "--db",
        default=None,
        metavar="PATH|URL",
        help="a SQLite file or a postgresql:// URL "
        "(default: $MAGDAGDON_DB or a file in the user's data directory)",
    )
    serve.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the address other devices open this server at (https://magdagdon.example): "
        "share and device links are made on it (default: $MAGDAGDON_PUBLIC_URL, else the "
        "--lan address, else none)",
    )
    serve.add_argument("--no-browser", action="store_true", help="do not open the browser")
    serve.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="IPS",
        help="the reverse proxies (comma-separated addresses or networks, or *) whose "
        "X-Forwarded-For and X-Forwarded-Proto are believed (default: none)",
    )
    serve.add_argument(
        "--api-docs", action="store_true", default=None, help="serve /docs and /openapi.json"
    )
    serve.add_argument(
        "--log-format",
        choices=("plain", "json"),
        default=None,
        help="the log: plain lines (default), or one JSON object a line with a line for each "
        'request (docs/hosting.md, "Metrics and logs")',
    )
    serve.add_argument(
        "--workers",
        type=_workers,
        default=1,
        metavar="N",
        help="serve with N processes sharing the address and the database (default 1)",
    )
    db = commands.add_parser("db", help="manage the database")
    db_commands = db.add_subparsers(dest="db_command", required=True)
    copy = db_commands.add_parser(
        "copy", help="copy every player, game and High Score into a new, empty database"
    )
    copy.add_argument("--from", dest="source", required=True, metavar="PATH|URL")
    copy.add_argument("--to", dest="target", required=True, metavar="PATH|URL")
    check = db_commands.add_parser(
        "check", help="check every page of a SQLite file (a start checks only small ones)"
    )
    check.add_argument("--db", default=None, metavar="PATH|URL")
    backup.add_arguments(
        db_commands.add_parser(
            "backup", help="a consistent copy of a SQLite database, while it serves"
        )
    )
    admin.add_arguments(commands.add_parser("admin", help="moderation: names, hide, forget, log"))
    day = commands.add_parser("daily", help="the daily challenge")
    day_commands = day.add_subparsers(dest="daily_command", required=True)
    verify = day_commands.add_parser(
        "verify",
        help="check a past day's published seed against its commitment and replay its attempts",
    )
    verify.add_argument("--date", required=True, type=_day, metavar="YYYY-MM-DD")
    verify.add_argument("--difficulty", required=True, choices=_difficulties())
    source = verify.add_mutually_exclusive_group()
    source.add_argument(
        "--db",
        default=None,
        metavar="PATH|URL",
        help="the server's database: replay every attempt stored there (default: $MAGDAGDON_DB "
        "or the file in the user's data directory)",
    )
    source.add_argument(
        "--url", default=None, metavar="URL", help="a server's address: check what it publishes"
    )
    verify.add_argument(
        "--export",
        default=None,
        metavar="FILE",
        help="with --url: an export file (SETTINGS, export) whose attempts of that day to replay",
    )
    sim = commands.add_parser("simulate", help="play many games with a computer player")
    simulate.add_arguments(sim)
    return parser


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError("a date is written YYYY-MM-DD") from None


def _difficulties() -> list[str]:
    from magdagdon.engine import Difficulty

    return [d.value for d in Difficulty]


def _workers(text: str) -> int:
    from magdagdon.serve import MAX_WORKERS

    try:
        count = int(text)
    except ValueError:
        count = 0
    if not 1 <= count <= MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"a number of processes from 1 to {MAX_WORKERS}")
    return count


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto IPPROTO_TCP (not 0): asyncio sets TCP_NODELAY only on sockets that say TCP, and
    # without it every answer waits ~40 ms for a delayed ACK
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except BaseException:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _listen(host: str, port: int | None) -> socket.socket:
    """A listening socket: ``port``, or the default port falling back to a free one."""
    if port is not None:
        return _bind(host, port)
    try:
        return _bind(host, DEFAULT_PORT)
    except OSError:
        return _bind(host, 0)


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _lan_address() -> str | None:
    """The machine's network address for ``--lan``; None, with the reason on standard error."""
    from magdagdon.lan import NoNetworkError, primary_address

    try:
        return primary_address()
    except NoNetworkError as exc:
        print(f"magdagdon: --lan: {exc}", file=sys.stderr)
        return None


def _open_store(db: str | None) -> Store | None:
    """The store of ``--db``; None, with the reason on standard error, when it cannot open."""
    from magdagdon.store import SchemaTooNewError, Store, describe, resolve_db
    from magdagdon.store.failures import DATABASE_ERRORS
    from magdagdon.store.health import damage

    target = resolve_db(db)
    refused: tuple[type[Exception], ...] = (SchemaTooNewError, OSError, ValueError)
    try:
        store = Store(target)
    except refused + DATABASE_ERRORS as exc:
        reason = getattr(exc, "orig", None) or exc
    else:
        reason = damage(store)
        if reason is None:
            return store
        store.close()
    line = " ".join(str(reason).split())  # one line, whatever the driver wrote
    print(f"magdagdon: cannot open the database {describe(target)}: {line}", file=sys.stderr)
    return None


def serve(
    host: str,
    port: int | None,
    db: str | None,
    open_browser: bool,
    forwarded_allow_ips: str | None = None,
    api_docs: bool | None = None,
    workers: int = 1,
    lan: bool = False,
    log_format: str | None = None,
    public_url: str | None = None,
) -> int:
    """Serve until Ctrl-C; the limits and headers come from ``MAGDAGDON_*`` variables, with the
    two flags over them (``magdagdon.settings``); ``workers`` processes (``magdagdon.serve``).
    ``lan``: on every IPv4 address, printing the URL of the machine's network address and its
    QR code."""
    import dataclasses

    from magdagdon.serve import run
    from magdagdon.settings import Settings, SettingsError

    try:
        settings = Settings.from_env(
            forwarded_allow_ips=forwarded_allow_ips,
            api_docs=api_docs,
            log_format=log_format,
            public_url=public_url,
        )
    except SettingsError as exc:
        print(f"magdagdon: {exc}", file=sys.stderr)
        return 2
    shown = host
    if lan:
        address = _lan_address()
        if address is None:
            return 1
        host, shown = LAN_HOST, address
    try:
        sock = _listen(host, port)
    except OSError as exc:
        print(f"magdagdon: cannot listen on {host}:{port}: {exc.strerror}", file=sys.stderr)
        return 1
    store = _open_store(db)
    if store is None:
        sock.close()
        return 1
    url = _url(shown, sock.getsockname()[1])
    if lan:
        settings = dataclasses.replace(settings, lan_url=url)

    def ready() -> None:
        print(f"Serving on {url}", flush=True)
        if lan:
            from magdagdon.qr import terminal_text

            print(f"Play on your phone: scan this, or open {url}", flush=True)
            print(terminal_text(url), end="", flush=True)
        if open_browser:
            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

    return run(sock, store, settings, workers=workers, on_ready=ready)


def db_copy(source: str, target: str) -> int:
    from magdagdon.store import SchemaTooNewError, TargetNotEmptyError, describe, resolve_db
    from magdagdon.store.copy import copy_database
    from magdagdon.store.failures import DATABASE_ERRORS

    refused: tuple[type[Exception], ...] = (TargetNotEmptyError, SchemaTooNewError, OSError)
    try:
        copied = copy_database(resolve_db(source), resolve_db(target))
    except refused + DATABASE_ERRORS as exc:
        reason = getattr(exc, "orig", None) or exc
        print(f"magdagdon: db copy failed: {reason}", file=sys.stderr)
        return 1
    print(
        f"copied {copied.players} players, {copied.games} games ({copied.actions} actions) "
        f"and {copied.highscores} High Scores from {describe(source)} to {describe(target)}"
    )
    return 0


def db_check(db: str | None) -> int:
    """``magdagdon db check``: SQLite's ``quick_check`` over the whole file (a server's start
    checks only a small one); exit status 1 with the reason when it is not sound."""
    from magdagdon.store import describe, resolve_db
    from magdagdon.store.health import damage

    store = _open_store(db)
    if store is None:
        return 1
    with store:
        reason = damage(store, whole=True)
    target = describe(resolve_db(db))
    if reason is not None:
        print(f"magdagdon: {target}: {reason}", file=sys.stderr)
        return 1
    sound = "every page is sound" if store.dialect == "sqlite" else "PostgreSQL checks its own"
    print(f"{target}: {sound}")
    return 0


def daily_verify(
    day: date, difficulty: str, db: str | None, url: str | None, export: str | None
) -> int:
    """``magdagdon daily verify``: 0 when the seed matches its commitment and every attempt
    replays as stored (or as the export file says), else 1, with each mismatch named."""
    from magdagdon.engine import Difficulty
    from magdagdon.services import verify

    level = Difficulty(difficulty)
    try:
        if url is not None:
            games = _export_games(export) if export is not None else None
            verdict = verify.verify_published(_published(url, day), day, level, games)
        else:
            if export is not None:
                print("magdagdon: --export goes with --url", file=sys.stderr)
                return 2
            store = _open_store(db)
            if store is None:
                return 1
            with store:
                verdict = verify.verify_store(store, day, level)
    except (verify.NotPublishedError, OSError, ValueError) as exc:
        print(f"magdagdon: daily verify: {exc}", file=sys.stderr)
        return 1
    print(f"{day.isoformat()} {difficulty}: commitment {verdict.commitment}, seed {verdict.seed}")
    for line in verdict.wrong:
        print(f"MISMATCH {line}")
    print(f"{verdict.checked} attempts replayed, {len(verdict.wrong)} mismatches")
    return 0 if verdict.ok else 1


def _published(url: str, day: date) -> object:
    """The server's ``GET /api/daily?date=`` answer."""
    import json
    import urllib.request

    address = f"{url.rstrip('/')}/api/daily?date={day.isoformat()}"
    if not address.startswith(("http://", "https://")):
        raise ValueError(f"{url!r} is not an http(s) URL")
    with urllib.request.urlopen(address, timeout=30) as answer:
        return json.loads(answer.read())


def _export_games(path: str) -> list[object]:
    import json
    from pathlib import Path

    found = json.loads(Path(path).read_text(encoding="utf-8"))
    games = found.get("games") if isinstance(found, dict) else None
    if not isinstance(games, list):
        raise ValueError(f"{path}: not an export file (no list of games)")
    return games


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; answer the exit status."""
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except ValueError as exc:
        from magdagdon.store.paths import DatabaseNameError

        if not isinstance(exc, DatabaseNameError):
            raise
        print(f"magdagdon: {exc}", file=sys.stderr)  # as a usage error: the command never ran
        return 2


def _run(args: argparse.Namespace) -> int:
    """The command ``args`` names."""
    if args.command == "simulate":
        from magdagdon.sim import command as simulate

        return simulate.run(args)
    if args.command == "db" and args.db_command == "check":
        return db_check(args.db)
    if args.command == "admin":
        from magdagdon.admin import command as admin

        return admin.run(args)
    if args.command == "db" and args.db_command == "backup":
        from magdagdon.admin import backup

        return backup.run(args)
    if args.command == "db":
        return db_copy(args.source, args.target)
    if args.command == "daily":
        return daily_verify(args.date, args.difficulty, args.db, args.url, args.export)
    try:
        if args.command is None:
            return serve(DEFAULT_HOST, None, None, open_browser=True)
        return serve(
            args.host,
            args.port,
            args.db,
            not args.no_browser,
            forwarded_allow_ips=args.forwarded_allow_ips,
            api_docs=args.api_docs,
            workers=args.workers,
            lan=args.lan,
            log_format=args.log_format,
            public_url=args.public_url,
        )
    except KeyboardInterrupt:  # Ctrl-C before the server was up
        return 0
