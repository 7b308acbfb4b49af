"""A request that can change something (any method but GET, HEAD and OPTIONS), sent by a browser
from another site, answers 403 ``cross_site`` before the app (or the body limit, or the rate
limits) sees it: a page elsewhere cannot make a visitor leave their player, link it, or take
someone else's (docs/api.md, "Requests from other sites").

The browser says where a request comes from. ``Sec-Fetch-Site`` first, which no script can
write: ``same-origin`` and ``none`` (the person's own doing: the address bar, a bookmark, a QR
code) pass; ``cross-site`` and ``same-site`` do not. The game's page is served by the game
itself, so nothing of the game is ever another origin of the same site: a ``same-site`` request
comes from a neighbour (another port of the same host, a sibling subdomain), which the
cookie's ``SameSite`` does not keep out, so it is refused too.

Without ``Sec-Fetch-Site`` (browsers before 2020-2023), ``Origin`` decides: it must be this
server's own origin as the request reached it, the scheme after a trusted proxy's
``X-Forwarded-Proto`` (uvicorn sets it in the scope) and the ``Host`` the proxy passed on, as
``magdagdon.api.origin`` sees it. ``Origin: null`` (a sandboxed frame, a redirect through
another site, a ``data:`` page) is no origin to trust. A request with neither header is no
browser's cross-site request (every browser that runs another site's page sends at least
``Origin`` on a POST): a script or ``curl`` has no visitor's cookie to abuse, so it passes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from magdagdon.api.edge.answers import CLOSE, send_error
from magdagdon.api.errors import CrossSiteError

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_ALLOWED_SITES = frozenset({b"same-origin", b"none"})
_REFUSED_SITES = frozenset({b"cross-site", b"same-site"})
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
MESSAGE = (
    "this request came from another site (by its Sec-Fetch-Site or Origin header) and changes "
    "nothing here: only the game's own page can change a player's games and settings"
)

Origin = tuple[str, str, int]


def parse_origin(value: str) -> Origin | None:
    """(scheme, host, port) of a serialised origin ``scheme://host[:port]``, or None when it is
    not one."""
    scheme, separator, authority = value.partition("://")
    if not separator or not scheme or "/" in authority:
        return None
    return _authority(scheme.lower(), authority)


def _authority(scheme: str, authority: str) -> Origin | None:
    """(scheme, host, port) of ``host[:port]`` (an IPv6 host in brackets), the scheme's default
    port when none is written."""
    if authority.startswith("["):
        host, bracket, rest = authority[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        port_text = rest[1:]
    else:
        host, _, port_text = authority.partition(":")
    if not host:
        return None
    if not port_text:
        default = _DEFAULT_PORTS.get(scheme)
        return None if default is None else (scheme, host.lower(), default)
    if not port_text.isdigit():
        return None
    return scheme, host.lower(), int(port_text)


def own_origin(scope: Scope) -> Origin | None:
    """This server's origin as the request reached it: the scope's scheme (https behind a
    trusted proxy) and the request's ``Host`` (else the address it came to)."""
    scheme = str(scope.get("scheme", "http")).lower()
    for name, value in scope["headers"]:
        if name == b"host":
            return _authority(scheme, value.decode("latin-1").strip())
    server = scope.get("server")
    if server is None or server[1] is None:
        return None
    return scheme, str(server[0]).lower(), int(server[1])


def is_cross_site(scope: Scope) -> bool:
    """Whether a browser sent this request from a page of another site (or of no origin)."""
    site = origin = None
    for name, value in scope["headers"]:
        if name == b"sec-fetch-site":
            site = value.strip().lower()
        elif name == b"origin":
            origin = value.decode("latin-1").strip()
    if site in _ALLOWED_SITES:
        return False
    if site in _REFUSED_SITES:
        return True
    # no Sec-Fetch-Site (or a value of a later standard): the Origin decides
    if origin is None:
        return False
    sender = parse_origin(origin)  # "null" and anything malformed: None, refused
    return sender is None or sender != own_origin(scope)


class CrossSiteGuard:
    """Answers 403 ``cross_site`` to a state-changing request from another site, without
    reading its body (so the connection closes after the answer)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS and is_cross_site(scope):
            await send_error(send, CrossSiteError(MESSAGE), CLOSE)
            return
        await self.app(scope, receive, send)
