"""What a player notices: accessibility (axe, keyboard), the phone fit and touch targets, the
weight of the page, no request leaving the server, and the time until the page is playable."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from magdagdon.api.static import WEB_DIR
from magdagdon.engine import Confirm, Difficulty, Phase, Roll, Ruin, row_col
from plans import plan_placement
from web.web_helpers import (
    LAYOUTS,
    SCREENSHOTS,
    action_hook,
    cell_hook,
    find_game,
    open_player,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from web.web_helpers import Player

pytestmark = pytest.mark.browser

PAGE_BUDGET = 150 * 1024
SERIOUS = {"serious", "critical"}


def axe_clean(page: Page, screen: str) -> None:
    page.evaluate("Promise.all(document.getAnimations().map(a => a.finished))")
    results = Axe().run(page)
    bad = [v for v in results.response["violations"] if v["impact"] in SERIOUS]
    assert not bad, f"{screen}: {results.generate_report()}"


def fits_without_scrolling(player: Player) -> None:
    if player.layout == "phone":
        scroll, height = player.page.evaluate(
            "[document.scrollingElement.scrollHeight, innerHeight]"
        )
        assert scroll <= height


def test_every_screen_passes_axe_and_fits_the_phone(player: Player) -> None:
    seed, actions = find_game(Difficulty.PEACEFUL, lambda s: s.phase is Phase.MAGDAGDON)
    player.seed_game(Difficulty.PEACEFUL, seed)
    axe_clean(player.page, "new game")
    for action in actions:
        player.do(action)
    axe_clean(player.page, "MAGDAGDON")
    fits_without_scrolling(player)
    player.tap(action_hook("accept"))
    axe_clean(player.page, "MAGDAGDON accepted")
    fits_without_scrolling(player)
    assert player.mirror is not None
    player.do(Ruin(player.mirror.empty_cells()[0]))
    player.do(Roll())
    assert player.mirror.phase is Phase.PLACE
    stage = plan_placement(player.mirror)[0]
    player.tap(f'.tray [data-die="{stage.die}"]')
    axe_clean(player.page, "a die selected")
    fits_without_scrolling(player)
    player.screenshot("play-selected")

    for screen in ("settings", "highscores", "rules", "about"):
        player.tap(action_hook(screen))
        expect(player.page.locator("#sheet")).to_be_visible()
        axe_clean(player.page, screen)
        player.tap(action_hook("close"))

    player.play_to_end()
    axe_clean(player.page, "game over")
    fits_without_scrolling(player)


def test_touch_targets_are_at_least_44_px(player: Player) -> None:
    player.tap(action_hook("roll"))
    player.tap('.tray [data-die="0"]')
    boxes: list[dict[str, Any]] = player.page.evaluate(
        """() => [...document.querySelectorAll("button")]
            .filter(b => b.offsetParent !== null)
            .map(b => { const r = b.getBoundingClientRect();
                        return {what: b.outerHTML.slice(0, 60), w: r.width, h: r.height}; })"""
    )
    assert len(boxes) >= 16 + 4 + 4
    small = [b for b in boxes if b["w"] < 44 or b["h"] < 44]
    assert not small
    player.tap(action_hook("settings"))
    for choice in player.page.locator("#sheet button").all():
        box = choice.bounding_box()
        assert box is not None
        assert box["width"] >= 44
        assert box["height"] >= 44


def test_the_whole_turn_can_be_played_with_the_keyboard(browser: Browser, live_server: Any) -> None:
    context, player = open_player(browser, "desktop", live_server.url)
    try:
        player.seed_game(Difficulty.PEACEFUL, seed=21)
        page = player.page
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.matches('button')")
        page.keyboard.press("r")
        player.wait_idle()
        page.wait_for_function("document.body.dataset.phase === 'place'")
        assert player.mirror is not None
        player.mirror = player.mirror.apply(Roll())
        for stage in plan_placement(player.mirror):
            page.keyboard.press(str(stage.die + 1))  # the die; focus goes to a lit cell
            row, col = (
                int(x) for x in page.evaluate("document.activeElement.dataset.cell").split("-")
            )
            target_row, target_col = row_col(stage.cell)
            for _ in range(abs(target_row - row)):
                page.keyboard.press("ArrowDown" if target_row > row else "ArrowUp")
            for _ in range(abs(target_col - col)):
                page.keyboard.press("ArrowRight" if target_col > col else "ArrowLeft")
            assert (
                page.evaluate("document.activeElement.dataset.cell") == f"{target_row}-{target_col}"
            )
            page.keyboard.press("Enter")
            player.wait_idle()
            expect(page.locator(cell_hook(stage.cell))).to_have_class("cell staged")
            player.mirror = player.mirror.apply(stage)
        page.keyboard.press("k")
        player.wait_idle()
        page.wait_for_function("document.body.dataset.phase === 'roll'")
        player.mirror = player.mirror.apply(Confirm())
        player.check()
    finally:
        context.close()


def test_light_local_and_quick(browser: Browser, live_server: Any) -> None:
    files = [p for p in WEB_DIR.rglob("*") if p.is_file()]
    on_disk = sum(p.stat().st_size for p in files)
    assert on_disk <= PAGE_BUDGET

    context = browser.new_context(**LAYOUTS["phone"])
    try:
        page = context.new_page()
        sizes: dict[str, int] = {}
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.on(
            "response",
            lambda r: sizes.__setitem__(r.url, len(r.body())) if "/api/" not in r.url else None,
        )
        page.goto(live_server.url)
        page.wait_for_selector("body[data-ready]")
        ready = "performance.getEntriesByName('magdagdon-ready')[0].startTime"
        cold: float = page.evaluate(ready)
        page.reload()
        page.wait_for_selector("body[data-ready]")
        warm: float = page.evaluate(ready)
        served = sum(sizes.values())
        assert served <= PAGE_BUDGET
        assert len(sizes) >= 10  # the page, its style sheets and its modules
        assert all(url.startswith(live_server.url + "/") for url in requests)
        metrics = {
            "bytes_on_disk": on_disk,
            "bytes_served": served,
            "files_served": len(sizes),
            "ready_ms_first_visit": round(cold, 1),
            "ready_ms_reload": round(warm, 1),
        }
        SCREENSHOTS.parent.mkdir(parents=True, exist_ok=True)
        (SCREENSHOTS.parent / "web-metrics.json").write_text(json.dumps(metrics, indent=1))
        print(metrics)
    finally:
        context.close()


def test_reduced_motion_and_dark_mode_are_honoured(browser: Browser, live_server: Any) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        reduced_motion="reduce",
        color_scheme="dark",
        bypass_csp=True,  # for wait_for_function (web_helpers.open_player)
    )
    try:
        page = context.new_page()
        page.goto(live_server.url)
        page.wait_for_selector("body[data-ready]")
        page.locator(action_hook("roll")).click()
        page.wait_for_function("document.body.dataset.phase !== 'roll'")
        page.evaluate("document.querySelector('.tray .die').classList.add('rolling')")
        assert (
            page.evaluate("getComputedStyle(document.querySelector('.die.rolling')).animationName")
            == "none"
        )
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(23, 19, 15)"
        axe_clean(page, "dark")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "phone-dark.png"))
    finally:
        context.close()
