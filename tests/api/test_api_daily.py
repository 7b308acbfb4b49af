"""The daily challenge (docs/rules.md "Modes and records"): the same dice for every player of
one server and other dice on another, the first attempt ranked and the rest practice, a day not
begun refused, the streak across days (the clock file), the day's table and its names. The
secrecy of a day's dice: tests/api/test_api_daily_fair.py."""

from __future__ import annotations

import http.client
import json
import random
from typing import TYPE_CHECKING, Any

import pytest
from daily_helpers import (
    Clock,
    day_seed,
    first_roll,
    play_out,
    published,
    start_daily,
    state_of,
)
from fastapi.testclient import TestClient

from waits import EVENTUALLY

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from server_process import ServerProcess

DAY = "2026-12-05"


@pytest.fixture
def clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(tmp_path, monkeypatch, DAY)


def daily(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/daily")
    assert response.status_code == 200
    data: dict[str, Any] = response.json()
    return data


def challenge(client: TestClient, difficulty: str) -> dict[str, Any]:
    found: dict[str, Any] = next(
        c for c in daily(client)["challenges"] if c["difficulty"] == difficulty
    )
    return found


def day_table(client: TestClient, difficulty: str = "peaceful", **params: str) -> Any:
    response = client.get("/api/daily/table", params={"difficulty": difficulty, **params})
    assert response.status_code == 200, response.text
    return response.json()


def test_two_players_on_one_server_get_the_same_dice(
    clock: Clock, client: TestClient, other_client: TestClient
) -> None:
    for difficulty in ("peaceful", "survival", "nightmare"):
        mine, theirs = start_daily(client, difficulty), start_daily(other_client, difficulty)
        assert mine["mode"] == theirs["mode"] == "daily"
        assert mine["daily"] == theirs["daily"] == {"date": DAY, "number": 5}
        seed = day_seed(client, DAY, difficulty)
        assert state_of(client, mine).seed == state_of(other_client, theirs).seed == seed
        assert first_roll(client, mine) == first_roll(other_client, theirs)


def _server_roll(server: ServerProcess, difficulty: str) -> tuple[dict[str, Any], list[int]]:
    conn = http.client.HTTPConnection(server.host, server.port, timeout=EVENTUALLY)
    try:
        headers = {"content-type": "application/json"}
        conn.request("POST", "/api/daily", json.dumps({"difficulty": difficulty}), headers)
        answer = conn.getresponse()
        assert answer.status == 201
        cookie = (answer.getheader("set-cookie") or "").split(";")[0]
        game = json.loads(answer.read())
        headers["cookie"] = cookie
        body = json.dumps({"type": "roll"})
        conn.request("POST", f"/api/games/{game['id']}/actions", body, headers)
        rolled = conn.getresponse()
        assert rolled.status == 200
        return game, [die["value"] for die in json.loads(rolled.read())["dice"]]
    finally:
        conn.close()


@pytest.mark.slow
def test_two_servers_draw_their_own_dice_and_two_processes_on_one_database_share_them(
    clock: Clock, new_db: Callable[..., str], start_server: Callable[[str], ServerProcess]
) -> None:
    shared = new_db()
    first, second, other = start_server(shared), start_server(shared), start_server(new_db())
    rolls = {}
    for server in (first, second, other):
        games = [_server_roll(server, difficulty) for difficulty in ("peaceful", "nightmare")]
        assert all(game["daily"] == {"date": DAY, "number": 5} for game, _ in games)
        rolls[server.port] = [dice for _, dice in games]
    assert rolls[first.port] == rolls[second.port]  # one database: one seed a day
    # another server draws its own seeds: both first rolls of 4 dice alike by chance is 1 in
    # 6**8 (1.7 million)
    assert rolls[other.port] != rolls[first.port]


def test_the_second_attempt_is_practice_and_changes_no_ranked_result(
    clock: Clock, client: TestClient, other_client: TestClient
) -> None:
    ranked = play_out(client, start_daily(client))
    play_out(other_client, start_daily(other_client), random.Random(3))
    table_before = day_table(client)
    highscores_before = client.get("/api/highscores", params={"difficulty": "peaceful"}).json()
    assert ranked["rank"] == 1
    assert challenge(client, "peaceful") | {"commitment": None} == {
        "difficulty": "peaceful",
        "status": "over",
        "game_id": ranked["id"],
        "score": ranked["score"]["total"],
        "commitment": None,
        "seed": None,  # not before the day is over
    }
    for seed in (1, 2):  # two more attempts, played differently: practice both
        again = start_daily(client)
        assert again["mode"] == "practice"
        assert again["daily"] == {"date": DAY, "number": 5}
        over = play_out(client, again, random.Random(seed))
        assert over["rank"] is None
    assert day_table(client) == table_before
    assert client.get("/api/highscores", params={"difficulty": "peaceful"}).json() == (
        highscores_before
    )
    assert challenge(client, "peaceful")["game_id"] == ranked["id"]
    # the ranked attempt of another difficulty is still to come
    assert challenge(client, "survival")["status"] == "new"
    assert start_daily(client, "survival")["mode"] == "daily"


def test_an_unfinished_ranked_attempt_waits_to_be_resumed(clock: Clock, client: TestClient) -> None:
    ranked = start_daily(client, "nightmare")
    first_roll(client, ranked)
    client.post("/api/games", json={"difficulty": "peaceful"})  # a normal game meanwhile
    assert challenge(client, "nightmare") | {"commitment": None} == {
        "difficulty": "nightmare",
        "status": "playing",
        "game_id": ranked["id"],
        "score": None,
        "commitment": None,
        "seed": None,
    }
    resumed = client.get(f"/api/games/{ranked['id']}").json()
    assert resumed["abandoned"] is False
    assert resumed["phase"] in ("place", "magdagdon")  # rolled (the day's dice are random)
    practice = start_daily(client, "nightmare")  # another attempt while it waits: practice
    assert practice["mode"] == "practice"
    assert client.get(f"/api/games/{ranked['id']}").json()["abandoned"] is False


def test_past_days_are_practice_and_days_not_begun_are_refused(
    clock: Clock, client: TestClient
) -> None:
    past = start_daily(client, "survival", date="2026-12-02")
    assert past["mode"] == "practice"
    assert past["daily"] == {"date": "2026-12-02", "number": 2}
    seed = published(client, "2026-12-02", "survival")["seed"]  # the day is over: told
    assert state_of(client, past).seed == seed == day_seed(client, "2026-12-02", "survival")
    play_out(client, past)
    assert client.get("/api/highscores", params={"difficulty": "survival"}).json() == []
    assert day_table(client, "survival", date="2026-12-02") == []
    for day in ("2026-12-06", "2027-01-01", "2026-11-30"):
        response = client.post("/api/daily", json={"difficulty": "survival", "date": day})
        assert response.status_code == 409, day
        assert response.json()["error"]["code"] == "daily_not_open"
        table = client.get("/api/daily/table", params={"difficulty": "survival", "date": day})
        assert table.status_code == 409
        assert client.get("/api/daily", params={"date": day}).status_code == 409
    clock.set(DAY, "23:59:59.999")
    early = client.post("/api/daily", json={"difficulty": "peaceful", "date": "2026-12-06"})
    assert early.status_code == 409
    clock.set("2026-12-06", "00:00:00")
    assert start_daily(client, "peaceful", date="2026-12-06")["mode"] == "daily"


@pytest.mark.parametrize(
    "body",
    [
        {"difficulty": "peaceful", "date": "2026-12-32"},
        {"difficulty": "peaceful", "date": "5 December"},
        {"difficulty": "peaceful", "date": 20261205},
        {"difficulty": "peaceful", "date": "2026-12-05T00:00:00"},
        {"difficulty": "hard"},
        {"difficulty": "peaceful", "seed": 4},
        {},
    ],
)
def test_a_malformed_daily_request_is_422_and_makes_nothing(
    clock: Clock, client: TestClient, body: dict[str, Any]
) -> None:
    response = client.post("/api/daily", json=body)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "malformed"
    assert all(c["status"] == "new" for c in daily(client)["challenges"])
    assert client.get("/api/daily/table", params={"difficulty": "x"}).status_code == 422


def test_the_streak_counts_days_in_a_row_with_a_finished_ranked_attempt(
    clock: Clock, client: TestClient
) -> None:
    def streak() -> tuple[int, int]:
        found = daily(client)["streak"]
        stats = client.get("/api/stats", params={"difficulty": "nightmare"}).json()["streak"]
        assert stats == found
        return found["current"], found["best"]

    assert streak() == (0, 0)
    for day, difficulty in [("2026-12-01", "nightmare"), ("2026-12-02", "survival")]:
        clock.set(day)
        play_out(client, start_daily(client, difficulty))
        play_out(client, start_daily(client, difficulty))  # practice adds nothing
    assert streak() == (2, 2)
    clock.set("2026-12-03")  # today's not played yet: the streak still stands
    assert streak() == (2, 2)
    unfinished = start_daily(client, "peaceful")
    first_roll(client, unfinished)
    assert streak() == (2, 2)  # an attempt under way is not a finished one
    practice = start_daily(client, "peaceful", date="2026-12-03")  # not a ranked attempt
    assert practice["mode"] == "practice"
    play_out(client, practice)
    assert streak() == (2, 2)
    clock.set("2026-12-04")  # 3 December was missed
    assert streak() == (0, 2)
    play_out(client, start_daily(client, "peaceful", date="2026-12-03"))  # practice now
    assert streak() == (0, 2)
    for day in ("2026-12-04", "2026-12-05", "2026-12-06"):
        clock.set(day)
        play_out(client, start_daily(client, "nightmare"))
    assert streak() == (3, 3)
    clock.set("2026-12-07", "23:00:00")
    assert streak() == (3, 3)
    clock.set("2026-12-08", "00:00:01")
    assert streak() == (0, 3)


def test_the_table_ranks_the_days_ranked_attempts_with_names(
    clock: Clock, app: Any, client: TestClient, other_client: TestClient
) -> None:
    third = TestClient(app)
    clock.set(DAY, "09:00:00")
    mine = play_out(client, start_daily(client))
    clock.set(DAY, "09:30:00")
    same = play_out(third, start_daily(third))  # the same plain play, ended later: a tie
    clock.set(DAY, "10:00:00")
    players = [client, third, other_client]
    theirs = play_out(other_client, start_daily(other_client), random.Random(8))
    # the day's dice are drawn at random: a random play may come to the plain play's score
    while theirs["score"]["total"] == mine["score"]["total"]:
        players.append(TestClient(app))
        theirs = play_out(players[-1], start_daily(players[-1]), random.Random(8 + len(players)))
    assert mine["score"] == same["score"]
    named = client.put("/api/player", json={"name": "  <b>Majda</b>   #1 "})
    assert named.status_code == 200
    assert named.json()["name"] == "<b>Majda</b> #1"
    rows = day_table(client)
    assert [row["rank"] for row in rows] == list(range(1, len(players) + 1))
    by_game = {row.get("game_id"): row for row in rows}
    mine_row = by_game[mine["id"]]
    assert mine_row["name"] == "<b>Majda</b> #1"
    assert mine_row["named"] is True
    assert [row["game_id"] for row in rows].count(None) == len(players) - 1  # others' name none
    others = [row for row in rows if row["game_id"] is None]
    assert all(row["named"] is False for row in others)
    assert all(row["name"] == f"Manlalaro {row['tag']}" for row in others)
    tokens = {c.cookies["magdagdon_player"] for c in players}
    assert not any(row["name"] in token for row in rows for token in tokens)
    # best first; on a tie the attempt that ended first
    scores = [row["score"] for row in rows]
    assert scores == sorted(scores, reverse=True)
    assert theirs["score"]["total"] != mine["score"]["total"]
    tied = [row for row in rows if row["score"] == mine["score"]["total"]]
    assert tied[0] is mine_row  # it ended before the third player's
    assert all(row["turns"] > 0 for row in rows)
    assert day_table(third)[tied[1]["rank"] - 1]["game_id"] == same["id"]


def test_the_table_says_how_many_hints_each_attempt_used(
    clock: Clock, client: TestClient, other_client: TestClient
) -> None:
    free = play_out(client, start_daily(client, "survival"))
    helped = start_daily(other_client, "survival")
    first_roll(other_client, helped)
    for _ in range(3):
        assert other_client.get(f"/api/games/{helped['id']}/hint").status_code == 200
    helped = play_out(other_client, helped)
    assert (free["hints_used"], helped["hints_used"]) == (0, 3)
    # a practice with hints later the same day changes nothing on the table
    practice = start_daily(client, "survival")
    first_roll(client, practice)
    assert client.get(f"/api/games/{practice['id']}/hint").status_code == 200
    play_out(client, practice)
    rows = day_table(client, "survival")
    assert len(rows) == 2
    mine = next(row for row in rows if row.get("game_id") == free["id"])
    theirs = next(row for row in rows if row.get("game_id") is None)
    assert (mine["hints"], theirs["hints"]) == (0, 3)
    assert day_table(other_client, "survival")[theirs["rank"] - 1]["game_id"] == helped["id"]


@pytest.mark.parametrize(
    ("moment", "next_at"),
    [
        ("12:00:00", "2026-12-06T00:00:00.000Z"),
        ("23:59:59", "2026-12-06T00:00:00.000Z"),
        ("00:00:00", "2026-12-06T00:00:00.000Z"),
    ],
)
def test_the_daily_says_when_the_next_challenge_begins(
    clock: Clock, client: TestClient, moment: str, next_at: str
) -> None:
    clock.set(DAY, moment)
    found = daily(client)
    assert (found["date"], found["now"], found["next_at"]) == (
        DAY,
        f"{DAY}T{moment}.000Z",
        next_at,
    )
    clock.set("2026-12-06")  # the next day: its own challenge, and the next one after it
    assert (daily(client)["number"], daily(client)["next_at"]) == (6, "2026-12-07T00:00:00.000Z")


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("", "invalid_name"),
        ("   ", "invalid_name"),
        ("x" * 21, "invalid_name"),
        ("tab\there", "invalid_name"),
        ("new\nline", "invalid_name"),
        ("right\u202eleft", "invalid_name"),
        ("nul\x00", "invalid_name"),
        # invisible: zero-width space, Hangul filler, Braille blank, byte-order mark, word
        # joiner, tag characters, a combining grapheme joiner, a variation selector
        *((name, "invalid_name") for name in ("\u200b", "\u3164", "\u2800", "\ufeff")),
        *((name, "invalid_name") for name in ("\u2060", "\U000e0041\U000e0042", "\u034f")),
        ("a\ufe0f", "invalid_name"),
        ("\uffa0x", "invalid_name"),  # the half-width filler (NFKC: U+3164)
        ("x\u200dy", "invalid_name"),  # a zero-width joiner between letters
        ("Z" + "\u0301" * 20, "invalid_name"),  # zalgo
        ("e\u0301\u0302\u0303", "invalid_name"),  # three marks on one letter
        ("\u0301abc", "invalid_name"),  # a mark on nothing
        ("✨", "invalid_name"),  # a symbol that is no keyboard's
        # the name of an unnamed player, in either language, however it is spelt
        ("Ma\u200cnlalaro AB79", "invalid_name"),
        ("Manlalaro AB79", "invalid_name"),
        ("manlalaro  ab79", "invalid_name"),
        ("Player 4F2A", "invalid_name"),
        ("Ｐｌａｙｅｒ ４Ｆ２Ａ", "invalid_name"),  # full-width
        ("Plаyer 4F2A", "invalid_name"),  # a Cyrillic а
        ("Manlalar0 O0lI", "invalid_name"),  # digits for letters, letters for digits
        ("Manlalaro-AB79!", "invalid_name"),
        (7, "malformed"),
        (["Majda"], "malformed"),
    ],
)
def test_a_bad_name_is_refused_and_changes_nothing(
    client: TestClient, name: object, code: str
) -> None:
    client.put("/api/player", json={"name": "Majda", "language": "en"})
    response = client.put("/api/player", json={"name": name, "language": "fil"})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == code
    assert client.get("/api/player").json() | {"tag": None} == {
        "language": "en",
        "name": "Majda",
        "tag": None,
        "name_hidden": False,
        "name_max": 20,
    }


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("Tiến Lê", "Tiến Lê"),  # two marks on a letter (ế: e, circumflex, acute)
        ("Nguyễn", "Nguyễn"),
        ("Ｍａｊｄａ", "Majda"),  # NFKC
        ("Ma   jda", "Ma jda"),
        ("Player One", "Player One"),
        ("Manlalaro Dave", "Manlalaro Dave"),
        ("Player 4F2A5", "Player 4F2A5"),
        ("명수", "명수"),
        ("ﾏｸﾞﾀﾞｸﾞﾄﾞﾝ", "マグダグドン"),
    ],
)
def test_a_name_that_shows_is_kept_normalised(client: TestClient, name: str, kept: str) -> None:
    answer = client.put("/api/player", json={"name": name})
    assert answer.status_code == 200, answer.text
    assert answer.json()["name"] == kept


def test_a_name_is_twenty_characters_and_can_be_cleared(client: TestClient) -> None:
    assert client.put("/api/player", json={"name": " " + "ñ" * 20 + " "}).json()["name"] == (
        "ñ" * 20
    )
    assert client.put("/api/player", json={"language": "en"}).json()["name"] == "ñ" * 20
    cleared = client.put("/api/player", json={"name": None}).json()
    assert cleared["name"] is None
    assert cleared["language"] == "en"


def test_the_table_pages_on_after_a_row_and_refuses_a_made_up_one(
    clock: Clock, client: TestClient, other_client: TestClient
) -> None:
    play_out(client, start_daily(client, "survival"))
    play_out(other_client, start_daily(other_client, "survival"), random.Random(3))
    rows = day_table(client, "survival")
    assert [row["rank"] for row in rows] == [1, 2]
    second = day_table(client, "survival", after=rows[0]["after"])
    below = [row for row in second if row["rank"] == 2]
    assert below == [rows[1]]
    # nothing after the last row: only the asking player's own row
    mine = [row for row in rows if row.get("game_id")]
    assert day_table(client, "survival", after=rows[1]["after"]) == mine
    for made_up in ("1~2~3~4", "x", "1~10~2026-12-05T10:00:00.000Z~0"):
        response = client.get(
            "/api/daily/table", params={"difficulty": "survival", "after": made_up}
        )
        assert response.status_code == 422
        assert response.json()["error"]["code"] == "malformed"
