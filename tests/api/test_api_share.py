"""A daily game's share text: the challenge's number, difficulty and score,
then a picture of the board's lines that never tells a die's value, and the server's address
unless it is loopback; in both languages."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from daily_helpers import Clock, first_roll, play_out, start_daily, state_of
from fastapi.testclient import TestClient

from magdagdon.services.share import EMOJI, board_picture

if TYPE_CHECKING:
    from pathlib import Path

    from fastapi import FastAPI


@pytest.fixture
def clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(tmp_path, monkeypatch, "2026-12-12")


def share(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/games/{game['id']}/share")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def test_the_share_text_of_a_daily_game(clock: Clock, client: TestClient) -> None:
    over = play_out(client, start_daily(client, "nightmare"))
    found = share(client, over)
    score = over["score"]["total"]
    assert (found["number"], found["date"], found["difficulty"], found["mode"]) == (
        12,
        "2026-12-12",
        "nightmare",
        "daily",
    )
    assert found["score"] == score
    lines = found["text"]["fil"].split("\n")
    assert lines[0] == f"MAGDAGDON #12 · NIGHTMARE · {score}"
    assert found["text"]["en"] == found["text"]["fil"]  # a ranked one says nothing to translate
    picture = lines[1:5]
    assert picture == ["".join(EMOJI[kind] for kind in row) for row in found["grid"]]
    assert all(len(row) == 4 for row in picture)
    assert lines[5] == "http://testserver/"  # not loopback: friends can come and play
    assert len(lines) == 6
    assert not any(ch.isdigit() for line in picture for ch in line)  # never a die's value
    state = state_of(client, over)
    rows = [line["combo"] for line in over["score"]["rows"]]
    columns = [line["combo"] for line in over["score"]["columns"]]
    assert [list(row) for row in board_picture(state.codes(), rows, columns)] == found["grid"]
    for r, row in enumerate(over["board"]):
        for c, cell in enumerate(row):
            kind = found["grid"][r][c]
            if cell == "ruin":
                assert kind == "ruin"
            elif rows[r] is None and columns[c] is None:
                assert kind == "number"
            else:
                assert kind in {rows[r], columns[c]}


def test_a_practice_says_so_and_loopback_is_left_out(clock: Clock, app: FastAPI) -> None:
    with TestClient(app, base_url="http://127.0.0.1:8765") as local:
        play_out(local, start_daily(local))
        practice = play_out(local, start_daily(local))
        assert practice["mode"] == "practice"
        found = share(local, practice)
    assert found["mode"] == "practice"
    fil, en = found["text"]["fil"].split("\n"), found["text"]["en"].split("\n")
    assert fil[0].endswith(" · praktis")
    assert en[0].endswith(" · practice")
    assert len(fil) == len(en) == 5  # no address: the server is this machine only
    with TestClient(app, base_url="http://localhost:8765") as named_local:
        over = play_out(named_local, start_daily(named_local, "survival"))
        assert len(share(named_local, over)["text"]["en"].split("\n")) == 5


def test_only_a_finished_daily_game_has_a_share_text(
    clock: Clock, client: TestClient, other_client: TestClient
) -> None:
    game = start_daily(client)
    first_roll(client, game)
    before = client.get(f"/api/games/{game['id']}/share")
    assert before.status_code == 409
    assert before.json()["error"]["code"] == "game_not_over"
    normal = client.post("/api/games", json={"difficulty": "peaceful", "seed": 3}).json()
    play_out(client, normal)
    not_daily = client.get(f"/api/games/{normal['id']}/share")
    assert (not_daily.status_code, not_daily.json()["error"]["code"]) == (409, "not_daily")
    over = play_out(client, start_daily(client, "survival"))
    assert other_client.get(f"/api/games/{over['id']}/share").status_code == 404
