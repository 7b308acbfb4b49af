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
    player.tap(action_hook("settings"))
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
    player.tap(action_hook("settings"))
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
    table: dict[str, str] = page.evaluate(f'import("/js/strings.{lang}.js").then(m => m.default)')
    return table


def page_words(page: Page) -> str:
    """Every word the player can see or hear: the text and the accessible labels."""
    text: str = page.evaluate(
        """() => document.body.innerText + "\\n" + [...document.querySelectorAll("[aria-label]")]
            .map(e => e.getAttribute("aria-label")).join("\\n") + "\\n" + document.title"""
    )
    return text


def test_switching_language_changes_every_label_and_is_remembered(player: Player) -> None:
    page = player.page
    fil = strings(page, "fil")
    en = strings(page, "en")
    assert fil.keys() == en.keys()
    assert page.evaluate("document.documentElement.lang") == "fil"
    player.tap(action_hook("roll"))
    player.tap(die_hook(0))
    words = page_words(page)
    for key in ("roll", "confirm", "minus"):
        assert fil[key] in words

    player.tap(action_hook("settings"))
    player.tap('[data-lang="en"]')
    player.tap(action_hook("close"))
    assert page.evaluate("document.documentElement.lang") == "en"
    player.screenshot("play-english")
    # Every fixed label that differs between the languages is now the English one.
    words = page_words(page)
    for key, text in fil.items():
        shown = re.search(rf"(?<!\w){re.escape(text)}(?!\w)", words)
        if "{" not in text and text != en[key] and shown:
            pytest.fail(f"{key!r} still shows the Filipino {text!r}")
    for name, key in (("roll", "roll"), ("confirm", "confirm"), ("reroll", "reroll")):
        expect(page.locator(action_hook(name))).to_contain_text(en[key])
    expect(page.locator(action_hook("minus"))).to_contain_text("MINUS −1")
    expect(page.locator(action_hook("plus"))).to_contain_text("PLUS +1")

    player.tap(action_hook("rules"))
    expect(page.locator("#sheet-body h3").first).to_have_text("GOAL")
    player.screenshot("rules-english")
    player.tap(action_hook("close"))
    player.tap(action_hook("about"))
    expect(page.locator("#sheet-body")).to_contain_text("dedicated to Majduška")
    player.tap(action_hook("close"))

    assert player.api("GET", "/api/player")["language"] == "en"
    page.evaluate("localStorage.clear()")
    page.reload()
    player.wait_ready()
    assert page.evaluate("document.documentElement.lang") == "en"
    expect(page.locator(action_hook("confirm"))).to_contain_text("CONFIRM")

    player.tap(action_hook("settings"))
    player.tap('[data-lang="fil"]')
    player.tap(action_hook("close"))
    expect(page.locator(action_hook("confirm"))).to_contain_text("KUMPIRMAHIN")
    player.tap(action_hook("rules"))
    expect(page.locator("#sheet-body h3").first).to_have_text("LAYUNIN")
    player.screenshot("rules")
    player.tap(action_hook("close"))
    player.tap(action_hook("about"))
    expect(page.locator("#sheet-body")).to_contain_text("iniaalay kay Majduška")
    player.screenshot("about")


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
