// The view state: the server's game and the page's modes around it.
import test from "node:test";
import assert from "node:assert/strict";
import { createView, litCells, settle, shownGame } from "../../src/magdagdon/web/js/core/view.js";

const placing = (dice, extra = {}) => ({
  phase: "place", turn: 1, version: 4, dice,
  valid_cells: { 1: [[0, 1], [1, 0]] }, can_confirm: true, ...extra,
});

test("the lit cells are the server's for the chosen tray die, none while a stage is under way", () => {
  const view = createView();
  view.game = placing([{ id: 0, value: 3, cell: [0, 0] }, { id: 1, value: 4, cell: null }]);
  assert.deepEqual(litCells(view), []);
  view.selected = 1;
  assert.deepEqual(litCells(view), [[0, 1], [1, 0]]);
  view.stagePending = { die: 1, cell: [0, 1] };
  assert.deepEqual(litCells(view), []);
});

test("a stage under way is drawn at once and nothing can be confirmed meanwhile", () => {
  const view = createView();
  view.game = placing([{ id: 1, value: 4, cell: null }]);
  view.stagePending = { die: 1, cell: [0, 1] };
  const shown = shownGame(view);
  assert.deepEqual(shown.dice[0].cell, [0, 1]);
  assert.deepEqual(shown.valid_cells, {});
  assert.equal(shown.can_confirm, false);
  assert.equal(view.game.dice[0].cell, null, "the server's game is left as it was");
});

test("a new state ends the modes that no longer apply", () => {
  const view = createView();
  view.game = placing([{ id: 1, value: 4, cell: null }, { id: 2, value: 2, cell: null }]);
  view.selected = 1;
  view.picks = new Set([1, 2]);
  view.picking = true;
  view.accepting = true;
  view.stagePending = { die: 1, cell: [0, 1] };
  settle(view, placing([{ id: 1, value: 4, cell: [0, 1] }, { id: 2, value: 2, cell: null }], { version: 5 }));
  assert.equal(view.stagePending, null);
  assert.equal(view.selected, null, "the chosen die left the tray");
  assert.deepEqual([...view.picks], [2]);
  assert.equal(view.accepting, false);
  assert.equal(view.picking, true);
  settle(view, { ...view.game, phase: "roll", dice: [], valid_cells: {} });
  assert.equal(view.picking, false);
});
