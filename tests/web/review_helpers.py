"""A finished game to review, and the review sheet as the page shows it: a seeded PEACEFUL game
with a BAWAS −1 / DAGDAG +1 and an I-ROLL ULIT on the way, played through the API up to its last
turn and finished by taps (so the page shows its game over), and the figures the page writes,
formatted here as the page formats them (``js/lib/format.js``, ``js/lib/points.js``)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any

from magdagdon.engine import (
    Action,
    Adjust,
    Difficulty,
    GameState,
    Phase,
    Reroll,
    action_to_json,
)
from plans import plain_turn
from waits import EVENTUALLY_MS

if TYPE_CHECKING:
    from web.web_helpers import Player

MINUS = "\u2212"
SEED = 7
#: What the sheet shows of the current step, read in one call.
SHOWN = """() => {
    const dialog = document.querySelector("#review");
    const text = (sel) => dialog.querySelector(sel)?.textContent.trim() ?? null;
    const step = dialog.querySelector("[data-review-step]");
    const now = dialog.querySelector("[data-review-chart] .now circle");
    const points = dialog.querySelector("[data-review-chart] polyline").getAttribute("points");
    const nav = [...dialog.querySelectorAll(".review-nav button")].map((b) => {
        const r = b.getBoundingClientRect();
        return { name: b.dataset.review, disabled: b.getAttribute("aria-disabled") === "true",
                 top: r.top, left: r.left, bottom: r.bottom, right: r.right,
                 width: r.width, height: r.height, clipped: b.scrollWidth > b.clientWidth + 1 };
    });
    return {
        index: Number(dialog.dataset.step), step: Number(step.dataset.reviewStep),
        kind: step.dataset.kind, label: step.dataset.label,
        count: text(".step-count"), verdict: text(".step-verdict"), words: text(".step-words"),
        chip: text(".step-verdict .chip"), better: text("[data-review-better]"),
        versus: text("[data-review-versus]"),
        figures: Object.fromEntries([...dialog.querySelectorAll("[data-figure]")].map(
            (f) => [f.dataset.figure, f.querySelector(".figure-value").textContent])),
        cells: Object.fromEntries([...dialog.querySelectorAll("[data-review-cell]")].map(
            (c) => [c.dataset.reviewCell, c.className])),
        dice: [...dialog.querySelectorAll(".review-die")].map((d) => d.getAttribute("aria-label")),
        now: [Number(now.getAttribute("cx")), Number(now.getAttribute("cy"))],
        points: points.trim().split(/\\s+/).map((p) => p.split(",").map(Number)),
        nav, viewport: [innerWidth, innerHeight],
    };
}"""


def rounded(n: float) -> int:
    """lib/points.js's ``whole``: whole points, halves away from zero."""
    r = int(Decimal(abs(n)).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return -r if n < 0 else r


def whole_parts(parts: list[float], total: float) -> list[int]:
    """lib/points.js's ``wholeParts``: parts rounded, then moved by 1 (the most rounded the wrong
    way first) until they add up to the total rounded."""
    shown = [rounded(p) for p in parts]
    gap = rounded(total) - sum(shown)
    moved: set[int] = set()
    while gap:
        step = 1 if gap > 0 else -1
        free = [i for i in range(len(parts)) if i not in moved]
        pick = max(free, key=lambda i: ((parts[i] - shown[i]) * step, -i))
        moved.add(pick)
        shown[pick] += step
        gap -= step
    return shown


def figures(step: dict[str, Any]) -> dict[str, int]:
    """review/step.js's ``figures``: a step's figures in whole points that add up as read."""
    if step["kind"] == "chance":
        before, luck = whole_parts([step["before"], step["luck"]], step["after"])
        return {"before": before, "luck": luck, "after": rounded(step["after"])}
    after, given = whole_parts([step["after"], step["given_up"]], step["best"])
    return {"after": after, "given": given, "best": rounded(step["best"])}


def signed(n: int) -> str:
    """lib/format.js's ``signed`` (0 without a sign)."""
    return "0" if n == 0 else f"+{n}" if n > 0 else f"{MINUS}{-n}"


def whole(n: int) -> str:
    """lib/format.js's ``num``: a whole number with a true minus sign."""
    return f"{MINUS}{abs(n)}" if n < 0 else str(n)


def _turn(state: GameState) -> list[Action]:
    """A plain turn, but a Power on turn 2 (BAWAS −1 / DAGDAG +1) and turn 4 (I-ROLL ULIT of
    two dice), each on its own: the turn goes on from the state it leaves."""
    if state.phase is Phase.PLACE and not state.order:
        legal = state.legal_actions()
        if state.turn == 2 and state.powers_used == 0:
            return [next(a for a in legal if isinstance(a, Adjust))]
        if state.turn == 4 and state.powers_used == 1:
            return [next(a for a in legal if isinstance(a, Reroll) and len(a.dice) == 2)]
    return plain_turn(state)


def finish_game(player: Player) -> None:
    """The seeded game through the API up to its last turn, the page reloaded, and the last
    turn played by taps: the page shows the game over."""
    game = player.seed_game(Difficulty.PEACEFUL, SEED)
    state = player.mirror
    assert state is not None
    version = game["version"]
    while True:
        actions = _turn(state)
        after = state
        for action in actions:
            after = after.apply(action)
        if after.is_over:
            break
        for action in actions:
            sent = {**action_to_json(action), "version": version}
            version = player.api("POST", f"/api/games/{player.game_id}/actions", sent)["version"]
            state = state.apply(action)
    player.mirror = state
    player.page.reload()
    player.wait_ready()
    for action in actions:
        player.do(action)
    player.page.wait_for_selector('body[data-phase="over"]')
    # the panel's module loads after the phase is known: its effects start once it is drawn
    player.page.wait_for_selector("#over .final-score")


def review_json(player: Player) -> dict[str, Any]:
    found: dict[str, Any] = player.api("GET", f"/api/games/{player.game_id}/review")
    assert found["status"] == "done"
    return found


def wait_done(player: Player) -> None:
    player.page.wait_for_selector('#review[open][data-status="done"]', timeout=EVENTUALLY_MS)
    player.settle(everything=True)
