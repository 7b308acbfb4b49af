"""A daily's share text as it leaves the page, in both languages, with the link a friend opens;
that link opening the day's challenge; the hints of each attempt on the day's table, a
hint-free one marked as in High Scores; the time to the next challenge by the server's clock
(the clock file) counting down on the device's; the daily screens photographed at four sizes,
light and dark, Filipino and English (artifacts/screenshots/share/)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from daily_seeds import plant_day_seeds, server_day_seed
from magdagdon import clock
from magdagdon.engine import Difficulty, GameState, action_to_json
from plans import plain_turn
from server_process import launch_server
from web.test_screens import FIT
from web.test_web_daily import COUNTDOWN, num
from web.web_helpers import (
    SCREENSHOTS,
    action_hook,
    axe_clean,
    clipboard,
    copied,
    players_opened,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Browser, Route

    from server_process import ServerProcess
    from web.web_helpers import Opener, Player

pytestmark = pytest.mark.browser

DAY = "2026-12-09"  # challenge #9
TIME = "21:17:30"  # 2 h 42 min 30 s before the next challenge: the page says 2 h 43 min
#: The address a phone opens this server at (TEST-NET-1: nothing is sent to it).
LAN_URL = "http://192.0.2.10:8000"
LEGEND = {
    "fil": "🟩 STRAIGHT · 🟪 FOUR OF A KIND · 🟦 TWO PAIRS · ⬜ walang combination · 🟥 RUIN",
    "en": "🟩 STRAIGHT · 🟪 FOUR OF A KIND · 🟦 TWO PAIRS · ⬜ no combination · 🟥 RUIN",
}
ENGLISH = {"locale": "en-US"}

#: The database of this module's server: where a test reads the day's secret seed to mirror
#: the game in its own engine.
SERVER_DB: list[str] = []


@pytest.fixture(scope="module")
def share_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A real server on loopback whose clock says ``DAY`` at ``TIME``, started for the network
    (its LAN URL set, as ``serve --lan`` does)."""
    tmp = tmp_path_factory.mktemp("share-server")
    (tmp / "clock").write_text(f"{DAY}T{TIME}Z", encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(clock.ENV_VAR, str(tmp / "clock"))
        patch.setenv("MAGDAGDON_RATE_LIMITS", "off")
        patch.setenv("MAGDAGDON_LAN_URL", LAN_URL)
        plant_day_seeds(tmp / "share.sqlite3", DAY)  # the same games every run
        server = launch_server(tmp / "share.sqlite3", tmp / "logs")
    SERVER_DB[:] = [server.db]
    yield server
    server.kill()


@pytest.fixture
def opened(browser: Browser, share_server: ServerProcess) -> Iterator[Opener]:
    yield from players_opened(browser, share_server.url)


def play_daily(player: Player, difficulty: Difficulty, hints: int = 0) -> dict[str, Any]:
    """Today's ranked attempt through the API with the page's cookie, ``hints`` asked after the
    first roll (each counted); the page opened again on it."""
    game: dict[str, Any] = player.api("POST", "/api/daily", {"difficulty": difficulty.value})
    seed = server_day_seed(SERVER_DB[0], DAY, difficulty.value)  # the page never learns it
    state = GameState.new(difficulty, seed)
    asked = 0
    while not state.is_over:
        for action in plain_turn(state):
            game = player.api("POST", f"/api/games/{game['id']}/actions", action_to_json(action))
            state = state.apply(action)
            while asked < hints and not state.is_over:
                player.api("GET", f"/api/games/{game['id']}/hint")
                asked += 1
    assert game["hints_used"] == hints
    player.page.evaluate("id => localStorage.setItem('magdagdon.lastGame', id)", game["id"])
    player.page.reload()
    player.wait_ready()
    return game


def open_daily(player: Player) -> None:
    player.menu("daily")
    player.page.wait_for_selector('#sheet[data-screen="daily"][open] [data-daily-table]')
    player.wait_idle()


def to_english(player: Player) -> None:
    player.menu("settings")
    player.tap('[data-lang="en"]')
    player.tap(action_hook("close"))


def test_the_share_text_travels_in_both_languages(opened: Opener) -> None:
    player = opened("phone")
    page = player.page
    game = play_daily(player, Difficulty.SURVIVAL, hints=1)
    score = num(game["score"]["total"])
    link = f"{LAN_URL}/?daily={DAY}&difficulty=survival"
    # the line under the score, filled in once the server's clock is known: the share text ends
    # with it (a tap before then shares the text without it, at once, within the tap)
    countdown = page.locator("#over [data-next-daily]")
    expect(countdown).to_have_text(re.compile(COUNTDOWN["fil"]))
    player.tap(f"#over {action_hook('share')}")
    expect(page.locator(f"#over {action_hook('share')}")).to_have_text("✓ Nakopya")
    fil = clipboard(page).split("\n")
    assert fil[:2] == ["MAGDAGDON HAMON #9 · SURVIVAL", f"Final Score {score} · 1 mungkahi"]
    assert fil[6:8] == [LEGEND["fil"], link]
    assert re.fullmatch(COUNTDOWN["fil"], fil[8]), fil  # the time to the next challenge
    expect(page.locator("#over [data-share-linkless]")).to_have_count(0)  # a link: no note
    to_english(player)
    player.tap(f"#over {action_hook('share')}")
    expect(page.locator(f"#over {action_hook('share')}")).to_have_text("✓ Copied")
    en = copied(page, "the English text copied", lambda text: "DAILY" in text).split("\n")
    assert en[:2] == ["MAGDAGDON DAILY #9 · SURVIVAL", f"Final Score {score} · 1 hint"]
    assert en[2:6] == fil[2:6]  # the same picture
    assert en[6:8] == [LEGEND["en"], link]
    assert re.fullmatch(COUNTDOWN["en"], en[8]), en


def test_a_share_tapped_while_english_loads_is_in_english(opened: Opener) -> None:
    # the English words held on the link until the share is tapped: the tap waits for them
    # (the service worker, which would answer from its cache, kept out of the way)
    player = opened("phone", service_workers="block")
    page = player.page
    game = play_daily(player, Difficulty.SURVIVAL)
    held: list[Route] = []
    released = False

    def hold(route: Route) -> None:
        if released:
            route.continue_()
        else:
            held.append(route)

    share = f"#over {action_hook('share')}"
    player.tap(share)  # in Filipino: the share step is loaded and its text known
    expect(page.locator(share)).to_have_text("✓ Nakopya")
    page.evaluate("navigator.clipboard.writeText('before')")
    page.route(re.compile(r"/i18n/en[.\w]*\.js$"), hold)
    player.menu("settings")
    page.locator('[data-lang="en"]').click()  # not waited on: the words are on their way
    page.locator(action_hook("close")).click()
    page.locator(share).click()
    released = True
    for route in held:
        route.continue_()
    text = copied(page, "a share text copied", lambda text: text != "before")
    assert text.split("\n")[:2] == [
        "MAGDAGDON DAILY #9 · SURVIVAL",
        f"Final Score {num(game['score']['total'])} · No hints",
    ]
    expect(page.locator(share)).to_have_text("✓ Copied")


@pytest.mark.parametrize(
    ("day", "number", "button"),
    [("2026-12-07", 7, "PRAKTIS"), (DAY, 9, "LARUIN"), ("2026-12-30", 9, "LARUIN")],
)
def test_a_shared_link_opens_that_days_challenge(
    opened: Opener, share_server: ServerProcess, day: str, number: int, button: str
) -> None:
    player = opened("phone")
    page = player.page
    # the link of a share text, on the address this test reaches the server at
    page.goto(f"{share_server.url}/?daily={day}&difficulty=nightmare")
    player.wait_ready()
    page.wait_for_selector('#sheet[data-screen="daily"][open] [data-daily-table="nightmare"]')
    expect(page.locator("#sheet-title")).to_have_text(
        f"HAMON #{number}"
    )  # a day not begun: today's
    expect(page.locator('[data-action="daily-tab"][data-value="nightmare"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.locator('[data-action="daily-play"][data-value="nightmare"]')).to_have_text(button)
    assert page.evaluate("location.search") == ""  # a reload does not open it again
    player.tap('[data-action="daily-play"][data-value="nightmare"]')
    expect(page.locator("#sheet")).to_be_hidden()
    expected = DAY if day > DAY else day
    assert player.state()["daily"] == {"date": expected, "number": number}


def test_the_days_table_shows_each_attempts_hints(opened: Opener) -> None:
    helped = opened("desktop")
    play_daily(helped, Difficulty.PEACEFUL, hints=2)
    player = opened("phone")
    game = play_daily(player, Difficulty.PEACEFUL)
    page = player.page
    open_daily(player)
    page.wait_for_selector('.daily-table[data-daily-table="peaceful"]')
    table = page.locator(".daily-table")
    expect(table.locator("th").last).to_have_text("Mungkahi")
    mine = table.locator("tr.mine td").last
    expect(mine.locator("[data-hint-free]")).to_have_count(1)
    expect(mine).to_have_text("walaWalang mungkahi")  # the mark, and its words for a reader
    expect(mine.locator("[data-hint-free] [aria-hidden]")).to_be_visible()
    rows = table.locator("tbody tr")
    for index in range(rows.count()):
        row = rows.nth(index)
        if "mine" not in (row.get_attribute("class") or ""):
            expect(row.locator("td").last).to_have_text("2")
    expected = player.api("GET", "/api/daily/table?difficulty=peaceful")
    assert sorted(row["hints"] for row in expected) == [0, 2]
    player.tap(action_hook("close"))
    # High Scores marks it the same way (one rendering)
    player.menu("highscores")
    page.wait_for_selector('[data-difficulty-table="peaceful"]')
    entry = page.locator('[data-difficulty-table="peaceful"] tbody tr').first
    expect(entry.locator(f'[data-action="review"][data-game="{game["id"]}"]')).to_have_count(1)
    expect(entry.locator("td").last.locator("[data-hint-free]")).to_have_count(1)
    player.tap(action_hook("close"))
    to_english(player)
    open_daily(player)
    expect(page.locator(".daily-table tr.mine td").last).to_have_text("noneNo hints")


def test_the_time_to_the_next_challenge(opened: Opener) -> None:
    player = opened("phone")
    page = player.page
    page.clock.install()  # the device's clock, moved by the test (the server's stays)
    play_daily(player, Difficulty.NIGHTMARE)
    line = page.locator("#over [data-next-daily]")
    expect(line).to_have_text("Susunod na HAMON NG ARAW: 2 oras 43 min")
    open_daily(player)
    sheet_line = page.locator("#sheet [data-next-daily]")
    expect(sheet_line).to_have_text("Susunod na HAMON NG ARAW: 2 oras 43 min")
    page.clock.fast_forward("01:00:00")  # an hour on this device: the line follows
    expect(sheet_line).to_have_text("Susunod na HAMON NG ARAW: 1 oras 43 min")
    player.tap(action_hook("close"))
    expect(line).to_have_text("Susunod na HAMON NG ARAW: 1 oras 43 min")
    to_english(player)
    expect(line).to_have_text("Next DAILY in 1 h 43 min")
    page.clock.fast_forward("01:42:00")
    expect(line).to_have_text("Next DAILY in 1 min")
    page.clock.fast_forward("00:01:00")
    expect(line).to_have_text("The new DAILY has begun.")


SCREENS = ["phone", "phone-360", "sideways-844", "desktop"]
OVER_FITS = """() => [...document.querySelectorAll("#over button, #over [data-next-daily]")]
    .flatMap((el) => {
        const r = el.getBoundingClientRect();
        const bad = r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5
            || el.scrollWidth > el.clientWidth + 1;
        return bad ? [`${el.dataset.action ?? "next-daily"}: ${JSON.stringify(r)}`] : [];
    })"""
TABLE_FITS = """() => [
    ...document.querySelectorAll(".daily-table, .daily-table td, #sheet [data-next-daily]")
].flatMap((el) => {
        const r = el.getBoundingClientRect();
        const box = document.querySelector("#sheet").getBoundingClientRect();
        const bad = r.right > box.right + 0.5 || el.scrollWidth > el.clientWidth + 1;
        return bad ? [`${el.className || el.tagName}: ${JSON.stringify(r)}`] : [];
    })"""


def shot(player: Player, name: str) -> None:
    folder = SCREENSHOTS / "share"
    folder.mkdir(parents=True, exist_ok=True)
    player.settle()
    player.page.screenshot(path=str(folder / f"{player.layout}-{name}.png"), scale="css")


@pytest.mark.parametrize("language", ["fil", "en"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("screen", SCREENS)
def test_the_daily_screens_at_every_size(
    opened: Opener, screen: str, scheme: str, language: str
) -> None:
    helped = opened("desktop")
    play_daily(helped, Difficulty.SURVIVAL, hints=3)
    options: dict[str, Any] = {"color_scheme": scheme, **(ENGLISH if language == "en" else {})}
    player = opened(screen, **options)
    play_daily(player, Difficulty.SURVIVAL)
    page = player.page
    name = f"{language}-{scheme}"
    share = "SHARE" if language == "en" else "IBAHAGI"  # the browser's language, kept
    expect(page.locator(f"#over {action_hook('share')}")).to_have_text(share)
    expect(page.locator("#over [data-next-daily]")).to_be_visible()
    page.evaluate("document.querySelector('#over')?.scrollTo?.(0, 0)")
    problems = page.evaluate(FIT) + page.evaluate(OVER_FITS)
    assert not problems, f"{screen} {name}, a daily game over: {problems}"
    axe_clean(player, f"{screen} {name}: a daily game over")
    shot(player, f"daily-over-{name}")
    open_daily(player)
    page.evaluate("document.querySelector('#sheet').scrollTop = 0")
    expect(page.locator("#sheet [data-next-daily]")).to_be_visible()
    problems = page.evaluate(FIT) + page.evaluate(TABLE_FITS)
    assert not problems, f"{screen} {name}, the daily sheet: {problems}"
    axe_clean(player, f"{screen} {name}: the daily sheet")
    shot(player, f"daily-sheet-{name}")
    page.locator(".daily-table").scroll_into_view_if_needed()
    shot(player, f"daily-table-{name}")
