"""Device links, on both databases: a one-time code made on one device makes
another device the same player; a used, expired (the test moves the server's clock) or wrong
code answers 404 ``link_invalid`` and changes nothing; codes are stored only as their SHA-256;
a device can leave its player."""

from __future__ import annotations

import hashlib
import re
import threading
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from api_helpers import post_action, whole_game
from magdagdon import cli, clock
from magdagdon.api.app import create_app
from magdagdon.api.cookies import COOKIE
from magdagdon.engine import Difficulty, GameState, action_to_json
from magdagdon.services import links
from magdagdon.services.errors import LinkInvalidError
from magdagdon.settings import Settings, SettingsError
from magdagdon.store import Store
from magdagdon.store.tables import device_links, players

if TYPE_CHECKING:
    from pathlib import Path

    import httpx2
    from fastapi import FastAPI

LOCAL = "http://127.0.0.1:8765"  # the page opened on the machine itself
PUBLIC = "https://magdagdon.example"  # a server's configured public address (--public-url)
START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
NEW_GAME: dict[str, Any] = {"difficulty": "peaceful", "seed": 11}


@pytest.fixture
def store_of_app(app: FastAPI, client: TestClient) -> Store:
    """The store that the app (with ``client``'s lifespan running) writes to."""
    store: Store = app.state.store
    return store


@pytest.fixture
def set_clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ClockFile:
    return ClockFile(tmp_path / "clock", monkeypatch)


class ClockFile:
    """The server's clock, read from a file (``MAGDAGDON_CLOCK``)."""

    def __init__(self, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.path = path
        self.to(START)
        monkeypatch.setenv(clock.ENV_VAR, str(path))

    def to(self, moment: datetime) -> None:
        self.path.write_text(moment.isoformat(), encoding="utf-8")


def player_count(store: Store) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(players)).scalar_one())


def stored_links(store: Store) -> list[tuple[str, ...]]:
    with store.engine.connect() as conn:
        return [tuple(map(str, row)) for row in conn.execute(select(device_links)).all()]


def assert_link_invalid(response: httpx2.Response, reason: str) -> None:
    assert response.status_code == 404
    error = response.json()["error"]
    assert error["code"] == "link_invalid"
    assert reason in error["message"]
    assert "set-cookie" not in response.headers


def test_a_link_makes_the_other_device_the_same_player(
    app: FastAPI, client: TestClient, other_client: TestClient, set_clock: ClockFile
) -> None:
    client.put("/api/player", json={"language": "en"})
    game = client.post("/api/games", json=NEW_GAME).json()
    client.post(f"/api/games/{game['id']}/actions", json={"type": "roll", "version": 0})
    other_client.post("/api/games", json={"difficulty": "nightmare", "seed": 2})

    made = client.post("/api/player/link")
    assert made.status_code == 201
    link = made.json()
    assert set(link) == {"code", "url", "expires_at", "qr_svg"}
    assert re.fullmatch(r"[A-Za-z0-9_-]{22,}", link["code"])  # ≥ 128 random bits
    assert link["url"] is None  # no public address configured: the code alone
    assert link["expires_at"] == "2026-12-01T12:10:00.000Z"
    assert link["qr_svg"] is None

    used = other_client.post(f"/api/player/link/{link['code']}")
    assert used.status_code == 200
    assert used.json() == client.get("/api/player").json()
    assert used.json()["language"] == "en"
    assert other_client.cookies[COOKIE] == client.cookies[COOKIE]
    assert other_client.get("/api/player").json() == used.json()
    current = client.get("/api/games/current").json()
    assert other_client.get("/api/games/current").json() == current
    assert current["version"] == 1

    # the second device plays; the first sees it
    action = {"type": "stage", "die": 0, "cell": current["valid_cells"]["0"][0], "version": 1}
    assert other_client.post(f"/api/games/{game['id']}/actions", json=action).status_code == 200
    assert client.get("/api/games/current").json()["version"] == 2


def test_high_scores_follow_the_link(client: TestClient, other_client: TestClient) -> None:
    game = client.post("/api/games", json=NEW_GAME).json()
    for action in whole_game(GameState.new(Difficulty.PEACEFUL, NEW_GAME["seed"])):
        post_action(client, game["id"], action_to_json(action))
    scores = client.get("/api/highscores?difficulty=peaceful").json()
    assert len(scores) == 1
    code = client.post("/api/player/link").json()["code"]
    assert other_client.get("/api/highscores?difficulty=peaceful").json() == []
    assert other_client.post(f"/api/player/link/{code}").status_code == 200
    assert other_client.get("/api/highscores?difficulty=peaceful").json() == scores


def test_a_link_works_once(client: TestClient, app: FastAPI, store_of_app: Store) -> None:
    code = client.post("/api/player/link").json()["code"]
    assert TestClient(app).post(f"/api/player/link/{code}").status_code == 200
    third = TestClient(app)
    before = player_count(store_of_app)
    assert_link_invalid(third.post(f"/api/player/link/{code}"), "already used")
    assert player_count(store_of_app) == before
    assert COOKIE not in third.cookies


def test_a_link_expires_after_ten_minutes(
    client: TestClient, app: FastAPI, set_clock: ClockFile
) -> None:
    early = client.post("/api/player/link").json()["code"]
    late = client.post("/api/player/link").json()["code"]
    set_clock.to(START + timedelta(minutes=9, seconds=59))
    assert TestClient(app).post(f"/api/player/link/{early}").status_code == 200
    set_clock.to(START + timedelta(minutes=10))
    assert_link_invalid(TestClient(app).post(f"/api/player/link/{late}"), "expired")


@pytest.mark.parametrize(
    "code",
    [
        "AAAAAAAAAAAAAAAAAAAAAAAA",  # well formed, never made
        "short",
        "not a code at all",
        "%00" * 30,
        "x" * 2000,
        "ÿ" * 24,
    ],
)
def test_a_wrong_code_changes_nothing(
    client: TestClient, app: FastAPI, store_of_app: Store, code: str
) -> None:
    client.post("/api/player/link")
    before = player_count(store_of_app), stored_links(store_of_app)
    stranger = TestClient(app)
    assert_link_invalid(stranger.post(f"/api/player/link/{code}"), "not known")
    assert (player_count(store_of_app), stored_links(store_of_app)) == before
    assert COOKIE not in stranger.cookies


def test_codes_are_stored_only_as_their_hash(client: TestClient, store_of_app: Store) -> None:
    code = client.post("/api/player/link").json()["code"]
    [row] = stored_links(store_of_app)
    assert row[0] == hashlib.sha256(code.encode()).hexdigest()
    assert all(code not in value for value in row)
    assert row[1] == client.cookies[COOKIE]


def test_expired_links_are_swept_when_a_new_one_is_made(
    client: TestClient, store_of_app: Store, set_clock: ClockFile
) -> None:
    client.post("/api/player/link")
    set_clock.to(START + timedelta(minutes=11))
    client.post("/api/player/link")
    assert len(stored_links(store_of_app)) == 1


def test_two_devices_racing_with_one_code_cannot_both_win(db_url: str) -> None:
    with Store(db_url) as store:
        player = store.new_player()
        code = links.make(store, player.token).code
        won: list[str] = []
        lost: list[str] = []

        def use() -> None:
            try:
                won.append(links.use(store, code).token)
            except LinkInvalidError as exc:
                lost.append(exc.reason)

        threads = [threading.Thread(target=use) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert won == [player.token]
        assert lost == ["used"] * 5


def test_leaving_forgets_the_player(client: TestClient) -> None:
    client.post("/api/games", json=NEW_GAME)
    left = client.post("/api/player/leave")
    assert left.status_code == 204
    assert left.content == b""
    assert f'{COOKIE}=""' in left.headers["set-cookie"]
    assert "Max-Age=0" in left.headers["set-cookie"]
    assert COOKIE not in client.cookies
    assert client.get("/api/games/current").status_code == 404  # a new player, no game


def test_the_link_is_on_the_configured_address_never_the_requests(db_url: str) -> None:
    settings = Settings(rate_limits=False, lan_url="http://198.51.100.2:8765")
    for base in (LOCAL, "http://evil.example"):
        with TestClient(create_app(db_url, settings=settings), base_url=base) as device:
            made = device.post("/api/player/link").json()
            assert made["url"] == f"http://198.51.100.2:8765/#link={made['code']}"
    public = Settings(rate_limits=False, lan_url="http://198.51.100.2:8765", public_url=PUBLIC)
    with TestClient(create_app(db_url, settings=public), base_url="http://evil.example") as tls:
        made = tls.post("/api/player/link").json()
        assert made["url"] == f"{PUBLIC}/#link={made['code']}"
        assert made["qr_svg"].startswith("<svg")
    # nothing configured: no URL (the page shows the code alone), whatever the Host says
    with TestClient(create_app(db_url, settings=Settings(rate_limits=False)), base_url=LOCAL) as c:
        made = c.post("/api/player/link", headers={"host": "evil.example"}).json()
        assert (made["url"], made["qr_svg"]) == (None, None)
        assert "evil" not in str(made)


def test_guessing_codes_is_rate_limited(db_path: Path) -> None:
    settings = Settings(links_rate="3/minute", links_rate_per_address="5/minute")
    with TestClient(create_app(db_path, settings=settings)) as guesser:
        answers = [guesser.post(f"/api/player/link/GUESS{n:020d}").status_code for n in range(6)]
    assert answers == [404] * 5 + [429]


def test_the_server_tells_the_page_its_lan_url(db_url: str) -> None:
    with TestClient(
        create_app(db_url, settings=Settings(rate_limits=False)), base_url=LOCAL
    ) as plain:
        # the page at a loopback address: no other device can use that
        assert plain.get("/api/server").json() == {"lan_url": None, "lan_qr_svg": None}
    settings = Settings(rate_limits=False, lan_url="http://198.51.100.2:8765")
    with TestClient(create_app(db_url, settings=settings), base_url=LOCAL) as lan:
        seen = lan.get("/api/server").json()
        assert seen["lan_url"] == "http://198.51.100.2:8765"
        assert seen["lan_qr_svg"].startswith("<svg")
    with TestClient(create_app(db_url), base_url="https://play.example") as hosted:
        assert hosted.get("/api/server").json()["lan_url"] is None  # never the Host's
    public = Settings(rate_limits=False, lan_url="http://198.51.100.2:8765", public_url=PUBLIC)
    with TestClient(create_app(db_url, settings=public), base_url="http://evil.example") as hosted:
        assert hosted.get("/api/server").json()["lan_url"] == PUBLIC


def test_the_public_address_comes_from_the_environment_or_the_flag(
    capsys: pytest.CaptureFixture[str],
) -> None:
    env = {"MAGDAGDON_PUBLIC_URL": "https://magdagdon.example"}
    assert Settings.from_env(env).public_url == "https://magdagdon.example"
    flagged = Settings.from_env(env, public_url="https://play.example/game")
    assert flagged.public_url == "https://play.example/game"  # the flag over the variable
    for bad in ("magdagdon.example", "ftp://magdagdon.example", "https://", "https://x/?a=1"):
        with pytest.raises(SettingsError, match="MAGDAGDON_PUBLIC_URL"):
            Settings.from_env({"MAGDAGDON_PUBLIC_URL": bad})
    # serve refuses it before listening
    assert cli.main(["serve", "--port", "0", "--no-browser", "--public-url", "evil.example"]) == 2
    assert "MAGDAGDON_PUBLIC_URL" in capsys.readouterr().err
