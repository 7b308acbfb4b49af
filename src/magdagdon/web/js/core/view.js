// The view state: the server's game and what the page shows around it. Renderers read it and
// nothing else; play.js changes it and then renders the whole view.
import { trayDice } from "./game.js";
import { followsHint } from "./hint.js";

export function createView() {
  return {
    game: null, // the state the server sent last
    selected: null, // the tray die chosen to stage or to change with a Power
    picking: false, // choosing the dice for I-ROLL ULIT
    picks: new Set(),
    accepting: false, // MAGDAGDON accepted: choosing the cell that becomes a RUIN
    stagePending: null, // {die, cell}: a stage sent and drawn at once, until the server answers
    busy: false, // a request is under way
    menuOpen: false, // MENU's list of screens is shown
    sheet: null, // "settings" | "highscores" | "rules" | "about" | "ask" | null
    ask: null, // a yes/no question: {kind: "new", difficulty} | {kind: "power", action, cost}
    scores: null, // High Scores by difficulty, while that sheet is open
    message: null, // {key, params, kind}: a short word on the last tap (why, error, cascade)
    hint: null, // the hint answer (GET /api/games/{id}/hint) while it is shown
    hintBusy: false,
    tutorial: null, // the coach while the tutorial runs (tutorial.js)
    offer: false, // a first visit: the tutorial offered in the message area until the first tap
    tutorialSeen: false, // the tutorial was taken (the first roll's words no longer offer it)
    sound: false,
    vibrate: false,
  };
}

export function litCells(view) {
  if (view.selected === null || view.picking || view.accepting || view.stagePending) return [];
  return view.game.valid_cells[String(view.selected)] ?? [];
}

export function resetModes(view) {
  view.selected = null;
  view.picking = false;
  view.picks = new Set();
  view.accepting = false;
}

// A state from the server becomes the view's game; modes that no longer apply end.
export function settle(view, game) {
  view.game = game;
  view.stagePending = null;
  const tray = new Set(trayDice(game).map((d) => d.id));
  if (!tray.has(view.selected)) view.selected = null;
  for (const id of view.picks) if (!tray.has(id)) view.picks.delete(id);
  if (game.phase !== "magdagdon") view.accepting = false;
  if (game.phase !== "place" && game.phase !== "magdagdon") view.picking = false;
  if (view.hint && !followsHint(view.hint, game)) view.hint = null;
}

// The game as the page draws it: the server's, with a stage under way drawn at once.
export function shownGame(view) {
  const game = view.game;
  const pending = view.stagePending;
  if (!pending) return game;
  return {
    ...game,
    dice: game.dice.map((d) => (d.id === pending.die ? { ...d, cell: pending.cell } : d)),
    valid_cells: {},
    can_confirm: false,
  };
}
