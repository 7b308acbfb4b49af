// The charts of STATISTIKA, drawn by the page as inline SVG from the numbers the API gives
// (no chart request to anywhere else): the scores' histogram, and the player's mean beside the
// computer player's.
import { svg } from "./dom.js";
import { num } from "./format.js";

const W = 320;

// bins: [{from, to, count}]; label(bin): the words a screen reader says for one bar.
export function histogram(bins, { title, label }) {
  const height = 150;
  const top = 14;
  const bottom = 22;
  const most = Math.max(1, ...bins.map((b) => b.count));
  const step = W / bins.length;
  const bars = bins.map((bin, i) => {
    const tall = ((height - top - bottom) * bin.count) / most;
    const x = i * step + 2;
    const y = height - bottom - tall;
    return svg("g", { role: "listitem", "aria-label": label(bin) },
      svg("rect", { class: "bar", x, y, width: step - 4, height: Math.max(tall, bin.count ? 2 : 0), rx: 2 }),
      bin.count ? svg("text", { class: "count", x: x + (step - 4) / 2, y: y - 3 }, String(bin.count)) : null);
  });
  const ticks = bins.filter((_, i) => i % 2 === 0).map((bin) => {
    const i = bins.indexOf(bin);
    return svg("text", { class: "tick", x: i * step + 2, y: height - 6 }, num(bin.from));
  });
  return svg("svg", { class: "chart histogram", viewBox: `0 0 ${W} ${height}`, role: "img", "aria-label": title },
    svg("title", {}, title),
    svg("line", { class: "axis", x1: 0, x2: W, y1: height - bottom, y2: height - bottom }),
    svg("g", { role: "list" }, bars),
    svg("g", { "aria-hidden": "true" }, ticks));
}

// Two horizontal bars on one scale (0 to 544, the highest possible score).
export function versus(rows, title) {
  const height = 26 * rows.length + 4;
  const scale = 544;
  const left = 92;
  const room = W - left - 44;
  const bars = rows.map((row, i) => {
    const y = 4 + i * 26;
    const width = Math.max(0, (room * Math.max(0, row.value)) / scale);
    return svg("g", {},
      svg("text", { class: "label", x: 0, y: y + 15 }, row.label),
      svg("rect", { class: `bar ${row.kind}`, x: left, y, width: Math.max(width, 2), height: 20, rx: 3 }),
      svg("text", { class: "value", x: left + Math.max(width, 2) + 6, y: y + 15 }, row.text));
  });
  return svg("svg", { class: "chart versus", viewBox: `0 0 ${W} ${height}`, role: "img", "aria-label": title },
    svg("title", {}, title), bars);
}
