// Taps, clicks and keys turned into the player's intents; it never looks at the game itself.
//   {kind: "action", name} · {kind: "cell", cell: [r, c]} · {kind: "die", id}
//   {kind: "difficulty", value} · {kind: "lang", value} · {kind: "choice", value}
// `keyboard` is true when the intent came from the keyboard (so focus can follow it).
const SHORTCUTS = { r: "roll", k: "confirm", c: "confirm", "-": "minus", "+": "plus", "=": "plus" };

export function listen(root, onIntent) {
  root.addEventListener("click", (event) => {
    const el = event.target.closest("[data-cell],[data-die],[data-action],[data-difficulty],[data-lang],[data-choice]");
    if (!el || el.disabled) return;
    const keyboard = event.detail === 0;
    const data = el.dataset;
    if (data.cell) onIntent({ kind: "cell", cell: data.cell.split("-").map(Number), el }, keyboard);
    else if (data.die) onIntent({ kind: "die", id: Number(data.die) }, keyboard);
    else if (data.action) onIntent({ kind: "action", name: data.action }, keyboard);
    else if (data.difficulty) onIntent({ kind: "difficulty", value: data.difficulty }, keyboard);
    else if (data.lang) onIntent({ kind: "lang", value: data.lang }, keyboard);
    else onIntent({ kind: "choice", value: data.choice }, keyboard);
  });

  root.querySelector("dialog").addEventListener("close", () =>
    onIntent({ kind: "action", name: "close" }, true));

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (root.querySelector("dialog[open]")) return;
    const target = event.target;
    if (target instanceof HTMLElement && target.matches(".cell") && moveInBoard(root, target, event.key)) {
      event.preventDefault();
      return;
    }
    if (target instanceof HTMLElement && target.matches(".die") && moveInTray(target, event.key)) {
      event.preventDefault();
      return;
    }
    const key = event.key.toLowerCase();
    if (key in SHORTCUTS) {
      event.preventDefault();
      onIntent({ kind: "action", name: SHORTCUTS[key] }, true);
    } else if (["1", "2", "3", "4"].includes(key)) {
      event.preventDefault();
      onIntent({ kind: "die", id: Number(key) - 1 }, true);
    } else if (key === "escape") {
      onIntent({ kind: "action", name: "cancel" }, true);
    }
  });
}

const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

function moveInBoard(root, cell, key) {
  const step = STEPS[key];
  if (!step) return false;
  const [r, c] = cell.dataset.cell.split("-").map(Number);
  const next = root.querySelector(`[data-cell="${r + step[0]}-${c + step[1]}"]`);
  if (next) focusCell(root, next);
  return true;
}

export function focusCell(root, cell) {
  for (const other of root.querySelectorAll(".cell")) other.tabIndex = other === cell ? 0 : -1;
  cell.focus();
}

function moveInTray(die, key) {
  if (key !== "ArrowLeft" && key !== "ArrowRight") return false;
  const dice = [...die.parentElement.querySelectorAll(".die:not(:disabled)")];
  const i = dice.indexOf(die) + (key === "ArrowLeft" ? -1 : 1);
  if (dice[i]) dice[i].focus();
  return true;
}
