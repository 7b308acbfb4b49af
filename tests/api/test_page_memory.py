"""The page's files answered from memory (``page/memory.py``): the same answers as the
``WebFiles`` mount gives from the disk, revalidation by ETag or date, HEAD without a body, and
everything it does not hold left to the mount."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi.testclient import TestClient
from starlette.responses import FileResponse

from magdagdon.api.app import create_app

if TYPE_CHECKING:
    from pathlib import Path

FROM_DISK = ("content-type", "content-length", "etag", "last-modified")


def page(tmp_path: Path) -> Path:
    web = tmp_path / "web"
    (web / "js").mkdir(parents=True)
    (web / "index.html").write_text("<!doctype html><title>MAGDAGDON</title>", encoding="utf-8")
    (web / "js" / "app.js").write_text("export const x = 1;\n", encoding="utf-8")
    return web


def test_each_file_as_the_disk_has_it(tmp_path: Path) -> None:
    web = page(tmp_path)
    with TestClient(create_app(tmp_path / "db.sqlite3", web_dir=web)) as client:
        for path, file in (("/js/app.js", web / "js" / "app.js"), ("/", web / "index.html")):
            answer = client.get(path)
            assert answer.status_code == 200
            assert answer.content == file.read_bytes()
            disk = FileResponse(file, stat_result=file.stat()).headers
            assert {name: answer.headers[name] for name in FROM_DISK} == {
                name: disk[name] for name in FROM_DISK
            }
            assert answer.headers["cache-control"] == "no-cache"
            assert "content-security-policy" in answer.headers  # the edge's headers too
            head = client.head(path)
            assert head.status_code == 200
            assert head.content == b""
            assert head.headers["content-length"] == str(len(file.read_bytes()))


def test_revalidation_by_etag_then_by_date(tmp_path: Path) -> None:
    web = page(tmp_path)
    with TestClient(create_app(tmp_path / "db.sqlite3", web_dir=web)) as client:
        first = client.get("/js/app.js")
        etag, modified = first.headers["etag"], first.headers["last-modified"]
        same = client.get("/js/app.js", headers={"If-None-Match": f'W/{etag}, "other"'})
        assert same.status_code == 304
        assert same.content == b""
        assert same.headers["etag"] == etag
        assert same.headers["cache-control"] == "no-cache"
        assert "content-length" not in same.headers
        other = client.get("/js/app.js", headers={"If-None-Match": '"other"'})
        assert other.status_code == 200  # the ETag decides even when the date would match
        assert client.get("/js/app.js", headers={"If-Modified-Since": modified}).status_code == 304
        old = "Mon, 01 Jan 1990 00:00:00 GMT"
        assert client.get("/js/app.js", headers={"If-Modified-Since": old}).status_code == 200


def test_what_memory_does_not_hold_goes_to_the_mount(tmp_path: Path) -> None:
    web = page(tmp_path)
    with TestClient(create_app(tmp_path / "db.sqlite3", web_dir=web)) as client:
        (web / "late.js").write_text("export const late = 1;\n", encoding="utf-8")
        assert client.get("/late.js").text == "export const late = 1;\n"  # from the disk
        ranged = client.get("/js/app.js", headers={"Range": "bytes=0-5"})
        assert ranged.status_code == 206
        assert ranged.content == b"export"
        refused = client.post("/js/app.js")
        assert refused.status_code == 405
        assert client.get("/missing.js").status_code == 404
        assert client.get("/api/nothing").json()["error"]["code"] == "not_found"
