"""What a player notices (axe on every screen: test_axe_every_state.py): the keyboard (a key
for every action, focus never where Enter would return a die by surprise), the touch targets, the
weight of the first load, no request leaving the server, and reduced motion."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from magdagdon.api.page.static import WEB_DIR
from magdagdon.engine import Difficulty, Phase, Roll
from plans import plain_turn, plan_placement
from web.web_helpers import (
    LAYOUTS,
    SCREENSHOTS,
    TUTORIAL_OFFERED,
    action_hook,
    cell_hook,
    find_game,
    open_player,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from server_process import ServerProcess
    from web.web_helpers import Player

pytestmark = pytest.mark.browser

FIRST_LOAD_BUDGET = 150 * 1024
#: Loaded only when opened: the sheet itself (its style, other devices' part), the game-over
#: panel, the tutorial, the long texts (LAYUNIN, TUNGKOL SA LARO), the review, the daily
#: challenge, STATISTIKA, the share step and SETTINGS' data (more.js loads them); the English
#: words before the page first speaks English.
LATER = (
    "i18n/en.js",
    *("render/sheet.js", "sheet.css", "sheets/devices.js", "i18n/fil.devices.js"),
    *("i18n/en.devices.js", "render/over.js", "sheets/records.js", "lib/hints.js"),
    *("app/tutorial.js", "tutorial.json", "i18n/fil.long.js", "i18n/en.long.js"),
    *("review/sheet.js", "review/step.js", "i18n/fil.review.js", "i18n/en.review.js", "review.css"),
    *("sheets/daily.js", "sheets/stats.js", "sheets/settings.js", "sheets/share.js"),
    *("sheets/moreApi.js", "i18n/fil.sheets.js", "i18n/en.sheets.js", "more.css"),
    "lib/chart.js",
    # play without the server, in the background (core/source.js loads them)
    *("core/local.js", "core/kept.js", "i18n/fil.offline.js", "i18n/en.offline.js"),
)


def test_touch_targets_are_at_least_44_px(player: Player) -> None:
    player.tap(action_hook("roll"))
    player.tap('.tray [data-die="0"]')
    boxes: list[dict[str, Any]] = player.page.evaluate(
        """() => [...document.querySelectorAll("button")]
            .filter(b => b.offsetParent !== null)
            .map(b => { const r = b.getBoundingClientRect();
                        return {what: b.outerHTML.slice(0, 60), w: r.width, h: r.height}; })"""
    )
    # the cells, the dice, the Powers, the actions, the bar (HAMON, the language, MENU)
    assert len(boxes) >= 16 + 4 + 3 + 3 + 3
    small = [b for b in boxes if b["w"] < 44 or b["h"] < 44]
    assert not small
    listed = player.page.locator(".menu").is_visible()  # a desktop lists them in the bar
    if not listed:
        player.tap(action_hook("menu"))
    for item in player.page.locator(".menu button").all():
        box = item.bounding_box()
        assert box is not None
        assert box["width"] >= 44
        assert box["height"] >= 44
    if not listed:
        player.tap(action_hook("menu"))
    player.menu("settings")
    player.page.wait_for_selector("#player-name")  # its sections that load when opened too
    # and the engine's size, whose arrival draws the sheet again: a button measured as it is
    # replaced has no box
    player.page.wait_for_selector("#sheet [data-engine-bytes]:not([data-engine-bytes=''])")
    player.wait_idle()
    for choice in player.page.locator("#sheet button").all():
        box = choice.bounding_box()
        assert box is not None
        assert box["width"] >= 44
        assert box["height"] >= 44


def focused(page: Page) -> str:
    found: str = page.evaluate(
        """(() => { const e = document.activeElement;
            if (e.dataset.cell) return `cell ${e.dataset.cell}`
                + (e.classList.contains("staged") ? " staged" : "");
            if (e.dataset.die !== undefined) return `die ${e.dataset.die}`;
            return e.dataset.action || e.tagName;
        })()"""
    )
    return found


def test_every_action_has_a_key_and_enter_never_returns_a_die_by_surprise(
    browser: Browser, web_server: ServerProcess
) -> None:
    seed, _ = find_game(Difficulty.PEACEFUL, lambda s: s.phase is Phase.MAGDAGDON)
    context, player = open_player(browser, "desktop", web_server.url)
    try:
        player.seed_game(Difficulty.PEACEFUL, seed)
        page = player.page
        keys = page.keyboard

        def press(key: str) -> None:
            keys.press(key)
            player.wait_idle()

        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.matches('button')")
        press("h")  # the hint, before the roll: I-ROLL
        expect(page.locator("body[data-hint]")).to_have_count(1)
        press("h")
        expect(page.locator("body[data-hint]")).to_have_count(0)
        press("r")
        page.wait_for_function("document.body.dataset.phase === 'place'")
        assert player.mirror is not None
        player.mirror = player.mirror.apply(Roll())
        for stage in plan_placement(player.mirror):
            press(str(stage.die + 1))  # the die; focus goes to a lit cell
            row, col = (int(x) for x in focused(page).split()[1].split("-"))
            target_row, target_col = divmod(stage.cell, 4)
            for _ in range(abs(target_row - row)):
                press("ArrowDown" if target_row > row else "ArrowUp")
            for _ in range(abs(target_col - col)):
                press("ArrowRight" if target_col > col else "ArrowLeft")
            assert focused(page) == f"cell {target_row}-{target_col}"
            press("Enter")
            expect(page.locator(cell_hook(stage.cell))).to_have_class("cell staged")
            player.mirror = player.mirror.apply(stage)
            # not the staged die, where Enter again would return it: the next die, or KUMPIRMAHIN
            assert focused(page).startswith("die ") or focused(page) == "confirm", focused(page)
        assert page.locator(".board .cell.staged").count() == len(player.mirror.order)
        # choose a die with its key, U to choose the dice to reroll, Esc to stop
        tray = player.mirror.tray
        if tray:
            press("u")
            press(str(tray[0] + 1))
            expect(page.locator(".die.picked")).to_have_count(1)
            press("Escape")
            expect(page.locator(".die.picked")).to_have_count(0)
        press("k")
        page.wait_for_function("document.body.dataset.phase === 'roll'")
        player.mirror = player.mirror.apply(plain_turn(player.mirror)[-1])
        while player.mirror.phase is not Phase.MAGDAGDON:
            for action in plain_turn(player.mirror):
                player.do(action)
        press("t")  # TANGGAPIN
        expect(page.locator(".cell.ruinable").first).to_be_visible()
        press("t")
        expect(page.locator(".cell.ruinable")).to_have_count(0)
        press("u")  # I-ROLL ULIT: choose, then U again
        press("1")
        press("u")
        # it costs points: asked first, the answer in focus is no (Enter spends nothing)
        expect(page.locator('#sheet[data-screen="ask"]')).to_be_visible()
        expect(page.locator('[data-choice="no"]')).to_be_focused()
        press("Shift+Tab")
        expect(page.locator('[data-choice="yes"]')).to_be_focused()
        press("Enter")
        page.wait_for_function("document.body.dataset.busy === undefined")
        assert player.state()["powers"]["used"] == 1
        press("n")  # a new game: it asks first, and the answer in focus is no
        expect(page.locator('#sheet[data-screen="ask"]')).to_be_visible()
        expect(page.locator('[data-choice="no"]')).to_be_focused()
        press("Escape")
        press("?")  # LAYUNIN lists every key
        sheet = page.locator("#sheet-body")
        for key in ("R", "K", "U", "T", "H", "N", "Esc"):
            expect(sheet.locator("kbd", has_text=key).first).to_be_visible()
        expect(sheet).to_contain_text("Binibilang sa laro ang bawat mungkahing nagbigay ng payo")
        expect(sheet.locator(action_hook("tutorial"))).to_be_visible()
        expect(sheet.locator("h3").first).to_have_text("ISANG TURNO")  # not LAYUNIN again
        assert not player.errors, "the page threw"
    finally:
        context.close()


def test_the_first_load_is_light_and_local(browser: Browser, web_server: ServerProcess) -> None:
    context = browser.new_context(**LAYOUTS["phone"], bypass_csp=True)
    context.add_init_script(TUTORIAL_OFFERED)
    try:
        page = context.new_page()
        sizes: dict[str, int] = {}
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.on(
            "response",
            lambda r: sizes.__setitem__(r.url, len(r.body())) if "/api/" not in r.url else None,
        )
        page.goto(web_server.url)
        page.wait_for_selector("body[data-ready]")
        page.wait_for_load_state("networkidle")
        ready = "performance.getEntriesByName('magdagdon-ready')[0].startTime"
        cold: float = page.evaluate(ready)
        first = dict(sizes)
        served = sum(first.values())
        print(f"first load before a tap: {served} B in {len(first)} files")
        assert served <= FIRST_LOAD_BUDGET
        # nor the service worker's script: it comes with the first tap (core/offline.js)
        assert page.evaluate("async () => !(await navigator.serviceWorker.getRegistration())")
        assert len(first) >= 10  # the page, its style sheets and its modules
        assert not [url for url in first if url.endswith(LATER)]
        assert all(url.startswith(web_server.url + "/") for url in requests)
        # the long texts load when LAYUNIN opens (not before: LATER above)
        with page.expect_response(lambda r: r.url.endswith("i18n/fil.long.js")) as long_text:
            page.locator(action_hook("menu")).click()
            page.locator(f".menu {action_hook('rules')}").click()
        page.wait_for_selector("#sheet-body h3")
        assert long_text.value.ok
        page.reload()
        page.wait_for_selector("body[data-ready]")
        warm: float = page.evaluate(ready)
        on_disk = sum(p.stat().st_size for p in WEB_DIR.rglob("*") if p.is_file())
        metrics = {
            "bytes_first_load": served,
            "files_first_load": len(first),
            "bytes_on_disk": on_disk,
            "ready_ms_first_visit": round(cold, 1),
            "ready_ms_reload": round(warm, 1),
        }
        SCREENSHOTS.parent.mkdir(parents=True, exist_ok=True)
        (SCREENSHOTS.parent / "web-metrics.json").write_text(json.dumps(metrics, indent=1))
        print(metrics)
    finally:
        context.close()


MOTION = """() => {
    const el = (cls) => { const e = document.createElement("div"); e.className = cls;
                          document.body.append(e); return e; };
    const names = {};
    for (const cls of ["die rolling", "cell celebrate", "shake", "coached", "message banner",
                       "cell landing", "toast"]) {
        const e = el(cls);
        names[cls] = getComputedStyle(e).animationName;
        e.remove();
    }
    return names;
}"""


def test_reduced_motion_and_dark_mode_are_honoured(
    browser: Browser, web_server: ServerProcess
) -> None:
    context = browser.new_context(
        **LAYOUTS["phone"], reduced_motion="reduce", color_scheme="dark", bypass_csp=True
    )
    context.add_init_script(TUTORIAL_OFFERED)
    try:
        page = context.new_page()
        page.goto(web_server.url)
        page.wait_for_selector("body[data-ready]")
        page.locator(action_hook("roll")).tap()
        page.wait_for_function("document.body.dataset.phase !== 'roll'")
        names: dict[str, str] = page.evaluate(MOTION)
        moving = {cls: name for cls, name in names.items() if name not in ("none", "fade")}
        assert not moving
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(23, 19, 15)"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "phone-dark.png"))
    finally:
        context.close()
