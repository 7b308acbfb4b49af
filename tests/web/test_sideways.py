"""A phone held sideways (844×390, 667×375): a daily challenge's game over whole on the screen with
the bar above it and BAGONG LARO below it; I-ROLL ULIT's choice during a MAGDAGDON says what to
do; the game review's every step read without scrolling, the computer's line above the step
buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from magdagdon.engine import Difficulty, Phase
from plans import plain_turn
from web.review_helpers import finish_game, wait_done
from web.state_walk import open_daily_over
from web.web_helpers import TIMEOUT_MS, action_hook, find_game, open_player

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from server_process import ServerProcess

pytestmark = pytest.mark.browser

SIDEWAYS = ["sideways-844", "sideways-667"]

#: What of the game over is not wholly on the screen, or the page's scrolling.
OVER_OFF_SCREEN = """() => {
    const problems = [];
    const doc = document.scrollingElement;
    if (doc.scrollHeight > innerHeight + 1 || doc.scrollTop > 0) {
        problems.push(`the page scrolls: ${doc.scrollHeight} at ${doc.scrollTop}`);
    }
    const inside = (el, name) => {
        const r = el.getBoundingClientRect();
        if (r.top < -0.5 || r.bottom > innerHeight + 0.5 || r.left < -0.5
            || r.right > innerWidth + 0.5) problems.push(`${name}: ${JSON.stringify(r)}`);
    };
    inside(document.querySelector(".bar"), "the bar");
    inside(document.querySelector(".over-head"), "the game over's head");
    for (const b of document.querySelectorAll("#over button, #actions button")) {
        if (b.offsetParent !== null) inside(b, b.dataset.action);
    }
    return problems;
}"""


@pytest.mark.parametrize("layout", SIDEWAYS)
def test_a_daily_game_over_is_whole_on_the_screen(
    browser: Browser, web_server: ServerProcess, layout: str
) -> None:
    context, player = open_player(browser, layout, web_server.url)
    try:
        open_daily_over(player)
        for moment in ("the game over", "shared"):
            player.settle(everything=True)
            # measured once the bar and the game over's head are drawn: the page may draw the
            # game over again (the day's figures arrive) between a settle and a look
            problems = player.page.wait_for_function(
                "() => document.querySelector('.bar') && document.querySelector('.over-head')"
                f" && ({OVER_OFF_SCREEN})()",
                timeout=TIMEOUT_MS,
            ).json_value()
            assert not problems, f"{layout}, {moment}: {problems}"
            expect(player.page.locator(action_hook("new-game"))).to_be_in_viewport(ratio=1)
            if moment == "the game over":
                player.tap(f"#over {action_hook('share')}")
                player.page.wait_for_selector("#over .share-note")
        assert not player.errors
    finally:
        context.close()


@pytest.mark.parametrize("layout", SIDEWAYS)
def test_the_reroll_choice_in_a_magdagdon_says_what_to_do(
    browser: Browser, web_server: ServerProcess, layout: str
) -> None:
    seed, _ = find_game(Difficulty.PEACEFUL, lambda s: s.phase is Phase.MAGDAGDON)
    context, player = open_player(browser, layout, web_server.url)
    try:
        player.seed_game(Difficulty.PEACEFUL, seed)
        assert player.mirror is not None
        while player.mirror.phase is not Phase.MAGDAGDON:
            for action in plain_turn(player.mirror):
                player.do(action)
        player.tap(action_hook("reroll"))
        message = player.page.locator("#message")
        expect(message).to_contain_text("MAGDAGDON!")
        expect(message).to_contain_text("I-tap ang dice na iro-roll ulit, saka I-ROLL ULIT.")
        player.settle()
        expect(message).to_be_in_viewport(ratio=1)
        clipped = message.evaluate("el => el.scrollHeight > el.clientHeight + 1")
        assert not clipped, "the instruction is cut"
        player.tap(action_hook("cancel"))
        expect(message).not_to_contain_text("I-tap ang dice na iro-roll ulit")
    finally:
        context.close()


#: The review's body and the computer's line against the step buttons.
REVIEW_FITS = """() => {
    const body = document.querySelector("#review .review-body");
    const nav = document.querySelector("#review .review-nav").getBoundingClientRect();
    const computer = document.querySelector("#review .who.computer");
    return { step: document.querySelector("#review").dataset.step,
             scrolls: body.scrollHeight - body.clientHeight,
             computer: computer ? computer.getBoundingClientRect().bottom - nav.top : null };
}"""


@pytest.mark.parametrize(
    ("layout", "locale"),
    [("sideways-844", "fil-PH"), ("sideways-667", "fil-PH"), ("sideways-667", "en-US")],
)
def test_every_step_of_the_review_is_read_without_scrolling(
    browser: Browser, web_server: ServerProcess, layout: str, locale: str
) -> None:
    context, player = open_player(browser, layout, web_server.url, locale=locale)
    try:
        finish_game(player)
        player.tap(f"#over {action_hook('review')}")
        wait_done(player)
        page = player.page
        seen: list[dict[str, Any]] = []
        following = page.locator('#review [data-review="next"]')
        while True:
            player.settle()
            seen.append(page.evaluate(REVIEW_FITS))
            if following.get_attribute("aria-disabled") == "true":
                break
            following.click()
        assert len(seen) > 10
        assert any(s["computer"] is not None for s in seen)  # decisions that differ were seen
        scrolled = [s for s in seen if s["scrolls"] > 1]
        assert not scrolled, f"{layout}: the review scrolls inside itself at {scrolled}"
        under = [s for s in seen if s["computer"] is not None and s["computer"] > 0]
        assert not under, f"{layout}: the computer's line is under the buttons at {under}"
    finally:
        context.close()
