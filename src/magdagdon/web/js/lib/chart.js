// The page's charts, drawn as inline SVG from the numbers the API gives (no chart request to
// anywhere else): STATISTIKA's histogram of scores and the player's mean beside the computer
// player's; the review's line of the expected Final Score through the game.
import { svg } from "./dom.js";
import { num } from "./format.js";
import { points as wholePoints } from "./points.js";

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

// The review's chart: V (the expected Final Score) through the game. Each step is a point (after
// it); the current step's segment and point are marked, and each labelled decision is a dot of
// its label's colour. A tap or click on the chart answers the step nearest to it (`onPick`).
const H = 96;
const PAD = { left: 34, right: 8, top: 8, bottom: 14 };

export function expectedScores(review, current, { title, onPick }) {
  const values = review.values;
  const n = values.length - 1; // steps
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(high - low, 10);
  const x = (i) => PAD.left + ((W - PAD.left - PAD.right) * i) / Math.max(n, 1);
  const y = (v) => PAD.top + ((H - PAD.top - PAD.bottom) * (high - v)) / span;
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const dots = review.steps.map((step, i) => step.label
    ? svg("circle", { class: `dot ${step.label}`, cx: x(i + 1), cy: y(values[i + 1]), r: 3.6 })
    : null);
  const at = current + 1;
  const mark = svg("g", { class: "now" },
    svg("line", { x1: x(at), x2: x(at), y1: PAD.top, y2: H - PAD.bottom }),
    svg("line", { class: "seg", x1: x(current), y1: y(values[current]), x2: x(at), y2: y(values[at]) }),
    svg("circle", { cx: x(at), cy: y(values[at]), r: 5 }));
  const ticks = [high, low].map((v) => svg("text", { class: "tick", x: PAD.left - 4, y: y(v) + 4 }, wholePoints(v)));
  const el = svg("svg", {
    class: "review-chart", viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "xMinYMid meet",
    role: "img", "aria-label": title,
    "data-review-chart": "",
  },
  svg("title", {}, title),
  svg("line", { class: "axis", x1: PAD.left, x2: W - PAD.right, y1: H - PAD.bottom, y2: H - PAD.bottom }),
  svg("polyline", { class: "line", points }),
  ...dots, mark, ...ticks);
  el.addEventListener("click", (event) => {
    const box = el.getBoundingClientRect();
    const px = ((event.clientX - box.left) / box.width) * W;
    const i = Math.round(((px - PAD.left) / (W - PAD.left - PAD.right)) * n);
    onPick(Math.min(Math.max(i - 1, 0), n - 1));
  });
  return el;
}
