"""A game put on the device as the page's engine keeps one it played (core/kept.js: IndexedDB),
so a test needs no engine to have one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page

# kept as core/kept.js keeps a game played here (its store and shape); the count core/local.js
# keeps of them tells the next opening to send them
_KEEP = """async (game) => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open("magdagdon", 1);
    request.onupgradeneeded = () =>
      request.result.createObjectStore("offline-games", { keyPath: "id" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await new Promise((resolve, reject) => {
    const tx = db.transaction("offline-games", "readwrite");
    tx.objectStore("offline-games").put({ ...game, began: Date.parse(game.began) });
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  db.close();
  localStorage.setItem("magdagdon.offlineGames", "1");
}"""


def keep_game(page: Page, game: dict[str, Any]) -> None:
    """``game`` as core/kept.js keeps it (``began``: an ISO date), and counted as waiting."""
    page.evaluate(_KEEP, game)
