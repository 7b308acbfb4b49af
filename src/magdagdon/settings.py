"""The server's settings in one typed object: the defaults here, ``MAGDAGDON_*`` environment
variables over them (``Settings.from_env``), ``magdagdon serve`` flags over those.

Every field ``name`` is read from ``MAGDAGDON_NAME``; ``docs/hosting.md`` lists them all. Rates use
the notation of the ``limits`` package (``"30/minute;300/hour"``: every part must hold); ``off``
removes a rate. The rates count in the database when the server has several processes or runs
on PostgreSQL, so a client gets each rate once across them all (``docs/hosting.md``, "Limits").
"""

from __future__ import annotations

import ipaddress
import math
import os
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from limits import parse_many

if TYPE_CHECKING:
    from collections.abc import Mapping

    from limits import RateLimitItem

ENV_PREFIX = "MAGDAGDON_"
LOG_FORMATS = ("plain", "json")
OFF = "off"
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class SettingsError(ValueError):
    """A setting that cannot be used; the message names it and says why."""


@dataclass(frozen=True, slots=True)
class Settings:
    # a request body is at most this many bytes (docs/api.md: 413 body_too_large above 16 KB)
    max_body_bytes: int = 16 * 1024
    # the body of POST /api/player/import (an export file of every game: ~1.5 KB a game, so
    # 16 MB holds about 10,000 games), refused before it is read whole when over
    max_import_bytes: int = 16 * 1024 * 1024
    # seconds for the whole body to arrive once its headers have (a phone sends 16 KB in far less)
    body_timeout: float = 10.0
    # seconds from a connection's first byte (or its opening) to the end of the request's headers
    header_timeout: float = 10.0
    # the request line and headers together: far above what a browser sends (our cookie is 60 B)
    max_header_bytes: int = 16 * 1024
    # False: no rate counts at all (a reverse proxy that limits rates itself, a benchmark)
    rate_limits: bool = True
    # starting games (POST /api/games, POST /api/daily, POST /api/player/import): per player
    # (cookie) and per address (a class behind one school address shares that one)
    games_rate: str = "30/minute;300/hour"
    games_rate_per_address: str = "120/minute;2000/hour"
    # hints: each one is a search on the server's CPU
    hints_rate: str = "30/minute;600/hour"
    hints_rate_per_address: str = "120/minute;3000/hour"
    # device links: making one, and using a code (so codes cannot be guessed by brute force)
    links_rate: str = "10/minute;60/hour"
    links_rate_per_address: str = "20/minute;120/hour"
    # the reverse proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (uvicorn's
    # forwarded_allow_ips: "127.0.0.1", "10.0.0.0/8,::1", "*"); None believes no one
    forwarded_allow_ips: str | None = None
    # seconds of Strict-Transport-Security sent on answers over HTTPS; 0 sends none
    hsts_seconds: int = 365 * 24 * 3600
    # serve /docs, /redoc and /openapi.json
    api_docs: bool = False
    # days an unfinished game is kept after its last action (then removed with its log, and its
    # player too when nothing else is left); 0 keeps them for ever (magdagdon.services.cleanup)
    unfinished_days: int = 30
    # requests one server process works on at once (its thread pool), and the database
    # connections it keeps open for them: as many, so that none is opened per request
    threads: int = 24
    # hints run in processes of their own (magdagdon.compute), per server process: how many,
    # how many hints may wait for one (more: 503 busy), and each one's time limit in seconds
    compute_processes: int = 1
    compute_queue: int = 16
    hint_timeout: float = 20.0
    # the same for background jobs (game reviews), which have processes of their own
    background_processes: int = 1
    background_timeout: float = 600.0
    # the URL that SETTINGS shows (with its QR code) for playing on a phone: set by
    # ``magdagdon serve --lan``; None shows the page's own address unless it is a loopback one
    lan_url: str | None = None
    # the Prometheus metrics (GET /metrics, docs/hosting.md "Metrics and logs"): counted at all;
    # answered to a request with "Authorization: Bearer TOKEN", or straight from these networks
    # (comma-separated, or off)
    metrics: bool = True
    metrics_token: str | None = None
    metrics_networks: str = "127.0.0.1/8,::1/128"
    # the log: plain lines, or one JSON object a line with a line for each request
    log_format: str = "plain"
    # the address other devices open this server at (``magdagdon serve --public-url``): every
    # absolute URL an answer carries (a share's link, a device link, the phone's QR code) is made
    # on it, never on a request's Host header; None uses lan_url, else makes none
    public_url: str | None = None

    def __post_init__(self) -> None:
        for name in (
            "max_body_bytes",
            "max_import_bytes",
            "max_header_bytes",
            "hsts_seconds",
            "unfinished_days",
        ):
            if getattr(self, name) < 0:
                raise SettingsError(f"{_env_name(name)}: must not be negative")
        for name in ("compute_processes", "background_processes"):
            if not 1 <= getattr(self, name) <= 64:
                raise SettingsError(f"{_env_name(name)}: must be from 1 to 64")
        if not 1 <= self.threads <= 256:
            raise SettingsError(f"{_env_name('threads')}: must be from 1 to 256")
        if self.compute_queue < 0:
            raise SettingsError(f"{_env_name('compute_queue')}: must not be negative")
        for name in ("body_timeout", "header_timeout", "hint_timeout", "background_timeout"):
            if not (getattr(self, name) > 0 and math.isfinite(getattr(self, name))):
                raise SettingsError(f"{_env_name(name)}: must be a number of seconds above 0")
        for name in ("lan_url", "public_url"):
            if not _is_origin(getattr(self, name)):
                raise SettingsError(
                    f"{_env_name(name)}: {getattr(self, name)!r} is not an http(s) URL "
                    "such as https://magdagdon.example"
                )
        if self.log_format not in LOG_FORMATS:
            raise SettingsError(
                f"{_env_name('log_format')}: {self.log_format!r} is not one of {LOG_FORMATS}"
            )
        try:
            networks(self.metrics_networks)
        except ValueError as exc:
            raise SettingsError(f"{_env_name('metrics_networks')}: {exc}") from None
        for name in RATE_FIELDS:
            try:
                rates(getattr(self, name))
            except ValueError:
                raise SettingsError(
                    f"{_env_name(name)}: {getattr(self, name)!r} is not a rate such as "
                    f"'30/minute;300/hour' (or {OFF!r})"
                ) from None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: object) -> Settings:
        """The defaults, with every ``MAGDAGDON_*`` variable of ``environ`` (default
        ``os.environ``) over them, and ``overrides`` (flags given) over those."""
        environ = os.environ if environ is None else environ
        values: dict[str, object] = {}
        for field in fields(cls):
            raw = environ.get(_env_name(field.name))
            if raw is not None:
                values[field.name] = _parse(field.name, str(field.type), raw.strip())
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]  # each value was parsed for its field


RATE_FIELDS = tuple(f.name for f in fields(Settings) if f.name.endswith(("_rate", "_per_address")))


def rates(text: str) -> tuple[RateLimitItem, ...]:
    """The rates of ``text`` in the ``limits`` notation; none for ``off`` or nothing."""
    if text.strip().lower() in ("", OFF):
        return ()
    return tuple(parse_many(text))


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(text: str) -> tuple[Network, ...]:
    """The networks of a comma-separated list (``"127.0.0.1/8,::1"``); none for ``off``."""
    parts = [part.strip() for part in text.split(",")]
    if [part.lower() for part in parts] in ([OFF], [""]):
        return ()
    return tuple(ipaddress.ip_network(part, strict=False) for part in parts)


def _is_origin(url: str | None) -> bool:
    """None, or an http(s) URL of a host (a path is kept: a server under a prefix)."""
    if url is None:
        return True
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.hostname) and not parts.query


def _env_name(field: str) -> str:
    return ENV_PREFIX + field.upper()


def _parse(name: str, kind: str, raw: str) -> object:
    """``raw`` as a value of the field's type (its annotation, a string under PEP 563)."""
    try:
        if kind == "bool":
            if raw.lower() in _TRUE | _FALSE:
                return raw.lower() in _TRUE
            raise ValueError(raw)
        if kind == "int":
            return int(raw)
        if kind == "float":
            return float(raw)
    except ValueError:
        raise SettingsError(f"{_env_name(name)}: {raw!r} is not a {kind}") from None
    if kind == "str | None":
        return raw or None
    return raw
