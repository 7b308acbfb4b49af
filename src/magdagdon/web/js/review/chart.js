// The review's chart: V (the expected Final Score) through the game, drawn by the page as inline
// SVG from the review's numbers. Each step is a point (after it); the current step's segment and
// point are marked, and each labelled decision is a dot of its label's colour. A tap or click
// on the chart answers the step nearest to it (`onPick`).
import { svg } from "./dom.js";
import { tx } from "../i18n/review.js";
import { decimal } from "./format.js";

const W = 320;
const H = 96;
const PAD = { left: 34, right: 8, top: 8, bottom: 14 };

export function chart(review, current, onPick) {
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
  const ticks = [high, low].map((v) => svg("text", { class: "tick", x: PAD.left - 4, y: y(v) + 4 }, decimal(v, 0)));
  const title = `${tx("chartTitle")}: ${decimal(values[0])} → ${decimal(values[n])}`;
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
