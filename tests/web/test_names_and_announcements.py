"""Playable without seeing the screen: a whole game played in each language by a player who finds
everything by its role and accessible name alone (no CSS selector, no ``data-`` hook), decides
each move from what the dice and cells are called, and hears each tap's outcome in the one polite
live region. Focus after a stage or a KUMPIRMAHIN is never where Enter would take it back."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from magdagdon.engine import Action, Confirm, Difficulty, GameState, Phase, Roll, Ruin, Stage
from web.web_helpers import SCREENSHOTS, TIMEOUT_MS, axe_clean, find_game, open_player

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

    from server_process import ServerProcess

pytestmark = pytest.mark.browser


@dataclass(frozen=True)
class Words:
    """What the page calls things and says, in one language (as its word tables have them)."""

    lang: str
    locale: str
    live: str
    board: str
    tray: str
    roll: str
    confirm: str
    accept: str
    hint: str
    lit: str  # a cell that can take the chosen die: "<lit> {v}" is in its name
    staged: str  # in the name of a cell with a staged die
    ruinable: str
    chosen: str  # a die chosen: its name, then what to do now
    stage_said: str
    rolled: str
    confirmed: str
    total: str
    magdagdon: str
    ruin_said: str
    over: str
    hint_cell: str
    hint_off: str
    ruin_choose: str
    unstage_said: str
    refused: str  # KUMPIRMAHIN tapped with nothing staged on the first turn


FIL = Words(
    lang="fil",
    locale="fil-PH",
    live="Mga anunsyo ng laro",
    board="Board",
    tray="Mga dice",
    roll="I-ROLL",
    confirm="KUMPIRMAHIN",
    accept="TANGGAPIN",
    hint="MUNGKAHI",
    lit="valid: puwede rito ang {v}",
    staged="nakahanda",
    ruinable="puwedeng gawing RUIN",
    chosen="{die}, napili. ",
    stage_said="Inihanda ang {v} sa row {r}, column {c}.",
    rolled="Na-roll: ",
    confirmed="Nakumpirma: ",
    total="Puntos: {total}.",
    magdagdon="MAGDAGDON!",
    ruin_said="Naging RUIN ang row {r}, column {c}.",
    over="Tapos na ang laro. Final Score: {score}.",
    hint_cell="mungkahi: ilagay rito ang",
    hint_off="Nakatago ang MUNGKAHI.",
    ruin_choose="I-tap ang bakanteng cell na magiging RUIN",
    unstage_said="Ibinalik ang {v} sa mga dice mo.",
    refused="Maglagay pa ng 3 dice bago KUMPIRMAHIN.",
)
EN = Words(
    lang="en",
    locale="en-US",
    live="Game announcements",
    board="The board",
    tray="Your dice",
    roll="ROLL",
    confirm="CONFIRM",
    accept="ACCEPT",
    hint="HINT",
    lit="valid: the {v} can go here",
    staged="staged",
    ruinable="can become a RUIN",
    chosen="{die}, selected. ",
    stage_said="{v} staged on row {r}, column {c}.",
    rolled="Rolled: ",
    confirmed="Confirmed: ",
    total="Score: {total}.",
    magdagdon="MAGDAGDON!",
    ruin_said="Row {r}, column {c} became a RUIN.",
    over="Game over. Final Score: {score}.",
    hint_cell="hint: put the",
    hint_off="HINT hidden.",
    ruin_choose="Tap the empty cell that becomes a RUIN",
    unstage_said="{v} back with your dice.",
    refused="Place 3 more dice first.",
)

DIFFICULTY = Difficulty.NIGHTMARE  # three dice a turn and no Powers: a MAGDAGDON comes soon


# ----- the player's way, mirrored by the engine to choose a seed that meets a MAGDAGDON ---------
def eager_turn(state: GameState) -> list[Action] | None:
    """The test's own way to play a turn, which the page test follows from the names alone: the
    first die (in the tray's order) that can go anywhere goes on its first lit cell (the board's
    order, row by row), again and again; then KUMPIRMAHIN. A RUIN goes on the first empty cell.
    None when that way would be stuck short of the minimum."""
    if state.phase is Phase.ROLL:
        return [Roll()]
    if state.phase is Phase.MAGDAGDON:
        return [Ruin(state.empty_cells()[0])]
    actions: list[Action] = []
    while True:
        lit = [(die, cells[0]) for die, cells in sorted(state.valid_cells().items()) if cells]
        if not lit:
            break
        stage = Stage(*lit[0])
        state = state.apply(stage)
        actions.append(stage)
    return [*actions, Confirm()] if state.can_confirm else None


def eager_seed() -> int:
    """The first seed whose eager game never gets stuck and meets a MAGDAGDON."""
    for seed in range(1, 2000):
        state = GameState.new(DIFFICULTY, seed)
        magdagdons = 0
        while not state.is_over:
            turn = eager_turn(state)
            if turn is None:
                break
            for action in turn:
                state = state.apply(action)
            magdagdons += state.phase is Phase.MAGDAGDON
        if state.is_over and magdagdons:
            return seed
    raise AssertionError("no seed found")


# ----- the page, by role and name ---------------------------------------------------------------
# a line of the snapshot (YAML: quoted as a whole when the name has ": " in it)
BUTTON = re.compile(r'- \'?button "((?:[^"\\]|\\.)*)"(.*)')


def buttons(group: Locator) -> list[tuple[str, bool]]:
    """The names of a group's buttons, in order, each with whether it can be pressed."""
    found = []
    for line in group.aria_snapshot().splitlines():
        match = BUTTON.search(line)
        if match:
            found.append((match.group(1), "[disabled]" not in match.group(2)))
    return found


class Unseen:
    """A player who never looks: every element found by its role and name."""

    def __init__(self, page: Page, words: Words) -> None:
        self.page = page
        self.w = words
        self.live = page.get_by_role("status", name=words.live, exact=True)
        self.board = page.get_by_role("group", name=words.board, exact=True)
        self.tray = page.get_by_role("group", name=words.tray, exact=True)
        self.heard: list[str] = []

    def button(self, name: str | re.Pattern[str], within: Locator | None = None) -> Locator:
        return (within or self.page).get_by_role("button", name=name, exact=True)

    def hears(self, *parts: str) -> str:
        """Wait until the live region says each of ``parts``; answers what it says."""
        for part in parts:
            expect(self.live).to_contain_text(part, timeout=TIMEOUT_MS)
        said = self.live.inner_text()
        self.heard.append(said)
        return said

    def cells(self) -> list[str]:
        return [name for name, _ in buttons(self.board)]

    def tray_dice(self) -> list[tuple[str, int]]:
        """The dice still in the tray: their names and values ("die 2: 5")."""
        found = []
        for name, enabled in buttons(self.tray):
            match = re.match(r"die \d: (\d)$", name)
            if enabled and match:
                found.append((name, int(match.group(1))))
        return found

    def confirm_button(self) -> Locator:
        return self.button(re.compile(rf"^{self.w.confirm}(,|$)"))

    # -- one turn --------------------------------------------------------------------------------
    def roll(self) -> str:
        roll = self.button(self.w.roll)
        roll.click()
        said = self.hears(self.w.rolled)
        if self.w.magdagdon not in said:
            # I-ROLL is gone: focus went on to the first die, not lost
            expect(self.button(self.tray_dice()[0][0], self.tray)).to_be_focused()
        return said

    def stage_one(self) -> bool:
        """Stage the first die (in the tray's order) that can go anywhere on its first lit cell,
        as eager_turn does; answers whether one could go."""
        target = None
        for name, value in self.tray_dice():
            self.button(name, self.tray).click()
            self.hears(self.w.chosen.format(die=name))
            lit = [c for c in self.cells() if self.w.lit.format(v=value) in c]
            if lit:
                target = (lit[0], value)
                break
        if target is None:
            return False
        cell, value = target
        row, col = re.match(r"row (\d), column (\d)", cell).groups()  # type: ignore[union-attr]
        self.button(cell, self.board).click()
        self.hears(self.w.stage_said.format(v=value, r=row, c=col))
        # focus is not on the staged cell (Enter there would take it back): the next die, or
        # KUMPIRMAHIN when the tray is empty
        staged = [c for c in self.cells() if c.startswith(f"row {row}, column {col}:")]
        assert self.w.staged in staged[0], staged
        expect(self.button(staged[0], self.board)).not_to_be_focused()
        left = self.tray_dice()
        expect(
            self.button(left[0][0], self.tray) if left else self.confirm_button()
        ).to_be_focused()
        return True

    def place_all(self) -> int:
        """Stage dice while one can go anywhere; answers how many."""
        placed = 0
        while self.stage_one():
            placed += 1
        return placed

    def confirm(self, score: int, over: bool) -> None:
        self.confirm_button().click()
        said = [self.w.confirmed, self.w.total.format(total=score)]
        if over:
            self.hears(*said, self.w.over.format(score=score))
        else:
            self.hears(*said)
            # KUMPIRMAHIN is gone: focus waits on I-ROLL, where Enter goes on with the game
            expect(self.button(self.w.roll)).to_be_focused()

    def ruin(self) -> str:
        self.button(self.w.accept).click()
        self.hears(self.w.ruin_choose)
        cell = next(c for c in self.cells() if self.w.ruinable in c)
        row, col = re.match(r"row (\d), column (\d)", cell).groups()  # type: ignore[union-attr]
        self.button(cell, self.board).click()
        self.hears(self.w.ruin_said.format(r=row, c=col))
        expect(
            self.board.get_by_role("button", name=f"row {row}, column {col}: RUIN")
        ).to_have_count(1)
        return cell

    def refused_then_taken_back(self) -> None:
        """A tap on KUMPIRMAHIN too soon says why; a staged die taken back with Enter says so,
        and focus lands on that die in the tray (Enter there chooses it again, nothing is lost).
        The turn is left as it was before."""
        self.confirm_button().click(force=True)  # aria-disabled: a tap that is answered
        self.hears(self.w.refused)
        assert self.stage_one()
        staged = next(c for c in self.cells() if self.w.staged in c)
        value = re.match(r"row \d, column \d: (\d)", staged).group(1)  # type: ignore[union-attr]
        self.button(staged, self.board).press("Enter")
        self.hears(self.w.unstage_said.format(v=value))
        assert not any(self.w.staged in c for c in self.cells())
        back = [name for name, v in self.tray_dice() if str(v) == value]
        focused = self.page.evaluate("document.activeElement.getAttribute('aria-label')")
        assert focused in back, (focused, back)

    def hint_once(self) -> None:
        """The hint, read out in the live region and marked in the cells' names; then hidden."""
        self.button(self.w.hint).click()
        said = self.hears(f"{self.w.hint}: ")
        assert re.search(r"\d", said), said  # it names the Final Score it expects
        assert any(self.w.hint_cell in c for c in self.cells()), self.cells()
        self.button(self.w.hint).click()
        self.hears(self.w.hint_off)
        assert not any(self.w.hint_cell in c for c in self.cells())


@pytest.mark.parametrize("words", [FIL, EN], ids=["fil", "en"])
def test_a_whole_game_played_by_names_and_announcements(
    browser: Browser, web_server: ServerProcess, words: Words
) -> None:
    seed = eager_seed()
    context, player = open_player(browser, "desktop", web_server.url, locale=words.locale)
    try:
        # the player's language as the page keeps it (the first visit's own may still be on its way)
        player.api("PUT", "/api/player", {"language": words.lang})
        player.seed_game(DIFFICULTY, seed)
        unseen = Unseen(player.page, words)
        # every cell of the new board says where it is and that it is empty
        names = unseen.cells()
        assert len(names) == 16
        assert all(re.match(r"row \d, column \d: \S", name) for name in names), names
        magdagdons = 0
        hinted = False
        while True:
            said = unseen.roll()
            if words.magdagdon in said:
                magdagdons += 1
                unseen.ruin()
            else:
                if not hinted:
                    unseen.hint_once()
                    unseen.refused_then_taken_back()
                    hinted = True
                    axe_clean(player, f"{words.locale}: a turn under way")
                assert unseen.place_all() >= 1
                state = player.api("GET", f"/api/games/{player.game_id}")
                unseen.confirm(state["preview"]["total"], over=_fills(state))
            state = player.api("GET", f"/api/games/{player.game_id}")
            if state["phase"] == "over":
                break
        assert magdagdons >= 1  # the seed was chosen for one
        assert state["score"]["total"] is not None
        unseen.hears(words.over.format(score=state["score"]["total"]))
        assert not player.errors
    finally:
        context.close()


def _fills(state: dict[str, object]) -> bool:
    """This KUMPIRMAHIN fills the board (the game ends with it)."""
    board = state["board"]
    assert isinstance(board, list)
    empty = sum(1 for row in board for cell in row if cell is None)
    dice = state["dice"]
    assert isinstance(dice, list)
    staged = sum(1 for die in dice if die["cell"] is not None)
    return empty == staged


#: The play screen mid-turn in each size, scheme and language: the names and announcements are
#: for the ear alone, and a focus moved by a tap draws no ring.
SHOTS = [
    (layout, scheme, words)
    for layout in ("phone", "sideways-844", "phone-360", "desktop")
    for scheme in ("light", "dark")
    for words in (FIL, EN)
]
A11Y_SHOTS = SCREENSHOTS / "a11y"


@pytest.mark.parametrize(
    ("layout", "scheme", "words"), SHOTS, ids=[f"{a}-{b}-{w.lang}" for a, b, w in SHOTS]
)
def test_the_play_screen_mid_turn_looks_as_before(
    browser: Browser, web_server: ServerProcess, layout: str, scheme: str, words: Words
) -> None:
    context, player = open_player(
        browser, layout, web_server.url, locale=words.locale, color_scheme=scheme
    )
    try:
        player.api("PUT", "/api/player", {"language": words.lang})
        seed, _ = find_game(Difficulty.PEACEFUL, lambda s: s.phase is Phase.PLACE)
        player.seed_game(Difficulty.PEACEFUL, seed)
        unseen = Unseen(player.page, words)
        said = unseen.roll()
        assert words.magdagdon not in said  # the seed was chosen for a roll that places dice
        assert unseen.stage_one()
        for name, value in unseen.tray_dice():  # a die chosen: its lit cells show
            unseen.button(name, unseen.tray).click()
            unseen.hears(words.chosen.format(die=name))
            if any(words.lit.format(v=value) in c for c in unseen.cells()):
                break
        box = unseen.live.bounding_box()
        assert box is not None
        assert box["width"] <= 1  # heard, not seen
        assert box["height"] <= 1
        ring = player.page.evaluate("document.activeElement.matches(':focus-visible')")
        assert not ring, "a focus moved after a tap draws a ring"
        A11Y_SHOTS.mkdir(parents=True, exist_ok=True)
        player.settle()
        player.page.screenshot(
            path=str(A11Y_SHOTS / f"{layout}-{scheme}-{words.lang}.png"), scale="css"
        )
        assert not player.errors
    finally:
        context.close()
