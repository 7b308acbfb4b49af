// What this device remembers (localStorage): the language, the difficulty of the next new game,
// the last game, sound and vibration (off until switched on in SETTINGS), and whether the
// tutorial was offered and was seen (taken to its end or skipped). A browser that refuses storage only forgets.
const KEYS = {
  language: "magdagdon.language",
  difficulty: "magdagdon.difficulty",
  lastGame: "magdagdon.lastGame",
  sound: "magdagdon.sound",
  vibrate: "magdagdon.vibrate",
  tutorialOffered: "magdagdon.tutorialOffered",
  tutorialSeen: "magdagdon.tutorialSeen",
  offlinePlay: "magdagdon.offlinePlay",
  offlineGames: "magdagdon.offlineGames",
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
