"""A whole game offline in Debian's Chromium, from a live server: the page's own engine is
fetched in the background after the first visit and kept by the service worker
(``data-offline="ready"``); with the context offline, a reload shows the game, the game under
way is played to its end by taps and another is begun; back online, both are on the server with
the page's action logs, in High Scores once, and the game under way goes on there. A game whose
log does not replay is refused and stays on the device.

Pyodide starts slowly on a loaded machine: every wait is on a condition, with long deadlines."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from device.page_helpers import api, body_data, eventually, open_page
from device.pwa_helpers import wait_controlled

if TYPE_CHECKING:
    from collections.abc import Callable

    from playwright.sync_api import BrowserContext, Page

    from server_process import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ENGINE_MS = 240_000  # Pyodide's start, on a machine shared by other work
KEPT = """() => new Promise((resolve, reject) => {
  const opening = indexedDB.open("magdagdon", 1);
  opening.onupgradeneeded = () =>
    opening.result.createObjectStore("offline-games", { keyPath: "id" });
  opening.onerror = () => reject(opening.error);
  opening.onsuccess = () => {
    const store = opening.result.transaction("offline-games").objectStore("offline-games");
    const request = store.getAll();
    request.onsuccess = () => { opening.result.close(); resolve(request.result); };
  };
})"""
PUT = """(game) => new Promise((resolve, reject) => {
  const opening = indexedDB.open("magdagdon", 1);
  opening.onsuccess = () => {
    const tx = opening.result.transaction("offline-games", "readwrite");
    tx.objectStore("offline-games").put(game);
    tx.oncomplete = () => {
      opening.result.close();
      localStorage.setItem("magdagdon.offlineGames", "1"); // as the page counts what it keeps
      resolve();
    };
    tx.onerror = () => reject(tx.error);
  };
})"""


def idle(page: Page) -> None:
    page.wait_for_selector("body[data-ready]:not([data-busy])", timeout=ENGINE_MS)


def tap(page: Page, selector: str) -> None:
    page.locator(selector).first.click()
    idle(page)


def enabled(page: Page, action: str) -> bool:
    button = page.locator(f'#actions [data-action="{action}"]')
    return button.is_visible() and button.get_attribute("aria-disabled") is None


SHOWN = "localStorage.getItem('magdagdon.lastState')"
# no answer awaited, and the state kept is the one drawn
SETTLED = """() => !document.body.dataset.busy && document.body.dataset.version ===
  String(JSON.parse(localStorage.getItem('magdagdon.lastState') ?? '{}').version)"""


def shown(page: Page) -> dict[str, Any]:
    """The state the page draws (it keeps the last one on the device)."""
    state: dict[str, Any] = page.evaluate("JSON.parse(localStorage.getItem('magdagdon.lastState'))")
    return state


def play_a_turn(page: Page, avoid: set[tuple[int, int, int, int]] | None = None) -> None:
    """One step of a plain game, by taps: I-ROLL, KUMPIRMAHIN as soon as it may, else a die on
    a lit cell (not one that left the roll stuck before: ``avoid``), a RUIN when MAGDAGDON comes.

    Each step reads the state the page keeps once a tap is answered, so it begins when the last
    answer is drawn and kept, and ends when its own tap's answer is (however late it comes on a
    busy machine); every step changes the game."""
    avoid = set() if avoid is None else avoid
    page.wait_for_function(SETTLED, timeout=ENGINE_MS)
    before = page.evaluate(SHOWN)
    act(page, avoid)
    page.wait_for_function(
        f"(before) => ({SETTLED})() && {SHOWN} !== before", arg=before, timeout=ENGINE_MS
    )


def act(page: Page, avoid: set[tuple[int, int, int, int]]) -> None:
    phase = body_data(page, "phase")
    if phase == "roll":
        avoid.clear()
        tap(page, '[data-action="roll"]')
    elif phase == "magdagdon":
        tap(page, '[data-action="accept"]')
        tap(page, ".cell.ruinable")
    elif enabled(page, "confirm"):
        tap(page, '[data-action="confirm"]')
    else:
        state = shown(page)
        staged = [d for d in state["dice"] if d["cell"] is not None]
        if state["stuck"]:  # the last die staged goes back, and that place is not tried again
            last = staged[-1]
            avoid.add((state["turn"], last["id"], *last["cell"]))
            # by the keyboard: a second tap this soon on a die just staged is a double tap's
            page.locator(f'[data-cell="{last["cell"][0]}-{last["cell"][1]}"]').press("Enter")
            idle(page)
            return
        for die, cells in sorted(state["valid_cells"].items(), key=partnered(state)):
            for row, col in cells:
                if (state["turn"], int(die), row, col) not in avoid:
                    chosen = page.locator(f'.tray [data-die="{die}"]')
                    if "selected" not in (chosen.get_attribute("class") or "").split():
                        chosen.click()  # (a tap on the die already chosen lets it go)
                    tap(page, f'[data-cell="{row}-{col}"]')
                    return
        raise AssertionError(f"no move found in {state}")


def partnered(state: dict[str, Any]) -> Callable[[tuple[str, Any]], int]:
    """Dice first whose value another die still in the tray can stand beside (within 1): a die
    alone in its value leaves the rest of the roll stuck more often than not (2 with 6-4-4
    fits nowhere beside them, on any of the 16 cells)."""
    values = {str(d["id"]): int(d["value"]) for d in state["dice"] if d["cell"] is None}

    def partners(item: tuple[str, Any]) -> int:
        die = item[0]
        return -sum(abs(values[die] - v) <= 1 for other, v in values.items() if other != die)

    return partners


def server_log(page: Page, url: str, game_id: str) -> list[Any]:
    found: list[Any] = api(page, "GET", f"{url}/api/games/{game_id}/log")["actions"]
    return found


def test_a_whole_game_offline_and_nothing_lost_back_online(
    context: BrowserContext, live_server: ServerProcess
) -> None:
    url = live_server.url
    page = context.new_page()
    open_page(page, f"{url}/")
    wait_controlled(page)
    page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=ENGINE_MS)
    game = api(page, "GET", f"{url}/api/games/current")
    tap(page, '[data-action="roll"]')  # one action on the server first
    assert eventually(
        lambda: (
            (page.evaluate("JSON.parse(localStorage.getItem('magdagdon.log'))") or {}).get(
                "actions"
            )
            == [{"type": "roll"}]
        ),
        60,
    )

    context.set_offline(True)
    page.reload()
    idle(page)
    assert page.locator('[data-cell="0-0"]').is_visible()
    assert body_data(page, "version") == "1"
    page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=ENGINE_MS)
    play_a_turn(page)
    # it says plainly that it plays offline, and that the games will be saved
    assert page.locator('[data-notice="offline"] [data-offline-playing]').is_visible()
    avoid: set[tuple[int, int, int, int]] = set()
    for _ in range(1000):  # a game is about a hundred taps
        if body_data(page, "phase") == "over":
            break
        play_a_turn(page, avoid)
    assert body_data(page, "phase") == "over"
    page.locator('[data-action="hint"]').first.is_hidden()  # none once the game is over
    tap(page, '[data-action="new-game"]')
    assert body_data(page, "phase") == "roll"
    tap(page, '[data-action="roll"]')
    play_a_turn(page)
    tap(page, '[data-action="hint"]')  # the server's computer player, in the engine worker
    page.wait_for_selector("body[data-hint]", state="attached", timeout=ENGINE_MS)
    assert body_data(page, "hint") == body_data(page, "version")  # for the game as it stands
    assert page.locator(".hinted, .hint-button").count() > 0  # and drawn, and said
    said = page.locator("#message").inner_text()
    assert "Inaasahang Final Score" in said or "Expected final score" in said, said
    kept = {g["id"]: g for g in page.evaluate(KEPT)}
    assert game["id"] in kept
    assert len(kept) == 2
    second = next(g for g in kept.values() if g["id"] != game["id"])
    assert kept[game["id"]]["view"]["phase"] == "over"
    assert api(page, "GET", f"{url}/api/games/current")["id"] == game["id"]  # untouched

    context.set_offline(False)
    assert eventually(lambda: page.evaluate(KEPT) == [], 120)
    idle(page)
    for played in kept.values():
        assert server_log(page, url, played["id"]) == played["actions"]
    scores = api(page, "GET", f"{url}/api/highscores?difficulty={game['difficulty']}")
    assert [e["game_id"] for e in scores].count(game["id"]) == 1
    assert api(page, "GET", f"{url}/api/games/current")["id"] == second["id"]
    assert body_data(page, "version") == str(len(second["actions"]))
    play_a_turn(page)  # the game under way goes on on the server
    assert eventually(
        lambda: len(server_log(page, url, second["id"])) == len(second["actions"]) + 1
    )

    # a log that does not replay: refused, kept on the device, and said
    bad = {**second, "id": "obad0000000000000", "actions": [{"type": "confirm"}], "began": 1}
    page.evaluate(PUT, bad)
    page.reload()
    idle(page)
    assert eventually(lambda: page.evaluate(KEPT)[0].get("refused") is not None, 60)
    assert page.evaluate(KEPT)[0]["refused"]["code"] == "sync_invalid"
    assert page.request.get(f"{url}/api/games/{bad['id']}/log").status == 404
