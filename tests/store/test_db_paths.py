"""Which database ``--db`` and ``MAGDAGDON_DB`` name: a file path or a ``postgresql://`` URL."""

from __future__ import annotations

from pathlib import Path

import pytest

from magdagdon import cli
from magdagdon.store import ENV_VAR, database_url, describe, resolve_db

URL = "postgresql://game:secret@db.example:5433/magdagdon?sslmode=require"


def test_a_path_is_a_sqlite_file(tmp_path: Path) -> None:
    url = database_url(str(tmp_path / "x.sqlite3"))
    assert (url.drivername, url.database) == ("sqlite+pysqlite", str(tmp_path / "x.sqlite3"))
    assert resolve_db("~/games.sqlite3") == str(Path.home() / "games.sqlite3")


def test_a_sqlite_url_names_its_file(tmp_path: Path) -> None:
    file = tmp_path / "x.sqlite3"
    for value in (f"sqlite:///{file}", f"sqlite+pysqlite:///{file}"):
        assert database_url(value).database == str(file)
        assert resolve_db(value) == str(file)
    assert resolve_db("sqlite:///games.sqlite3") == "games.sqlite3"  # three slashes: relative
    with pytest.raises(ValueError, match="must name a file"):
        database_url("sqlite://")


@pytest.mark.parametrize("command", [["serve", "--no-browser"], ["db", "check"]])
def test_a_sqlite_url_naming_no_file_is_refused_in_one_line(
    command: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main([*command, "--db", "sqlite://"]) == 2
    assert capsys.readouterr().err == "magdagdon: sqlite://: a SQLite URL must name a file\n"
    assert list(tmp_path.iterdir()) == []  # no file, no folder made of the URL


@pytest.mark.parametrize("scheme", ["postgresql", "postgres", "postgresql+psycopg"])
def test_a_postgresql_url_always_uses_psycopg_3(scheme: str) -> None:
    url = database_url(URL.replace("postgresql", scheme, 1))
    assert url.drivername == "postgresql+psycopg"
    assert (url.host, url.port, url.database, url.query["sslmode"]) == (
        "db.example",
        5433,
        "magdagdon",
        "require",
    )
    assert resolve_db(URL) == URL


def test_the_environment_names_either_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, URL)
    assert resolve_db(None) == URL
    monkeypatch.setenv(ENV_VAR, "/srv/magdagdon.sqlite3")
    assert resolve_db(None) == "/srv/magdagdon.sqlite3"
    assert resolve_db("other.sqlite3") == "other.sqlite3"  # --db wins


def test_messages_never_show_the_password() -> None:
    assert "secret" not in describe(URL)
    assert "db.example" in describe(URL)
