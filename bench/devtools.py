"""A bare DevTools connection to Debian's Chromium, for timing a page as a user's browser loads
it: Playwright adds its own scripts to every page it drives (its utility world, set up while
the page loads), which costs the first render tens of milliseconds on this machine. Here a tab
is made blank, attached, and only then sent to the page; nothing runs in it but the page until
the figures are read.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Self

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from web.web_helpers import CHROMIUM, CHROMIUM_ARGS  # the tests' browser

FLAGS = ["--headless", *CHROMIUM_ARGS, "--remote-debugging-port=0"]
#: Chromium 156 builds its address bar's popup as a web page of its own (a WebUI renderer,
#: chrome://omnibox-popup.top-chrome) for every new window, headless ones too. While a tab loads,
#: that page keeps one of this machine's two cores busy for about 200 ms, and it is not part of
#: the game: the app on the home screen opens in an app window, which has none (Chromium started
#: with ``--app=URL`` lists no chrome://omnibox-popup target; a plain window lists two), and a
#: phone's browser draws its own. It is turned off unless ``omnibox`` is asked for.
NO_OMNIBOX_PAGE = "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup"


class DevTools:
    """One Chromium, driven over its browser-wide DevTools socket (``async with``)."""

    def __init__(self, *, omnibox: bool = False) -> None:
        self._flags = FLAGS if omnibox else [*FLAGS, NO_OMNIBOX_PAGE]
        self._ids = itertools.count(1)
        self._profile = tempfile.TemporaryDirectory()
        self._process: subprocess.Popen[str] | None = None
        self._session: aiohttp.ClientSession | None = None
        self._socket: aiohttp.ClientWebSocketResponse | None = None

    async def __aenter__(self) -> Self:
        self._process = subprocess.Popen(
            [CHROMIUM, *self._flags, f"--user-data-dir={self._profile.name}", "about:blank"],
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self._process.stderr is not None
        for line in self._process.stderr:
            found = re.search(r"ws://\S+", line)
            if found:
                break
        else:
            raise RuntimeError("Chromium gave no DevTools address")
        self._session = aiohttp.ClientSession()
        self._socket = await self._session.ws_connect(found.group(0), max_msg_size=0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._socket is not None:
            await self._socket.close()
        if self._session is not None:
            await self._session.close()
        if self._process is not None:
            self._process.terminate()
            self._process.wait(10)
        self._profile.cleanup()

    async def call(self, method: str, session: str | None = None, **params: Any) -> Any:
        """One DevTools command (to a tab when ``session`` is given); its result."""
        assert self._socket is not None
        ident = next(self._ids)
        message: dict[str, Any] = {"id": ident, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        await self._socket.send_str(json.dumps(message))
        while True:  # events are skipped: none is enabled but what a command answers
            answer = json.loads((await self._socket.receive()).data)
            if answer.get("id") == ident:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})

    async def new_context(self) -> str:
        """A fresh browser context (its own cache, storage and service workers)."""
        result = await self.call("Target.createBrowserContext")
        return str(result["browserContextId"])

    async def open(self, context: str, url: str) -> Tab:
        """A new tab in ``context``, blank and attached first, then sent to ``url``."""
        target = await self.call("Target.createTarget", url="about:blank", browserContextId=context)
        ident = target["targetId"]
        attached = await self.call("Target.attachToTarget", targetId=ident, flatten=True)
        tab = Tab(self, ident, attached["sessionId"])
        await asyncio.sleep(0.3)  # the blank tab settles (its renderer starts), as a user's would
        await self.call("Page.navigate", session=tab.session, url=url)
        return tab


class Tab:
    def __init__(self, tools: DevTools, target: str, session: str) -> None:
        self.tools, self.target, self.session = tools, target, session

    async def evaluate(self, expression: str) -> Any:
        """The value of ``expression`` in the page (a promise is awaited)."""
        result = await self.tools.call(
            "Runtime.evaluate",
            session=self.session,
            expression=expression,
            returnByValue=True,
            awaitPromise=True,
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression!r}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def touch(self) -> None:
        """The player's first touch of the page: a key that taps nothing (Shift)."""
        for kind in ("rawKeyDown", "keyUp"):
            await self.tools.call(
                "Input.dispatchKeyEvent",
                session=self.session,
                type=kind,
                key="Shift",
                code="ShiftLeft",
                windowsVirtualKeyCode=16,
            )

    async def close(self) -> None:
        await self.tools.call("Target.closeTarget", targetId=self.target)
