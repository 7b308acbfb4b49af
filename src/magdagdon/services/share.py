"""The share text of a finished daily (or practice) game: its challenge's number, difficulty and
score, and a picture of the board that tells only what kind of line each cell helped make —
never a die's value, so it spoils nothing for a friend who has not played the day yet.

    MAGDAGDON #12 · NIGHTMARE · 287
    🟩🟩🟩🟩
    🟦⬜🟪⬜
    🟦⬜🟪🟥
    🟦🟦🟪⬜
    https://magdagdon.example/

A cell in lines of two combinations shows the higher one (STRAIGHT, then FOUR OF A KIND, then
TWO PAIRS); a number in no combination is plain; a RUIN is its own colour. The server's address
ends the text when it is not the player's own machine (loopback), so friends can come and play.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Annotated, Literal, get_args
from urllib.parse import urlsplit

from pydantic import Field

from magdagdon.engine import SIZE, Difficulty
from magdagdon.engine.board import RUIN_CODE
from magdagdon.engine.daily import daily_number
from magdagdon.lan import is_loopback_host
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
PRACTICE = {"fil": "praktis", "en": "practice"}
_RANK: dict[str, int] = {kind: index for index, kind in enumerate(KINDS)}


@dataclass(frozen=True, slots=True)
class Share:
    game_id: str
    number: int
    date: str  # the challenge's day, YYYY-MM-DD
    difficulty: Difficulty
    mode: Literal["daily", "practice"]
    score: int
    grid: tuple[tuple[Kind, ...], ...]  # 4 rows of 4
    text: Annotated[dict[str, str], Field(description="The share text in each language (fil, en).")]


def share(game: GameRecord, base_url: str | None) -> Share:
    """The share of a finished daily or practice game; ``base_url`` is the server's address
    as the player reached it (left out of the text when it is loopback)."""
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
    score = final.total
    mode: Literal["daily", "practice"] = "practice" if game.mode.value == "practice" else "daily"
    url = base_url if base_url and not is_loopback_host(urlsplit(base_url).hostname) else None
    text = {
        language: share_text(
            number,
            game.difficulty.value,
            score,
            grid,
            practice=PRACTICE[language] if mode == "practice" else None,
            url=url,
        )
        for language in PRACTICE
    }
    return Share(game.id, number, game.daily_date, game.difficulty, mode, score, grid, text)


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
    number: int,
    difficulty: str,
    score: int,
    grid: tuple[tuple[Kind, ...], ...],
    *,
    practice: str | None = None,
    url: str | None = None,
) -> str:
    title = f"MAGDAGDON #{number} \u00b7 {difficulty.upper()} \u00b7 {score}"
    if practice:
        title += f" \u00b7 {practice}"
    lines = [title, *("".join(EMOJI[kind] for kind in row) for row in grid)]
    if url:
        lines.append(url)
    return "\n".join(lines)
