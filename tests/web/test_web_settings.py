"""SETTINGS (difficulty and language), and the game coming back after a reload or a restart."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from magdagdon.engine import Difficulty, Roll
from plans import plan_placement
from web.web_helpers import action_hook, cell_hook, die_hook, open_player

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from playwright.sync_api import Browser, Page

    from web.web_helpers import Player

pytestmark = pytest.mark.browser


def test_changing_difficulty_asks_first_then_starts_a_new_game(player: Player) -> None:
    page = player.page
    first = player.state()
    player.menu("settings")
    expect(page.locator('[data-difficulty="peaceful"]')).to_have_attribute("aria-pressed", "true")
    player.screenshot("settings")
    # Not yet under way (no roll): the change is at once.
    player.tap('[data-difficulty="survival"]')
    expect(page.locator("#sheet")).not_to_be_visible()
    second = player.state()
    assert second["id"] != first["id"]
    assert (second["difficulty"], second["turn"]) == ("survival", 0)
    expect(page.locator("#status .difficulty")).to_contain_text("SURVIVAL")

    player.tap(action_hook("roll"))
    player.menu("settings")
    player.tap('[data-difficulty="nightmare"]')
    question = page.locator(".question")
    expect(question).to_contain_text("NIGHTMARE")
    player.screenshot("settings-confirm")
    player.tap('[data-choice="no"]')
    assert player.state()["id"] == second["id"]
    expect(page.locator('[data-difficulty="survival"]')).to_have_attribute("aria-pressed", "true")

    player.tap('[data-difficulty="nightmare"]')
    player.tap('[data-choice="yes"]')
    third = player.state()
    assert third["id"] != second["id"]
    assert (third["difficulty"], third["turn"], third["phase"]) == ("nightmare", 0, "roll")
    expect(page.locator("#status .difficulty")).to_contain_text("NIGHTMARE")
    expect(page.locator("#powers")).to_be_hidden()


def strings(page: Page, lang: str) -> dict[str, str]:
    table: dict[str, str] = page.evaluate(f'import("/js/i18n/{lang}.js").then(m => m.default)')
    return table


def page_words(page: Page) -> str:
    """Every word the player can see or hear: the text and the accessible labels."""
    text: str = page.evaluate(
        """() => document.body.innerText + "\\n" + [...document.querySelectorAll("[aria-label]")]
            .map(e => e.getAttribute("aria-label")).join("\\n") + "\\n" + document.title"""
    )
    return text


#: The seed's own vocabulary, the same words in both languages' pages where they appear.
SEED_WORDS = [
    "MAGDAGDON", "TUTORIAL", "SETTINGS", "High Scores", "Final Score", "Base Score", "Majda Power",
    "PEACEFUL", "SURVIVAL", "NIGHTMARE", "STRAIGHT", "FOUR OF A KIND", "TWO PAIRS", "RUIN",
    "Filipino", "English", "Menu", "Board", "row", "column", "die", "dice", "cell", "valid",
    "DIFFICULTY",
]  # fmt: skip
#: English that must not be left on the Filipino page (its own words, not the rules' seed text).
ENGLISH = ["Difficulty", "Powers", "Power penalties", "minimum", "Score", "Turn", "Hint", "Rank"]
#: Filipino that must not be left on the English page.
FILIPINO = ["ang", "ng", "sa", "mga", "Puntos", "Turno", "MUNGKAHI", "KUMPIRMAHIN", "I-ROLL"]


def shown(words: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(text)}(?![\w-])", words) is not None


def without_seed_words(words: str) -> str:
    for word in sorted(SEED_WORDS, key=len, reverse=True):
        words = words.replace(word, " ")
    return words


def left_over(
    words: str, mine: dict[str, str], other: dict[str, str], extra: list[str]
) -> list[str]:
    """The other language's fixed texts (and ``extra`` words) that the page still shows."""
    plain = without_seed_words(words)
    found = [
        text
        for key, text in other.items()
        if "{" not in text and text != mine[key] and text not in SEED_WORDS and shown(plain, text)
    ]
    return found + [word for word in extra if shown(plain, word)]


def visit_screens(player: Player) -> dict[str, str]:
    """The words of every screen of a game under way and of every sheet (the rules apart)."""
    page = player.page
    seen = {"play": page_words(page)}
    player.tap(action_hook("hint"))
    seen["hint"] = page_words(page)
    player.tap(action_hook("hint"))
    if not page.locator(".menu").is_visible():  # MENU's list of every screen, open
        player.tap(action_hook("menu"))
        seen["menu"] = page_words(page)
        player.tap(action_hook("menu"))
    for screen in ("settings", "highscores", "about", "daily", "stats"):
        player.menu(screen)
        page.wait_for_selector(f'#sheet[data-screen="{screen}"][open]')
        player.wait_idle()
        seen[screen] = page_words(page)
        player.tap(action_hook("close"))
    player.tap(action_hook("new-game"))
    seen["ask"] = page_words(page)
    player.tap('[data-choice="no"]')
    return seen


def rules_words(player: Player) -> str:
    player.menu("rules")
    words = page_words(player.page)
    player.tap(action_hook("close"))
    return words


def test_each_language_alone_on_every_screen_and_remembered(player: Player) -> None:
    page = player.page
    fil = strings(page, "fil")
    en = strings(page, "en")
    assert fil.keys() == en.keys()
    assert page.evaluate("document.documentElement.lang") == "fil"
    assert not re.search(r"Turno 0|Turn 0", page_words(page))
    player.seed_game(Difficulty.PEACEFUL, seed=7)
    player.do(Roll())
    player.play_turn()  # a turn placed and confirmed
    player.do(Roll())
    assert player.mirror is not None
    player.tap(die_hook(plan_placement(player.mirror)[0].die))
    for lang, mine, other, extra in (("fil", fil, en, ENGLISH), ("en", en, fil, FILIPINO)):
        if lang == "en":
            player.menu("settings")
            player.tap('[data-lang="en"]')
            player.tap(action_hook("close"))
            assert page.evaluate("document.documentElement.lang") == "en"
            player.tap(die_hook(plan_placement(player.mirror)[0].die))
            player.screenshot("play-english")
        for screen, words in visit_screens(player).items():
            assert not left_over(words, mine, other, extra), (lang, screen)
            assert not re.search(r"(?<![\w-])-\d", words), (lang, screen, "a hyphen for a minus")
            assert not re.search(r"costs −|halaga ng −|−\s*−", words), (lang, screen)
        rules = rules_words(player)
        assert not left_over(rules, mine, other, []), (lang, "rules")
        assert not re.search(r"costs −|halaga ng −", rules), (lang, "rules: a double negative")
    player.menu("rules")
    expect(page.locator("#sheet-body h3").first).to_have_text("GOAL")
    player.screenshot("rules-english")
    player.tap(action_hook("close"))
    player.menu("about")
    expect(page.locator("#sheet-body")).to_contain_text("dedicated to Majduška")
    player.tap(action_hook("close"))

    assert player.api("GET", "/api/player")["language"] == "en"
    page.evaluate("localStorage.clear()")
    page.reload()
    player.wait_ready()
    assert page.evaluate("document.documentElement.lang") == "en"
    expect(page.locator(action_hook("confirm"))).to_contain_text("CONFIRM")

    player.menu("settings")
    player.tap('[data-lang="fil"]')
    player.tap(action_hook("close"))
    expect(page.locator(action_hook("confirm"))).to_contain_text("KUMPIRMAHIN")
    player.menu("rules")
    expect(page.locator("#sheet-body h3").first).to_have_text("ISANG TURNO")
    player.screenshot("rules")
    player.tap(action_hook("close"))
    player.menu("about")
    expect(page.locator("#sheet-body")).to_contain_text("iniaalay kay Majduška")
    player.screenshot("about")


@pytest.mark.parametrize("layout", ["phone"])
def test_the_end_of_a_game_in_each_language(player: Player) -> None:
    """The game-over panel and the High Scores in each language: ranks among the games, dates
    in the language's own form, no Majda Power line on NIGHTMARE."""
    page = player.page
    fil = strings(page, "fil")
    en = strings(page, "en")
    player.seed_game(Difficulty.NIGHTMARE, seed=7)
    player.play_to_end()
    over = page.locator("#over")
    expect(over.locator(".rank")).to_have_text("#1 sa 1 laro sa High Scores ng NIGHTMARE")
    expect(over).not_to_contain_text("Majda Power")
    assert not left_over(page_words(page), fil, en, ENGLISH)
    player.menu("highscores")
    date = page.locator('[data-difficulty-table="nightmare"] tr.mine td').nth(2)
    expect(date).to_have_text(re.compile(r"^[A-Z][a-z]{2} \d{1,2}, \d{4}$"))  # Dis 1, 2026
    assert not left_over(page_words(page), fil, en, ENGLISH)
    player.tap(action_hook("close"))
    player.menu("settings")
    player.tap('[data-lang="en"]')
    player.tap(action_hook("close"))
    expect(over.locator(".rank")).to_have_text("#1 of 1 in NIGHTMARE High Scores")
    assert not left_over(page_words(page), en, fil, FILIPINO)
    player.menu("highscores")
    expect(date).to_have_text(re.compile(r"^\d{1,2} [A-Z][a-z]{2} \d{4}$"))  # 1 Dec 2026
    assert not left_over(page_words(page), en, fil, FILIPINO)


def staged_view(player: Player) -> dict[str, Any]:
    return {
        "state": {k: v for k, v in player.state().items() if k != "hints_used"},
        "staged": player.page.locator(".board [data-die]").evaluate_all(
            "els => els.map(e => [e.dataset.cell, e.dataset.die])"
        ),
        "tray": player.page.locator(".tray [data-die]").count(),
    }


def test_a_reload_and_a_server_restart_bring_the_game_back(
    browser: Browser, start_server: Callable[[Path], Any], tmp_path: Path
) -> None:
    db = tmp_path / "resume.sqlite3"
    server = start_server(db)
    context, player = open_player(browser, "phone", server.url)
    try:
        player.seed_game(Difficulty.SURVIVAL, seed=3)
        player.do(Roll())
        assert player.mirror is not None
        stage = plan_placement(player.mirror)[0]
        player.do(stage)
        before = staged_view(player)
        assert len(before["staged"]) == 1

        player.page.reload()
        player.wait_ready()
        assert staged_view(player) == before

        server.stop()
        restarted = start_server(db)
        player.url = restarted.url
        player.open()
        assert staged_view(player) == before
        assert "staged" in player.classes(cell_hook(stage.cell))
    finally:
        context.close()


@pytest.mark.parametrize("layout", ["phone"])
def test_a_note_is_said_again_in_the_new_language(player: Player, tmp_path: Path) -> None:
    """An import's word in SETTINGS, then English chosen: the word is in English at once (and
    the sheet's other words too); Filipino again, and it is Filipino again."""
    page = player.page
    player.menu("settings")
    page.wait_for_selector("#player-name")
    bad = tmp_path / "not.json"
    bad.write_text("no", encoding="utf-8")
    page.locator("#import-file").set_input_files(bad)
    note = page.locator(".more-note")
    expect(note).to_have_text("Hindi JSON ang file na ito.")
    player.tap('[data-lang="en"]')
    expect(note).to_have_text("This file is not JSON.")
    expect(page.locator('label[for="player-name"]')).to_have_text("Name (1–20 characters)")
    player.tap('[data-lang="fil"]')
    expect(note).to_have_text("Hindi JSON ang file na ito.")


@pytest.mark.parametrize("layout", ["phone"])
def test_a_name_being_typed_outlives_a_redraw(player: Player) -> None:
    """The sheet is drawn again while a name is typed (here the language switched, as the
    engine's size arriving does too): the letters stay, and the name saved is the one typed."""
    page = player.page
    player.menu("settings")
    field = page.locator("#player-name")
    field.fill("Majda")
    player.tap('[data-lang="en"]')
    expect(page.locator('label[for="player-name"]')).to_have_text("Name (1–20 characters)")
    expect(field).to_have_value("Majda")
    player.tap(action_hook("name-save"))
    expect(page.locator(".more-note")).to_have_text("Name saved.")
    assert player.api("GET", "/api/player")["name"] == "Majda"
    player.tap('[data-lang="fil"]')
