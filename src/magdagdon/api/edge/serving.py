"""uvicorn's configuration for facing strangers: the guarded connection protocol, proxy headers
believed only from the proxies the settings name, and no ``Server: uvicorn`` header."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import uvicorn

from magdagdon.api.edge.protocol import GuardedHttpToolsProtocol

if TYPE_CHECKING:
    from collections.abc import Callable

    from starlette.types import ASGIApp

    from magdagdon.settings import Settings


class GuardedConfig(uvicorn.Config):
    """A ``uvicorn.Config`` that carries the settings to each connection's protocol (it pickles,
    so worker processes get them too). ``app`` may be a factory (``factory=True``): a picklable
    callable that builds the app in each worker."""

    def __init__(
        self, app: ASGIApp | Callable[[], ASGIApp] | str, settings: Settings, **options: Any
    ) -> None:
        self.settings = settings
        trusted = settings.forwarded_allow_ips
        super().__init__(
            app,
            http=GuardedHttpToolsProtocol,
            # uvicorn believes X-Forwarded-* from 127.0.0.1 by default: here only when named,
            # so that without a proxy a forged X-Forwarded-Proto or -For changes nothing
            proxy_headers=trusted is not None,
            forwarded_allow_ips=trusted,
            server_header=False,
            **options,
        )
