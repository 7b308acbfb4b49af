"""The page at ``/``: content types and caching headers; a clean 404 without it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi.testclient import TestClient

from magdagdon.api.app import create_app

if TYPE_CHECKING:
    from pathlib import Path


def test_the_page_and_its_files(db_url: str, tmp_path: Path) -> None:
    web = tmp_path / "web"
    (web / "js").mkdir(parents=True)
    (web / "index.html").write_text("<!doctype html><title>MAGDAGDON</title>", encoding="utf-8")
    (web / "js" / "app.js").write_text("export const x = 1;\n", encoding="utf-8")
    (web / "style.css").write_text("body{}\n", encoding="utf-8")
    (web / "icon.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>", encoding="utf-8")
    with TestClient(create_app(db_url, web_dir=web)) as client:
        page = client.get("/")
        assert page.status_code == 200
        assert page.headers["content-type"] == "text/html; charset=utf-8"
        assert page.headers["cache-control"] == "no-cache"
        assert "MAGDAGDON" in page.text
        types = {
            "/js/app.js": "text/javascript; charset=utf-8",
            "/style.css": "text/css; charset=utf-8",
            "/icon.svg": "image/svg+xml",
        }
        for path, content_type in types.items():
            response = client.get(path)
            assert response.status_code == 200
            assert response.headers["content-type"] == content_type
            assert response.headers["cache-control"] == "no-cache"
            assert response.headers["x-content-type-options"] == "nosniff"
        etag = page.headers["etag"]
        again = client.get("/", headers={"if-none-match": etag})
        assert again.status_code == 304
        missing = client.get("/js/nothing.js")
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "not_found"
        assert client.get("/api/player").status_code == 200  # the API is not shadowed


def test_no_page_is_a_clean_404(db_url: str, tmp_path: Path) -> None:
    for web in (tmp_path / "empty", tmp_path / "absent"):
        if web.name == "empty":
            web.mkdir()
        with TestClient(create_app(db_url, web_dir=web)) as client:
            response = client.get("/")
            assert response.status_code == 404
            assert response.json()["error"]["code"] == "not_found"
