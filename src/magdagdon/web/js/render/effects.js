// Short effects on the drawn view, started after a render: a shake for a refused tap, the roll's
// tumble, a die landing, a combo's celebration and a floating word. The CSS turns every movement
// into a still mark under prefers-reduced-motion.
function replay(el, name, ms) {
  if (!el) return;
  el.classList.remove(name);
  void el.offsetWidth; // restart the animation
  el.classList.add(name);
  setTimeout(() => el.classList.remove(name), ms);
}

export const shake = (el) => replay(el, "shake", 420);
export const land = (el) => replay(el, "landing", 260);

export function tumble(slots, ids) {
  for (const id of ids) replay(slots[id], "rolling", 500);
}

// lines: [{kind: "row" | "col", index}] of the board parts (render/board.js, createBoard).
export function celebrate(board, lines) {
  for (const { kind, index } of lines) {
    const cells = [0, 1, 2, 3].map((i) => board.cells[kind === "row" ? index * 4 + i : i * 4 + index]);
    for (const cell of cells) replay(cell, "celebrate", 1300);
    replay(kind === "row" ? board.rowSums[index] : board.colSums[index], "celebrate", 1300);
  }
}

export function toast(root, text, kind = "") {
  const el = document.createElement("div");
  el.className = `toast ${kind}`;
  el.textContent = text;
  root.append(el);
  setTimeout(() => el.remove(), 1400);
}
