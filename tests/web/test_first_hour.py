"""The first hour of a new player, by taps only: the language the browser asks for, every screen
reached from the bar by its name, the board that stays put through a turn, every button whole
inside the screen at every size, a question shown where it was asked, a sheet closed by a tap
beside it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from magdagdon.engine import Confirm, Difficulty, GameState, Roll, action_to_json
from plans import plain_turn, plan_placement
from storage_helpers import until
from web.state_walk import open_daily_over
from web.web_helpers import LAYOUTS, TUTORIAL_OFFERED, action_hook, open_player

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Route

    from server_process import ServerProcess
    from web.web_helpers import Player

pytestmark = pytest.mark.browser

SIZES = ["phone", "phone-360", "sideways-844", "sideways-667", "desktop"]

#: Each visible button of the play screen: inside the viewport, at least 44 px, its words whole.
WHOLE = """() => {
    const problems = [];
    const buttons = document.querySelectorAll(
        "#actions .btn, #powers .btn, .bar button, .tray .die, #over .btn, #message button");
    for (const el of buttons) {
        if (el.offsetParent === null) continue;
        const r = el.getBoundingClientRect();
        const name = el.dataset.action || el.dataset.die || el.dataset.lang
            || el.textContent.trim();
        if (r.top < -0.5 || r.left < -0.5
            || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) {
            problems.push(`${name} is outside the viewport`);
        }
        if (r.width < 44 || r.height < 44) problems.push(`${name} is ${r.width}×${r.height}`);
        if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) {
            problems.push(`${name}'s words overflow it: ${el.scrollWidth}×${el.scrollHeight}`);
        }
    }
    return problems;
}"""


def whole(player: Player, moment: str) -> None:
    player.settle()
    problems: list[str] = player.page.evaluate(WHOLE)
    assert not problems, f"{player.layout}, {moment}: {problems}"


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("en-US", "en"), ("en-GB", "en"), ("fil-PH", "fil"), ("tl", "fil"), ("de-DE", "fil")],
)
def test_the_first_visit_speaks_the_browsers_language(
    browser: Browser, web_server: ServerProcess, locale: str, expected: str
) -> None:
    context, player = open_player(browser, "phone", web_server.url, locale=locale)
    try:
        page = player.page
        roll = {"en": "ROLL", "fil": "I-ROLL"}
        expect(page.locator("html")).to_have_attribute("lang", expected)
        expect(page.locator(action_hook("roll"))).to_have_text(roll[expected])
        # the other language is one tap away, and stays chosen: even when the page reloads
        # before the server got the choice (here its first sending is lost), which then follows
        other = "fil" if expected == "en" else "en"

        lost: list[str] = []

        def lose_the_first_sending(route: Route) -> None:
            if route.request.method == "PUT" and not lost:
                lost.append(route.request.url)
                route.abort()
            else:
                route.continue_()

        page.route("**/api/player", lose_the_first_sending)
        player.tap(".bar-lang")
        expect(page.locator("html")).to_have_attribute("lang", other)
        expect(page.locator(action_hook("roll"))).to_have_text(roll[other])
        until(lambda: lost)
        page.reload()
        player.wait_ready()
        expect(page.locator(action_hook("roll"))).to_have_text(roll[other])
        until(lambda: player.api("GET", "/api/player")["language"] == other)
    finally:
        context.close()


@pytest.mark.parametrize("layout", ["phone-360", "phone", "sideways-667"])
def test_every_screen_is_reached_from_the_bar_by_its_name(
    browser: Browser, web_server: ServerProcess, layout: str
) -> None:
    context, player = open_player(browser, layout, web_server.url)
    try:
        page = player.page
        daily = page.locator(f".bar-daily{action_hook('daily')}")
        expect(daily).to_be_visible()
        expect(daily).to_have_text("HAMON")
        whole(player, "the play screen")
        player.tap(action_hook("menu"))
        names = {
            "tutorial": "TUTORIAL",
            "daily": "HAMON NG ARAW",
            "rules": "LAYUNIN",
            "highscores": "High Scores",
            "stats": "STATISTIKA",
            "settings": "SETTINGS",
            "about": "TUNGKOL SA LARO",
        }
        for name, label in names.items():
            item = page.locator(f".menu {action_hook(name)}")
            expect(item).to_be_visible()
            expect(item).to_have_text(label)
        player.settle()
        outside: list[str] = page.evaluate(
            """() => [...document.querySelectorAll('.menu .menu-btn')].filter(el => {
                const r = el.getBoundingClientRect();
                return r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth
                    || r.height < 44;
            }).map(el => el.dataset.action)"""
        )
        assert not outside
        player.tap(".logo")  # a tap beside the list closes it
        expect(page.locator(".menu")).to_be_hidden()
        player.menu("stats")
        page.wait_for_selector('#sheet[data-screen="stats"][open]')
        # a tap on the dimmed page beside a sheet closes it
        size = page.viewport_size
        assert size is not None
        page.mouse.click(3, size["height"] - 3)
        expect(page.locator("#sheet")).not_to_be_visible()
        assert not player.errors
    finally:
        context.close()


@pytest.mark.parametrize("layout", SIZES)
def test_the_board_stays_put_and_every_button_is_whole_through_a_turn(
    browser: Browser, web_server: ServerProcess, layout: str
) -> None:
    context, player = open_player(browser, layout, web_server.url)
    try:
        player.seed_game(Difficulty.PEACEFUL, 3)
        board = player.page.locator("#board")

        def place() -> tuple[float, float, float, float]:
            player.settle()
            found = board.bounding_box()
            assert found is not None
            return found["x"], found["y"], found["width"], found["height"]

        start = place()
        whole(player, "a new game")
        assert player.mirror is not None
        for _ in range(2):
            for action in plain_turn(player.mirror):
                player.do(action)
                now = place()
                moved = max(abs(a - b) for a, b in zip(now, start, strict=True))
                assert moved <= 2, f"{layout}: the board moved {moved} px after {action}"
                if not isinstance(action, Confirm):
                    whole(player, f"after {action}")
    finally:
        context.close()


def test_the_daily_question_shows_where_play_was_tapped(
    browser: Browser, web_server: ServerProcess
) -> None:
    """A small phone with a game under way: LARUIN asks first, and the question is in view."""
    context, player = open_player(browser, "phone-360", web_server.url)
    try:
        page = player.page
        player.tap(action_hook("roll"))  # a game under way
        player.tap(f".bar-daily{action_hook('daily')}")
        play = page.locator('.daily-card [data-action="daily-play"][data-value="survival"]')
        expect(play).to_be_visible()
        player.tap('.daily-card [data-action="daily-play"][data-value="survival"]')
        sure = page.locator('.daily-sure [data-sure="1"]')
        expect(sure).to_be_visible()
        expect(sure).to_be_in_viewport(ratio=1)
        expect(page.locator('.daily-sure [data-action="daily-cancel"]')).to_be_focused()
    finally:
        context.close()


def test_game_over_lists_its_parts_in_one_column(
    browser: Browser, web_server: ServerProcess
) -> None:
    """Game over in one column, each label on one line, no line of nothing ("RUIN × 0")."""
    context, player = open_player(browser, "phone-360", web_server.url)
    try:
        page = player.page
        player.seed_game(Difficulty.PEACEFUL, 7)
        player.play_to_end()
        state = player.api("GET", f"/api/games/{player.game_id}")
        lines = page.locator("#over .breakdown li")
        expect(lines.first).to_be_visible()
        texts = [text.replace("\n", " ") for text in lines.all_inner_texts()]
        wrapped = page.evaluate(
            """() => [...document.querySelectorAll('#over .breakdown li')].filter(li =>
                li.getBoundingClientRect().height
                    > 1.4 * parseFloat(getComputedStyle(li).lineHeight))
                .map(li => li.textContent)"""
        )
        assert not wrapped, "a line of the breakdown wraps"
        assert not [text for text in texts if "× 0" in text], texts
        assert len(texts) == 1 + sum(
            1 for line in state["score"]["rows"] + state["score"]["columns"] if line["combo"]
        ) + (state["score"]["ruins"] > 0) + (state["powers"]["used"] > 0)
        lefts = {round(box["x"]) for li in lines.all() if (box := li.bounding_box())}
        assert len(lefts) == 1  # one column
        whole(player, "game over")
    finally:
        context.close()


def test_a_link_on_a_loopback_address_says_how_to_reach_a_phone(
    browser: Browser, web_server: ServerProcess
) -> None:
    """The tests' server is opened on 127.0.0.1, which no phone can open: no code, a note."""
    assert "127.0.0.1" in web_server.url
    context, player = open_player(browser, "phone", web_server.url)
    try:
        page = player.page
        player.menu("settings")
        expect(page.locator(".devices .device-note").first).to_contain_text("magdagdon serve --lan")
        page.locator(action_hook("link-device")).click()
        note = page.locator("[data-qr-note]")
        expect(note).to_contain_text("127.0.0.1")
        expect(note).to_contain_text("magdagdon serve --lan")
        expect(page.locator('[data-qr="link"]')).to_have_count(0)
        expect(page.locator("[data-link-url]")).to_contain_text("#link=")
    finally:
        context.close()


def finish_by_api(player: Player, seed: int) -> str:
    """A PEACEFUL game played to its end through the API; answers its id."""
    game = player.api("POST", "/api/games", {"difficulty": "peaceful", "seed": seed})
    state = GameState.new(Difficulty.PEACEFUL, seed)
    while not state.is_over:
        for action in plain_turn(state):
            state = state.apply(action)
            player.api("POST", f"/api/games/{game['id']}/actions", action_to_json(action))
    return str(game["id"])


def test_a_new_best_score_is_celebrated(browser: Browser, web_server: ServerProcess) -> None:
    context, player = open_player(browser, "phone", web_server.url)
    try:
        page = player.page
        scores: dict[int, int] = {}
        for seed in (7, 11):  # 40 points, then 200: the second is the player's new best
            game = finish_by_api(player, seed)
            scores[seed] = player.api("GET", f"/api/games/{game}")["score"]["total"]
            page.evaluate(f"localStorage.setItem('magdagdon.lastGame', '{game}')")
            page.reload()
            player.wait_ready()
            expect(page.locator("#over")).to_be_visible()
            best = page.locator("#over .over-best")
            if seed == 7:  # the first game: nothing to beat yet
                expect(best).to_have_count(0)
        assert scores[11] > scores[7]
        expect(best).to_have_text("★ Bagong pinakamataas mong puntos!")
        expect(page.locator("#over .rank")).to_have_text("#1 sa 2 laro sa High Scores ng PEACEFUL")
    finally:
        context.close()


def test_the_days_table_opens_in_view_from_the_game_over(
    browser: Browser, web_server: ServerProcess
) -> None:
    """RANGGO NGAYONG ARAW at a daily's end: the sheet opens at the table, not at its top."""
    context, player = open_player(browser, "phone", web_server.url)
    try:
        page = player.page
        open_daily_over(player)
        player.tap(f"#over {action_hook('daily')}")
        table = page.locator(".daily-table")
        expect(table).to_be_visible()
        player.settle()
        expect(page.locator("#daily-table-title")).to_be_in_viewport(ratio=1)
        expect(table.locator("tr.mine")).to_be_in_viewport(ratio=1)
    finally:
        context.close()


#: In the page, in one turn of its loop (a render between two measures cannot split them): the
#: gap from the bottom of a card's button tapped to the top of its question's OO, LARUIN, once
#: both are drawn (an object: a gap of 0 is falsy, and the wait goes on while it is); null until
#: then.
_GAP_UNDER_TAPPED = """(difficulty) => {
  const card = [...document.querySelectorAll(".daily-card")].find((c) =>
    c.querySelector(`[data-action="daily-play"][data-value="${difficulty}"]`));
  const tapped = card?.querySelector('[data-action="daily-play"]:not([data-sure])');
  const sure = card?.querySelector('.daily-sure [data-sure="1"]');
  if (!tapped || !sure) return null;
  const a = tapped.getBoundingClientRect();
  const b = sure.getBoundingClientRect();
  return a.height && b.height ? { gap: b.top - a.bottom } : null;
}"""


@pytest.mark.parametrize("layout", ["phone", "phone-360"])
def test_the_daily_question_is_in_the_card_tapped(
    browser: Browser, web_server: ServerProcess, layout: str
) -> None:
    """OO, LARUIN right under the LARUIN tapped: inside its card, above the next card."""
    context, player = open_player(browser, layout, web_server.url)
    try:
        page = player.page
        player.tap(action_hook("roll"))  # a game under way
        player.menu("daily")
        for difficulty in ("peaceful", "survival", "nightmare"):
            card = page.locator(".daily-card").filter(
                has=page.locator(f'[data-action="daily-play"][data-value="{difficulty}"]')
            )
            player.tap(f'.daily-card [data-action="daily-play"][data-value="{difficulty}"]')
            sure = card.locator('.daily-sure [data-sure="1"]')
            expect(sure).to_have_text("OO, LARUIN")
            expect(sure).to_be_in_viewport(ratio=1)
            expect(page.locator(".daily-sure")).to_have_count(1)
            found = page.wait_for_function(_GAP_UNDER_TAPPED, arg=difficulty).json_value()
            assert 0 <= found["gap"] < 120, found
            player.tap('[data-action="daily-cancel"]')
            expect(page.locator(".daily-sure")).to_have_count(0)
    finally:
        context.close()


#: The buttons with words (the actions, the Powers, the bar's) shown blank.
FIRST_PAINT = """() => [
    ...document.querySelectorAll("#actions button, #powers button, .bar button")]
    .filter((b) => b.offsetParent !== null)
    .filter((b) => !b.textContent.trim() && !b.getAttribute("aria-label"))
    .map((b) => b.outerHTML.slice(0, 80))"""


@pytest.mark.parametrize(("locale", "roll"), [("fil-PH", "I-ROLL"), ("en-US", "ROLL")])
def test_every_button_has_its_words_before_the_game_arrives(
    browser: Browser, web_server: ServerProcess, locale: str, roll: str
) -> None:
    """The game held back by a slow server: the page already shows I-ROLL and the Powers with
    their words (none blank), in the browser's language."""
    context = browser.new_context(**{**LAYOUTS["phone"], "locale": locale, "bypass_csp": True})
    context.add_init_script(TUTORIAL_OFFERED)
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    try:
        page = context.new_page()
        page.route("**/api/games/current", hold)
        page.goto(web_server.url, wait_until="commit")
        # the first paint: the markup's own words, before any script ran
        page.wait_for_selector('[data-action="roll"]', state="attached")
        assert not page.evaluate(FIRST_PAINT)
        until(lambda: held or page.evaluate("false"))  # a call that lets the route be handled
        expect(page.locator(action_hook("roll"))).to_have_text(roll)  # the game still held
        assert not page.evaluate(FIRST_PAINT)
        for name in ("minus", "plus", "reroll"):
            expect(page.locator(action_hook(name))).not_to_have_text("")
        for route in held:
            route.continue_()
        page.wait_for_selector("body[data-ready]")
        expect(page.locator(action_hook("roll"))).to_have_text(roll)
    finally:
        context.close()


def test_the_small_things_of_the_board_and_the_buttons(
    browser: Browser, web_server: ServerProcess
) -> None:
    """No unexplained ★ on a line's badge; a disabled KUMPIRMAHIN promises no points; the
    command to reach a phone never broken at its "--"."""
    context, player = open_player(browser, "phone-360", web_server.url)
    try:
        page = player.page
        star = page.evaluate(
            """() => { const b = document.createElement("div"); b.className = "sum col combo";
                b.innerHTML = '<span class="badge">STR +60</span>';
                document.querySelector("#board").append(b);
                const seen = getComputedStyle(b.querySelector(".badge"), "::before").content;
                b.remove(); return seen; }"""
        )
        assert star in ("none", "normal", ""), star
        player.seed_game(Difficulty.PEACEFUL, 5)
        player.do(Roll())
        assert player.mirror is not None
        first = plan_placement(player.mirror)[0]
        player.do(first)  # one die of two: KUMPIRMAHIN disabled
        confirm = page.locator(action_hook("confirm"))
        expect(confirm).to_have_attribute("aria-disabled", "true")
        expect(confirm).to_have_text("KUMPIRMAHIN")
        expect(confirm.locator(".sub")).to_have_count(0)
        player.menu("settings")
        command = page.locator(".devices .device-note code.cmd").first
        expect(command).to_have_text("magdagdon serve --lan")
        expect(command).to_have_css("white-space", "nowrap")
        player.page.wait_for_function(  # one box: on one line
            """() => [...document.querySelectorAll(".devices .device-note code.cmd")]
                .every((el) => el.getClientRects().length === 1)"""
        )
    finally:
        context.close()
