// Who answers a game's requests: the server (api.js), or, when it cannot be reached and the
// page's own engine is ready, the engine (local.js). Both answer the same state view, so play.js
// asks here and never cares which one answered.
import * as api from "./api.js";
import * as local from "./local.js";

const noAnswer = (err) => err instanceof api.ApiError && err.status === 0;

export async function act(state, action, onWait) {
  if (local.holds(state.id)) return local.act(state, action);
  if (local.canTakeOver(state)) {
    let game;
    try {
      game = await api.call("POST", `/api/games/${encodeURIComponent(state.id)}/actions`, { ...action, version: state.version });
    } catch (err) {
      if (!noAnswer(err)) throw err;
      return local.takeOver(state, action);
    }
    local.followed(state, action, game);
    return game;
  }
  const game = await api.act(state, action, onWait);
  local.followed(state, action, game);
  return game;
}

export async function game(id) {
  if (local.holds(id)) return local.view(id);
  return api.game(id);
}

// A new game: the server's; while it cannot be reached, one begun here. The games played here
// go to the server first, so that they come before the new one (a new game abandons the one
// under way).
export async function newGame(difficulty, options = {}) {
  if (local.playing() && navigator.onLine && !options.mode) {
    await local.syncAll().catch(() => null);
  }
  try {
    return await api.newGame(difficulty, options);
  } catch (err) {
    if (!noAnswer(err) || !local.readyNow() || options.mode) throw err;
    return local.newGame(difficulty);
  }
}

// A hint needs the server's computer player: refused here for a game played offline.
export async function hint(state) {
  if (local.holds(state.id)) throw new api.ApiError(0, "offline_hint", "hints need the connection");
  return api.hint(state);
}
