// Numbers as each language writes them: a true minus sign, never a hyphen.
import test from "node:test";
import assert from "node:assert/strict";
import { MINUS, num, rounded, signed } from "../../src/magdagdon/web/js/lib/format.js";

test("a negative number has the minus sign U+2212", () => {
  assert.equal(MINUS, "\u2212");
  assert.equal(num(-15), "\u221215");
  assert.equal(num(12), "12");
  assert.equal(num(0), "0");
});

test("a signed number always shows its sign", () => {
  assert.equal(signed(12), "+12");
  assert.equal(signed(0), "+0");
  assert.equal(signed(-15), "\u221215");
});

test("a mean is rounded to its digits, with no hyphen for a negative one", () => {
  assert.equal(rounded(null), "—");
  assert.equal(rounded(undefined), "—");
  assert.equal(rounded(1234.56), "1,234.6");
  assert.equal(rounded(418.04), "418");
  assert.equal(rounded(-3.25, 2), "\u22123.25");
  assert.ok(!rounded(-1234.5).includes("-"));
});
