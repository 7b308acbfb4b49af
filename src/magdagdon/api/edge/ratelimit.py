"""Rate limits on the requests that cost the server something to keep or to compute: starting
games, hints and device links. Over a rate: 429 ``rate_limited`` with ``Retry-After`` (seconds),
before the app runs, so the refused request creates nothing (no game, no player).

Each rule counts per player (the cookie's token, as sent: checking it would cost a database read)
and per address (the client's, as uvicorn gives it: the proxy's ``X-Forwarded-For`` only when
that proxy is trusted; an IPv6 client by its /64, which one household holds). A request without a
cookie counts by address only. The counters are fixed windows, kept by a :class:`Counting`:
this process's memory (:class:`LocalCounters`, ``limits``' own), or the database, which every
process and host of a server shares (``sharedrates.py``).
"""

from __future__ import annotations

import ipaddress
import math
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter

from magdagdon.api.cookies import COOKIE
from magdagdon.api.edge.answers import send_error
from magdagdon.api.errors import RateLimitedError
from magdagdon.settings import rates

if TYPE_CHECKING:
    from collections.abc import Iterable

    from limits import RateLimitItem
    from starlette.types import ASGIApp, Receive, Scope, Send

    from magdagdon.settings import Settings

_TOKEN_CHARS = 64  # a cookie longer than any token we give is cut: keys stay small


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    methods: frozenset[str]
    path: re.Pattern[str]
    per_player: tuple[RateLimitItem, ...]
    per_address: tuple[RateLimitItem, ...]


def rules(settings: Settings) -> tuple[Rule, ...]:
    """The rules of ``settings``; none when rate limits are off."""
    if not settings.rate_limits:
        return ()
    games = rates(settings.games_rate), rates(settings.games_rate_per_address)
    hints = rates(settings.hints_rate), rates(settings.hints_rate_per_address)
    links = rates(settings.links_rate), rates(settings.links_rate_per_address)
    post, get = frozenset({"POST"}), frozenset({"GET"})
    found = (
        # a sync of a game played offline makes a game as a new one does
        Rule("games", post, re.compile(r"/api/(games|games/sync|daily|player/import)"), *games),
        Rule("hints", get, re.compile(r"/api/games/[^/]+/hint"), *hints),
        Rule("links", post, re.compile(r"/api/player/link(/[^/]+)?"), *links),
    )
    return tuple(rule for rule in found if rule.per_player or rule.per_address)


#: A counter of a request: the rate and the counter's name (rule, "player" or "address", who).
Counter = tuple["RateLimitItem", tuple[str, str, str]]


class Counting(Protocol):
    async def hit(self, counters: list[Counter]) -> int | None:
        """Count one request in every one of ``counters`` and answer None; or, when one is
        full, count it in none and answer the seconds until it has room again."""


class LocalCounters:
    """The counters in this process's memory: each server process counts alone."""

    def __init__(self) -> None:
        self.limiter = FixedWindowRateLimiter(MemoryStorage())

    async def hit(self, counters: list[Counter]) -> int | None:
        return self.hit_now(counters)

    def hit_now(self, counters: list[Counter]) -> int | None:
        # no await between the test and the hit: no other request of this process counts
        # between them
        full = [(rate, keys) for rate, keys in counters if not self.limiter.test(rate, *keys)]
        if full:
            stats = [self.limiter.get_window_stats(rate, *keys) for rate, keys in full]
            reset = max(stat.reset_time for stat in stats)
            return max(1, math.ceil(reset - time.time()))
        for rate, keys in counters:
            self.limiter.hit(rate, *keys)
        return None


class RateLimits:
    def __init__(
        self, app: ASGIApp, *, rules: Iterable[Rule], counting: Counting | None = None
    ) -> None:
        self.app = app
        self.rules = tuple(rules)
        self.counting = counting if counting is not None else LocalCounters()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            rule = self._rule(scope)
            wait = await self.counting.hit(_counters(rule, scope)) if rule is not None else None
            if wait is not None:
                message = f"too many requests of this kind; try again in {wait} s"
                await send_error(send, RateLimitedError(message, wait))
                return
        await self.app(scope, receive, send)

    def _rule(self, scope: Scope) -> Rule | None:
        method, path = scope["method"], scope["path"]
        for rule in self.rules:
            if method in rule.methods and rule.path.fullmatch(path):
                return rule
        return None


def _counters(rule: Rule, scope: Scope) -> list[Counter]:
    """The counters a request of ``rule`` counts in: by its address, and by its player."""
    counters: list[Counter] = [
        (rate, (rule.name, "address", _address(scope))) for rate in rule.per_address
    ]
    token = _player_token(scope)
    if token:
        counters += [(rate, (rule.name, "player", token)) for rate in rule.per_player]
    return counters


def _address(scope: Scope) -> str:
    client = scope.get("client")
    if not client:
        return "unknown"
    host = str(client[0])
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:  # an IPv4 client of a dual-stack socket
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return host


def _player_token(scope: Scope) -> str | None:
    prefix = COOKIE.encode() + b"="
    headers: list[tuple[bytes, bytes]] = scope["headers"]
    for name, value in headers:
        if name == b"cookie":
            for part in value.split(b";"):
                part = part.strip()
                if part.startswith(prefix):
                    return part[len(prefix) : len(prefix) + _TOKEN_CHARS].decode("latin-1")
    return None
