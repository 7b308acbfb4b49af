// What a hint shows, read from the server's answer (GET /api/games/{id}/hint) and the game: the
// cells and dice it points at (each drawn `hinted`), the face to draw on each of those cells, the
// button to press next, and the sentence that names the step and its cost. Nothing here is a
// rule: the advice is the server's, the page only lays it out.
import { key, sameCell, stagedDice } from "./game.js";

// The answer as the view keeps it: with the turn and the dice it was given for.
export function keptHint(answer, game) {
  return { ...answer, turn: game.turn, values: game.dice.map((d) => d.value).join() };
}

// Is the hint still worth showing in `game`? Yes for the state it was asked in, and while the
// player follows its placement die by die (the same turn and dice, every staged die on a cell
// the hint chose for its value).
export function followsHint(hint, game) {
  if (hint.version === game.version) return true;
  if (!hint.placement.length || game.phase !== "place" || game.turn !== hint.turn) return false;
  if (game.dice.map((d) => d.value).join() !== hint.values) return false;
  const planned = hint.placement.map((step) => [valueOf(game, step.die), step.cell]);
  return stagedDice(game).every((d) =>
    planned.some(([value, cell]) => value === d.value && sameCell(cell, d.cell)));
}

const valueOf = (game, id) => game.dice.find((d) => d.id === id)?.value;

export function hintMarks(hint, game) {
  const marks = { cells: new Map(), dice: new Set(), button: null, say: null };
  const action = hint.action;
  const cost = game.powers.next_penalty;
  const left = hint.placement.length && game.phase === "place" ? placementLeft(hint, game, marks) : 0;
  switch (action.type) {
    case "roll":
      marks.button = "roll";
      marks.say = { key: "hintRoll" };
      break;
    case "unstage": {
      const die = game.dice.find((d) => d.id === action.die);
      if (die?.cell) marks.cells.set(key(...die.cell), { back: true });
      marks.say = { key: "hintUnstage", params: { v: die?.value } };
      break;
    }
    case "adjust":
      marks.dice.add(action.die);
      marks.button = action.delta < 0 ? "minus" : "plus";
      marks.say = { key: action.delta < 0 ? "hintMinus" : "hintPlus",
        params: { v: valueOf(game, action.die), cost } };
      break;
    case "reroll":
      for (const id of action.dice) marks.dice.add(id);
      marks.button = "reroll";
      marks.say = { key: "hintReroll", params: { n: action.dice.length, cost } };
      break;
    case "ruin":
      marks.cells.set(key(...action.cell), { ruin: true });
      marks.button = "accept";
      marks.say = { key: "hintRuin" };
      break;
    default: // stage or confirm: the placement
      if (left) {
        marks.say = { key: left === 1 ? "hintPlaceOne" : "hintPlace", params: { n: left } };
      } else {
        marks.button = "confirm";
        marks.say = { key: "hintConfirm" };
      }
  }
  return marks;
}

// Marks the steps of the placement not staged yet; answers how many there are.
function placementLeft(hint, game, marks) {
  const staged = stagedDice(game);
  const done = new Set();
  let left = 0;
  for (const step of hint.placement) {
    const value = valueOf(game, step.die);
    const there = staged.find((d) => !done.has(d.id) && d.value === value && sameCell(d.cell, step.cell));
    if (there) {
      done.add(there.id);
      continue;
    }
    left += 1;
    marks.cells.set(key(...step.cell), { face: value });
    const tray = game.dice.filter((d) => d.cell === null && !marks.dice.has(d.id) && d.value === value);
    const die = tray.find((d) => d.id === step.die) ?? tray[0];
    if (die) marks.dice.add(die.id);
  }
  return left;
}
