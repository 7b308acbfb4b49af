"""Every screen and state of the page, reached by taps in one page (a reload only where a game is
finished through the API): ``walk`` calls ``visit(name)`` at each, for a test to check (axe, the
fit) or a person to photograph. Daily games are played through the API from the state the
server answers (its ``valid_cells``), so the walk needs no seed of the day."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from magdagdon.engine import Difficulty, Phase, Roll
from plans import plain_turn, plan_placement
from web.review_helpers import finish_game, wait_done
from web.web_helpers import TIMEOUT_MS, action_hook, cell_hook, die_hook, find_game

if TYPE_CHECKING:
    from collections.abc import Callable

    from web.web_helpers import Player


def play_out_by_api(player: Player, game: dict[str, Any]) -> dict[str, Any]:
    """Play ``game`` to its end through the API, from the state each answer gives: dice staged
    on their first valid cell in a shuffled order until KUMPIRMAHIN is allowed (the order tried
    again when it gets stuck), a MAGDAGDON accepted on the first empty cell."""
    rng = random.Random(7)
    url = f"/api/games/{game['id']}/actions"
    while game["phase"] != "over":
        if game["phase"] == "roll":
            game = player.api("POST", url, {"type": "roll"})
        elif game["phase"] == "magdagdon":
            empty = [
                [r, c]
                for r, row in enumerate(game["board"])
                for c, v in enumerate(row)
                if v is None
            ]
            game = player.api("POST", url, {"type": "ruin", "cell": empty[0]})
        elif game["can_confirm"] and not [d for d in game["dice"] if d["cell"] is None]:
            game = player.api("POST", url, {"type": "confirm"})
        else:
            game = _place(player, url, game, rng)
    return game


def _place(player: Player, url: str, game: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Dice staged at random on valid cells until KUMPIRMAHIN is allowed, all taken back when
    the roll gets stuck: a placement the rules allow exists (else the roll is a MAGDAGDON), and
    random tries find it (the first valid cell alone may never lead to it)."""
    for _ in range(1000):
        staging = [
            (d["id"], cell)
            for d in game["dice"]
            if d["cell"] is None
            for cell in game["valid_cells"].get(str(d["id"]), [])
        ]
        if staging and not game["stuck"]:
            die, cell = rng.choice(staging)
            game = player.api("POST", url, {"type": "stage", "die": die, "cell": cell})
            continue
        if game["can_confirm"]:
            return dict(player.api("POST", url, {"type": "confirm"}))
        for die in [d["id"] for d in game["dice"] if d["cell"] is not None]:  # another try
            game = player.api("POST", url, {"type": "unstage", "die": die})
    raise AssertionError(f"no placement found in 1000 tries: {game}")


def walk_play(player: Player, visit: Callable[[str], None]) -> None:
    """The play screen: a new game, a die chosen, staged, a refused tap, a hint, the I-ROLL
    ULIT choice, a MAGDAGDON (its hint, its I-ROLL ULIT choice, TANGGAPIN), the new game
    question."""
    page = player.page
    seed, actions = find_game(Difficulty.PEACEFUL, lambda s: s.phase is Phase.MAGDAGDON)
    player.seed_game(Difficulty.PEACEFUL, seed)
    visit("new-game")
    first = True
    for action in actions:
        player.do(action)
        assert player.mirror is not None
        if first and player.mirror.phase is Phase.PLACE and action == Roll():
            first = False
            stage = plan_placement(player.mirror)[0]
            player.tap(die_hook(stage.die))
            visit("die-chosen")
            player.tap(cell_hook(stage.cell))
            player.mirror = player.mirror.apply(stage)
            visit("staged")
            player.tap(action_hook("confirm"), force=True)
            visit("why")
            show_hint(player)
            visit("hint")
            player.tap(action_hook("hint"))
            player.tap(action_hook("reroll"))
            visit("reroll-pick")
            player.tap(action_hook("cancel"))
            for rest in plain_turn(player.mirror):
                player.do(rest)
            break
    while player.mirror is not None and player.mirror.phase is not Phase.MAGDAGDON:
        for action in plain_turn(player.mirror):
            player.do(action)
    visit("magdagdon")
    player.tap(action_hook("reroll"))
    visit("magdagdon-reroll-pick")
    player.tap(action_hook("cancel"))
    show_hint(player)
    visit("magdagdon-hint")
    player.tap(action_hook("hint"))
    player.tap(action_hook("accept"))
    visit("magdagdon-accept")
    player.tap(action_hook("accept"))
    player.tap(action_hook("new-game"))
    page.wait_for_selector('#sheet[data-screen="ask"][open]', timeout=TIMEOUT_MS)
    visit("ask-new-game")
    player.tap('[data-choice="no"]')


def show_hint(player: Player) -> None:
    player.tap(action_hook("hint"))
    player.page.wait_for_selector("body[data-hint]", timeout=TIMEOUT_MS)


def walk_sheets(player: Player, visit: Callable[[str], None]) -> None:
    """SETTINGS, LAYUNIN, TUNGKOL SA LARO, High Scores, STATISTIKA and the daily sheet (its
    question next to the card tapped)."""
    page = player.page
    for screen in ("settings", "rules", "about", "highscores", "stats", "daily"):
        player.menu(screen)
        page.wait_for_selector(f'#sheet[data-screen="{screen}"][open]', timeout=TIMEOUT_MS)
        if screen == "settings":
            page.wait_for_selector("#player-name", timeout=TIMEOUT_MS)
        if screen == "daily":
            page.wait_for_selector(".daily-cards", timeout=TIMEOUT_MS)
        player.wait_idle()
        visit(f"sheet-{screen}")
        if screen == "daily":
            player.tap('.daily-card [data-action="daily-play"][data-value="survival"]')
            page.wait_for_selector(".daily-sure", timeout=TIMEOUT_MS)
            visit("daily-question")
            player.tap('[data-action="daily-cancel"]')
        player.tap(action_hook("close"))


def walk_over(player: Player, visit: Callable[[str], None]) -> None:
    """A game over (its last turn by taps), its review, then a daily's game over, shared, and
    its table opened from it."""
    page = player.page
    finish_game(player)
    visit("over")
    player.tap(f"#over {action_hook('review')}")
    wait_done(player)
    visit("review")
    page.locator('#review [data-review="close"]').first.click()
    page.wait_for_selector("#review[open]", state="detached", timeout=TIMEOUT_MS)
    open_daily_over(player)
    visit("daily-over")
    player.tap(f"#over {action_hook('share')}")
    page.wait_for_selector("#over .share-note", timeout=TIMEOUT_MS)
    visit("daily-shared")
    player.tap(f"#over {action_hook('daily')}")
    page.wait_for_selector(".daily-table", timeout=TIMEOUT_MS)
    visit("daily-table")
    player.tap(action_hook("close"))


def open_daily_over(player: Player) -> dict[str, Any]:
    """Today's ranked PEACEFUL challenge played through the API, and the page opened on it."""
    game = player.api("POST", "/api/daily", {"difficulty": "peaceful"})
    game = play_out_by_api(player, game)
    player.page.evaluate("id => localStorage.setItem('magdagdon.lastGame', id)", game["id"])
    player.page.reload()
    player.wait_ready()
    player.page.wait_for_selector('body[data-phase="over"]', timeout=TIMEOUT_MS)
    # the panel's module loads after the phase is known: its effects start once it is drawn
    player.page.wait_for_selector("#over .final-score", timeout=TIMEOUT_MS)
    return game


def switch_language(player: Player) -> None:
    lang = player.page.evaluate("document.documentElement.lang")
    player.tap(".bar-lang")
    player.page.wait_for_function(
        "lang => document.documentElement.lang !== lang", arg=lang, timeout=TIMEOUT_MS
    )
    player.wait_idle()
