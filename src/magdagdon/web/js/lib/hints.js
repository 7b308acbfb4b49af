// How many hints a game used, as every table of scores shows it (High Scores, the day's table):
// the count, or a hint-free game marked as such (docs/rules.md "Hints").
import { h } from "./dom.js";
import { t } from "../i18n/i18n.js";

export function hintsUsed(n) {
  if (n > 0) return String(n);
  return h("span", { class: "hint-free", title: t("hintFree"), "data-hint-free": "" },
    h("span", { "aria-hidden": "true" }, t("hintFreeMark")), h("span", { class: "sr" }, t("hintFree")));
}
