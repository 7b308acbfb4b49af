// The difficulties, easiest first (docs/rules.md).
export const DIFFICULTIES = ["peaceful", "survival", "nightmare"];

// Look-ups in the server's game state (no rule here: where a die is, which dice are in the tray).
export const key = (r, c) => `${r}-${c}`;
export const sameCell = (a, b) => Boolean(a && b) && a[0] === b[0] && a[1] === b[1];
export const trayDice = (game) => game.dice.filter((d) => d.cell === null);
export const stagedDice = (game) => game.dice.filter((d) => d.cell !== null);
export const dieById = (game, id) => game.dice.find((d) => d.id === id) ?? null;
export const dieAt = (game, cell) => game.dice.find((d) => sameCell(d.cell, cell)) ?? null;
export const has = (cells, cell) => (cells ?? []).some((c) => sameCell(c, cell));

// Before the first I-ROLL nothing is lost by starting again.
export function underWay(game) {
  return game.phase !== "over" && (game.turn > 0 || game.phase !== "roll");
}
