// The server's part of a tap: a game action goes to the server (source.js), its answer becomes
// the view's game, and the whole view renders again. One request at a time: a tap that comes
// while one is under way waits (queue) and is played after it.
import * as api from "../core/api.js";
import * as source from "../core/source.js";
import * as offline from "../core/offline.js";
import * as more from "../sheets/more.js";
import * as prefs from "../core/prefs.js";
import { settle } from "../core/view.js";
import { feedback } from "./cues.js";

// play: createPlay's parts (view, render, answered, onIntent, sheets).
export function createRequests(play) {
  const { view, render } = play;
  let queued = null; // one tap that came while a request was under way, replayed after it

  async function request(work, { onRefused } = {}) {
    view.busy = true;
    document.body.dataset.busy = "1";
    render();
    try {
      await work();
    } catch (err) {
      if (!(err instanceof api.ApiError)) console.error(err); // a fault of the page itself
      view.stagePending = null;
      onRefused?.(err);
      if (err.status === 0) {
        view.message = { key: "errorNetwork", kind: "error" };
        if (!navigator.onLine) view.offline = true;
      } else if (err.code === "version_conflict" || err.status === 404) {
        view.message = { key: "errorConflict", kind: "error" };
        await reload().catch(() => {});
      } else {
        view.message = { key: "errorRefused", kind: "error" };
        await reload().catch(() => {});
      }
      feedback(view, "refused");
    } finally {
      view.busy = false;
      delete document.body.dataset.busy;
      render();
    }
    if (queued) {
      const next = queued;
      queued = null;
      await play.onIntent(next);
    }
  }

  function queue(intent) {
    queued = intent;
  }

  async function reload() {
    settle(view, await source.game(view.game.id));
  }

  function keep(game) {
    settle(view, game);
    source.seen(game);
    if (game.mode !== "tutorial") {
      offline.rememberState(game); // the board to show with no connection
      prefs.set("lastGame", game.id);
      prefs.set("difficulty", game.difficulty);
    }
  }

  async function send(action) {
    const before = view.game;
    const game = await source.act(before, action, waiting);
    keep(game);
    play.answered(before, game, action);
    if (action.type === "confirm") source.turnFinished(); // the offline engine's download may start
    // a daily game's share text, fetched as it ends: the tap on IBAHAGI then shares at once,
    // while the tap still counts as the player's (some browsers share only then)
    if (game.daily && game.phase === "over") {
      more.lazyAction("share-ready", play.sheets, { game }).catch(() => null); // else fetched at the tap
    }
  }

  // An action with no answer yet is sent again (api.act): while it waits, the connection's mark
  // shows, and the page says what the tap waits for. The mark goes when an answer comes
  // (app.js), or when the engine here answered the tap instead.
  function waiting(waits) {
    view.waiting = waits;
    if (waits) {
      view.offline = true;
      view.waitsFor = source.waitsFor(view.game);
    }
    render();
  }

  // The tap this device kept before a reload with no answer (offline.js): sent again at its
  // version, so the server applies it once, or answers the state it already produced; or
  // played by the engine here, once it is ready, on the game as this device kept it.
  function sendPending(pending) {
    const kept = view.game?.id === pending.game && view.game.version === pending.version;
    const state = kept ? view.game : { id: pending.game, version: pending.version };
    return request(async () => {
      const before = view.game;
      const game = await (kept ? source.act(state, pending.action, waiting) : api.act(state, pending.action, waiting));
      keep(game);
      if (kept) play.answered(before, game, pending.action);
    });
  }

  return { request, queue, reload, keep, send, sendPending };
}
