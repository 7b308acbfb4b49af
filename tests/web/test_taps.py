"""Every tap answered: a stage drawn at once on a slow line and taken back if the server refuses, a
double tap that never places and returns, a disabled button that says why, dice that come back
with another said so, a dear Power asked first, line sums and KUMPIRMAHIN previewing the staged
dice, a combo celebrated, sound and vibration off until switched on, and a press whose button is
drawn again before its release still a tap."""

from __future__ import annotations

import json
import re
import time
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from magdagdon.engine import (
    Adjust,
    Confirm,
    Difficulty,
    GameState,
    Phase,
    Roll,
    Stage,
    Unstage,
    row_col,
)
from plans import cascade_pair, plain_turn, plan_placement
from waits import wait_until
from web.web_helpers import TIMEOUT_MS, action_hook, cell_hook, die_hook, find_game

if TYPE_CHECKING:
    from playwright.sync_api import Route

    from web.web_helpers import Player

pytestmark = pytest.mark.browser

ROUND_TRIP_S = 0.15

#: A tap on a lit cell, watched from inside the page: is the die drawn at the next frame, and
#: when does the state settle (the request over)?
TAP_AND_WATCH = """async (cell) => {
    const el = document.querySelector(`.board [data-cell="${cell}"]`);
    const start = performance.now();
    el.click();
    await new Promise((r) => requestAnimationFrame(r));
    const drawn = el.classList.contains("staged");
    const frame = performance.now() - start;
    while (document.body.dataset.busy) await new Promise((r) => setTimeout(r, 2));
    return { drawn, frame, settled: performance.now() - start,
             staged: el.classList.contains("staged"), pending: el.classList.contains("pending") };
}"""


def cell_key(cell: int) -> str:
    row, col = row_col(cell)
    return f"{row}-{col}"


def first_stage(player: Player, seed: int = 5) -> Stage:
    player.seed_game(Difficulty.PEACEFUL, seed)
    player.do(Roll())
    assert player.mirror is not None
    stage = plan_placement(player.mirror)[0]
    player.tap(die_hook(stage.die))
    return stage


#: A tap on a lit cell, then a frame: is the die drawn at once, and how long did it take?
TAP_AND_DRAW = """async (cell) => {
    const el = document.querySelector(`.board [data-cell="${cell}"]`);
    const start = performance.now();
    el.click();
    await new Promise((r) => requestAnimationFrame(r));
    return { drawn: el.classList.contains("staged"), frame: performance.now() - start };
}"""


def test_a_stage_is_drawn_at_once_and_the_state_settles_with_the_answer(
    routed_player: Player,
) -> None:
    player = routed_player
    stage = first_stage(player)
    page = player.page
    held: list[Route] = []  # the stage's request, answered when the test lets it go
    page.route("**/api/games/*/actions", lambda route: held.append(route))
    seen: dict[str, Any] = page.evaluate(TAP_AND_DRAW, cell_key(stage.cell))
    assert seen["drawn"]  # at the first frame, before the answer
    assert seen["frame"] < ROUND_TRIP_S * 1000
    wait_until(lambda: held or page.evaluate("false"), "the stage sent")
    cell = page.locator(cell_hook(stage.cell))
    # no answer yet: the die stays drawn, the page waits for it
    assert page.evaluate("document.body.dataset.busy") == "1"
    assert "staged" in player.classes(cell_hook(stage.cell))
    held[0].continue_()
    player.wait_idle()
    expect(cell).to_have_class(re.compile(r"\bstaged\b"))
    expect(cell).not_to_have_class(re.compile(r"\bpending\b"))
    assert len(held) == 1
    state = player.state()
    assert next(d for d in state["dice"] if d["id"] == stage.die)["cell"] == list(
        row_col(stage.cell)
    )


@pytest.mark.parametrize("layout", ["phone"])  # the desktop: test_screens.py
def test_a_stage_the_server_refuses_is_taken_back(routed_player: Player) -> None:
    player = routed_player
    stage = first_stage(player)
    page = player.page
    before = player.state()

    def refuse(route: Route) -> None:
        time.sleep(ROUND_TRIP_S)
        body = {"error": {"code": "invalid_cell", "message": "not there"}}
        route.fulfill(status=409, content_type="application/json", body=json.dumps(body))

    page.route("**/api/games/*/actions", refuse)
    seen: dict[str, Any] = page.evaluate(TAP_AND_WATCH, cell_key(stage.cell))
    assert seen["drawn"]
    assert not seen["staged"]
    assert not seen["pending"]
    expect(page.locator("#message.error")).to_contain_text("Hindi tinanggap")
    expect(page.locator(die_hook(stage.die))).to_be_enabled()
    assert player.state() == before


def test_a_double_tap_never_places_and_returns_a_die(player: Player) -> None:
    stage = first_stage(player)
    page = player.page
    target = page.locator(cell_hook(stage.cell))
    # the clicks the page itself receives on the cell, with their time and the browser's count
    target.evaluate(
        "el => { window.cellClicks = []; el.addEventListener('click', "
        "(e) => window.cellClicks.push([e.timeStamp, e.detail])); }"
    )
    # the page's double tap: a second click this soon, or one the browser counts as a second
    double_tap_ms = page.evaluate('import("/js/app/taps.js").then(m => m.DOUBLE_TAP_MS)')
    assert double_tap_ms > 0
    for _ in range(5):
        page.evaluate("window.cellClicks.length = 0")
        if player.touch:  # two taps in a row, as a thumb makes them (no waiting for the cell)
            box = target.bounding_box()
            assert box is not None
            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            page.touchscreen.tap(x, y)
            page.touchscreen.tap(x, y)
        else:
            target.dblclick()
        page.wait_for_function("window.cellClicks.length >= 2", timeout=TIMEOUT_MS)
        player.wait_idle()
        (first, _), (second, count) = page.evaluate("window.cellClicks.slice(0, 2)")
        if second - first < double_tap_ms or count > 1:
            break
        # A browser too busy to deliver the second tap in time makes two taps of it, and the
        # second rightly returns the die: choose it again and tap twice once more.
        expect(target).not_to_have_class(re.compile(r"\bstaged\b"))
        player.tap(die_hook(stage.die))
    else:
        pytest.fail("no two taps came within a double tap's time in five tries")
    expect(target).to_have_class(re.compile(r"\bstaged\b"))
    state = player.state()
    assert next(d for d in state["dice"] if d["id"] == stage.die)["cell"] == list(
        row_col(stage.cell)
    )


@pytest.mark.parametrize("layout", ["phone"])  # the desktop: test_screens.py
def test_a_tap_on_a_disabled_button_says_why(player: Player) -> None:
    player.seed_game(Difficulty.PEACEFUL, seed=5)
    page = player.page
    message = page.locator("#message")
    player.do(Roll())
    player.tap(action_hook("confirm"), force=True)
    expect(message).to_have_class(re.compile(r"\bwhy\b"))
    expect(message).to_contain_text("Maglagay pa ng 2 dice bago KUMPIRMAHIN.")
    player.tap(action_hook("minus"), force=True)
    expect(message).to_contain_text("I-tap muna ang die na babaguhin.")
    player.tap('.board [data-cell="0-0"]')  # no die chosen
    expect(message).to_contain_text("I-tap muna ang isang die")
    assert player.mirror is not None
    ones = [d for d in range(4) if player.mirror.dice[d] == 1]
    sixes = [d for d in range(4) if player.mirror.dice[d] == 6]
    if ones:
        player.tap(die_hook(ones[0]))
        player.tap(action_hook("minus"), force=True)
        expect(message).to_contain_text("Hindi bababa sa 1 ang die.")
    if sixes:
        player.tap(die_hook(sixes[0]))
        player.tap(action_hook("plus"), force=True)
        expect(message).to_contain_text("Hindi lalampas sa 6 ang die.")
    player.screenshot("why")
    player.tap(die_hook(0))  # the next tap clears it
    expect(message).not_to_have_class(re.compile(r"\bwhy\b"))


def _cascade_pair(state: GameState) -> tuple[Stage, Stage] | None:
    if state.phase is not Phase.PLACE or state.turn < 2:
        return None
    return cascade_pair(state)


@pytest.mark.parametrize("layout", ["phone"])  # the desktop: test_screens.py
def test_a_die_that_takes_others_back_with_it_says_so(player: Player) -> None:
    seed, actions = find_game(Difficulty.PEACEFUL, lambda s: _cascade_pair(s) is not None)
    player.seed_game(Difficulty.PEACEFUL, seed)
    for action in actions:
        player.do(action)
    assert player.mirror is not None
    pair = _cascade_pair(player.mirror)
    assert pair is not None
    first, second = pair
    player.do(first)
    player.do(second)
    player.do(Unstage(first.die))
    message = player.page.locator("#message.info")
    expect(message).to_contain_text(f"Bumalik din ang {player.mirror.dice[second.die]}")
    expect(player.page.locator("#live")).to_contain_text("Bumalik din ang")


@pytest.mark.parametrize("layout", ["phone"])  # the desktop: test_screens.py
def test_every_power_that_costs_points_asks_once_before_it_is_spent(player: Player) -> None:
    player.seed_game(Difficulty.PEACEFUL, seed=11)
    player.do(Roll())
    page = player.page
    for cost in (10, 20):  # every Power asks first, with its cost (do() answers yes)
        assert player.mirror is not None
        up = next(a for a in player.mirror.legal_actions() if isinstance(a, Adjust))
        if "selected" not in player.classes(die_hook(up.die)):
            player.tap(die_hook(up.die))
        player.tap(action_hook("plus" if up.delta > 0 else "minus"))
        expect(page.locator('#sheet[data-screen="ask"]')).to_contain_text(
            f"−{cost} puntos. Gamitin?"
        )
        player.tap('[data-choice="no"]')  # nothing spent
        assert (
            player.state()["powers"]["used"] == cost // 10 - 1
        )  # 0 before the first, 1 before the second
        player.do(up)
        expect(page.locator("#sheet")).not_to_be_visible()
    assert player.mirror is not None
    third = next(a for a in player.mirror.legal_actions() if isinstance(a, Adjust))
    if "selected" not in player.classes(die_hook(third.die)):
        player.tap(die_hook(third.die))
    player.tap(action_hook("plus" if third.delta > 0 else "minus"))
    question = page.locator('#sheet[data-screen="ask"]')
    expect(question).to_be_visible()
    expect(question).to_contain_text("−40 puntos. Gamitin?")
    expect(page.locator('[data-choice="no"]')).to_be_focused()  # Enter does not spend it
    player.screenshot("ask-power")
    player.tap('[data-choice="no"]')
    assert player.state()["powers"]["used"] == 2
    player.do(third)  # asks again, and the yes spends it
    assert player.state()["powers"]["used"] == 3


def _combo_turn(state: GameState) -> bool:
    if state.phase is not Phase.PLACE:
        return False
    after = state
    for action in plain_turn(state):
        after = after.apply(action)
    old, new = state.score(), after.score()
    return any(
        n.combo and not o.combo
        for o, n in zip((*old.rows, *old.columns), (*new.rows, *new.columns), strict=True)
    )


@pytest.mark.parametrize("layout", ["phone"])
def test_the_staged_dice_preview_their_lines_and_a_combo_is_celebrated(player: Player) -> None:
    seed, actions = find_game(Difficulty.PEACEFUL, _combo_turn, turns=16)
    player.seed_game(Difficulty.PEACEFUL, seed)
    for action in actions:
        player.do(action)
    assert player.mirror is not None
    turn = plain_turn(player.mirror)
    for action in turn[:-1]:
        player.do(action)
    state = player.state()
    page = player.page
    preview, score = state["preview"], state["score"]
    confirm = page.locator(action_hook("confirm"))
    gain = preview["total"] - score["total"]
    expect(confirm.locator(".sub")).to_have_text(f"+{gain}" if gain >= 0 else f"−{-gain}")
    lines = [("row", i, line) for i, line in enumerate(preview["rows"])]
    lines += [("col", i, line) for i, line in enumerate(preview["columns"])]
    now = [*score["rows"], *score["columns"]]
    combo_lines = []
    for (kind, i, line), old in zip(lines, now, strict=True):
        box = page.locator(f".board .sum.{kind}").nth(i)
        if line["sum"] != old["sum"] or line["combo"] != old["combo"]:
            expect(box).to_have_class(re.compile(r"\bpreview\b"))
            expect(box.locator(".total")).to_have_text(str(line["sum"]))
        else:
            expect(box).not_to_have_class(re.compile(r"\bpreview\b"))
        if line["combo"] and not old["combo"]:
            combo_lines.append((kind, i, line))
            expect(box.locator(".badge")).to_contain_text(f"+{line['bonus']}")
    assert combo_lines
    player.screenshot("preview-combo")
    player.tap(action_hook("confirm"))
    kind, i, line = combo_lines[0]
    expect(page.locator(f".board .sum.{kind}").nth(i)).to_have_class(re.compile(r"celebrate"))
    expect(page.locator(".toast.combo").first).to_be_visible()
    names = {"straight": "STRAIGHT", "four_of_a_kind": "FOUR OF A KIND", "two_pairs": "TWO PAIRS"}
    expect(page.locator(".toast.combo").first).to_contain_text(names[line["combo"]])
    player.screenshot("combo")
    player.mirror = player.mirror.apply(turn[-1])
    assert isinstance(turn[-1], Confirm)


COUNT_SOUND_AND_VIBRATION = """
    window.cues = { tones: 0, buzz: 0 };
    const Real = window.AudioContext;
    window.AudioContext = class extends Real {
        createOscillator() { window.cues.tones += 1; return super.createOscillator(); }
    };
    const buzz = () => { window.cues.buzz += 1; return true; };
    Object.defineProperty(navigator, "vibrate", { value: buzz });
"""


@pytest.mark.parametrize("layout", ["phone"])  # the desktop: test_screens.py
def test_sound_and_vibration_are_off_until_switched_on_and_remembered(player: Player) -> None:
    page = player.page
    page.context.add_init_script(COUNT_SOUND_AND_VIBRATION)
    page.reload()
    player.wait_ready()
    player.tap(action_hook("roll"))
    assert page.evaluate("window.cues") == {"tones": 0, "buzz": 0}
    player.menu("settings")
    sound, buzz = page.locator('[data-pref="sound"]'), page.locator('[data-pref="vibrate"]')
    expect(sound).to_have_attribute("aria-pressed", "false")
    expect(buzz).to_have_attribute("aria-pressed", "false")
    player.tap('[data-pref="sound"]')
    player.tap('[data-pref="vibrate"]')
    expect(sound).to_have_attribute("aria-pressed", "true")
    expect(buzz).to_have_attribute("aria-pressed", "true")
    player.tap(action_hook("close"))
    page.reload()
    player.wait_ready()
    player.tap(action_hook("confirm"), force=True)  # refused: a buzz and a tone
    # the cues' module loads on its first use, so they sound a moment after the tap
    page.wait_for_function("window.cues.tones > 0 && window.cues.buzz > 0")
    assert page.evaluate(
        "[localStorage['magdagdon.sound'], localStorage['magdagdon.vibrate']]"
    ) == [
        "1",
        "1",
    ]


@pytest.mark.parametrize("layout", ["desktop"])
def test_a_press_whose_button_is_drawn_again_before_its_release_is_a_tap(player: Player) -> None:
    """A sheet that fills in while the player presses (the server's address, the player's own
    data) draws its buttons again; the browser then sends no click, and the page must not lose
    the tap."""
    page = player.page
    assert page.evaluate("document.documentElement.lang") == "fil"
    player.menu("settings")
    player.settle()  # the sheet in its place
    english = page.locator('[data-lang="en"]')
    # the sheet may still be filling in (drawn again): the button's box once it stays drawn
    box = wait_until(english.bounding_box, "the English button drawn")
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    english.evaluate("el => el.replaceWith(el.cloneNode(true))")  # drawn again, as a redraw does
    page.mouse.up()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator('[data-lang="en"]')).to_have_attribute("aria-pressed", "true")
    player.tap(action_hook("close"))
    expect(page.locator(action_hook("confirm"))).to_contain_text("CONFIRM")
