// Whole points, the one rounding of every expected score, luck and points given up a person
// reads: loaded with the review and the chart, not on the first visit.
import { num } from "./format.js";

// Halves go away from zero, so a figure and its negation round alike.
export function whole(n) {
  const r = Math.round(Math.abs(n));
  return n < 0 && r !== 0 ? -r : r;
}

// 283, −12 (whole points)
export function points(n) {
  return num(whole(n));
}

// Whole points for parts that add up to a total (each part with its sign: start, luck, −given up
// → the Final Score): each part rounded, then the few whose rounding most went the wrong way moved
// by 1 until the shown parts add up to the shown total exactly. Each stays within 1 point of its
// value; the total is `total` rounded.
export function wholeParts(parts, total) {
  const shown = parts.map(whole);
  let gap = whole(total) - shown.reduce((a, b) => a + b, 0);
  const moved = new Set();
  while (gap !== 0) {
    const step = Math.sign(gap);
    let pick = -1;
    parts.forEach((p, i) => {
      if (moved.has(i)) return;
      if (pick < 0 || (p - shown[i]) * step > (parts[pick] - shown[pick]) * step) pick = i;
    });
    if (pick < 0) break;
    moved.add(pick);
    shown[pick] += step;
    gap -= step;
  }
  return shown;
}
