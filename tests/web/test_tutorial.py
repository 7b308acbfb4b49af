"""The tutorial by taps: offered on a first visit, every step's coach mark on the one thing to tap,
other taps refused, the real game following the engine, skippable at any step, and the player's
game under way waiting for its end."""

from __future__ import annotations

import json
import re
import time
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from magdagdon.api.page.static import WEB_DIR
from magdagdon.engine import Difficulty, GameState, action_from_json
from web.web_helpers import DOUBLE_TAP_S, TIMEOUT_MS, action_hook, open_player

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from server_process import ServerProcess
    from web.web_helpers import Player

pytestmark = pytest.mark.browser

SCRIPT: dict[str, Any] = json.loads((WEB_DIR / "tutorial.json").read_text(encoding="utf-8"))
STEPS: list[dict[str, Any]] = SCRIPT["steps"]


def target_of(tap: dict[str, Any]) -> str:
    if "action" in tap:
        if tap["action"] == "tutorial-done":
            return '#actions [data-action="tutorial-done"]'
        return f"#actions {action_hook(tap['action'])}, #powers {action_hook(tap['action'])}"
    if "die" in tap:
        return f'.tray [data-die="{tap["die"]}"]'
    row, col = tap.get("cell") or tap["board"]
    return f'.board [data-cell="{row}-{col}"]'


def coach_step(page: Page) -> int:
    return int(page.locator("[data-tutorial-step]").get_attribute("data-tutorial-step") or 0)


def start_tutorial(player: Player) -> str:
    """Taps TUTORIAL in the menu; answers the tutorial game's id."""
    with player.page.expect_response(
        lambda r: r.url.endswith("/api/games") and r.request.method == "POST"
    ) as created:
        player.menu("tutorial")
    game: dict[str, Any] = created.value.json()
    assert (game["mode"], game["difficulty"]) == ("tutorial", "peaceful")
    return str(game["id"])


COACHED = re.compile(r"\bcoached\b")


def test_a_first_visit_offers_the_tutorial_and_its_taps_teach_the_whole_game(
    browser: Browser, web_server: ServerProcess
) -> None:
    context, player = open_player(browser, "phone", web_server.url, offered=False)
    try:
        page = player.page
        offer = page.locator("#message.offer")  # in the message area: the game plays at once
        expect(offer.locator(action_hook("tutorial"))).to_be_visible()
        expect(page.locator("#sheet")).not_to_be_visible()
        player.screenshot("tutorial-offer")
        player.tap(action_hook("roll"))  # a game under way, which the tutorial leaves waiting
        expect(offer).to_have_count(0)
        under_way = player.state()
        tutorial_id = start_tutorial(player)
        expect(page.locator(".menu")).to_be_hidden()
        expect(page.locator(action_hook("tutorial-skip"))).to_be_visible()

        expect(page.locator("#live")).to_contain_text("Isang tunay na laro sa PEACEFUL")
        # A tap the coach did not ask for: refused with a shake and a gentle word, the step stays.
        first = STEPS[0]
        assert first["tap"] == {"action": "roll"}
        expect(page.locator("#message .coach-nudge")).to_have_count(0)
        player.tap('.board [data-cell="0-0"]')
        assert coach_step(page) == 1
        assert page.evaluate("document.body.dataset.phase") == "roll"
        expect(page.locator("#message .coach-nudge")).to_have_text(
            "Hindi pa iyan: i-tap ang may dilaw na marka."
        )

        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        mirror = GameState.new(Difficulty.PEACEFUL, SCRIPT["seed"])
        shots = {"placeFirst": "tutorial-lit", "placeBetween": "tutorial-between",
                 "ruin": "tutorial-magdagdon", "power_plus": "tutorial-power",
                 "done": "tutorial-straight"}  # fmt: skip
        for index in range(len(STEPS)):
            if index == len(STEPS) - 1:
                last_step_alone(player)
            mirror = play_steps_from(player, index, mirror)
            if index == 0:  # the word goes once the asked tap is made
                expect(page.locator("#message .coach-nudge")).to_have_count(0)
            name = shots.get(STEPS[index + 1]["say"]) if index + 1 < len(STEPS) else None
            if name:
                player.screenshot(name)
            if index == 1:  # each step's words are said too (aria-live)
                expect(page.locator("#live")).to_contain_text("Kahit saan puwede")
        assert page.locator("[data-tutorial-step]").count() == 0
        assert not errors
        assert page.evaluate("document.body.dataset.mode") == "normal"
        assert player.state()["id"] == under_way["id"]
        assert player.state()["version"] == under_way["version"]
        tutorial = player.api("GET", f"/api/games/{tutorial_id}")
        assert tutorial["mode"] == "tutorial"
        assert tutorial["score"]["rows"][1]["combo"] == "straight"
        assert player.api("GET", "/api/highscores?difficulty=peaceful") == []
        # the game under way is back; a new one would no longer offer the tutorial it just taught
        player.tap(action_hook("new-game"))
        player.tap('[data-choice="yes"]')
        expect(page.locator("#message")).to_have_text("Pindutin ang I-ROLL para magsimula.")

        page.reload()  # offered once only
        player.wait_ready()
        expect(page.locator("#message.offer")).to_have_count(0)
        assert not player.errors, "the page threw"
    finally:
        context.close()


def last_step_alone(player: Player) -> None:
    """The last step: TAPOS NA, whole and inside the screen, the only button in the action row,
    and no Power; the board is not covered once the floating words are gone."""
    page = player.page
    done = page.locator(f"#actions {action_hook('tutorial-done')}")
    expect(done).to_be_visible()
    expect(page.locator("#message").locator("button")).to_have_count(0)
    shown = page.evaluate(
        """() => [...document.querySelectorAll('#actions .btn, #powers .btn')]
            .filter(el => el.offsetParent !== null).map(el => el.dataset.action)"""
    )
    assert shown == ["tutorial-done"]
    box = done.bounding_box()
    size = page.viewport_size
    assert box is not None
    assert size is not None
    assert box["height"] >= 44
    assert box["y"] >= 0
    assert box["y"] + box["height"] <= size["height"]
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= size["width"]


def play_steps_from(player: Player, index: int, mirror: GameState) -> GameState:
    """Step ``index`` by its coached tap (after, at the first die step, a refused wrong die)."""
    page = player.page
    step = STEPS[index]
    expect(page.locator(f'[data-tutorial-step="{index + 1}"]')).to_be_visible()
    if "die" in step["tap"] and index == 1:
        other = next(d for d in range(4) if d != step["tap"]["die"])
        player.tap(f'.tray [data-die="{other}"]')
        assert coach_step(page) == index + 1
        expect(page.locator(".tray .die.selected")).to_have_count(0)
    return play_one(player, step, mirror)


def play_one(player: Player, step: dict[str, Any], mirror: GameState) -> GameState:
    page = player.page
    target = page.locator(target_of(step["tap"]))
    expect(target).to_have_class(COACHED)
    if "board" in step["tap"]:
        time.sleep(DOUBLE_TAP_S)
    before = int(page.evaluate("document.body.dataset.version"))
    player.tap(target_of(step["tap"]))
    if step["send"] is not None:
        page.wait_for_function(
            "v => Number(document.body.dataset.version) > v", arg=before, timeout=TIMEOUT_MS
        )
        mirror = mirror.apply(action_from_json(step["send"]))
        assert page.evaluate("document.body.dataset.phase") == mirror.phase.value
        faces = page.locator(".board .cell.number, .board .cell.staged").count()
        assert faces == sum(1 for c in mirror.codes() if 1 <= c <= 6) + len(mirror.order)
    return mirror


def test_the_tutorial_in_english_can_be_skipped_at_any_step(
    browser: Browser, web_server: ServerProcess
) -> None:
    context, player = open_player(browser, "desktop", web_server.url)
    try:
        page = player.page
        player.menu("settings")
        player.tap('[data-lang="en"]')
        player.tap(action_hook("close"))
        start_tutorial(player)
        coach = page.locator("[data-tutorial-step]")
        expect(coach).to_contain_text("This is a real game on PEACEFUL")
        mirror = GameState.new(Difficulty.PEACEFUL, SCRIPT["seed"])
        for step in STEPS[:9]:
            mirror = play_one(player, step, mirror)
        player.screenshot("tutorial-english")
        expect(coach).to_have_attribute("data-tutorial-step", "10")
        expect(coach).to_contain_text("touches the 3 and the 5")
        player.tap(action_hook("tutorial-skip"))
        expect(page.locator("[data-tutorial-step]")).to_have_count(0)
        expect(page.locator(".menu")).to_be_visible()
        fresh = player.state()  # there was no game under way: a new one
        assert (fresh["mode"], fresh["turn"], fresh["phase"]) == ("normal", 0, "roll")
        assert page.evaluate("document.body.dataset.mode") == "normal"
        assert not player.errors, "the page threw"
    finally:
        context.close()
