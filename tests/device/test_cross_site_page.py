"""Another site's page, in a real Chromium, cannot change the visitor's player: the game runs on
``127.0.0.1:A`` and an attacker's page on ``localhost:B`` (another site) auto-submits forms that
POST to ``/api/player/leave``, ``/api/player/link`` and ``/api/player/link/{code}`` (with the
attacker's own code), and sends the same requests with ``fetch`` (``credentials: "include"``,
``mode: "no-cors"``). Each reaches the server and answers 403; afterwards the visitor is the
same player with the same game. A link to the game from that site still opens it as the
visitor's player, and the same requests from the game's own page work."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

import pytest

from device.page_helpers import TIMEOUT_MS, api, new_device, open_page
from magdagdon.api.cookies import COOKIE

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Browser, BrowserContext, Page, Response

    from server_process import ServerProcess

pytestmark = pytest.mark.browser

FORM_PAGE = """<!doctype html><title>win a prize</title>
<form method="post" action="{target}"><input name="prize" value="1"></form>
<script>document.forms[0].submit();</script>"""
FETCH_PAGE = """<!doctype html><title>win a prize</title><body>
<script>
Promise.allSettled({targets}.map((url) =>
  fetch(url, {{method: "POST", credentials: "include", mode: "no-cors"}})))
  .then(() => document.body.insertAdjacentHTML("beforeend", "<p id=sent>sent</p>"));
</script>"""
LINK_PAGE = """<!doctype html><title>a game</title><a href="{target}">play</a>"""


class Attacker(BaseHTTPRequestHandler):
    """``/form?target=URL`` posts a form there; ``/fetch?target=URL&target=…`` fetches each;
    ``/link?target=URL`` is a plain link to it."""

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        targets = parse_qs(url.query)["target"]
        pages = {
            "/form": FORM_PAGE.format(target=targets[0]),
            "/fetch": FETCH_PAGE.format(targets=repr(targets).replace("'", '"')),
            "/link": LINK_PAGE.format(target=targets[0]),
        }
        body = pages[url.path].encode()
        self.send_response(200)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # quiet: no line per request
        pass


@pytest.fixture
def attacker_site() -> Iterator[str]:
    """The attacker's site: ``http://localhost:B`` (the game is on 127.0.0.1: another site)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Attacker)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://localhost:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []
    yield made
    for context in made:
        context.close()


def device(browser: Browser, contexts: list[BrowserContext]) -> Page:
    context = new_device(browser, "desktop")
    contexts.append(context)
    return context.new_page()


def token(page: Page) -> str | None:
    found = [c["value"] for c in page.context.cookies() if c["name"] == COOKIE]
    assert len(found) <= 1, found
    return found[0] if found else None


def the_player(page: Page, url: str) -> tuple[str | None, str]:
    """(the device's cookie, the id of its current game), asked with its cookie."""
    return token(page), api(page, "GET", f"{url}/api/games/current")["id"]


def test_another_sites_forms_and_fetches_change_nothing(
    browser: Browser, live_server: ServerProcess, attacker_site: str, contexts: list[BrowserContext]
) -> None:
    game_url = live_server.url
    assert game_url.startswith("http://127.0.0.1:")
    visitor = device(browser, contexts)
    open_page(visitor, game_url)
    api(visitor, "POST", f"{game_url}/api/games", {"difficulty": "peaceful", "seed": 5})
    before = the_player(visitor, game_url)
    assert before[0] is not None
    other = device(browser, contexts)
    open_page(other, game_url)
    other_game = api(other, "POST", f"{game_url}/api/games", {"difficulty": "survival"})["id"]
    code = api(other, "POST", f"{game_url}/api/player/link")["code"]
    targets = [
        f"{game_url}/api/player/leave",
        f"{game_url}/api/player/link",
        f"{game_url}/api/player/link/{code}",
    ]
    answers: list[Response] = []
    visitor.context.on(
        "response", lambda r: answers.append(r) if r.url.startswith(game_url) else None
    )

    for target in targets:
        with visitor.expect_navigation(url=target, timeout=TIMEOUT_MS) as landed:
            visitor.goto(f"{attacker_site}/form?target={target}")
        response = landed.value
        assert response is not None
        assert response.status == 403, response.text()
        assert response.json()["error"]["code"] == "cross_site"
        assert response.request.method == "POST"
        assert the_player(visitor, game_url) == before

    query = "&".join(f"target={target}" for target in targets)
    visitor.goto(f"{attacker_site}/fetch?{query}")
    visitor.wait_for_selector("#sent", timeout=TIMEOUT_MS)
    fetched = [r for r in answers if r.request.resource_type == "fetch"]
    assert sorted(r.url for r in fetched) == sorted(targets)  # each reached the server…
    assert {r.status for r in fetched} == {403}  # …and was refused
    assert the_player(visitor, game_url) == before

    # a plain link from that site opens the game as the visitor's player (the page's own
    # fetches carry the cookie, though the navigation, from another site, did not)
    visitor.goto(f"{attacker_site}/link?target={game_url}/")
    with visitor.expect_response(f"{game_url}/api/games/current") as resumed:
        visitor.click("a")
    assert resumed.value.status == 200
    assert resumed.value.json()["id"] == before[1]

    # the same requests from the game's own page work: the visitor becomes the other player
    # with the other's link, then leaves it
    statuses = visitor.evaluate(
        """async (code) => {
          const post = (path) => fetch(path, {method: "POST"}).then((r) => r.status);
          return [await post("/api/player/link"), await post(`/api/player/link/${code}`)];
        }""",
        code,
    )
    assert statuses == [201, 200]
    assert api(visitor, "GET", f"{game_url}/api/games/current")["id"] == other_game
    left = visitor.evaluate("fetch('/api/player/leave', {method: 'POST'}).then((r) => r.status)")
    assert left == 204
    assert token(visitor) is None
