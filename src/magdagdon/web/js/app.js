// Wires the page: input.js turns taps and keys into intents, play.js turns them into view
// changes and API calls, and render.js draws the whole view from the view state.
import * as api from "./api.js";
import { applyStatic, language, setLanguage } from "./i18n.js";
import { listen } from "./input.js";
import { createPlay } from "./play.js";
import * as prefs from "./prefs.js";
import { render } from "./render.js";
import { createBoard } from "./renderBoard.js";
import { DIFFICULTIES } from "./renderSheet.js";
import { createTray } from "./renderTray.js";
import { t } from "./i18n.js";
import { createView } from "./view.js";

const root = document.getElementById("app");
const dom = {
  root,
  board: createBoard(document.getElementById("board")),
  tray: createTray(document.getElementById("tray")),
  status: document.getElementById("status"),
  message: document.getElementById("message"),
  over: document.getElementById("over"),
  sheet: document.getElementById("sheet"),
  menu: root.querySelector(".menu"),
  skip: root.querySelector('[data-action="tutorial-skip"]'),
  toasts: document.getElementById("toasts"),
  live: document.getElementById("live"),
};

const view = createView();
view.sound = prefs.isOn("sound");
view.vibrate = prefs.isOn("vibrate");

function announce(text) {
  dom.live.textContent = "";
  setTimeout(() => { dom.live.textContent = text; }, 30);
}

const play = createPlay({ view, dom, render: () => render(view, dom), announce });

async function firstGame(current) {
  if (current) return current;
  const last = prefs.get("lastGame");
  const game = last ? await api.game(last).catch(() => null) : null;
  if (game && game.mode !== "tutorial" && !game.abandoned) return game;
  const stored = prefs.get("difficulty");
  return api.newGame(DIFFICULTIES.includes(stored) ? stored : "peaceful");
}

async function start() {
  setLanguage(prefs.get("language") ?? "fil");
  applyStatic();
  listen(root, play.onIntent);
  const [player, current] = await Promise.all([
    api.player(window.magdagdonBoot?.player).catch(() => null),
    api.currentGame(window.magdagdonBoot?.current),
  ]);
  if (player && player.language !== language()) {
    setLanguage(player.language);
    prefs.set("language", player.language);
    applyStatic();
  }
  play.keep(await firstGame(current));
  if (!prefs.isOn("tutorialOffered")) {
    prefs.set("tutorialOffered", "1");
    view.offer = true; // in the message area, until the first tap: the game is playable at once
  }
  render(view, dom);
  document.body.dataset.ready = "1";
  performance.mark("magdagdon-ready");
}

start().catch(() => {
  const message = document.getElementById("message");
  message.textContent = t("errorNetwork");
  message.dataset.notice = "offline";
});
