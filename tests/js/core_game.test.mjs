// Look-ups in the server's game state: where a die is, which dice are in the tray.
import test from "node:test";
import assert from "node:assert/strict";
import {
  dieAt, dieById, has, key, sameCell, stagedDice, trayDice, underWay,
} from "../../src/magdagdon/web/js/core/game.js";

const game = {
  phase: "place",
  turn: 2,
  dice: [
    { id: 0, value: 4, cell: [1, 2] },
    { id: 1, value: 2, cell: null },
    { id: 2, value: 5, cell: null },
    { id: 3, value: 3, cell: [0, 0] },
  ],
};

test("the tray and the staged dice split the roll", () => {
  assert.deepEqual(trayDice(game).map((d) => d.id), [1, 2]);
  assert.deepEqual(stagedDice(game).map((d) => d.id), [0, 3]);
});

test("a die is found by its id or its cell", () => {
  assert.equal(dieById(game, 2).value, 5);
  assert.equal(dieById(game, 9), null);
  assert.equal(dieAt(game, [1, 2]).id, 0);
  assert.equal(dieAt(game, [3, 3]), null);
});

test("cells compare by row and column", () => {
  assert.equal(key(1, 2), "1-2");
  assert.ok(sameCell([1, 2], [1, 2]));
  assert.ok(!sameCell([1, 2], [2, 1]));
  assert.ok(!sameCell(null, [1, 2]));
  assert.ok(has([[0, 0], [2, 3]], [2, 3]));
  assert.ok(!has(undefined, [2, 3]));
});

test("a game is under way from its first I-ROLL until it is over", () => {
  assert.ok(!underWay({ phase: "roll", turn: 0 }));
  assert.ok(underWay({ phase: "place", turn: 0 }));
  assert.ok(underWay({ phase: "roll", turn: 3 }));
  assert.ok(!underWay({ phase: "over", turn: 12 }));
});
