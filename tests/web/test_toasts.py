"""The floating words after KUMPIRMAHIN (+18, a combo's name and bonus) never cover a row's or a
column's sum, at any moment of their flight, at every size: they float over the cells."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from magdagdon.engine import Difficulty
from plans import plain_turn
from web.test_taps import _combo_turn
from web.web_helpers import LAYOUTS, TIMEOUT_MS, find_game, open_player

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from server_process import ServerProcess

pytestmark = pytest.mark.browser

#: Every frame while a toast is on the page: does it cover a sum (more than a pixel's sliver)?
WATCH = """() => {
    window.toastWatch = { seen: 0, frames: 0, covered: [] };
    const toasts = document.querySelector("#toasts");
    const sums = () => [...document.querySelectorAll(".board .sum")];
    const frame = () => {
        const shown = [...toasts.children];
        if (!shown.length) return;
        window.toastWatch.frames += 1;
        for (const toast of shown) {
            const t = toast.getBoundingClientRect();
            for (const sum of sums()) {
                const s = sum.getBoundingClientRect();
                const w = Math.min(t.right, s.right) - Math.max(t.left, s.left);
                const h = Math.min(t.bottom, s.bottom) - Math.max(t.top, s.top);
                if (w > 1 && h > 1) window.toastWatch.covered.push(
                    `${toast.textContent} over ${sum.className}`);
            }
        }
        requestAnimationFrame(frame);
    };
    new MutationObserver((changes) => {
        const added = changes.reduce((n, c) => n + c.addedNodes.length, 0);
        if (added) {
            window.toastWatch.seen += added;
            requestAnimationFrame(frame);
        }
    }).observe(toasts, { childList: true });
}"""


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_the_floating_words_never_cover_the_sums(
    browser: Browser, web_server: ServerProcess, layout: str
) -> None:
    seed, actions = find_game(Difficulty.PEACEFUL, _combo_turn, turns=16)
    context, player = open_player(browser, layout, web_server.url)
    try:
        player.seed_game(Difficulty.PEACEFUL, seed)
        for action in actions:
            player.do(action)
        page = player.page
        page.evaluate(WATCH)
        assert player.mirror is not None
        for action in plain_turn(player.mirror):  # a combo: its words and the points
            player.do(action)
        page.wait_for_function(
            "window.toastWatch.seen >= 2 && !document.querySelector('#toasts').children.length",
            timeout=TIMEOUT_MS,
        )
        watched: dict[str, Any] = page.evaluate("window.toastWatch")
        assert watched["frames"] > 0
        assert not watched["covered"], f"{layout}: {sorted(set(watched['covered']))}"
    finally:
        context.close()
