"""Daily challenges, Statistics and exports in tests: a clock the test moves, games played to
their end through the API."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from api_helpers import post_action, random_action, whole_game
from magdagdon import clock
from magdagdon.engine import action_to_json

if TYPE_CHECKING:
    import random
    from pathlib import Path

    import pytest
    from fastapi.testclient import TestClient

    from magdagdon.engine import GameState


class Clock:
    """The server's clock, moved by the test (``MAGDAGDON_CLOCK``, also for server processes
    started after it)."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, day: str) -> None:
        self.file = tmp_path / "clock"
        monkeypatch.setenv(clock.ENV_VAR, str(self.file))
        self.set(day)

    def set(self, day: str, time: str = "12:00:00") -> None:
        self.file.write_text(f"{day}T{time}Z", encoding="utf-8")


def state_of(client: TestClient, game: dict[str, Any]) -> GameState:
    """The engine's state of an API game (read from the store: the page never sees it)."""
    record = client.app.state.store.game(game["id"])  # type: ignore[attr-defined]
    assert record is not None
    state: GameState = record.state
    return state


def play_out(
    client: TestClient, game: dict[str, Any], rng: random.Random | None = None
) -> dict[str, Any]:
    """Play ``game`` to its end through the API: plainly, or by ``rng``'s random actions
    (Powers, unstage and rerolls included). Answer the final game state."""
    state = state_of(client, game)
    answer = game
    if rng is None:
        for action in whole_game(state):
            answer = post_action(client, game["id"], action_to_json(action))
    else:
        while not state.is_over:
            action = random_action(state, rng)
            answer = post_action(client, game["id"], action_to_json(action))
            state = state.apply(action)
    assert answer["phase"] == "over"
    return answer


def start_daily(client: TestClient, difficulty: str = "peaceful", **body: Any) -> dict[str, Any]:
    response = client.post("/api/daily", json={"difficulty": difficulty, **body})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def first_roll(client: TestClient, game: dict[str, Any]) -> list[int]:
    """The dice of the game's first roll, rolled through the API."""
    rolled = post_action(client, game["id"], {"type": "roll"})
    return [die["value"] for die in rolled["dice"]]


def day_seed(client: TestClient, day: str, difficulty: str) -> int:
    """The seed the server drew for ``day``'s challenge (read from its store: no answer tells
    it before the day is over)."""
    with client.app.state.store.read() as reads:  # type: ignore[attr-defined]
        seed = reads.day_seed(day, difficulty)
    assert seed is not None
    return int(seed)


def published(client: TestClient, day: str, difficulty: str) -> dict[str, Any]:
    """The day's challenge on ``difficulty`` as ``GET /api/daily?date=`` tells it."""
    response = client.get("/api/daily", params={"date": day})
    assert response.status_code == 200, response.text
    found: dict[str, Any] = next(
        c for c in response.json()["challenges"] if c["difficulty"] == difficulty
    )
    return found
