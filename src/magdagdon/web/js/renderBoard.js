// The 4×4 board with each row's and column's sum and combo badge, rendered from the state.
import { faceButton, showFace } from "./dice.js";
import { t } from "./i18n.js";

const SIZE = 4;
const key = (r, c) => `${r}-${c}`;

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
  return { cells, rowSums, colSums };
}

function sumBox(root, kind) {
  const box = document.createElement("div");
  box.className = `sum ${kind}`;
  box.innerHTML = '<span class="sr"></span><span class="total" aria-hidden="true"></span>' +
    '<span class="badge" aria-hidden="true"></span>';
  root.append(box);
  return box;
}

function cellsOf(list) {
  return new Set((list ?? []).map(([r, c]) => key(r, c)));
}

export function renderBoard(parts, view) {
  const game = view.game;
  const staged = new Map();
  for (const die of game.dice) if (die.cell) staged.set(key(...die.cell), die);
  const lit = view.selected !== null && !view.picking
    ? cellsOf(game.valid_cells[String(view.selected)]) : new Set();
  const ruinable = view.accepting ? cellsOf(game.ruinable) : new Set();

  parts.cells.forEach((cell, i) => {
    const r = Math.floor(i / SIZE);
    const c = i % SIZE;
    const k = key(r, c);
    const value = game.board[r][c];
    const die = staged.get(k);
    const params = { r: r + 1, c: c + 1, v: die ? die.value : value };
    let label;
    let kind;
    if (die) {
      kind = "staged";
      label = t("cellStaged", params);
      cell.dataset.die = String(die.id);
      showFace(cell.firstChild, die.value);
    } else {
      delete cell.dataset.die;
      if (value === "ruin") {
        kind = "ruin";
        label = t("cellRuin", params);
        cell.firstChild.dataset.face = "ruin";
        cell.firstChild.textContent = t("ruin");
      } else if (value === null) {
        kind = "empty";
        label = t("cellEmpty", params);
        showFace(cell.firstChild, null);
      } else {
        kind = "number";
        label = t("cellNumber", params);
        showFace(cell.firstChild, value);
      }
    }
    cell.classList.toggle("staged", kind === "staged");
    cell.classList.toggle("ruin", kind === "ruin");
    cell.classList.toggle("number", kind === "number");
    cell.classList.toggle("empty", kind === "empty");
    cell.classList.toggle("valid", lit.has(k));
    cell.classList.toggle("ruinable", ruinable.has(k));
    if (lit.has(k)) label += `, ${t("cellValid")}`;
    if (ruinable.has(k)) label += `, ${t("cellRuinable")}`;
    cell.setAttribute("aria-label", label);
  });

  const score = game.score;
  score.rows.forEach((line, r) => renderSum(parts.rowSums[r], line, t("rowSum", { r: r + 1, s: line.sum })));
  score.columns.forEach((line, c) =>
    renderSum(parts.colSums[c], line, t("colSum", { c: c + 1, s: line.sum })),
  );
}

function renderSum(box, line, label) {
  const [sr, total, badge] = box.children;
  total.textContent = String(line.sum);
  if (line.combo) {
    badge.innerHTML = `<span>${t(`short_${line.combo}`)}</span> <span>+${line.bonus}</span>`;
    box.classList.add("combo");
    sr.textContent = `${label}, ${t("lineBonus", { combo: t(line.combo), b: line.bonus })}`;
  } else {
    badge.textContent = "";
    box.classList.remove("combo");
    sr.textContent = label;
  }
}
