"""The daily challenge, STATISTIKA and the player's data on the page: a daily game
played by taps to its share text on the clipboard, the Statistics sheet with its chart, a name
shown as text on the day's table, an export brought back by import; every new sheet checked by
axe and photographed on four screens, light and dark."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from daily_seeds import plant_day_seeds, server_day_seed
from magdagdon import clock
from magdagdon.engine import Difficulty, GameState, action_to_json
from plans import plain_turn
from server_process import launch_server
from waits import EVENTUALLY_MS
from web.test_screens import FIT
from web.web_helpers import action_hook, axe_clean, clipboard, players_opened

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from playwright.sync_api import Browser, Page

    from server_process import ServerProcess
    from web.web_helpers import Opener, Player

pytestmark = pytest.mark.browser

DAY = "2026-12-09"


def num(n: int) -> str:
    """A score as the page and the share text write it (a minus sign)."""
    return str(n).replace("-", "\u2212")


#: The share text's last line: the time to the next challenge, in the page's language.
COUNTDOWN = {
    "fil": r"Susunod na HAMON NG ARAW: (\d+ oras )?\d+ min",
    "en": r"Next DAILY in (\d+ h )?\d+ min",
}
LINKLESS = "Walang link sa teksto: hindi mabubuksan ng ibang device ang address ng server na ito."


# challenge #9: there are past days to go back to
OVER_FITS = """() => [...document.querySelectorAll("#over button")].flatMap((el) => {
    const r = el.getBoundingClientRect();
    const bad = r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5 || r.width < 44
        || r.height < 44;
    return bad ? [`${el.dataset.action}: ${JSON.stringify(r)}`] : [];
})"""

#: The database of this module's server: where a test reads the day's secret seed to mirror
#: the game in its own engine.
SERVER_DB: list[str] = []
CLOCK: list[Path] = []  # the server's clock file


@pytest.fixture(scope="module")
def daily_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A real server whose clock says ``DAY`` (the clock file, as every dated test)."""
    tmp = tmp_path_factory.mktemp("daily-server")
    (tmp / "clock").write_text(f"{DAY}T12:00:00Z", encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(clock.ENV_VAR, str(tmp / "clock"))
        CLOCK[:] = [tmp / "clock"]
        patch.setenv("MAGDAGDON_RATE_LIMITS", "off")
        plant_day_seeds(tmp / "daily.sqlite3", DAY)  # the same games every run
        server = launch_server(tmp / "daily.sqlite3", tmp / "logs")
    SERVER_DB[:] = [server.db]
    yield server
    server.kill()


@pytest.fixture
def opened(browser: Browser, daily_server: ServerProcess) -> Iterator[Opener]:
    yield from players_opened(browser, daily_server.url)


def open_records(player: Player, name: str) -> None:
    """Open the daily challenge or STATISTIKA from the bar's MENU, by its name."""
    player.menu(name)
    player.page.wait_for_selector(f'#sheet[data-screen="{name}"][open]')
    player.wait_idle()


def fits(player: Player, moment: str) -> None:
    """FIT (tests/web/test_screens.py), the sheet scrolled to its top; the game-over panel's
    buttons too."""
    player.page.evaluate("document.querySelector('#sheet').scrollTop = 0")
    player.settle()
    problems = player.page.evaluate(FIT) + player.page.evaluate(OVER_FITS)
    assert not problems, f"{player.layout}, {moment}: {problems}"


def play_daily_by_api(player: Player, difficulty: Difficulty) -> dict[str, Any]:
    """Today's ranked attempt, played through the API with the page's own cookie; the page
    opened again on it (as the last game it showed)."""
    game: dict[str, Any] = player.api("POST", "/api/daily", {"difficulty": difficulty.value})
    seed = server_day_seed(SERVER_DB[0], DAY, difficulty.value)  # the page never learns it
    state = GameState.new(difficulty, seed)
    while not state.is_over:
        for action in plain_turn(state):
            game = player.api("POST", f"/api/games/{game['id']}/actions", action_to_json(action))
            state = state.apply(action)
    player.page.evaluate("id => localStorage.setItem('magdagdon.lastGame', id)", game["id"])
    player.page.reload()
    player.wait_ready()
    return game


def test_a_daily_challenge_played_by_taps_to_its_share_text(opened: Opener, layout: str) -> None:
    player = opened(layout)
    page = player.page
    open_records(player, "daily")
    expect(page.locator("#sheet-title")).to_have_text("HAMON #9")
    player.tap('[data-action="daily-play"][data-value="nightmare"]')
    expect(page.locator("#sheet")).to_be_hidden()
    game = player.state()
    assert (game["mode"], game["daily"]) == ("daily", {"date": DAY, "number": 9})
    player.mirror = GameState.new(
        Difficulty.NIGHTMARE, server_day_seed(SERVER_DB[0], DAY, "nightmare")
    )
    player.game_id = game["id"]
    expect(page.locator("#status .daily-tag")).to_have_text("HAMON #9")  # the ranked attempt
    player.play_turn()
    player.screenshot("daily-playing")
    player.play_to_end()
    expect(page.locator("#over .over-daily-n")).to_have_text("HAMON #9")
    player.tap(f"#over {action_hook('share')}")
    expect(page.locator(f"#over {action_hook('share')}")).to_have_text("✓ Nakopya")
    expect(page.locator("#live")).to_have_text("Nakopya ang resulta. Idikit ito kahit saan.")
    copied = clipboard(page)
    expected = player.api("GET", f"/api/games/{game['id']}/share")["text"]["fil"]
    server_text, countdown = copied.rsplit("\n", 1)
    assert server_text == expected  # the server's text, then the time to the next challenge
    assert re.fullmatch(COUNTDOWN["fil"], countdown), countdown
    # no link in it (loopback), and the game over says why
    expect(page.locator("#over [data-share-linkless]")).to_have_text(LINKLESS)
    score = player.mirror.score().total
    lines = server_text.split("\n")
    assert lines[:2] == [
        "MAGDAGDON HAMON #9 · NIGHTMARE",
        f"Final Score {num(score)} · Walang mungkahi",
    ]
    assert all(not ch.isdigit() for line in lines[2:6] for ch in line)
    # this server is reached on loopback only: no link, the legend ends the text
    assert lines[6].startswith("🟩 STRAIGHT · ")
    assert len(lines) == 7
    assert "http" not in copied
    fits(player, "a daily game over, shared")
    # the sheet now says it is done, counts the streak, and ranks the attempt on the day's table
    player.tap(f"#over {action_hook('daily')}")
    page.wait_for_selector('#sheet[data-screen="daily"][open] .daily-table')
    expect(page.locator(".daily-streak-n")).to_have_text("1")
    expect(page.locator('[data-action="daily-play"][data-value="nightmare"]')).to_have_text(
        "PRAKTIS"
    )
    page.wait_for_selector('.daily-table[data-daily-table="nightmare"]')
    row = page.locator(".daily-table tr.mine")
    expect(row).to_contain_text(num(score))
    tag = player.api("GET", "/api/player")["tag"]
    expect(row.locator(".daily-name")).to_contain_text(f"Manlalaro {tag}")
    player.screenshot("daily-done")


def test_a_past_day_is_practice_from_the_sheet(opened: Opener) -> None:
    player = opened("desktop")
    page = player.page
    open_records(player, "daily")
    player.tap('[data-action="daily-day"][data-value="-1"]')
    expect(page.locator(".daily-day")).to_contain_text("#8")
    expect(page.locator('[data-action="daily-day"][data-value="1"]')).to_be_enabled()
    player.tap('[data-action="daily-play"][data-value="peaceful"]')
    expect(page.locator("#sheet")).to_be_hidden()
    assert player.state()["mode"] == "practice"
    assert player.state()["daily"] == {"date": "2026-12-08", "number": 8}


def test_the_statistics_sheet_draws_its_chart(opened: Opener, layout: str) -> None:
    player = opened(layout)
    game = play_daily_by_api(player, Difficulty.SURVIVAL)
    page = player.page
    open_records(player, "stats")
    page.wait_for_selector('[data-stats="survival"]')
    chart = page.locator("svg.histogram")
    expect(chart).to_be_visible()
    found = player.api("GET", "/api/stats?difficulty=survival")
    assert chart.locator("rect.bar").count() == len(found["histogram"]) == 11
    heights: list[float] = chart.evaluate(
        "svg => [...svg.querySelectorAll('rect.bar')].map((r) => r.getBBox().height)"
    )
    counts = [b["count"] for b in found["histogram"]]
    assert [h > 0 for h in heights] == [n > 0 for n in counts]  # a bar for each game counted
    assert heights.index(max(heights)) == counts.index(max(counts))
    score = game["score"]["total"]
    (full,) = [b for b in found["histogram"] if b["count"]]
    label = f"{full['from']} hanggang {full['to']}: 1 laro".replace("-", "\u2212")
    expect(chart.locator(f'[aria-label="{label}"]')).to_have_count(1)
    expect(page.locator('[data-stats="survival"]')).to_contain_text(num(score))
    expect(page.locator("svg.versus rect.bar")).to_have_count(2)
    assert page.locator("svg image, svg use, img").count() == 0  # drawn here, fetched from nowhere
    fits(player, "STATISTIKA")
    player.screenshot("stats")
    # the best score opens that game's review, and closing it comes back to STATISTIKA
    assert found["best_game_id"] == game["id"]
    player.tap(f'[data-stats="survival"] [data-action="review"][data-game="{game["id"]}"]')
    page.wait_for_selector('#review[data-status="done"]', timeout=EVENTUALLY_MS)
    page.keyboard.press("Escape")
    expect(page.locator('#sheet[data-screen="stats"]')).to_be_visible()


def test_a_name_is_shown_as_text_on_the_days_table(opened: Opener) -> None:
    player = opened("phone")
    page = player.page
    play_daily_by_api(player, Difficulty.PEACEFUL)
    player.menu("settings")
    field = page.locator("#player-name")
    expect(field).to_be_visible()
    field.fill("  <b>Maj</b> #1 ")
    field.press("Enter")
    expect(page.locator(".more-note")).to_have_text("Na-save ang pangalan.")
    assert player.api("GET", "/api/player")["name"] == "<b>Maj</b> #1"
    field.fill("x" * 25)
    player.tap(action_hook("name-save"))
    expect(page.locator(".more-note.error")).to_be_visible()  # the server's word: too long
    player.tap(action_hook("close"))
    open_records(player, "daily")
    page.wait_for_selector('.daily-table[data-daily-table="peaceful"]')
    name = page.locator(".daily-table tr.mine .daily-name")
    expect(name).to_contain_text("<b>Maj</b> #1")
    assert name.locator("b").count() == 0  # text, never markup


def test_an_export_brought_back_by_import(opened: Opener, tmp_path: Path) -> None:
    first = opened("desktop")
    play_daily_by_api(first, Difficulty.NIGHTMARE)
    first.menu("settings")
    # the day's games are in the export once the day is over (their seed is secret till then)
    CLOCK[0].write_text("2026-12-10T00:30:00Z", encoding="utf-8")
    try:
        with first.page.expect_download() as download:
            first.tap(action_hook("export"))
        path = tmp_path / "export.json"
        download.value.save_as(path)
    finally:
        CLOCK[0].write_text(f"{DAY}T12:00:00Z", encoding="utf-8")
    assert download.value.suggested_filename == "magdagdon-2026-12-10.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    assert [g["mode"] for g in document["games"]].count("daily") == 1
    second = opened("desktop")
    second.menu("settings")
    second.page.locator("#import-file").set_input_files(path)
    expect(second.page.locator(".more-note")).to_contain_text("Na-import ang ")
    imported = second.api("GET", "/api/highscores?difficulty=nightmare")
    assert [e["score"] for e in imported] == [
        e["score"] for e in first.api("GET", "/api/highscores?difficulty=nightmare")
    ]
    bad = tmp_path / "bad.json"
    finished = next(g for g in document["games"] if g["status"] == "finished")
    finished["score"] += 1
    bad.write_text(json.dumps(document), encoding="utf-8")
    third = opened("desktop")
    third.menu("settings")
    before = third.api("GET", "/api/player/export")["games"]  # the game the page started
    third.page.locator("#import-file").set_input_files(bad)
    note = third.page.locator(".more-note.error")
    place = document["games"].index(finished) + 1
    # which game, in the page's language only (not the server's English sentence)
    expect(note).to_contain_text(f"hindi tugma sa replay nito ang laro {place}; walang nabago")
    expect(note).not_to_contain_text("claims the score")
    expect(note.locator(".detail")).to_have_count(0)
    # an action that does not replay: the server's message names the game and the action
    finished["score"] -= 1
    finished["actions"][0] = {"type": "confirm"}
    bad.write_text(json.dumps(document), encoding="utf-8")
    third.page.locator("#import-file").set_input_files(bad)
    expect(note).to_contain_text(f"hindi ma-replay ang galaw 1 ng laro {place}")
    expect(note).not_to_contain_text("does not replay")
    assert third.api("GET", "/api/player/export")["games"] == before


def test_without_a_clipboard_the_text_is_shown_to_copy(opened: Opener) -> None:
    player = opened("desktop")
    game = play_daily_by_api(player, Difficulty.SURVIVAL)
    page = player.page
    page.evaluate(
        """() => {
            Object.defineProperty(navigator, "clipboard", { value: undefined });
            document.execCommand = () => false;
        }"""
    )
    player.tap(f"#over {action_hook('share')}")
    page.wait_for_selector('#sheet[data-screen="share"][open]')
    expected = player.api("GET", f"/api/games/{game['id']}/share")["text"]["fil"]
    shown = re.compile(f"^{re.escape(expected)}\n{COUNTDOWN['fil']}$")
    expect(page.locator("#sheet .share-text")).to_have_value(shown)
    expect(page.locator("#sheet [data-share-linkless]")).to_have_text(LINKLESS)
    axe_clean(player, "the share text to copy by hand")


# a system share sheet that takes the text at once (recorded for the test to read)
SHARE_SHEET = """
window.sharedTexts = [];
Object.defineProperty(navigator, "share", {
  value: async (data) => { window.sharedTexts.push(data.text); },
});
"""


def shared_texts(page: Page) -> list[tuple[str, str]]:
    """Each text the share sheet got: the server's, and the language of its countdown line."""
    found = []
    for text in page.evaluate("window.sharedTexts"):
        server_text, countdown = text.rsplit("\n", 1)
        lang = next(lang for lang, words in COUNTDOWN.items() if re.fullmatch(words, countdown))
        found.append((server_text, lang))
    return found


def test_the_system_share_sheet_gets_the_servers_text_in_the_pages_language(
    opened: Opener,
) -> None:
    player = opened("phone")
    page = player.page
    page.context.add_init_script(SHARE_SHEET)
    play_daily_by_api(player, Difficulty.PEACEFUL)
    game = play_daily_by_api(player, Difficulty.PEACEFUL)  # again: practice, said in words
    assert game["mode"] == "practice"
    expect(page.locator("#over .over-daily-n")).to_have_text("HAMON #9 · praktis")
    expect(page.locator("#status .daily-tag")).to_have_text("HAMON #9 · praktis")
    player.tap(f"#over {action_hook('share')}")
    expect(page.locator(f"#over {action_hook('share')}")).to_have_text("✓ Naibahagi")
    text = player.api("GET", f"/api/games/{game['id']}/share")["text"]
    assert shared_texts(page) == [(text["fil"], "fil")]
    player.menu("settings")
    player.tap('[data-lang="en"]')
    player.tap(action_hook("close"))
    expect(page.locator(f"#over {action_hook('share')}")).to_have_text("✓ Shared")  # in English
    player.tap(f"#over {action_hook('share')}")
    page.wait_for_function("window.sharedTexts.length === 2")
    assert shared_texts(page) == [(text["fil"], "fil"), (text["en"], "en")]
    assert text["fil"].split("\n")[0].endswith(" · praktis")
    assert text["en"].split("\n")[0].endswith(" · practice")


WORDS = """async () => {
    const [fil, en, moreFil, moreEn] = await Promise.all(["./js/i18n/fil.js", "./js/i18n/en.js",
        "./js/i18n/fil.sheets.js", "./js/i18n/en.sheets.js"].map((path) => import(path)));
    const keys = (table) => Object.keys(table.default).sort();
    return { page: [keys(fil), keys(en)], more: [keys(moreFil), keys(moreEn)],
             shared: keys(moreFil).filter((k) => k in fil.default) };
}"""


def test_every_word_of_the_new_sheets_is_in_both_languages(opened: Opener) -> None:
    player = opened("desktop")
    found = player.page.evaluate(WORDS)
    assert found["page"][0] == found["page"][1]
    assert found["more"][0] == found["more"][1]
    assert found["shared"] == []  # joined to the page's table, no key replaces one of its words


SCREENS = ["phone", "phone-360", "sideways-844", "desktop"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("screen", SCREENS)
def test_every_new_sheet_at_every_size(opened: Opener, screen: str, scheme: str) -> None:
    player = opened(screen, color_scheme=scheme)
    play_daily_by_api(player, Difficulty.NIGHTMARE)
    player.api("PUT", "/api/player", {"name": "Majduška"})
    page = player.page
    suffix = "" if scheme == "light" else "-dark"
    fits(player, "a daily game over")
    axe_clean(player, f"{screen} {scheme}: a daily game over")
    player.screenshot(f"daily-over{suffix}")
    for name in ("daily", "stats"):
        open_records(player, name)
        if name == "daily":
            page.wait_for_selector('.daily-table[data-daily-table="nightmare"]')
        else:
            page.wait_for_selector('[data-stats="nightmare"]')
            page.wait_for_selector("svg.histogram")
        fits(player, name)
        axe_clean(player, f"{screen} {scheme}: {name}")
        player.screenshot(f"{name}{suffix}")
        further = ".daily-table" if name == "daily" else "svg.versus"
        page.locator(further).scroll_into_view_if_needed()
        player.screenshot(f"{name}-further{suffix}")
        player.tap(action_hook("close"))
    player.menu("settings")
    page.wait_for_selector("#player-name")
    fits(player, "SETTINGS with the name and the data")
    axe_clean(player, f"{screen} {scheme}: SETTINGS")
    page.locator(".name-form").scroll_into_view_if_needed()
    player.screenshot(f"settings-more{suffix}")
    player.tap(action_hook("close"))
    player.tap(f"#over {action_hook('share')}")
    expect(page.locator("#over .share-note")).to_be_visible()
    axe_clean(player, f"{screen} {scheme}: shared")
    player.screenshot(f"daily-shared{suffix}")
