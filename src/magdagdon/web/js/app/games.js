// Which game is played: a new game (asked first while one is under way), the tutorial and its
// end, and a game a sheet starts or resumes (the daily challenge, an import).
import * as api from "../core/api.js";
import * as source from "../core/source.js";
import { DIFFICULTIES, underWay } from "../core/game.js";
import { t } from "../i18n/i18n.js";
import { lazy } from "../lib/lazy.js";
import * as prefs from "../core/prefs.js";
import { resetModes } from "../core/view.js";

// play: createPlay's parts (view, render, announce, request, keep).
export function createGames(play) {
  const { view, render, announce } = play;

  const startNew = (difficulty) => begin(() => source.newGame(difficulty));

  function askNew(difficulty) {
    if (underWay(view.game)) {
      const change = difficulty === view.game.difficulty ? null : difficulty;
      view.ask = { kind: "new", difficulty: change, value: difficulty, from: view.sheet };
      view.sheet = "ask";
      render();
      return null;
    }
    return startNew(difficulty);
  }

  function startTutorial() {
    view.sheet = null;
    view.ask = null;
    return play.request(async () => {
      const [coach, script] = await Promise.all([
        lazy(() => import("./tutorial.js"), { words: "long" }), api.tutorialScript()]);
      const game = await api.newGame(script.difficulty, { seed: script.seed, mode: "tutorial" });
      resetModes(view);
      view.hint = null;
      view.tutorial = coach.createTutorial(script);
      play.keep(game);
      announce(coach.coachText(view));
    });
  }

  function endTutorial() {
    view.tutorial = null;
    view.tutorialSeen = true;
    prefs.set("tutorialSeen", "1");
    resetModes(view);
    return play.request(async () => {
      const stored = prefs.get("difficulty");
      const game = (await api.currentGame()) ??
        (await api.newGame(DIFFICULTIES.includes(stored) ? stored : "peaceful"));
      play.keep(game);
      announce(`${t("tutorialEnded")} ${t(game.difficulty)}`);
    });
  }

  // A game started (or resumed) as a new game is: by NEW GAME, or by a sheet that loads when
  // first used (more.js: the daily challenge, an import).
  function begin(fetchGame) {
    view.ask = null;
    view.sheet = null;
    resetModes(view);
    view.hint = null;
    return play.request(async () => {
      const game = await fetchGame();
      play.keep(game);
      announce(`${t("newGame")}: ${t(game.difficulty)}`);
    });
  }

  return { startNew, askNew, startTutorial, endTutorial, begin };
}
