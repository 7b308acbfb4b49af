// The 4×4 board with each row's and column's sum and combo badge, rendered from the view: the
// permanent numbers, the staged dice (and a stage under way), the lit cells of the chosen die,
// the cells a RUIN may go on, the hint's marks, and each line's sum as KUMPIRMAHIN would make it.
import { faceButton, showFace } from "./dice.js";
import { key } from "../core/game.js";
import { h } from "../lib/dom.js";
import { t } from "../i18n/i18n.js";
import { litCells, shownGame } from "../core/view.js";

const SIZE = 4;

export function createBoard(root) {
  const cells = [];
  const rowSums = [];
  const colSums = [];
  for (let r = 0; r < SIZE; r++) {
    for (let c = 0; c < SIZE; c++) {
      const cell = faceButton("cell");
      cell.dataset.cell = key(r, c);
      cell.tabIndex = r === 0 && c === 0 ? 0 : -1;
      root.append(cell);
      cells.push(cell);
    }
    rowSums.push(sumBox(root, "row"));
  }
  for (let c = 0; c < SIZE; c++) colSums.push(sumBox(root, "col"));
  const corner = document.createElement("div");
  corner.className = "sum corner";
  corner.setAttribute("aria-hidden", "true");
  corner.textContent = "Σ";
  root.append(corner);
  return { root, cells, rowSums, colSums };
}

function sumBox(root, kind) {
  const box = document.createElement("div");
  box.className = `sum ${kind}`;
  box.append(h("span", { class: "sr" }), h("span", { class: "total", "aria-hidden": "true" }),
    h("span", { class: "badge", "aria-hidden": "true" }));
  root.append(box);
  return box;
}

const keysOf = (cells) => new Set((cells ?? []).map(([r, c]) => key(r, c)));

export function renderBoard(parts, view, hint) {
  const game = shownGame(view);
  const staged = new Map();
  for (const die of game.dice) if (die.cell) staged.set(key(...die.cell), die);
  const lit = keysOf(litCells(view));
  const ruinable = view.accepting ? keysOf(game.ruinable) : new Set();

  parts.cells.forEach((cell, i) => {
    const r = Math.floor(i / SIZE);
    const c = i % SIZE;
    const k = key(r, c);
    const value = game.board[r][c];
    const die = staged.get(k);
    const params = { r: r + 1, c: c + 1, v: die ? die.value : value };
    const [pips, hintFace] = cell.children;
    let kind;
    let label;
    if (die) {
      kind = "staged";
      label = t("cellStaged", params);
      cell.dataset.die = String(die.id);
      showFace(pips, die.value);
    } else {
      delete cell.dataset.die;
      if (value === "ruin") {
        kind = "ruin";
        label = t("cellRuin", params);
        pips.dataset.face = "ruin";
        pips.textContent = t("ruin");
      } else if (value === null) {
        kind = "empty";
        label = t("cellEmpty", params);
        showFace(pips, null);
      } else {
        kind = "number";
        label = t("cellNumber", params);
        showFace(pips, value);
      }
    }
    for (const name of ["staged", "ruin", "number", "empty"]) cell.classList.toggle(name, kind === name);
    cell.classList.toggle("pending", Boolean(die) && view.stagePending?.die === die.id);
    cell.classList.toggle("valid", lit.has(k));
    cell.classList.toggle("ruinable", ruinable.has(k));
    if (lit.has(k)) label += `, ${t("cellValid")}`;
    if (ruinable.has(k)) label += `, ${t("cellRuinable")}`;
    const mark = hint?.cells.get(k) ?? null;
    cell.classList.toggle("hinted", mark !== null);
    label += renderHintFace(hintFace, mark);
    cell.setAttribute("aria-label", label);
  });

  const now = game.score;
  const next = game.preview ?? now;
  now.rows.forEach((line, r) =>
    renderSum(parts.rowSums[r], line, next.rows[r], t("rowSum", { r: r + 1, s: line.sum })));
  now.columns.forEach((line, c) =>
    renderSum(parts.colSums[c], line, next.columns[c], t("colSum", { c: c + 1, s: line.sum })));
}

// The hint's mark on a cell: the face of the die it suggests there, a RUIN, or a return arrow on
// the staged die to take back. Answers what the cell's label says of it.
function renderHintFace(slot, mark) {
  const shown = mark === null ? "" : mark.face ? `face${mark.face}` : mark.ruin ? "ruin" : "back";
  if (slot.dataset.shown === shown) return mark ? hintLabel(mark) : "";
  slot.dataset.shown = shown;
  delete slot.dataset.face;
  if (mark === null) slot.replaceChildren();
  else if (mark.face) showFace(slot, mark.face);
  else slot.textContent = mark.ruin ? t("ruin") : "↩";
  return mark ? hintLabel(mark) : "";
}

function hintLabel(mark) {
  if (mark.face) return `, ${t("cellHintFace", { v: mark.face })}`;
  return `, ${t(mark.ruin ? "cellHintRuin" : "cellHintBack")}`;
}

// A line's sum and combo: the permanent one, or (styled apart) what KUMPIRMAHIN would make it.
function renderSum(box, line, next, label) {
  const [sr, total, badge] = box.children;
  const preview = next.sum !== line.sum || next.combo !== line.combo;
  const shown = preview ? next : line;
  total.textContent = String(shown.sum);
  box.classList.toggle("preview", preview);
  box.classList.toggle("combo", Boolean(shown.combo));
  const combo = shown.combo ? `${t(`short_${shown.combo}`)}|${shown.bonus}` : "";
  if (badge.dataset.combo !== combo) {
    badge.dataset.combo = combo;
    if (shown.combo) badge.replaceChildren(h("span", {}, t(`short_${shown.combo}`)), " ", h("span", {}, `+${shown.bonus}`));
    else badge.replaceChildren();
  }
  let words = label;
  if (line.combo) words += `, ${t("lineBonus", { combo: t(line.combo), b: line.bonus })}`;
  if (preview) {
    words += `; ${t("linePreview", { s: next.sum })}`;
    if (next.combo) words += ` ${t("lineBonus", { combo: t(next.combo), b: next.bonus })}`;
  }
  sr.textContent = words;
}
