// Whole points, the one rounding of every expected score, luck and given-up a player reads.
import test from "node:test";
import assert from "node:assert/strict";
import { points, whole, wholeParts } from "../../src/magdagdon/web/js/lib/points.js";
import { MINUS } from "../../src/magdagdon/web/js/lib/format.js";

// A small seeded generator: the same cases on every run.
function generator(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
}

test("halves round away from zero, so a figure and its negation round alike", () => {
  assert.equal(whole(2.5), 3);
  assert.equal(whole(-2.5), -3);
  assert.equal(whole(2.49), 2);
  assert.equal(whole(-0.4), 0);
  assert.ok(Object.is(whole(-0.4), 0), "no negative zero to print as −0");
});

test("points are written with a true minus sign", () => {
  assert.equal(points(-12.4), `${MINUS}12`);
  assert.equal(points(421.2), "421");
  assert.equal(points(-0.3), "0");
});

test("the shown parts add up to the shown total, each within a point of its value", () => {
  const random = generator(7);
  for (let round = 0; round < 2000; round += 1) {
    const parts = Array.from({ length: 1 + Math.floor(random() * 40) }, () => (random() - 0.5) * 200);
    const total = parts.reduce((a, b) => a + b, 0);
    const shown = wholeParts(parts, total);
    assert.equal(shown.reduce((a, b) => a + b, 0), whole(total));
    shown.forEach((value, i) => {
      assert.ok(Number.isInteger(value));
      assert.ok(Math.abs(value - parts[i]) < 1 + 1e-9, `${value} for ${parts[i]}`);
    });
  }
});

test("parts that are already whole are left as they are", () => {
  assert.deepEqual(wholeParts([421, -15, 7], 413), [421, -15, 7]);
});
