// High Scores' lists: the server's, kept on this device as they come; while the server cannot be
// reached, the last ones it sent with the games finished here since, said so (render/sheet.js).
import { ApiError, highscores } from "../core/api.js";
import { DIFFICULTIES } from "../core/game.js";
import * as prefs from "../core/prefs.js";
import * as source from "../core/source.js";
import { register } from "./registered.js";

async function lists() {
  const found = await Promise.all(DIFFICULTIES.map((d) => highscores(d)));
  const scores = Object.fromEntries(DIFFICULTIES.map((d, i) => [d, found[i]]));
  prefs.set("scores", JSON.stringify(scores));
  return scores;
}

// Best first, each entry's place its position (as the server's lists are).
async function listsHere() {
  const last = prefs.getJson("scores", {});
  const here = await source.finishedHere();
  return Object.fromEntries(DIFFICULTIES.map((d) => [d, [...(last[d] ?? []), ...here.filter((e) => e.difficulty === d)]
    .sort((a, b) => b.score - a.score)]));
}

register({
  opens: {
    async highscores({ view, request }) {
      view.scores = null;
      view.scoresHere = false;
      await request(async () => {
        try {
          view.scores = await lists();
        } catch (err) {
          if (!(err instanceof ApiError) || err.status !== 0) throw err;
          view.scores = await listsHere();
          view.scoresHere = true;
        }
      });
    },
  },
});
