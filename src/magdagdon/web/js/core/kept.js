// The games played offline, kept on this device (IndexedDB) until the server has them: a reload
// or a closed app loses none. Each is {id, difficulty, seed, mode, daily_date, actions, view,
// began, ended, refused}: its seed and whole action log (what the server replays, docs/api.md
// "POST /api/games/sync"), the last state view to draw, when it began to be played offline and
// when it ended here (ms, this device's clock: the game's date, sent with it), and the server's
// word when it refused the game (kept, never sent again by itself).
const DB = "magdagdon";
const STORE = "offline-games";

let opened = null;

function database() {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return opened;
}

async function run(mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const request = work(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request?.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

export const put = (game) => run("readwrite", (store) => store.put(game));
export const get = (id) => run("readonly", (store) => store.get(id));
export const remove = (id) => run("readwrite", (store) => store.delete(id));
// Oldest first: the order they were played in, the order the server takes them in.
export const all = async () =>
  ((await run("readonly", (store) => store.getAll())) ?? []).sort((a, b) => a.began - b.began);
