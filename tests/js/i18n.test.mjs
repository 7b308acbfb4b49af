// The page's words: one t() over a table per language, loaded by parts.
import test from "node:test";
import assert from "node:assert/strict";

// setLanguage marks the document's language: the one part of the DOM it touches.
globalThis.document = { documentElement: { lang: "fil" } };
const i18n = await import("../../src/magdagdon/web/js/i18n/i18n.js");
const fil = (await import("../../src/magdagdon/web/js/i18n/fil.js")).default;
const en = (await import("../../src/magdagdon/web/js/i18n/en.js")).default;

test("placeholders are filled by name, a missing one left empty", () => {
  assert.equal(i18n.fill("{a} at {b}", { a: 1, b: "x" }), "1 at x");
  assert.equal(i18n.fill("{a}{missing}", { a: 2 }), "2");
});

test("Filipino is the language until another is loaded", () => {
  assert.equal(i18n.language(), "fil");
  assert.equal(i18n.setLanguage("en"), false, "English's words are not loaded yet");
  assert.equal(i18n.setLanguage("xx"), false);
  assert.equal(i18n.language(), "fil");
});

test("an unknown key reads as itself; a count of one takes its own words", () => {
  assert.equal(i18n.t("no-such-key"), "no-such-key");
  const withOne = Object.keys(fil).find((key) => key.endsWith("One") && fil[key.slice(0, -3)]);
  assert.ok(withOne, "the table has words for a count of one");
  const base = withOne.slice(0, -3);
  assert.equal(i18n.t(base, { n: 1 }), i18n.fill(fil[withOne], { n: 1 }));
  assert.equal(i18n.t(base, { n: 2 }), i18n.fill(fil[base], { n: 2 }));
});

test("English, once loaded, is used; a word it lacks falls back to Filipino", async () => {
  await i18n.use("en");
  assert.equal(i18n.setLanguage("en"), true);
  assert.equal(globalThis.document.documentElement.lang, "en");
  const both = Object.keys(en).find((key) => typeof en[key] === "string" && en[key] !== fil[key]);
  assert.equal(i18n.t(both), en[both]);
  assert.equal(i18n.entry("no-such-key"), undefined);
  assert.equal(i18n.setLanguage("fil"), true);
});

test("both tables have the same keys", () => {
  assert.deepEqual(Object.keys(en).sort(), Object.keys(fil).sort());
});
