// Wires the page: input.js turns taps and keys into intents, play.js turns them into view
// changes and API calls, and render.js draws the whole view from the view state.
import * as api from "../core/api.js";
import { createDevices, justLinked, linkCode, linkedNow, loadServer } from "../sheets/link.js";
import * as source from "../core/source.js";
import * as offline from "../core/offline.js";
import { applyStatic, language, setLanguage, use } from "../i18n/i18n.js";
import { listen } from "../core/input.js";
import { createPlay } from "./play.js";
import * as prefs from "../core/prefs.js";
import { render } from "../render/render.js";
import { createBoard } from "../render/board.js";
import { DIFFICULTIES } from "../core/game.js";
import { createTray } from "../render/tray.js";
import { t } from "../i18n/i18n.js";
import { createView } from "../core/view.js";

const root = document.getElementById("app");
const dom = {
  root,
  board: createBoard(document.getElementById("board")),
  tray: createTray(document.getElementById("tray")),
  status: document.getElementById("status"),
  message: document.getElementById("message"),
  over: document.getElementById("over"),
  sheet: document.getElementById("sheet"),
  menu: root.querySelector(".bar-tools"),
  skip: root.querySelector('[data-action="tutorial-skip"]'),
  toasts: document.getElementById("toasts"),
  live: document.getElementById("live"),
};

const view = createView();
view.devices = createDevices();
view.offline = false; // the server cannot be reached (the notice, offline.js)
view.waiting = false; // an action waits for an answer
view.sound = prefs.isOn("sound");
view.vibrate = prefs.isOn("vibrate");
view.tutorialSeen = prefs.isOn("tutorialSeen");

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

// The first visit on this device speaks the browser's first language: English where it is
// English, Filipino where it is Filipino (fil, tl) or any other language.
function browserLanguage() {
  const first = (navigator.languages?.[0] ?? navigator.language ?? "").toLowerCase().split("-")[0];
  return first === "en" ? "en" : "fil";
}

async function start() {
  const stored = prefs.get("language");
  const first = stored ?? browserLanguage();
  await use(first).catch(() => {}); // English's words load before the page speaks it
  setLanguage(first);
  applyStatic();
  listen(root, play.onIntent);
  // a tap anywhere but on the open MENU's panel (or its own button) closes it
  document.addEventListener("click", (event) => {
    if (!view.menuOpen || event.target.closest?.(".menu, .menu-toggle")) return;
    view.menuOpen = false;
    render(view, dom);
  }, true);
  watchConnection();
  source.attach({ view, draw: () => render(view, dom), keep: play.keep });
  const played = await source.played();
  if (played.length && !navigator.onLine) return startOffline(played);
  let player;
  let current;
  try {
    [player, current] = await Promise.all([
      api.player(window.magdagdonBoot?.player).catch(() => null),
      api.currentGame(window.magdagdonBoot?.current),
    ]);
  } catch (err) {
    if (err instanceof api.ApiError && err.status === 0) return startOffline(played);
    throw err;
  }
  if (played.length) {
    await source.sendPlayed();
    current = await api.currentGame().catch(() => current);
  }
  // A first visit on this device in an English browser: English for a player still on the
  // server's first language (Filipino); a player who chose English elsewhere keeps it.
  if (player && (prefs.get("languageUnsaved") === first
    || (stored === null && !linkedNow() && player.language === "fil" && language() === "en"))) {
    // the browser's, or one the server has not got yet; awaited: a first game asked at the same
    // time, with no cookie yet, would make a second player (in Filipino) whose cookie could win
    await prefs.saveLanguage(first, api.setPlayer);
  } else if (player && player.language !== language()) {
    await use(player.language).catch(() => {});
    setLanguage(player.language);
    prefs.set("language", player.language);
    applyStatic();
  }
  play.keep(await firstGame(current));
  if (!prefs.isOn("tutorialOffered")) {
    prefs.set("tutorialOffered", "1");
    view.offer = true; // in the message area, until the first tap: the game is playable at once
  }
  openLinkSheet();
  window.addEventListener("hashchange", () => {
    openLinkSheet();
    render(view, dom);
  });
  render(view, dom);
  ready();
  // a shared link to a day's challenge (?daily=YYYY-MM-DD: sheets/daily.js reads it)
  const shared = new URLSearchParams(location.search).has("daily");
  if (shared && !view.devices.use) play.onIntent({ kind: "action", name: "daily", link: true });
  const pending = offline.pendingAction();
  if (pending && pending.game === view.game.id) await play.sendPending(pending);
  else offline.forgetPending();
}

function ready() {
  document.body.dataset.ready = "1";
  performance.mark("magdagdon-ready");
  const early = window.magdagdonBoot?.takeTap() ?? null;
  tapHeld(early);
  offline.registerWorker(() => view.busy, early !== null);
  source.prepareLater();
  // SETTINGS' phone address, asked for now so that the sheet opens with it (not redrawn after)
  if (navigator.onLine) loadServer(view.devices, api);
}

// A tap made before the page was ready (core/boot.js held it), made now on its button if the
// drawn game still shows that button and it can be tapped.
function tapHeld(el) {
  if (el && el.isConnected && el.offsetParent !== null && !el.disabled) el.click();
}

// The page opened with a device link (#link=CODE): ask first; or just restarted as that player.
function openLinkSheet() {
  const code = linkCode();
  if (code) view.devices.use = { code, state: "ask" };
  else if (justLinked()) view.devices.use = { state: "done" };
  if (view.devices.use) view.sheet = "link";
}

// The browser's word on the connection: the notice follows it, and the game is asked for again
// when it is back (unless an action under way brings it).
function watchConnection() {
  view.offline = !navigator.onLine;
  window.addEventListener("offline", () => {
    view.offline = true;
    render(view, dom);
  });
  window.addEventListener("online", () => {
    view.offline = false;
    render(view, dom);
    if (source.waiting()) source.sendPlayed().catch(() => null);
    else if (view.game && !view.busy) play.request(() => play.reload());
  });
  // no answer (api.js): the server cannot be reached, whatever the browser says
  window.addEventListener("magdagdon-unanswered", () => {
    view.offline = true;
    if (view.game) render(view, dom);
  });
  // an answer after none came (api.js): the server is back, whatever the browser says
  window.addEventListener("magdagdon-answer", () => {
    view.offline = false;
    if (view.game) render(view, dom);
    if (source.waiting()) source.sendPlayed().catch(() => null);
  });
}

// No server: the last state this device kept, with the notice; a tap made now is sent when the
// connection is back (play.js, api.act).
async function startOffline(played = []) {
  view.offline = true;
  if (played.length || source.offlineOn()) {
    source.startLocal().catch(() => {});
    // a tap kept from before goes on here once the engine is ready; without local.js (a first
    // visit cut off before its first turn) the page goes on with the last state and the notice
    await source.loadLocal().catch(() => null);
  }
  const last = played.at(-1)?.view ?? offline.lastState();
  if (last) play.keep(last);
  if (last) render(view, dom);
  else offline.showNotice(dom.message, view, t);
  ready();
  const pending = offline.pendingAction();
  if (last && pending && pending.game === last.id) await play.sendPending(pending);
}

start().catch((err) => {
  console.error(err);
  window.magdagdonBoot?.takeTap(); // taps reach the page again (the one held is dropped)
  view.offline = true;
  offline.showNotice(dom.message, view, t);
});
