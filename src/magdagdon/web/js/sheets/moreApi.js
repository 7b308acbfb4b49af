// The API calls of the sheets that load when first used (docs/api.md: daily, stats, share, the
// player's name, export and import), through api.js's one way to the server.
import { call } from "../core/api.js";

const q = encodeURIComponent;

export const daily = (date) => call("GET", date ? `/api/daily?date=${q(date)}` : "/api/daily");
export const startDaily = (difficulty, date) =>
  call("POST", "/api/daily", date ? { difficulty, date } : { difficulty });
export const dayTable = (difficulty, date) =>
  call("GET", `/api/daily/table?difficulty=${q(difficulty)}&date=${q(date)}`);
export const share = (id) => call("GET", `/api/games/${q(id)}/share`);
export const stats = (difficulty) => call("GET", `/api/stats?difficulty=${q(difficulty)}`);
export const player = () => call("GET", "/api/player");
export const setName = (name) => call("PUT", "/api/player", { name });
export const importFile = (document) => call("POST", "/api/player/import", document);

// The export as a file to save: its bytes and the name the server gives it.
export async function exportFile() {
  const response = await fetch("/api/player/export", { credentials: "same-origin" });
  if (!response.ok) throw new Error(String(response.status));
  const disposition = response.headers.get("content-disposition") ?? "";
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? "magdagdon.json";
  return { blob: await response.blob(), name };
}
