"""Response bodies: the game state of docs/api.md (plus docs/api.md "This project's additions"),
the hint, High Scores,
errors."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, create_model

from magdagdon.api.errors import described
from magdagdon.api.schemas.derive import model_of, model_of_view
from magdagdon.engine import scoring, view
from magdagdon.services import name_rules, sync, transfer
from magdagdon.store import HighScore

Cell = list[int]  # [row, column]
BoardCell = int | Literal["ruin"] | None

# the state view's shapes, as the engine declares them (engine/view.py, engine/scoring.py)
Die = model_of_view(view.DieView, "Die")
Powers = model_of_view(view.PowersView, "Powers")
LineScore = model_of(scoring.LineScore, "LineScore")
Score = model_of(scoring.Score, "Score")
DailyRef = model_of_view(view.DailyView, "DailyRef")
GameView = model_of_view(view.StateView, "GameView")


class SyncOutcome(BaseModel):
    """How the server kept a game played offline (docs/api.md ``POST /api/games/sync``)."""

    outcome: Literal["stored", "same", "extended", "branch"] = Field(
        description="stored: new to the server; same: the server had this log already; "
        "extended: the server's log was its start, the rest was applied; branch: the log went "
        "another way, kept as a new practice game (game_id)."
    )
    game_id: str = Field(description="The id of the game the server keeps of the one sent.")
    sent_id: str = Field(description="The id the game was sent with.")


SyncedView = create_model(
    "SyncedView",
    __base__=GameView,
    __doc__="The state of the game the server keeps of one played offline, and how it was kept.",
    sync=(SyncOutcome, ...),
)


class PlacementStep(BaseModel):
    die: int
    cell: Cell = Field(description="[row, column]")


class Hint(BaseModel):
    action: dict[str, Any] = Field(description="The best next action, in the actions' JSON form.")
    placement: list[PlacementStep] = Field(
        description="The turn's recommended placement in staging order; [] for a Power or a RUIN."
    )
    expected_value: float = Field(description="The expected final score with this play.")
    version: int = Field(description="The game version the hint is for.")


#: The store's High Scores record without its difficulty (the one asked for).
HighScoreEntry = model_of(HighScore, "HighScoreEntry", leave_out=("difficulty",))


class PlayerSettings(BaseModel):
    language: Literal["fil", "en"]
    name: str | None = Field(description="The name on the daily table; null until set.")
    tag: str | None = Field(
        description="The neutral name's four digits (Manlalaro 4F2A); null for a browser that "
        "has no player yet."
    )
    name_hidden: bool = Field(
        default=False,
        description="An operator hid the name: everyone else sees the neutral name "
        "(Manlalaro 4F2A), whatever name is set.",
    )
    name_max: int = Field(
        default=name_rules.MAX_LENGTH,
        description="The most characters a name may have once trimmed (the page's field says it).",
    )


class ErrorDetail(BaseModel):
    code: str = Field(description="One short snake_case word, e.g. invalid_cell.")
    message: str
    game: int | None = Field(
        None, description="import_invalid: the file's game that does not replay (1 for the first)."
    )
    action: int | None = Field(
        None,
        description="import_invalid, sync_invalid: the game's action that does not replay, if one.",
    )
    field: str | None = Field(
        None,
        description="import_invalid, sync_invalid: the game's field that is wrong, when the "
        "game itself is (e.g. daily_date).",
    )


class ErrorBody(BaseModel):
    error: ErrorDetail


def error_responses(*errors: type[Exception]) -> dict[int | str, dict[str, object]]:
    """The OpenAPI ``responses`` entries of the errors a route can answer, from the one table
    (``api/errors.py``): a status each, described by each error's code and meaning."""
    by_status: dict[int, list[str]] = {}
    for error in errors:
        status, words = described(error)
        if words not in by_status.setdefault(status, []):
            by_status[status].append(words)
    return {
        status: {"model": ErrorBody, "description": "\n".join(words)}
        for status, words in sorted(by_status.items())
    }


class DeviceLinkView(BaseModel):
    code: str = Field(description="The one-time code (at least 128 random bits).")
    url: str | None = Field(
        description="The URL to open on the other device: {public address}/#link=CODE; null "
        "when the server has no public address (--public-url, --lan)."
    )
    expires_at: str = Field(description="When the code stops working (ISO-8601 UTC).")
    qr_svg: str | None = Field(description="The URL's QR code, a standalone SVG document.")


class ServerView(BaseModel):
    lan_url: str | None = Field(
        description="The URL another device opens to play here: the public address "
        "(--public-url), else the LAN one (--lan); null when none is configured."
    )
    lan_qr_svg: str | None = Field(description="lan_url's QR code, a standalone SVG document.")


ImportedOut = model_of(transfer.Imported, "ImportedOut")
GameLogOut = model_of(sync.GameLog, "GameLog")
