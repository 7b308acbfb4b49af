"""A daily game's share text, in each language: the daily challenge's name and number, the
difficulty, the final score and the hints used (or that there were none), a picture of the
board's lines that never tells a die's value with a line that reads it, and the link to the day's
challenge on the server's configured public address (``--public-url``, else ``--lan``'s), never
on the address a request names (its ``Host``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from daily_helpers import Clock, first_roll, play_out, start_daily, state_of
from fastapi.testclient import TestClient

from magdagdon.api.app import create_app
from magdagdon.services.share import EMOJI, board_picture
from magdagdon.settings import Settings

if TYPE_CHECKING:
    from pathlib import Path

    from fastapi import FastAPI

LEGEND = {
    "fil": "🟩 STRAIGHT · 🟪 FOUR OF A KIND · 🟦 TWO PAIRS · ⬜ walang combination · 🟥 RUIN",
    "en": "🟩 STRAIGHT · 🟪 FOUR OF A KIND · 🟦 TWO PAIRS · ⬜ no combination · 🟥 RUIN",
}


@pytest.fixture
def clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(tmp_path, monkeypatch, "2026-12-12")


def share(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/games/{game['id']}/share")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def score_text(score: int) -> str:
    return str(score).replace("-", "\u2212")


PUBLIC = "https://magdagdon.example"


def test_the_share_text_of_a_daily_game(clock: Clock, db_url: str) -> None:
    hosted = create_app(db_url, settings=Settings(rate_limits=False, public_url=PUBLIC + "/"))
    with TestClient(hosted, base_url="http://evil.example") as client:
        over = play_out(client, start_daily(client, "nightmare"))
        found = share(client, over)
        state = state_of(client, over)
    score = over["score"]["total"]
    assert (found["number"], found["date"], found["difficulty"], found["mode"]) == (
        12,
        "2026-12-12",
        "nightmare",
        "daily",
    )
    assert (found["score"], found["hints"]) == (score, 0)
    link = f"{PUBLIC}/?daily=2026-12-12&difficulty=nightmare"
    assert found["url"] == link  # the public address: friends can come and play
    fil, en = found["text"]["fil"].split("\n"), found["text"]["en"].split("\n")
    assert fil[:2] == [
        "MAGDAGDON HAMON #12 · NIGHTMARE",
        f"Final Score {score_text(score)} · Walang mungkahi",
    ]
    assert en[:2] == [
        "MAGDAGDON DAILY #12 · NIGHTMARE",
        f"Final Score {score_text(score)} · No hints",
    ]
    for language, lines in (("fil", fil), ("en", en)):
        picture = lines[2:6]
        assert picture == ["".join(EMOJI[kind] for kind in row) for row in found["grid"]]
        assert not any(ch.isdigit() for line in picture for ch in line)  # never a die's value
        assert lines[6:] == [LEGEND[language], link]
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


def test_the_hints_used_are_counted_in_the_text(clock: Clock, client: TestClient) -> None:
    game = start_daily(client, "survival")
    first_roll(client, game)
    for _ in range(2):  # asked twice in one state: each counted (docs/rules.md "Hints")
        assert client.get(f"/api/games/{game['id']}/hint").status_code == 200
    over = play_out(client, game)
    assert over["hints_used"] == 2
    found = share(client, over)
    assert found["hints"] == 2
    fil, en = found["text"]["fil"].split("\n"), found["text"]["en"].split("\n")
    score = score_text(over["score"]["total"])
    assert fil[1] == f"Final Score {score} · 2 mungkahi"
    assert en[1] == f"Final Score {score} · 2 hints"


def test_a_practice_says_so_and_loopback_is_left_out(clock: Clock, app: FastAPI) -> None:
    with TestClient(app, base_url="http://127.0.0.1:8765") as local:
        play_out(local, start_daily(local))
        practice = play_out(local, start_daily(local))
        assert practice["mode"] == "practice"
        found = share(local, practice)
    assert (found["mode"], found["url"]) == ("practice", None)
    fil, en = found["text"]["fil"].split("\n"), found["text"]["en"].split("\n")
    assert fil[0] == "MAGDAGDON HAMON #12 · PEACEFUL · praktis"
    assert en[0] == "MAGDAGDON DAILY #12 · PEACEFUL · practice"
    # no address: the server is this machine only; the legend ends the text
    assert (fil[-1], en[-1]) == (LEGEND["fil"], LEGEND["en"])
    assert len(fil) == len(en) == 7
    for base in ("http://localhost:8765", "http://[::1]:8765"):
        with TestClient(app, base_url=base) as named_local:
            over = play_out(named_local, start_daily(named_local, "survival"))
            text = share(named_local, over)["text"]
            assert "http" not in text["en"] + text["fil"], base


def test_the_link_is_on_the_configured_address_never_the_requests(
    clock: Clock, app: FastAPI, db_url: str
) -> None:
    # reached by an address on the network, or any name a client puts in Host: nothing is
    # configured, so no link (a link on the Host would send a friend wherever the client wanted)
    for base in ("http://192.168.1.23:8000", "http://evil.example"):
        with TestClient(app, base_url=base) as lan:
            found = share(lan, play_out(lan, start_daily(lan, "survival")))
        assert found["url"] is None
        assert "http" not in found["text"]["en"] + found["text"]["fil"]
    settings = Settings(rate_limits=False, lan_url="http://10.0.0.7:8000", public_url=PUBLIC)
    with TestClient(create_app(db_url, settings=settings), base_url="http://evil.example") as c:
        found = share(c, play_out(c, start_daily(c, "survival")))
    link = f"{PUBLIC}/?daily=2026-12-12&difficulty=survival"  # the public one, over the LAN's
    assert found["url"] == link
    assert found["text"]["fil"].split("\n")[-1] == found["text"]["en"].split("\n")[-1] == link
    # a server started for the network (serve --lan) and reached on loopback: its LAN address
    clock.set("2026-12-13")
    served = create_app(
        db_url, settings=Settings(rate_limits=False, lan_url="http://10.0.0.7:8000/")
    )
    with TestClient(served, base_url="http://127.0.0.1:8000") as local:
        found = share(local, play_out(local, start_daily(local, "nightmare")))
    assert found["url"] == "http://10.0.0.7:8000/?daily=2026-12-13&difficulty=nightmare"
    assert found["text"]["en"].split("\n")[0] == "MAGDAGDON DAILY #13 · NIGHTMARE"


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
