"""Every screen at every size: a whole game (a MAGDAGDON and a hint included) on phones upright and
sideways, a tablet and a desktop, with no scrolling, every button of the current step inside the
viewport and at least 44 px, no message clipped, and the I-ROLL ULIT choice keeping the buttons'
size; a screenshot of each screen lands in artifacts/screenshots/."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from magdagdon.engine import Difficulty, Phase, Stage
from plans import plain_turn, plan_placement
from web.web_helpers import LAYOUTS, action_hook, axe_clean, die_hook, find_game, open_player

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from server_process import ServerProcess
    from web.web_helpers import Player

pytestmark = pytest.mark.browser

#: What must be inside the viewport and big enough to tap: the step's buttons, the board, the
#: tray, the menu; a sheet's own buttons when one is open.
FIT = """() => {
    const problems = [];
    const doc = document.scrollingElement;
    if (doc.scrollHeight > innerHeight + 1 || doc.scrollWidth > innerWidth + 1) {
        problems.push(`the page scrolls: ${doc.scrollWidth}×${doc.scrollHeight}`);
    }
    const sheet = document.querySelector("dialog[open]");
    const targets = sheet ? sheet.querySelectorAll(".sheet-head button, .sheet-body button")
        : document.querySelectorAll("#actions .btn, #powers .btn, .bar button, .board .cell, "
            + ".tray .die, #message button");
    for (const el of targets) {
        if (el.offsetParent === null) continue;
        const r = el.getBoundingClientRect();
        const data = el.dataset;
        const name = data.action || data.cell || data.die || el.textContent.trim();
        const below = r.bottom > (sheet ? sheet.getBoundingClientRect().bottom : innerHeight);
        if (sheet && !el.closest(".sheet-head") && below) {
            continue;  // further down a sheet that scrolls (its own content, not the page)
        }
        const outside = r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5;
        if (r.top < -0.5 || r.left < -0.5 || outside) {
            problems.push(`${name} is outside the viewport: ${JSON.stringify(r)}`);
        }
        if (r.width < 44 || r.height < 44) problems.push(`${name} is ${r.width}×${r.height}`);
    }
    const message = document.querySelector("#message");
    if (!sheet && message.scrollHeight > message.clientHeight + 1) {
        problems.push(`the message is clipped: ${message.textContent}`);
    }
    return problems;
}"""


def fits(player: Player, moment: str) -> None:
    player.settle()
    problems: list[str] = player.page.evaluate(FIT)
    assert not problems, f"{player.layout}, {moment}: {problems}"


def box(player: Player, selector: str) -> tuple[float, float]:
    found = player.page.locator(selector).bounding_box()
    assert found is not None
    return round(found["width"], 1), round(found["height"], 1)


def sheets(player: Player) -> None:
    for screen in ("settings", "highscores", "rules", "about"):
        player.menu(screen)
        expect(player.page.locator("#sheet")).to_be_visible()
        fits(player, screen)
        player.screenshot(screen)
        player.tap(action_hook("close"))


def first_turn(player: Player) -> None:
    """A die chosen, one staged, a hint, the I-ROLL ULIT choice (and back), then the turn."""
    page = player.page
    assert player.mirror is not None
    stage = plan_placement(player.mirror)[0]
    player.tap(die_hook(stage.die))
    fits(player, "a die chosen")
    player.screenshot("play-selected")
    player.do(stage)
    fits(player, "a die staged")
    player.screenshot("staged")
    player.tap(action_hook("hint"))
    page.wait_for_selector("body[data-hint]")
    fits(player, "a hint")
    player.screenshot("hint")
    reroll = box(player, action_hook("reroll"))
    player.tap(action_hook("reroll"))
    assert box(player, action_hook("reroll")) == reroll  # the choice keeps the buttons' size
    fits(player, "choosing dice for I-ROLL ULIT")
    player.screenshot("reroll-choice")
    player.tap(action_hook("cancel"))
    for rest in plain_turn(player.mirror):
        player.do(rest)
        fits(player, f"after {rest}")


#: Some sizes play in the dark colour scheme (the axe test covers both on every screen).
DARK = {"phone-375", "sideways-667", "tablet"}
#: axe on the screens only a finished game shows, light and dark (the rest: test_web_quality.py)
AXE = {"phone", "phone-375"}


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_a_whole_game_fits_every_screen(
    browser: Browser, web_server: ServerProcess, layout: str
) -> None:
    seed, _ = find_game(Difficulty.PEACEFUL, lambda s: s.phase is Phase.MAGDAGDON)
    scheme = "dark" if layout in DARK else "light"
    context, player = open_player(browser, layout, web_server.url, color_scheme=scheme)
    try:
        page = player.page
        player.seed_game(Difficulty.PEACEFUL, seed)
        fits(player, "a new game")
        player.screenshot("play-roll")
        sheets(player)
        assert player.mirror is not None
        turn = 0
        while player.mirror.phase is not Phase.MAGDAGDON:  # the plain game find_game played
            if player.mirror.phase is Phase.PLACE and turn == 0:
                turn += 1
                first_turn(player)
                continue
            for action in plain_turn(player.mirror):
                player.do(action)
                fits(player, f"after {action}")
        assert player.mirror is not None
        assert player.mirror.phase is Phase.MAGDAGDON
        player.screenshot("magdagdon")
        player.tap(action_hook("hint"))
        page.wait_for_selector("body[data-hint]")
        fits(player, "a hint in MAGDAGDON")
        player.screenshot("magdagdon-hint")
        player.tap(action_hook("accept"))
        fits(player, "MAGDAGDON accepted")
        player.screenshot("magdagdon-accepted")
        player.tap(action_hook("accept"))  # not yet
        while not player.mirror.is_over:
            for action in plain_turn(player.mirror):
                if isinstance(action, Stage) and player.mirror.turn % 4 == 0:
                    player.tap(action_hook("confirm"), force=True)  # disabled: it says why
                    fits(player, "a tap on a disabled button")
                player.do(action)
                fits(player, f"after {action}")
        fits(player, "game over")
        player.screenshot("over")
        if layout in AXE:
            axe_clean(player, f"game over ({scheme})")
        player.menu("highscores")
        expect(page.locator("tr.mine")).to_have_count(1)
        fits(player, "High Scores")
        if layout in AXE:
            axe_clean(player, f"High Scores ({scheme})")
        no_overflow = (
            "(() => { const t = document.querySelector('.scores').getBoundingClientRect();"
        )
        no_overflow += " const box = document.querySelector('#sheet').getBoundingClientRect();"
        no_overflow += " return t.right <= box.right - 2 && t.left >= box.left; })()"
        assert page.evaluate(no_overflow), "the High Scores table is wider than the screen"
        player.screenshot("highscores-filled")
        player.tap(action_hook("close"))
        player.tap(action_hook("new-game"))
        fits(player, "a new game again")
        assert not player.errors, "the page threw"
    finally:
        context.close()


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_the_tutorial_and_the_questions_fit_every_screen(
    browser: Browser, web_server: ServerProcess, layout: str
) -> None:
    context, player = open_player(browser, layout, web_server.url, offered=False)
    try:
        page = player.page
        expect(page.locator("#message.offer")).to_be_visible()
        fits(player, "the tutorial offered")
        player.screenshot("offer")
        player.tap(f"#message {action_hook('tutorial')}")
        expect(page.locator('[data-tutorial-step="1"]')).to_be_visible()
        fits(player, "the tutorial's first step")
        player.tap(action_hook("roll"))
        player.tap('.tray [data-die="3"]')
        fits(player, "the tutorial's lit cells")
        player.screenshot("tutorial")
        player.tap(action_hook("tutorial-skip"))
        expect(page.locator("[data-tutorial-step]")).to_have_count(0)
        player.tap(action_hook("roll"))
        player.tap(action_hook("new-game"))  # a game under way: it asks first
        expect(page.locator('#sheet[data-screen="ask"]')).to_be_visible()
        fits(player, "the new game question")
        player.screenshot("ask-new-game")
        player.tap('[data-choice="no"]')
        assert not player.errors, "the page threw"
    finally:
        context.close()
