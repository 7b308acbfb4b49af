"""The share text of a finished daily (or practice) game, in each of the page's languages: the
challenge's name and number, its difficulty, the final score and the hints used, then a picture
of the board that tells only what kind of line each cell helped make — never a die's value, so it
spoils nothing for a friend who has not played the day yet — with a line that reads the picture,
and the link to the day's challenge on this server::

    MAGDAGDON HAMON #12 · NIGHTMARE
    Final Score 287 · Walang mungkahi
    🟩🟩🟩🟩
    🟦⬜🟪⬜
    🟦⬜🟪🟥
    🟦🟦🟪⬜
    🟩 STRAIGHT · 🟪 FOUR OF A KIND · 🟦 TWO PAIRS · ⬜ walang combination · 🟥 RUIN
    https://magdagdon.example/?daily=2026-12-12&difficulty=nightmare

A cell in lines of two combinations shows the higher one (STRAIGHT, then FOUR OF A KIND, then
TWO PAIRS); a number in no combination is plain; a RUIN is its own colour. The link is left out
when the server has no public address configured (``api.origin.public_origin``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Annotated, Literal, get_args
from urllib.parse import urlencode

from pydantic import Field

from magdagdon.engine import SIZE, Difficulty
from magdagdon.engine.board import RUIN_CODE
from magdagdon.engine.daily import daily_number
from magdagdon.services.errors import GameNotOverError, NotDailyError

if TYPE_CHECKING:
    from magdagdon.store import GameRecord

#: From the strongest combination down: the kind a cell shows.
Kind = Literal["straight", "four_of_a_kind", "two_pairs", "number", "ruin"]
KINDS: tuple[Kind, ...] = get_args(Kind)
EMOJI = {
    "straight": "\U0001f7e9",  # green square
    "four_of_a_kind": "\U0001f7ea",  # purple square
    "two_pairs": "\U0001f7e6",  # blue square
    "number": "\u2b1c",  # white square
    "ruin": "\U0001f7e5",  # red square
}
#: The share text's words in each language, as the page says them (web/js/i18n/).
WORDS: dict[str, dict[str, str]] = {
    "fil": {
        "daily": "HAMON",
        "practice": "praktis",
        "score": "Final Score",
        "hint_free": "Walang mungkahi",
        "hint": "1 mungkahi",
        "hints": "{n} mungkahi",
        "number": "walang combination",
    },
    "en": {
        "daily": "DAILY",
        "practice": "practice",
        "score": "Final Score",
        "hint_free": "No hints",
        "hint": "1 hint",
        "hints": "{n} hints",
        "number": "no combination",
    },
}
LANGUAGES = tuple(WORDS)
_RANK: dict[str, int] = {kind: index for index, kind in enumerate(KINDS)}
_SEP = " \u00b7 "


@dataclass(frozen=True, slots=True)
class Share:
    game_id: str
    number: int
    date: str  # the challenge's day, YYYY-MM-DD
    difficulty: Difficulty
    mode: Literal["daily", "practice"]
    score: int
    hints: Annotated[int, Field(description="The hints the game used (0: hint-free).")]
    grid: tuple[tuple[Kind, ...], ...]  # 4 rows of 4
    url: Annotated[
        str | None,
        Field(
            description="The day's challenge on this server; null when no other device can open it."
        ),
    ]
    text: Annotated[dict[str, str], Field(description="The share text in each language (fil, en).")]


def share(game: GameRecord, origin: str | None) -> Share:
    """The share of a finished daily or practice game; ``origin`` is the address another
    device opens this server at (``scheme://host[:port]``), None when there is none."""
    if game.daily_date is None:
        raise NotDailyError("only a daily challenge (or its practice) has a share text")
    state = game.state
    if not state.is_over:
        raise GameNotOverError("the game is not over yet")
    final = state.score()
    grid = board_picture(
        state.codes(), [line.combo for line in final.rows], [line.combo for line in final.columns]
    )
    number = daily_number(date.fromisoformat(game.daily_date))
    mode: Literal["daily", "practice"] = "practice" if game.mode.value == "practice" else "daily"
    url = None if origin is None else day_link(origin, game.daily_date, game.difficulty)
    text = {
        language: share_text(
            language,
            number,
            game.difficulty.value,
            final.total,
            game.hints_used,
            grid,
            practice=mode == "practice",
            url=url,
        )
        for language in LANGUAGES
    }
    return Share(
        game.id,
        number,
        game.daily_date,
        game.difficulty,
        mode,
        final.total,
        game.hints_used,
        grid,
        url,
        text,
    )


def day_link(origin: str, day: str, difficulty: Difficulty) -> str:
    """The page on ``origin`` opened at the challenge of ``day`` on ``difficulty`` (the page
    opens the daily sheet there: web/js/sheets/daily.js)."""
    query = urlencode({"daily": day, "difficulty": difficulty.value})
    return f"{origin.rstrip('/')}/?{query}"


def board_picture(
    codes: list[int], rows: list[str | None], columns: list[str | None]
) -> tuple[tuple[Kind, ...], ...]:
    """The kind of each cell (see :data:`KINDS`) from the board's codes and its lines' combos."""
    picture = []
    for r in range(SIZE):
        line: list[Kind] = []
        for c in range(SIZE):
            code = codes[r * SIZE + c]
            if code == RUIN_CODE:
                line.append("ruin")
                continue
            ranks = [_RANK[combo] for combo in (rows[r], columns[c]) if combo is not None]
            line.append(KINDS[min(ranks, default=_RANK["number"])])
        picture.append(tuple(line))
    return tuple(picture)


def share_text(
    language: str,
    number: int,
    difficulty: str,
    score: int,
    hints: int,
    grid: tuple[tuple[Kind, ...], ...],
    *,
    practice: bool = False,
    url: str | None = None,
) -> str:
    """The share text in ``language`` (a key of :data:`WORDS`)."""
    words = WORDS[language]
    title = f"MAGDAGDON {words['daily']} #{number}{_SEP}{difficulty.upper()}"
    if practice:
        title += f"{_SEP}{words['practice']}"
    if hints == 0:
        used = words["hint_free"]
    else:
        used = words["hint"] if hints == 1 else words["hints"].format(n=hints)
    score_text = str(score).replace("-", "\u2212")  # a minus sign, as the page writes it
    legend = _SEP.join(
        f"{EMOJI[kind]} {words[kind] if kind == 'number' else kind.replace('_', ' ').upper()}"
        for kind in KINDS
    )
    lines = [
        title,
        f"{words['score']} {score_text}{_SEP}{used}",
        *("".join(EMOJI[kind] for kind in row) for row in grid),
        legend,
    ]
    if url:
        lines.append(url)
    return "\n".join(lines)
