import * as offline from "./offline.js";
import { resend, wake } from "./resend.js";
import * as saving from "./saving.js";

// The HTTP API client (docs/api.md): every call answers parsed JSON or throws an ApiError. It is the
// page's only way to the server.
export class ApiError extends Error {
  // `error`: the answer's whole error object (some codes carry more than code and message)
  constructor(status, code, message, error = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.error = error;
  }
}

export function call(method, path, body) {
  return answer(fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  }));
}

// The JSON of a fetch (a promise of a Response), or an ApiError.
async function answer(pending) {
  let response;
  try {
    response = await pending;
  } catch (err) {
    if (!unanswered) window.dispatchEvent(new Event("magdagdon-unanswered"));
    unanswered = true;
    throw new ApiError(0, "network", String(err));
  }
  answered();
  const data = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    const error = data && data.error ? data.error : {};
    throw new ApiError(response.status, error.code ?? String(response.status), error.message ?? "", error);
  }
  return data;
}

// Any answer says the server is there: once after none came, the page hears of it (the
// connection's mark goes, a waiting resend or a game kept on this device goes at once).
let unanswered = false;
function answered() {
  if (!unanswered) return;
  unanswered = false;
  window.dispatchEvent(new Event("magdagdon-answer"));
  wake();
}

const gamePath = (id) => `/api/games/${encodeURIComponent(id)}`;

// `early`: the same request already sent by index.html's first script, if any.
export async function currentGame(early) {
  try {
    return await (early ? answer(early) : call("GET", "/api/games/current"));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

export const game = (id) => call("GET", gamePath(id));
// options: {seed, mode} ("tutorial" for the tutorial's game)
export const newGame = (difficulty, options = {}) =>
  call("POST", "/api/games", { difficulty, ...options });
// An action is sent again until it gets an answer (resend.js): its `version` makes a repeat
// answer the state it produced instead of applying it twice. It is kept on the device until
// answered (offline.js), so a tap survives a reload without a connection. `instead`: resend.js's.
export async function act(state, action, onWait, instead) {
  const body = { ...action, version: state.version };
  offline.rememberPending(state, action);
  saving.started();
  try {
    return await resend(() => call("POST", `${gamePath(state.id)}/actions`, body), { onWait, instead });
  } finally {
    offline.forgetPending();
    saving.finished();
  }
}
export const hint = (state) => call("GET", `${gamePath(state.id)}/hint`);
// A finished game's review: {status: "done", …} or, while computed, {status: "pending", progress}.
export const review = (id) => call("GET", `${gamePath(id)}/review`);
export const highscores = (difficulty) =>
  call("GET", `/api/highscores?difficulty=${encodeURIComponent(difficulty)}`);
export const player = (early) => (early ? answer(early) : call("GET", "/api/player"));
export const setPlayer = (language) => call("PUT", "/api/player", { language });
// Other devices (link.js): the server's network address, device links, leaving.
export const server = () => call("GET", "/api/server");
export const makeLink = () => call("POST", "/api/player/link");
export const useLink = (code) => call("POST", `/api/player/link/${encodeURIComponent(code)}`);
export const leave = () => call("POST", "/api/player/leave");
// The tutorial's script (web/tutorial.json), fetched when the tutorial opens.
export const tutorialScript = () => call("GET", "tutorial.json");
