// What this device remembers (localStorage): the language, the difficulty of the next new game,
// the last game, sound and vibration (off until switched on in SETTINGS), and whether the
// tutorial was offered and was seen (taken to its end or skipped). A browser that refuses storage only forgets.
const KEYS = {
  language: "magdagdon.language",
  languageUnsaved: "magdagdon.languageUnsaved",
  difficulty: "magdagdon.difficulty",
  lastGame: "magdagdon.lastGame",
  sound: "magdagdon.sound",
  vibrate: "magdagdon.vibrate",
  tutorialOffered: "magdagdon.tutorialOffered",
  tutorialSeen: "magdagdon.tutorialSeen",
  offlinePlay: "magdagdon.offlinePlay",
  offlineGames: "magdagdon.offlineGames",
  scores: "magdagdon.scores", // the last High Scores the server sent (shown without it: scores.js)
  stats: "magdagdon.stats", // the last STATISTIKA it sent, by difficulty (stats.js)
};

export function get(name) {
  try {
    return localStorage.getItem(KEYS[name]);
  } catch {
    return null;
  }
}

export function set(name, value) {
  try {
    localStorage.setItem(KEYS[name], String(value));
  } catch {
    // storage refused: nothing to remember
  }
}

export const isOn = (name) => get(name) === "1";

// A value kept as JSON, or `fallback` when there is none (or it cannot be read).
export function getJson(name, fallback) {
  try {
    return JSON.parse(get(name) ?? "null") ?? fallback;
  } catch {
    return fallback;
  }
}

// The language chosen here, kept and sent to the server (`send`); until the server has it, this
// device's choice wins over the server's at the next start (a reload may come first).
export function saveLanguage(lang, send) {
  set("language", lang);
  set("languageUnsaved", lang);
  return send(lang).then(() => {
    if (get("languageUnsaved") === lang) localStorage.removeItem(KEYS.languageUnsaved);
  }).catch(() => {});
}
