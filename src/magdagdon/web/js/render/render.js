// Renders the whole view from the view state, every time (2048's way): status, board, tray,
// buttons, the message area (or the tutorial's coach), the game-over panel and the sheet.
import { hintMarks } from "../core/hint.js";
import { renderBoard } from "./board.js";
import { renderControls } from "./controls.js";
import { renderMark, renderMessage } from "./message.js";
import { renderStatus } from "./status.js";
import { renderTray } from "./tray.js";
import { renderBar } from "./bar.js";
import { shownGame } from "../core/view.js";
import { lazy } from "../lib/lazy.js";

// Parts drawn by a module that loads the first time it has something to show: the first screen
// shows no sheet (its style and other devices' words come with it) and no game over. The whole
// view is drawn again once it has loaded. The service worker keeps them after the first
// finished turn; a load that failed (no connection before that) is asked again by the next
// render, though a browser may hold the failure until the page is opened again.
function onDemand(load) {
  let module = null;
  let loading = null;
  return (view, dom, wanted, draw) => {
    if (module) return draw(module);
    if (!wanted) return;
    loading ??= load().then((m) => {
      module = m;
      render(view, dom); // the view as it is now: the part may be gone meanwhile
    }, (err) => {
      loading = null;
      console.warn(err);
    });
  };
}
const sheet = onDemand(() => lazy(() => import("./sheet.js"), { css: "css/sheet.css", words: "devices" }));
// (with the offline words: a game that ended on this device gives its place here)
const over = onDemand(() => lazy(() => import("./over.js"), { words: "offline" }));

export function render(view, dom) {
  const game = view.game;
  if (!game) return;
  const body = document.body;
  body.dataset.phase = game.phase;
  body.dataset.version = String(game.version);
  body.dataset.mode = game.mode ?? "normal";
  if (view.hint) body.dataset.hint = String(view.hint.version);
  else delete body.dataset.hint;
  const hint = view.hint && !view.tutorial ? hintMarks(view.hint, shownGame(view)) : null;
  renderStatus(dom.status, view);
  renderBoard(dom.board, view, hint);
  renderTray(dom.tray, view, hint);
  renderControls(dom.root, view, hint);
  if (view.tutorial) {
    view.tutorial.render(dom, view);
  } else {
    delete dom.message.dataset.tutorialStep;
    dom.root.querySelector('#actions [data-action="tutorial-done"]').hidden = true;
    dom.root.classList.remove("coach-last");
    for (const el of dom.root.querySelectorAll(".coached")) el.classList.remove("coached");
    renderMessage(dom.message, view, hint);
  }
  over(view, dom, game.phase === "over", (m) => m.renderOver(dom.over, view));
  renderMark(view, dom);
  dom.menu.hidden = Boolean(view.tutorial);
  renderBar(dom.menu, view);
  dom.skip.hidden = !view.tutorial;
  sheet(view, dom, view.sheet !== null, (m) => m.renderSheet(dom.sheet, view));
}
