"""The review as a player reads it (docs/rules.md "Modes and records" (Review)): every score in
whole points, and a labelled decision's one sentence — the better choice and what it was worth —
in Filipino and in English; the sheet at each size, light and dark, in both languages, its
screenshots in artifacts/screenshots/review/ and nothing of it cut."""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from web.review_helpers import (
    figures,
    finish_game,
    review_json,
    rounded,
    wait_done,
    whole_parts,
)
from web.web_helpers import SCREENSHOTS, action_hook, open_player

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from server_process import ServerProcess
    from web.web_helpers import Player

pytestmark = pytest.mark.browser

#: 390×844, 360×640, 844×390 (touch) and 1280×800.
SIZES = ["phone", "phone-360", "sideways-844", "desktop"]
#: The words of the sentence, as the language's review words put them (fil/en.review.js).
WORDS: dict[str, dict[str, str]] = {
    "fil": {
        "sentence": "{choice}, mas mataas sana nang {n} puntos ang inaasahang Final Score.",
        "place": "Kung inilagay mo {list}",
        "item": "ang {v} sa row {r}, column {c}",
        "minus": "Kung ginamit mo ang BAWAS −1 sa {v}",
        "plus": "Kung ginamit mo ang DAGDAG +1 sa {v}",
        "reroll": "Kung ginamit mo ang I-ROLL ULIT sa {values}",
        "die": "{v}",
        "ruin": "Kung sa row {r}, column {c} mo inilagay ang RUIN",
        "and": " at ",
    },
    "en": {
        "sentence": "{choice} was worth {n} more points.",
        "place": "Placing {list}",
        "item": "the {v} on row {r}, column {c}",
        "minus": "Using MINUS −1 on the {v}",
        "plus": "Using PLUS +1 on the {v}",
        "reroll": "Using REROLL on {values}",
        "die": "the {v}",
        "ruin": "Putting the RUIN on row {r}, column {c}",
        "and": " and ",
    },
}
#: The computer's choice of each kind, as a review's ``suggested`` (for a four-dice roll).
KINDS: list[list[dict[str, Any]]] = [
    [
        {"type": "stage", "die": 2, "cell": [1, 1]},
        {"type": "stage", "die": 0, "cell": [1, 2]},
        {"type": "stage", "die": 3, "cell": [2, 2]},
        {"type": "confirm"},
    ],
    [{"type": "stage", "die": 1, "cell": [0, 3]}, {"type": "confirm"}],
    [{"type": "adjust", "die": 1, "delta": 1}],
    [{"type": "adjust", "die": 0, "delta": -1}],
    [{"type": "reroll", "dice": [0, 3]}],
    [{"type": "reroll", "dice": [2]}],
    [{"type": "ruin", "cell": [3, 0]}],
]
#: Every text of the open sheet, and whatever of it is cut: an element wider than its box, or
#: out of the screen's width.
READ = """() => {
    const dialog = document.querySelector("#review");
    const cut = [...dialog.querySelectorAll(".review-done *, .review-nav *")]
        .filter((el) => el.getClientRects().length)
        .filter((el) => {
            const r = el.getBoundingClientRect();
            const style = getComputedStyle(el);
            const clips = style.overflowX !== "visible";
            const wide = clips && el.scrollWidth > el.clientWidth + 1;
            return wide || r.left < -0.5 || r.right > innerWidth + 0.5;
        })
        .map((el) => el.className?.baseVal ?? el.className);
    return { text: dialog.innerText, cut };
}"""


def _joined(items: list[str], words: dict[str, str]) -> str:
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + words["and"] + items[-1]


def sentence(step: dict[str, Any], lang: str) -> str:
    """The one sentence a labelled decision shows, made here from the review's JSON."""
    words = WORDS[lang]
    roll = step["roll"]
    first = step["suggested"][0]
    if first["type"] == "stage":
        items = [
            words["item"].format(v=roll[a["die"]], r=a["cell"][0] + 1, c=a["cell"][1] + 1)
            for a in step["suggested"]
            if a["type"] == "stage"
        ]
        choice = words["place"].format(list=_joined(items, words))
    elif first["type"] == "adjust":
        choice = words["minus" if first["delta"] < 0 else "plus"].format(v=roll[first["die"]])
    elif first["type"] == "reroll":
        dice = [words["die"].format(v=roll[d]) for d in first["dice"]]
        choice = words["reroll"].format(values=_joined(dice, words))
    else:
        choice = words["ruin"].format(r=first["cell"][0] + 1, c=first["cell"][1] + 1)
    return words["sentence"].format(choice=choice, n=figures(step)["given"])


def _open_labelled(player: Player) -> tuple[dict[str, Any], int]:
    """The review opened at its first labelled decision."""
    finish_game(player)
    player.tap(f"#over {action_hook('review')}")
    wait_done(player)
    review = review_json(player)
    first = next(i for i, s in enumerate(review["steps"]) if s.get("label"))
    if first > 0:
        player.tap('#review [data-review="mistake"]')
    player.page.wait_for_selector(f'#review[data-step="{first}"]')
    player.settle(everything=True)
    return review, first


@pytest.mark.parametrize("lang", ["fil", "en"])
@pytest.mark.parametrize("size", SIZES)
def test_the_review_reads_in_whole_points_with_the_better_choice(
    browser: Browser, web_server: ServerProcess, size: str, lang: str
) -> None:
    context, player = open_player(browser, size, web_server.url)
    try:
        player.api("PUT", "/api/player", {"language": lang})
        review, index = _open_labelled(player)
        step = review["steps"][index]
        assert step["given_up"] >= 5
        assert step["suggested"] != step["played"]
        better = player.page.locator("#review [data-review-better]")
        expect(better).to_have_text(sentence(step, lang))
        expect(better).to_be_in_viewport(ratio=1)
        # the API's figures carry decimals; the sheet shows none of them
        assert any(
            round(v, 2) != round(v) for v in (review["start"], review["luck"], step["after"])
        )
        for scheme in ("light", "dark"):
            player.page.emulate_media(color_scheme=scheme)
            player.settle(everything=True)
            read = player.page.evaluate(READ)
            assert not re.search(r"\d[.,]\d", read["text"]), read["text"]
            assert not read["cut"], read["cut"]
            (SCREENSHOTS / "review").mkdir(parents=True, exist_ok=True)
            path = SCREENSHOTS / "review" / f"{size}-{scheme}-{lang}.png"
            player.page.screenshot(path=str(path), scale="css")
        # every kind of better choice, as the page words it (the game above shows one kind)
        for suggested in KINDS:
            made = {**step, "suggested": suggested, "given_up": 31.4, "best": step["after"] + 31.4}
            said = player.page.evaluate(
                'step => import("/js/review/step.js").then(m => m.betterSentence(step))', made
            )
            assert said == sentence(made, lang)
        # stepping on: every step's words in whole points too
        for _ in range(len(review["steps"]) - 1 - index):
            player.page.keyboard.press("ArrowRight")
            read = player.page.evaluate(READ)
            assert not re.search(r"\d\.\d", read["text"]), read["text"]
        assert not player.errors
    finally:
        context.close()


def test_whole_parts_add_up_and_stay_within_a_point(player: Player) -> None:
    """lib/points.js's one rounding, on sums whose parts round the wrong way: the parts shown add
    up to the total shown, each within 1 point of its value, as review_helpers.py computes it."""
    rng = random.Random(5)
    cases = [([283.3, 292.45, -523.6], 52.15), ([0.5, 0.5, 0.5], 1.5), ([-0.5, -0.4, 0.4], -0.5)]
    for _ in range(200):
        parts = [rng.uniform(-300, 500) for _ in range(3)]
        cases.append(([round(p, 2) for p in parts], round(sum(parts), 2)))
    shown = player.page.evaluate(
        """(cases) => import("/js/lib/points.js").then(
            (m) => cases.map(([parts, total]) => m.wholeParts(parts, total)))""",
        cases,
    )
    for (parts, total), found in zip(cases, shown, strict=True):
        assert sum(found) == rounded(total), (parts, total, found)
        assert all(abs(f - p) < 1 for f, p in zip(found, parts, strict=True)), (parts, found)
        assert found == whole_parts(parts, total)
    # 283 + 292 − 524 = 51, not 52: the part rounded down the most (the luck's .45) moves up
    assert shown[0] == [283, 293, -524]
