// The hint button (data-action="hint"): asks the computer player for the best move of the current
// state and shows it — the whole recommended placement on the board (each marked cell shows the die
// value to put there), the die or cell to act on, and the expected final score. Any change of the
// game (a new version or phase on <body>) clears the marks. The server counts every hint asked.
import { t } from "./i18n.js";

const LAST_GAME = "magdagdon.lastGame";
const root = document.getElementById("app");
const body = document.body;

function link() {
  const css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = "css/hint.css";
  document.head.append(css);
}

function createButton() {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "btn quiet hint-btn";
  button.dataset.i18nLabel = "hint";
  button.dataset.action = "hint";
  button.innerHTML =
    '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M9 18h6M10 21h4M12 3a6 6 0 0 0-3.6 10.8' +
    'c.6.5 1 1.2 1 2V16h5.2v-.2c0-.8.4-1.5 1-2A6 6 0 0 0 12 3z"/></svg><span data-i18n="hint"></span>';
  button.querySelector("span").textContent = t("hint");
  const actions = root.querySelector("#actions");
  actions.insertBefore(button, actions.querySelector('[data-action="new-game"]'));
  const note = document.createElement("p");
  note.className = "hint-note";
  note.id = "hint-note";
  note.setAttribute("aria-live", "polite");
  note.hidden = true;
  root.querySelector("#message").after(note);
  return { button, note };
}

const parts = createButton();
link();

function clear() {
  for (const el of root.querySelectorAll("[data-hint]")) delete el.dataset.hint;
  for (const el of root.querySelectorAll(".hinted")) el.classList.remove("hinted");
  parts.note.hidden = true;
  parts.note.textContent = "";
}

function cellEl([r, c]) {
  return root.querySelector(`.board [data-cell="${r}-${c}"]`);
}

function dieEl(id) {
  return root.querySelector(`.tray [data-die="${id}"]`);
}

function mark(el, text) {
  if (!el) return;
  el.classList.add("hinted");
  el.dataset.hint = text;
}

function describe(hint, dice) {
  const action = hint.action;
  const value = (id) => dice.find((d) => d.id === id)?.value ?? "";
  switch (action.type) {
    case "roll":
      return t("adviceRoll");
    case "stage":
    case "confirm":
      return hint.placement.length ? t("advicePlace") : t("adviceConfirm");
    case "unstage":
      return t("adviceUnstage");
    case "adjust":
      return t("advicePower", { power: t(action.delta < 0 ? "minus" : "plus"), v: value(action.die) });
    case "reroll":
      return t("adviceReroll");
    case "ruin":
      return t("adviceRuin");
    default:
      return "";
  }
}

function show(hint, game) {
  clear();
  const value = (id) => String(game.dice.find((d) => d.id === id)?.value ?? "");
  for (const step of hint.placement) {
    mark(cellEl(step.cell), value(step.die));
    mark(dieEl(step.die), "");
  }
  const action = hint.action;
  if (action.type === "ruin") mark(cellEl(action.cell), t("ruin"));
  if (action.type === "adjust" || action.type === "unstage") mark(dieEl(action.die), "");
  if (action.type === "reroll") for (const id of action.dice) mark(dieEl(id), "");
  if (action.type === "roll" || action.type === "confirm") {
    mark(root.querySelector(`#actions [data-action="${action.type}"]`), "");
  }
  const expected = t("adviceExpected", { value: Math.round(hint.expected_value) });
  parts.note.textContent = `${describe(hint, game.dice)} ${expected}`;
  parts.note.hidden = false;
  body.dataset.hint = String(hint.version);
}

async function ask() {
  const id = localStorage.getItem(LAST_GAME);
  if (!id || body.dataset.busy || body.dataset.phase === "over") return;
  parts.button.disabled = true;
  body.dataset.hintBusy = "1";
  try {
    const base = `/api/games/${encodeURIComponent(id)}`;
    const [hint, game] = await Promise.all([
      fetch(`${base}/hint`, { credentials: "same-origin" }).then((r) => (r.ok ? r.json() : null)),
      fetch(base, { credentials: "same-origin" }).then((r) => (r.ok ? r.json() : null)),
    ]);
    if (hint && game && String(hint.version) === body.dataset.version) show(hint, game);
    else if (!hint) {
      parts.note.textContent = t("adviceNone");
      parts.note.hidden = false;
    }
  } catch {
    parts.note.textContent = t("errorNetwork");
    parts.note.hidden = false;
  } finally {
    delete body.dataset.hintBusy;
    refresh();
  }
}

function refresh() {
  parts.button.disabled = body.dataset.phase === "over" || Boolean(body.dataset.hintBusy);
}

parts.button.addEventListener("click", ask);

// Clear the marks as soon as the game moves on (the page re-renders with a new version/phase),
// and when the language changes (the note would be in the other language).
let seen = `${body.dataset.version}/${body.dataset.phase}`;
new MutationObserver(() => {
  const now = `${body.dataset.version}/${body.dataset.phase}`;
  if (now !== seen) {
    seen = now;
    clear();
    delete body.dataset.hint;
  }
  refresh();
}).observe(body, { attributes: true, attributeFilter: ["data-version", "data-phase", "data-busy"] });
new MutationObserver(clear).observe(document.documentElement, {
  attributes: true,
  attributeFilter: ["lang"],
});
