"""The game review's sheet (docs/rules.md "Modes and records" (Review)): opened from the game over
and from a High Scores row, its progress shown while the server answers 202, then stepped through
like a replay — forwards to the end and back, by taps on a phone and by ←/→ on a desktop — every
figure shown equal to the API's review; axe in light and dark; a screenshot at each size; the
review's words complete in both languages; and nothing of it in the play screen's first load."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from magdagdon.api.page.static import WEB_DIR
from web.review_helpers import (
    SHOWN,
    figures,
    finish_game,
    review_json,
    signed,
    wait_done,
    whole,
    whole_parts,
)
from web.web_helpers import action_hook, axe_clean, open_player

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Route

    from server_process import ServerProcess
    from web.web_helpers import Player

pytestmark = pytest.mark.browser

#: The sizes of the screenshots, each in light and dark.
SIZES = ["phone", "phone-360", "sideways-844", "desktop"]
LABELS = {"inaccuracy": "DI-TUMPAK", "mistake": "MALI", "blunder": "MALAKING MALI"}
KEYS = {"next": "ArrowRight", "prev": "ArrowLeft"}


def key(cell: list[int]) -> str:
    return f"{cell[0]}-{cell[1]}"


def check_summary(shown: dict[str, Any], review: dict[str, Any]) -> None:
    """start + luck − given up = Final Score: the API's figures in whole points, each within a
    point of the API's, and the four shown add up."""
    assert abs(review["start"] + review["luck"] - review["given_up"] - review["final"]) <= 0.5
    start, luck, lost = whole_parts(
        [review["start"], review["luck"], -review["given_up"]], review["final"]
    )
    assert start + luck + lost == review["final"]
    for part, exact in zip(
        (start, luck, lost), (review["start"], review["luck"], -review["given_up"]), strict=True
    ):
        assert abs(part - exact) < 1
    assert shown["figures"] == {
        "start": whole(start),
        "luck": signed(luck),
        "given": f"\u2212 {whole(-lost)}",
        "total": f"= {whole(review['final'])}",
    }


def check_step(shown: dict[str, Any], review: dict[str, Any], index: int) -> None:
    """The sheet shows step ``index`` of ``review``: its numbers, board, dice and chart mark."""
    step = review["steps"][index]
    assert shown["index"] == shown["step"] == index
    assert shown["kind"] == step["kind"]
    assert shown["count"] == f"Hakbang {index + 1}/{len(review['steps'])}"
    roll = step["dice"] if step["kind"] == "chance" else step["roll"]
    assert len(shown["dice"]) == len(roll)
    for i, (label, value) in enumerate(zip(shown["dice"], roll, strict=True)):
        assert re.match(rf"die {i + 1}: {value}(,|$)", label), label
    figure = figures(step)
    if step["kind"] == "chance":
        assert figure["before"] + figure["luck"] == figure["after"]
        assert shown["verdict"] == f"Suwerte {signed(figure['luck'])}"
        assert f"{whole(figure['before'])} → {whole(figure['after'])}" in shown["words"]
        rolled = ", ".join(str(step["dice"][i]) for i in step["rolled"])
        assert f"Lumabas: {rolled}" in shown["words"]
    else:
        label = step["label"]
        assert shown["label"] == (label or "")
        assert shown["chip"] == (LABELS[label] if label else None)
        assert figure["after"] + figure["given"] == figure["best"]
        assert shown["verdict"].startswith(f"Nawala: {whole(figure['given'])}")
        assert f"inaasahan {whole(figure['after'])}" in shown["words"]
        if step["played"] != step["suggested"] and "Pareho" not in shown["words"]:
            assert f"inaasahan {whole(figure['best'])}" in shown["words"]
        # a labelled decision says what the better choice was worth, in one sentence
        assert (shown["better"] is not None) == (label is not None)
        if label:
            assert shown["better"].endswith(
                f"mas mataas sana nang {whole(figure['given'])} puntos ang inaasahang Final Score."
            )
            assert shown["better"].count(".") == 1
        placed = {key(a["cell"]) for a in step["played"] if a["type"] in ("stage", "ruin")}
        for cell in placed:
            assert "you" in shown["cells"][cell].split()
    for r, row in enumerate(step["board"]):
        for c, value in enumerate(row):
            classes = shown["cells"][f"{r}-{c}"].split()
            if value is not None:
                assert ("ruin" if value == "ruin" else "number") in classes
                assert "you" not in classes
    # the chart marks the point after this step
    assert len(shown["points"]) == len(review["values"])
    assert shown["now"] == pytest.approx(shown["points"][index + 1], abs=0.06)


def check_nav(shown: dict[str, Any], index: int, last: int) -> None:
    """The step buttons are inside the screen, at least 44 px, their words inside them,
    disabled only at the ends."""
    width, height = shown["viewport"]
    for button in shown["nav"]:
        assert not button["clipped"], button
        assert min(button["width"], button["height"]) >= 44, button
        assert min(button["top"], button["left"]) >= 0, button
        assert button["bottom"] <= height + 0.5, button
        assert button["right"] <= width + 0.5, button
    disabled = {b["name"]: b["disabled"] for b in shown["nav"]}
    assert disabled["prev"] == (index == 0)
    assert disabled["next"] == (index == last)


def move(player: Player, name: str, *, force: bool = False) -> None:
    """A tap on the step button on a touch screen, its arrow key on a desktop; ``force`` taps
    a disabled one."""
    if player.touch:
        player.tap(f'#review [data-review="{name}"]', force=force)
    else:
        player.page.keyboard.press(KEYS[name])


def shown_now(player: Player) -> dict[str, Any]:
    found: dict[str, Any] = player.page.evaluate(SHOWN)
    return found


def test_a_review_stepped_through_forwards_and_back(player: Player) -> None:
    finish_game(player)
    player.tap(f"#over {action_hook('review')}")
    wait_done(player)
    review = review_json(player)
    kinds = {(s["kind"], s.get("type")) for s in review["steps"]}
    assert {("decision", "adjust"), ("decision", "reroll"), ("chance", "reroll")} <= kinds
    last = len(review["steps"]) - 1
    shown = shown_now(player)
    check_summary(shown, review)
    for index in range(last + 1):
        check_step(shown, review, index)
        check_nav(shown, index, last)
        if review["steps"][index].get("type") in ("adjust", "reroll"):
            player.screenshot(
                f"review-{review['steps'][index]['kind']}-{review['steps'][index]['type']}"
            )
        if index < last:
            move(player, "next")
            shown = shown_now(player)
    move(player, "next", force=True)  # at the end: nothing moves
    assert shown_now(player)["index"] == last
    for index in range(last, -1, -1):
        shown = shown_now(player)
        check_step(shown, review, index)
        if index > 0:
            move(player, "prev")
    check_summary(shown, review)
    player.tap('#review [data-review="close"]')
    assert not player.page.locator("#review").is_visible()


def test_the_review_shows_its_progress_then_opens_from_the_high_scores(
    browser: Browser, web_server: ServerProcess
) -> None:
    """While the server answers 202 the sheet shows its progress and asks again."""
    context, player = open_player(browser, "phone", web_server.url)
    try:
        finish_game(player)
        held: list[str] = []

        def pending(route: Route) -> None:
            held.append(route.request.url)
            if len(held) == 1:  # the database down for a moment: the page asks again
                error = {"code": "storage_unavailable", "message": "later"}
                route.fulfill(status=503, json={"error": error}, headers={"Retry-After": "1"})
            elif len(held) <= 3:
                route.fulfill(status=202, json={"status": "pending", "progress": 0.4})
            else:
                route.continue_()

        player.page.route("**/api/games/*/review", pending)
        player.menu("highscores")
        player.tap(f'#sheet [data-action="review"][data-game="{player.game_id}"]')
        player.page.wait_for_selector('#review[data-status="pending"] progress[value="40"]')
        assert "40%" in player.page.locator(".review-progress-text").inner_text()
        player.screenshot("review-pending")
        wait_done(player)
        assert len(held) >= 4  # it asked again until the answer was done (the server too)
        check_summary(shown_now(player), review_json(player))
        player.page.keyboard.press("Escape")
        assert player.page.locator("#sheet").is_visible()  # back on the High Scores
        assert not player.errors
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES)
def test_the_review_fits_and_passes_axe(
    browser: Browser, web_server: ServerProcess, size: str, scheme: str
) -> None:
    context, player = open_player(browser, size, web_server.url, color_scheme=scheme)
    try:
        finish_game(player)
        player.tap(f"#over {action_hook('review')}")
        wait_done(player)
        review = review_json(player)
        decision = next(
            i for i, s in enumerate(review["steps"]) if s["kind"] == "decision" and s["label"]
        )
        for _ in range(decision):
            player.page.keyboard.press("ArrowRight")
        shown = shown_now(player)
        check_step(shown, review, decision)
        check_nav(shown, decision, len(review["steps"]) - 1)
        # a labelled step the computer would have played otherwise: the sentence that says its
        # choice and worth is read without scrolling
        expect(player.page.locator(".step-words .who.computer")).to_have_count(1)
        expect(player.page.locator("[data-review-better]")).to_be_in_viewport(ratio=1)
        player.screenshot(f"review-{scheme}")
        if size in ("phone", "desktop"):
            axe_clean(player, f"review, {size}, {scheme}")
        assert not player.errors
    finally:
        context.close()


def test_the_review_in_english(browser: Browser, web_server: ServerProcess) -> None:
    context, player = open_player(browser, "desktop", web_server.url)
    try:
        player.api("PUT", "/api/player", {"language": "en"})
        finish_game(player)
        player.tap(f"#over {action_hook('review')}")
        wait_done(player)
        review = review_json(player)
        dialog = player.page.locator("#review")
        assert dialog.locator("#review-title").inner_text() == "GAME REVIEW"
        assert dialog.locator(".step-count").inner_text() == f"Step 1/{len(review['steps'])}"
        names = dialog.locator(".figure-name").all_inner_texts()
        assert names == ["Expected at the start", "Luck", "Points lost", "Final Score"]
        player.page.keyboard.press("End")
        last = review["steps"][-1]
        verdict = dialog.locator(".step-verdict").inner_text()
        given = f"Points lost: {whole(figures(last).get('given', 0))}"
        assert verdict.startswith(given if last["kind"] == "decision" else "Luck")
        assert not player.errors
    finally:
        context.close()


def _words(lang: str) -> set[str]:
    source = (WEB_DIR / "js" / "i18n" / f"{lang}.review.js").read_text(encoding="utf-8")
    return set(re.findall(r'^  "review\.(\w+)": ', source, flags=re.MULTILINE))


def test_the_review_s_words_are_complete_in_both_languages() -> None:
    assert _words("fil") == _words("en")
    assert len(_words("fil")) > 40
