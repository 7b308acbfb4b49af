// The records, one tap from each other: High Scores, the daily challenge, STATISTIKA (the last
// two load when opened: more.js). On a narrow phone they are reached from here only.
import { h } from "../lib/dom.js";
import { t } from "../i18n/i18n.js";

export function recordsRow(current) {
  return h("div", { class: "choices three records", role: "group", "aria-label": t("highscores") },
    ["highscores", "daily", "stats"].map((name) =>
      h("button", { type: "button", class: "choice tab", "data-action": name, "aria-pressed": String(name === current) },
        h("span", { class: "choice-name" }, t(name)))));
}
