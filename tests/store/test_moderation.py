"""``magdagdon admin`` on both databases: the names on a day's tables, a name hidden (the
neutral name everywhere, the player told in SETTINGS) and shown again, a name cleared, a player
forgotten with everything of theirs (the day's table ranks without them), and every action in
the log with who did it and when."""

from __future__ import annotations

import getpass
from typing import TYPE_CHECKING, Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from api_helpers import post_action, whole_game
from magdagdon import clock
from magdagdon.api.app import create_app
from magdagdon.cli import main
from magdagdon.engine import action_to_json
from magdagdon.services.players import player_id
from magdagdon.settings import Settings
from magdagdon.store import Store
from magdagdon.store.tables import metadata

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

DAY = "2026-12-05"
COOKIE = "magdagdon_player"


def play_daily(client: TestClient) -> dict[str, Any]:
    """Today's PEACEFUL challenge played to its end through the API (a plain game)."""
    started = client.post("/api/daily", json={"difficulty": "peaceful"})
    assert started.status_code == 201, started.text
    game: dict[str, Any] = started.json()
    record = client.app.state.store.game(game["id"])  # type: ignore[attr-defined]
    assert record is not None
    for action in whole_game(record.state):
        game = post_action(client, game["id"], action_to_json(action))
    assert game["phase"] == "over"
    return game


def table(client: TestClient) -> list[dict[str, Any]]:
    answer = client.get("/api/daily/table", params={"difficulty": "peaceful", "date": DAY})
    assert answer.status_code == 200
    rows: list[dict[str, Any]] = answer.json()
    return rows


def admin(capsys: pytest.CaptureFixture[str], db: str, *args: str) -> tuple[int, str]:
    status = main(["admin", "--db", db, *args])
    return status, capsys.readouterr().out


def rows_naming(db: str, token: str, game_ids: list[str]) -> dict[str, int]:
    """How many rows of each table name the player or one of the games."""
    found: dict[str, int] = {}
    with Store(db) as store, store.engine.connect() as conn:
        for table in metadata.sorted_tables:
            conditions = [
                key.parent == token
                if key.column.table.name == "players"
                else key.parent.in_(game_ids)
                for key in table.foreign_keys
                if key.column.table.name in ("players", "games")
            ]
            if table.name == "players":
                conditions.append(table.c.token == token)
            if table.name == "games":
                conditions.append(table.c.id.in_(game_ids))
            for condition in conditions:
                count = conn.execute(select(func.count()).select_from(table).where(condition))
                found[table.name] = found.get(table.name, 0) + int(count.scalar_one())
    return found


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_an_operator_hides_shows_resets_and_forgets(
    kind: str,
    make_db: Callable[..., str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    clock_file = tmp_path / "clock"
    monkeypatch.setenv(clock.ENV_VAR, str(clock_file))
    clock_file.write_text(f"{DAY}T09:00:00Z", encoding="utf-8")
    db = make_db(kind)
    app = create_app(db, settings=Settings(rate_limits=False))
    with TestClient(app) as alice:
        bob, carol = TestClient(app), TestClient(app)
        players = (("a", alice), ("b", bob), ("c", carol))
        games = {who: play_daily(client) for who, client in players}
        assert alice.put("/api/player", json={"name": "Majda"}).status_code == 200
        assert bob.put("/api/player", json={"name": "Bobby"}).status_code == 200
        link = alice.post("/api/player/link")
        assert link.status_code == 201
        with app.state.store.write() as rows:  # a review of Alice's game, as a job leaves it
            rows.start_review(games["a"]["id"], 1, clock.stamp())
        a_token, b_token = alice.cookies[COOKIE], bob.cookies[COOKIE]
        a_id, b_id = player_id(a_token), player_id(b_token)
        assert len(a_id) == 12

        status, out = admin(capsys, db, "names", "--date", DAY)
        assert status == 0
        assert f"{DAY}: 3 ranked attempts" in out
        assert f"{a_id}  'Majda'" in out
        assert f"{b_id}  'Bobby'" in out
        assert a_token not in out
        assert b_token not in out

        # hidden: everyone, Alice too, sees the neutral name; SETTINGS tells her
        assert admin(capsys, db, "--by", "kap", "hide", a_id)[0] == 0
        shown = {row["tag"]: row for row in table(carol)}
        assert shown[a_id[:4]]["name"] == f"Manlalaro {a_id[:4]}"
        assert shown[a_id[:4]]["named"] is False
        assert next(r for r in table(alice) if r.get("game_id"))["name"] == f"Manlalaro {a_id[:4]}"
        assert alice.get("/api/player").json() | {"tag": None} == {
            "language": "fil",
            "name": "Majda",
            "tag": None,
            "name_hidden": True,
            "name_max": 20,
        }
        # a new name stays hidden too
        assert alice.put("/api/player", json={"name": "Majda2"}).json()["name_hidden"] is True
        assert {row["name"] for row in table(bob)} == {"Bobby", f"Manlalaro {a_id[:4]}"} | {
            f"Manlalaro {player_id(carol.cookies[COOKIE])[:4]}"
        }
        _, out = admin(capsys, db, "names", "--date", DAY)
        assert f"{a_id}  'Majda2'  HIDDEN" in out

        assert admin(capsys, db, "--by", "kap", "show", a_id)[0] == 0
        assert "Majda2" in {row["name"] for row in table(carol)}
        assert alice.get("/api/player").json()["name_hidden"] is False

        assert admin(capsys, db, "reset-name", b_id)[0] == 0
        assert bob.get("/api/player").json()["name"] is None
        assert "Bobby" not in {row["name"] for row in table(carol)}

        # forgotten: nothing of Alice is left, and the table ranks without her
        assert admin(capsys, db, "forget", a_id)[0] == 2  # not without --yes
        before = rows_naming(db, a_token, [games["a"]["id"]])
        for kept in ("games", "actions", "highscores", "game_results", "device_links", "reviews"):
            assert before[kept] >= 1, kept
        status, out = admin(capsys, db, "--by", "kap", "forget", a_id, "--yes")
        assert status == 0
        assert "games 1" in out
        assert set(rows_naming(db, a_token, [games["a"]["id"]]).values()) == {0}
        after = table(carol)
        assert [row["rank"] for row in after] == [1, 2]
        assert a_id[:4] not in {row["tag"] for row in after}
        assert alice.get(f"/api/games/{games['a']['id']}").status_code == 404
        assert alice.get("/api/player").json()["name"] is None  # her device is a stranger now
        assert admin(capsys, db, "hide", a_id)[0] == 1  # no such player any more

        status, out = admin(capsys, db, "log")
        assert status == 0
        lines = out.splitlines()
        assert [line.split("  ")[2] for line in lines] == [
            "forget",
            "reset_name",
            "show",
            "hide",
        ]
        assert all(line.split("  ")[0].startswith(DAY) for line in lines)
        assert lines[1].split("  ")[1] == getpass.getuser()  # no --by: the OS user
        assert lines[0].split("  ")[1] == "kap"
        assert lines[0].split("  ")[3] == a_id
        assert "'Majda'" in lines[3]
        assert "was 'Bobby'" in lines[1]
        assert a_token not in out
