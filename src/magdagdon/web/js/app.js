// Wires the page: intents (input.js) → the API (api.js) → the state → render the whole view.
// The page never decides a rule: what is valid comes from the state the server sends.
import * as api from "./api.js";
import { applyStatic, language, loadLongText, setLanguage, t } from "./i18n.js";
import { focusCell, listen } from "./input.js";
import { createBoard, renderBoard } from "./renderBoard.js";
import { renderControls } from "./renderControls.js";
import { DIFFICULTIES, renderSheet } from "./renderSheet.js";
import { renderStatus } from "./renderStatus.js";
import { animateRoll, createTray, renderTray } from "./renderTray.js";
import "./hint.js";
import { registerWorker } from "./offline.js";

const LAST_GAME = "magdagdon.lastGame";
const LANGUAGE = "magdagdon.language";
const DIFFICULTY = "magdagdon.difficulty";

const root = document.getElementById("app");
const dom = {
  board: createBoard(document.getElementById("board")),
  tray: createTray(document.getElementById("tray")),
  status: document.getElementById("status"),
  sheet: document.getElementById("sheet"),
  live: document.getElementById("live"),
};

const view = {
  game: null,
  selected: null, // the tray die chosen to stage or to change with a Power
  picking: false, // choosing dice for I-ROLL ULIT
  picks: new Set(),
  accepting: false, // MAGDAGDON accepted: choosing the cell that becomes a RUIN
  sheet: null, // "settings" | "highscores" | "rules" | "about" | null
  pending: null, // a new game waiting for the player's yes: {difficulty}
  scores: null,
  message: null,
  busy: false,
};

function render() {
  if (!view.game) return;
  document.body.dataset.phase = view.game.phase;
  document.body.dataset.version = String(view.game.version);
  renderStatus(dom.status, view);
  renderBoard(dom.board, view);
  renderTray(dom.tray, view);
  renderControls(root, view);
  renderSheet(dom.sheet, view);
}

function announce(text) {
  dom.live.textContent = "";
  setTimeout(() => { dom.live.textContent = text; }, 30);
}

function resetModes() {
  view.selected = null;
  view.picking = false;
  view.picks = new Set();
  view.accepting = false;
}

function show(game) {
  view.game = game;
  localStorage.setItem(LAST_GAME, game.id);
  localStorage.setItem(DIFFICULTY, game.difficulty);
  const trayIds = new Set(game.dice.filter((d) => d.cell === null).map((d) => d.id));
  if (!trayIds.has(view.selected)) view.selected = null;
  if (game.phase !== "magdagdon") view.accepting = false;
}

async function request(work) {
  if (view.busy) return;
  view.busy = true;
  document.body.dataset.busy = "1";
  view.message = null;
  try {
    await work();
  } catch (err) {
    if (err.code === "version_conflict" || err.status === 404) {
      view.message = t("errorConflict");
      await reload().catch(() => {});
    } else {
      view.message = err.status === 0 ? t("errorNetwork") : t("errorGeneric");
    }
  } finally {
    view.busy = false;
    delete document.body.dataset.busy;
    render();
  }
}

async function reload() {
  resetModes();
  show((await api.currentGame()) ?? (await api.game(view.game.id)));
}

async function send(action) {
  const before = view.game;
  const game = await api.act(before, action);
  show(game);
  afterAction(before, game, action);
}

function afterAction(before, game, action) {
  const values = game.dice.map((d) => d.value).join(", ");
  if (action.type === "roll" || action.type === "reroll") {
    animateRoll(dom.tray, action.type === "roll" ? [0, 1, 2, 3] : action.dice);
  }
  if (game.phase === "over") {
    announce(t("announceOver", { score: game.score.total }));
  } else if (game.phase === "magdagdon" && (before.phase !== "magdagdon" || action.type !== "stage")) {
    announce(`${action.type === "roll" ? t("announceRoll", { values }) : ""} ${t("announceMagdagdon", { n: game.min_required })}`);
  } else if (action.type === "roll") {
    announce(t("announceRoll", { values }));
  } else if (action.type === "reroll") {
    announce(t("announceReroll", { values }));
  } else if (action.type === "ruin") {
    announce(t("announceRuin", { r: action.cell[0] + 1, c: action.cell[1] + 1 }));
  }
}

function nope(el) {
  el.classList.remove("nope");
  void el.offsetWidth;
  el.classList.add("nope");
  setTimeout(() => el.classList.remove("nope"), 400);
}

function tapCell(intent, keyboard) {
  const game = view.game;
  const [r, c] = intent.cell;
  const staged = game.dice.find((d) => d.cell && d.cell[0] === r && d.cell[1] === c);
  if (staged && game.phase === "place") {
    return request(() => send({ type: "unstage", die: staged.id }));
  }
  const has = (cells) => (cells ?? []).some(([a, b]) => a === r && b === c);
  if (view.accepting && has(game.ruinable)) {
    return request(() => send({ type: "ruin", cell: [r, c] }));
  }
  if (view.selected !== null && !view.picking && has(game.valid_cells[String(view.selected)])) {
    const die = view.selected;
    view.selected = null;
    return request(async () => {
      await send({ type: "stage", die, cell: [r, c] });
      if (keyboard) focusCell(root, intent.el);
    });
  }
  nope(intent.el);
}

function tapDie(id, keyboard) {
  const game = view.game;
  const die = game.dice.find((d) => d.id === id);
  if (!die || view.accepting) return;
  if (die.cell !== null) {
    if (game.phase === "place") request(() => send({ type: "unstage", die: id }));
    return;
  }
  if (view.picking) {
    if (view.picks.has(id)) view.picks.delete(id);
    else view.picks.add(id);
  } else {
    view.selected = view.selected === id ? null : id;
    const first = (game.valid_cells[String(id)] ?? [])[0];
    if (keyboard && view.selected !== null && first) {
      render();
      focusCell(root, root.querySelector(`[data-cell="${first[0]}-${first[1]}"]`));
      return;
    }
  }
  render();
}

function underWay() {
  const game = view.game;
  return game && game.phase !== "over" && (game.turn > 0 || game.phase !== "roll");
}

function startNew(difficulty) {
  view.pending = null;
  view.sheet = null;
  resetModes();
  request(async () => {
    show(await api.newGame(difficulty));
    announce(`${t("newGame")}: ${t(difficulty)}`);
  });
}

function askNew(difficulty) {
  if (underWay()) {
    view.pending = { difficulty: difficulty === view.game.difficulty ? null : difficulty, value: difficulty };
    view.sheet = view.sheet ?? "settings";
    render();
  } else {
    startNew(difficulty);
  }
}

async function openSheet(name) {
  if (name === "rules" || name === "about") await loadLongText().catch(() => {});
  view.sheet = name;
  view.pending = null;
  render();
  if (name === "highscores") {
    view.scores = null;
    render();
    await request(async () => {
      const lists = await Promise.all(DIFFICULTIES.map((d) => api.highscores(d)));
      view.scores = Object.fromEntries(DIFFICULTIES.map((d, i) => [d, lists[i]]));
    });
  }
}

function chooseLanguage(lang) {
  setLanguage(lang);
  localStorage.setItem(LANGUAGE, lang);
  applyStatic();
  render();
  api.setPlayer(lang).catch(() => {});
}

const ACTIONS = {
  roll: () => request(() => send({ type: "roll" })),
  confirm: () => view.game.can_confirm && request(() => send({ type: "confirm" })),
  minus: () => adjust(-1),
  plus: () => adjust(1),
  reroll: () => {
    if (view.picking) {
      const dice = [...view.picks].sort();
      if (!dice.length) return;
      view.picking = false;
      view.picks = new Set();
      request(() => send({ type: "reroll", dice }));
    } else if (view.game.can_reroll) {
      view.picking = true;
      view.picks = new Set(view.selected === null ? [] : [view.selected]);
      view.selected = null;
      render();
    }
  },
  cancel: () => {
    if (view.sheet) return;
    resetModes();
    render();
  },
  accept: () => {
    if (view.game.phase !== "magdagdon") return;
    view.accepting = !view.accepting;
    view.selected = null;
    view.picking = false;
    render();
  },
  "new-game": () => askNew(view.game.difficulty),
  settings: () => openSheet("settings"),
  highscores: () => openSheet("highscores"),
  rules: () => openSheet("rules"),
  about: () => openSheet("about"),
  close: () => {
    if (view.sheet === null) return;
    view.sheet = null;
    view.pending = null;
    render();
  },
};

function adjust(delta) {
  const id = view.selected;
  if (id === null || !(view.game.adjust?.[String(id)] ?? []).includes(delta)) return;
  request(() => send({ type: "adjust", die: id, delta }));
}

function onIntent(intent, keyboard) {
  if (!view.game) return;
  view.message = null;
  if (intent.kind === "cell") tapCell(intent, keyboard);
  else if (intent.kind === "die") tapDie(intent.id, keyboard);
  else if (intent.kind === "action") ACTIONS[intent.name]?.();
  else if (intent.kind === "difficulty") askNew(intent.value);
  else if (intent.kind === "lang") chooseLanguage(intent.value);
  else if (intent.kind === "choice") {
    if (intent.value === "yes" && view.pending) startNew(view.pending.value);
    else {
      view.pending = null;
      render();
    }
  }
}

async function start() {
  setLanguage(localStorage.getItem(LANGUAGE) ?? "fil");
  applyStatic();
  listen(root, onIntent);
  const [player, current] = await Promise.all([
    api.player(window.magdagdonBoot?.player).catch(() => null),
    api.currentGame(window.magdagdonBoot?.current),
  ]);
  if (player && player.language !== language()) {
    setLanguage(player.language);
    localStorage.setItem(LANGUAGE, player.language);
    applyStatic();
  }
  let game = current;
  const last = localStorage.getItem(LAST_GAME);
  if (!game && last) game = await api.game(last).catch(() => null);
  if (!game) {
    const stored = localStorage.getItem(DIFFICULTY);
    game = await api.newGame(DIFFICULTIES.includes(stored) ? stored : "peaceful");
  }
  show(game);
  render();
  document.body.dataset.ready = "1";
  performance.mark("magdagdon-ready");
  registerWorker(() => view.busy);
}

start().catch(() => {
  document.getElementById("message").textContent = t("errorNetwork");
});
