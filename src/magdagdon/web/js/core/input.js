// Taps, clicks and keys turned into the player's intents; it never looks at the game itself.
// The intents' shapes: docs/web.md (Intents).
import { hookOf } from "../lib/dom.js";

const SHORTCUTS = {
  r: "roll", k: "confirm", c: "confirm", "-": "minus", _: "minus", "+": "plus", "=": "plus",
  u: "reroll", t: "accept", h: "hint", n: "new-game", "?": "rules", escape: "cancel",
};
const TARGETS = "[data-cell],[data-die],[data-action],[data-difficulty],[data-lang],[data-choice],[data-pref]";

export function listen(root, onIntent) {
  function tapped(el, event, keyboard) {
    if (!el || el.disabled) return;
    const base = { el, keyboard, repeat: event.detail > 1, at: event.timeStamp };
    const data = el.dataset;
    if (el.getAttribute("aria-disabled") === "true") {
      onIntent({ ...base, kind: "refused", name: data.action, why: data.why || "whyNotNow" });
    } else if (data.cell) onIntent({ ...base, kind: "cell", cell: data.cell.split("-").map(Number) });
    else if (data.die) onIntent({ ...base, kind: "die", id: Number(data.die) });
    else if (data.action) onIntent({ ...base, kind: "action", name: data.action });
    else if (data.difficulty) onIntent({ ...base, kind: "difficulty", value: data.difficulty });
    else if (data.lang) onIntent({ ...base, kind: "lang", value: data.lang });
    else if (data.pref) onIntent({ ...base, kind: "pref", value: data.pref });
    else onIntent({ ...base, kind: "choice", value: data.choice });
  }

  // A redraw between a press and its release (a sheet filling in as the player taps) replaces
  // the button under the finger, and the browser then sends no click: the release on the same
  // button, drawn again, is the tap.
  let pressed = null;
  let released = null;
  root.addEventListener("pointerdown", (event) => {
    pressed = event.target.closest?.(TARGETS) ?? null;
    released = null;
  });
  root.addEventListener("pointerup", (event) => {
    const was = pressed;
    pressed = null;
    if (!was || was.isConnected) return;
    const el = event.target.closest?.(TARGETS);
    if (!el || hookOf(el) !== hookOf(was)) return;
    released = el; // a browser that clicks it all the same: that click is this tap
    tapped(el, event, false);
  });
  root.addEventListener("click", (event) => {
    const el = event.target.closest(TARGETS);
    if (el && el === released) {
      released = null;
      return;
    }
    tapped(el, event, event.detail === 0);
  });

  // (a close event that comes after the sheet was opened again, by a key pressed at once after
  // Esc, is late news: the sheet open now stays)
  const dialog = root.querySelector("dialog");
  dialog.addEventListener("close", () => {
    if (!dialog.open) onIntent({ kind: "action", name: "close", keyboard: true });
  });
  // a tap on the dimmed page around the sheet (the dialog itself, outside its box) closes it
  dialog.addEventListener("click", (event) => {
    if (event.target !== dialog) return;
    const r = dialog.getBoundingClientRect();
    const inside = event.clientX >= r.left && event.clientX <= r.right && event.clientY >= r.top && event.clientY <= r.bottom;
    if (!inside) onIntent({ kind: "action", name: "close", el: dialog });
  });

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
      pressButton(root, SHORTCUTS[key], onIntent);
    } else if (["1", "2", "3", "4"].includes(key)) {
      event.preventDefault();
      const die = root.querySelector(`.tray [data-die="${Number(key) - 1}"]`);
      if (die) die.click();
    }
  });
}

// A shortcut presses its button as a click would (so a disabled one says why); an action
// without a visible button (cancel, a hidden one) still reaches the page as an intent.
function pressButton(root, name, onIntent) {
  const el = [...root.querySelectorAll(`[data-action="${name}"]`)].find((b) => b.offsetParent !== null);
  if (el) el.click();
  else onIntent({ kind: "action", name, keyboard: true });
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
