"""Driving the page as a player does: the engine (a mirror of the seeded game) plans each move,
and every game action is a tap (phone) or a click (desktop) on the page's hooks."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from axe_playwright_python.sync_playwright import Axe

from magdagdon.engine import (
    Action,
    Adjust,
    Confirm,
    Difficulty,
    GameState,
    Reroll,
    Roll,
    Ruin,
    Stage,
    Unstage,
    row_col,
)
from magdagdon.engine.board import RUIN_CODE as RUIN
from magdagdon.engine.board import to_codes
from plans import plain_turn
from waits import EVENTUALLY_MS, wait_until

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from playwright.sync_api import Browser, BrowserContext, Locator, Page, Request

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


#: The browser's language in the tests (the page's first visit follows it): Filipino, the page's
#: own first language; a test of English says so (``locale="en-US"``).
FILIPINO_BROWSER = "fil-PH"


def _touch(width: int, height: int) -> dict[str, Any]:
    return {
        "viewport": {"width": width, "height": height},
        "has_touch": True,
        "is_mobile": True,
        "device_scale_factor": 2,
        "locale": FILIPINO_BROWSER,
    }


#: Every screen the page must fit without scrolling: phones upright (a small one, a mid one, a
#: tall one), phones held sideways, a tablet, a desktop. The phones and the tablet use touch.
LAYOUTS: dict[str, dict[str, Any]] = {
    "phone-360": _touch(360, 640),
    "phone-375": _touch(375, 667),
    "phone": _touch(390, 844),
    "sideways-844": _touch(844, 390),
    "sideways-667": _touch(667, 375),
    "tablet": _touch(768, 1024),
    "desktop": {"viewport": {"width": 1280, "height": 800}, "locale": FILIPINO_BROWSER},
}
#: The flag the page sets once it has offered the tutorial (a first visit offers it).
TUTORIAL_OFFERED = "localStorage.setItem('magdagdon.tutorialOffered', '1')"
# the page's offline engine (Pyodide, seconds of CPU) is left out of the tests that are not about
# it: tests/offline/ switches it on
NO_OFFLINE_ENGINE = "localStorage.setItem('magdagdon.offlinePlay', '0')"
TIMEOUT_MS = EVENTUALLY_MS
DOUBLE_TAP_S = 0.4  # the page ignores a tap on a die it staged less than 350 ms ago


def cell_hook(cell: int) -> str:
    row, col = row_col(cell)
    return f'[data-cell="{row}-{col}"]'


def die_hook(die: int) -> str:
    return f'.tray [data-die="{die}"]'


def action_hook(name: str) -> str:
    return f'[data-action="{name}"]'


def clipboard(page: Page) -> str:
    """What the page's browser holds on its clipboard (a share copies there)."""
    text: str = page.evaluate("navigator.clipboard.readText()")
    return text


def copied(page: Page, what: str, until: Callable[[str], bool]) -> str:
    """The clipboard's text once ``until`` holds of it: a copy lands after the tap's answer,
    and the word under the share button may stay from an earlier tap."""

    def text() -> str | None:
        held = clipboard(page)
        return held if until(held) else None

    return wait_until(text, what)


SERIOUS = {"serious", "critical"}


def axe_clean(player: Player, screen: str) -> None:
    """axe finds no serious or critical violation on the page as it is now."""
    player.settle(everything=True)  # colours are read when every effect has ended
    results = Axe().run(player.page)
    bad = [v for v in results.response["violations"] if v["impact"] in SERIOUS]
    assert not bad, f"{screen}: {results.generate_report()}"


def find_game(
    difficulty: Difficulty, found: Callable[[GameState], bool], turns: int = 12
) -> tuple[int, list[Action]]:
    """The first seed whose plain game reaches a state where ``found`` holds, and the actions
    that lead there (the state after them is the one ``found`` accepted)."""
    for seed in range(1, 5000):
        state = GameState.new(difficulty, seed)
        actions: list[Action] = []
        while not state.is_over and state.turn <= turns:
            if found(state):
                return seed, actions
            action = plain_turn(state)[0]
            state = state.apply(action)
            actions.append(action)
    raise AssertionError("no seed found")


@dataclass
class Player:
    """One person at the page in one layout, with the engine's mirror of their seeded game."""

    page: Page
    layout: str
    url: str
    mirror: GameState | None = None
    game_id: str = ""
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # the page's uncaught errors

    # -- the page ------------------------------------------------------------------------------
    def open(self) -> None:
        self.page.goto(self.url)
        self.wait_ready()

    def wait_ready(self) -> None:
        self.page.wait_for_selector("body[data-ready]", timeout=TIMEOUT_MS)
        self.wait_idle()

    def wait_idle(self) -> None:
        self.page.wait_for_function("!document.body.dataset.busy", timeout=TIMEOUT_MS)

    @property
    def touch(self) -> bool:
        return bool(LAYOUTS[self.layout].get("has_touch"))

    def tap(self, selector: str, *, force: bool = False) -> None:
        """A tap on a touch screen, a click otherwise; then wait until the page is idle.
        ``force`` taps a disabled (aria-disabled) button, which Playwright would wait on."""
        target: Locator = self.page.locator(selector)
        if self.touch:
            target.tap(timeout=TIMEOUT_MS, force=force)
        else:
            target.click(timeout=TIMEOUT_MS, force=force)
        self.wait_idle()

    def menu(self, name: str) -> None:
        """A screen opened from the bar's MENU (a desktop lists it in the bar itself)."""
        item = self.page.locator(f".menu {action_hook(name)}")
        if not item.is_visible():
            self.tap(action_hook("menu"))
        self.tap(f".menu {action_hook(name)}")

    def settle(self, *, everything: bool = False) -> None:
        """Wait for the page's effects that move what they touch (the roll's tumble, a die
        landing, a banner): not the coach's pulse, which never ends, nor (unless
        ``everything``) the floating words and a combo's glow, which move nothing else."""
        self.page.evaluate(
            """everything => Promise.all(document.getAnimations()
                .filter(a => a.effect && a.effect.getTiming().iterations !== Infinity)
                .filter(a => everything
                    || !["float-up", "celebrate", "fade"].includes(a.animationName))
                .map(a => a.finished.catch(() => null)))""",
            everything,
        )

    def screenshot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{self.layout}-{name}.png"
        self.settle()
        self.page.screenshot(path=str(path), scale="css")
        return path

    def classes(self, selector: str) -> list[str]:
        value = self.page.locator(selector).get_attribute("class") or ""
        return value.split()

    # -- the API, through the page's own cookies -----------------------------------------------
    def api(self, method: str, path: str, data: Any = None) -> Any:
        response = self.page.request.fetch(self.url + path, method=method, data=data)
        assert response.ok, f"{method} {path}: {response.status} {response.text()}"
        return response.json()

    def state(self) -> dict[str, Any]:
        data: dict[str, Any] = self.api("GET", "/api/games/current")
        return data

    def seed_game(self, difficulty: Difficulty, seed: int) -> dict[str, Any]:
        """A seeded game made through the API with this context's cookie, then a reload."""
        game: dict[str, Any] = self.api(
            "POST", "/api/games", {"difficulty": difficulty.value, "seed": seed}
        )
        self.mirror = GameState.new(difficulty, seed)
        self.game_id = game["id"]
        self.page.reload()
        self.wait_ready()
        return game

    # -- playing by taps, checked against the mirror -------------------------------------------
    def do(self, action: Action) -> None:
        """Perform ``action`` by taps alone, then check the page's game is the mirror's."""
        assert self.mirror is not None
        before = int(self.page.evaluate("document.body.dataset.version"))
        if isinstance(action, Roll):
            self.tap(action_hook("roll"))
        elif isinstance(action, Confirm):
            self.tap(action_hook("confirm"))
        elif isinstance(action, Stage):
            if "selected" not in self.classes(die_hook(action.die)):
                self.tap(die_hook(action.die))
            assert "valid" in self.classes(cell_hook(action.cell))
            self.tap(cell_hook(action.cell))
        elif isinstance(action, Unstage):
            time.sleep(DOUBLE_TAP_S)  # not the second tap of a double tap
            self.tap(f'.board [data-die="{action.die}"]')
        elif isinstance(action, Ruin):
            if "ruinable" not in self.classes(cell_hook(action.cell)):
                self.tap(action_hook("accept"))
            assert "ruinable" in self.classes(cell_hook(action.cell))
            self.tap(cell_hook(action.cell))
        elif isinstance(action, Adjust):
            if "selected" not in self.classes(die_hook(action.die)):
                self.tap(die_hook(action.die))
            self.tap(action_hook("minus" if action.delta < 0 else "plus"))
            self.answer_power_question()
        elif isinstance(action, Reroll):
            self.tap(action_hook("reroll"))
            for die in action.dice:
                if "picked" not in self.classes(die_hook(die)):
                    self.tap(die_hook(die))
            self.tap(action_hook("reroll"))
            self.answer_power_question()
        self.page.wait_for_function(
            "v => Number(document.body.dataset.version) > v", arg=before, timeout=TIMEOUT_MS
        )
        self.mirror = self.mirror.apply(action)
        self.check()

    def answer_power_question(self) -> None:
        """A Power that costs points asks once: yes."""
        assert self.mirror is not None
        cost = self.mirror.next_penalty
        if cost is not None and cost > 0:
            self.page.wait_for_selector('#sheet[data-screen="ask"][open]', timeout=TIMEOUT_MS)
            self.tap('[data-choice="yes"]')

    def check(self) -> None:
        """The server's state (as the page got it) is the mirror's."""
        assert self.mirror is not None
        state = self.api("GET", f"/api/games/{self.game_id}")
        assert state["phase"] == self.mirror.phase.value
        assert [die["value"] for die in state["dice"]] == list(self.mirror.dice)
        assert state["turn"] == self.mirror.turn
        board = [
            0 if c is None else RUIN if c == "ruin" else c for row in state["board"] for c in row
        ]
        assert board == to_codes(self.mirror.board)
        assert self.page.evaluate("document.body.dataset.phase") == state["phase"]

    def play_turn(self) -> None:
        assert self.mirror is not None
        for action in plain_turn(self.mirror):
            self.do(action)

    def play_to_end(self) -> None:
        assert self.mirror is not None
        while not self.mirror.is_over:
            self.play_turn()


def open_player(
    browser: Browser,
    layout: str,
    url: str,
    *,
    offered: bool = True,
    **options: Any,
) -> tuple[BrowserContext, Player]:
    """A new context (a new player: its own cookie) in ``layout``, with the page opened and every
    request it makes recorded. ``offered``: the tutorial was offered already (a first visit
    offers it); ``options`` go to the context (``color_scheme``, ``reduced_motion``…)."""
    # bypass_csp: wait_for_function evaluates its text in the page, which the server's CSP
    # forbids (no 'unsafe-eval'); tests/hosting/test_page_csp.py plays under the CSP itself
    context = browser.new_context(**{**LAYOUTS[layout], "bypass_csp": True, **options})
    context.add_init_script(NO_OFFLINE_ENGINE)
    if offered:
        context.add_init_script(TUTORIAL_OFFERED)
    page = context.new_page()
    player = Player(page, layout, url)

    def record(request: Request) -> None:
        player.requests.append(request.url)

    page.on("request", record)
    page.on("pageerror", lambda error: player.errors.append(str(error)))
    player.open()
    return context, player


class Opener(Protocol):
    """The page opened as a new player in ``layout`` (``options`` as :func:`open_player`'s)."""

    def __call__(self, layout: str, **options: Any) -> Player: ...


def players_opened(browser: Browser, url: str) -> Iterator[Opener]:
    """A fixture's body: open the page as new players, each in its own context with the clipboard
    allowed; every context is closed at the end, and the test fails on any uncaught error of a
    page."""
    players: list[tuple[BrowserContext, Player]] = []

    def open_one(layout: str, **options: Any) -> Player:
        context, player = open_player(browser, layout, url, **options)
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
        players.append((context, player))
        return player

    yield open_one
    for context, _ in players:
        context.close()
    assert not [p.errors for _, p in players if p.errors], "the page threw"
