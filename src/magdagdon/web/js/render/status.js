// The status lines: the difficulty (or TUTORIAL) and the turn, the live score, the Majda Powers
// left (the next one's cost is on the Power buttons themselves), how many dice are still to place this turn, and a daily
// challenge's number (with "practice" when the attempt is not the ranked one).
import { stagedDice } from "../core/game.js";
import { h } from "../lib/dom.js";
import { t } from "../i18n/i18n.js";
import { num } from "../lib/format.js";

// The words and numbers of the two lines, as [tag, class, parts…] (a part in bold is [text]).
function lines(view) {
  const game = view.game;
  const powers = game.powers;
  const still = Math.max(0, game.min_required - stagedDice(game).length);
  const top = [["span", "difficulty", view.tutorial ? t("tutorial") : t(game.difficulty)]];
  if (game.turn > 0) top.push(["span", "turn", `${t("turn")} `, [String(game.turn)]]);
  top.push(["span", "score", `${t("score")} `, [num(game.score.total), "score-total"]]);
  const small = [];
  if (game.daily) small.push(["span", "daily-tag", dailyLabel(game)]);
  if (powers.total > 0) small.push(["span", "power-stat", `${t("powers")} `, [`${powers.left}/${powers.total}`]]);
  if (game.phase === "place") {
    small.push(game.can_confirm
      ? ["span", "min ok", ["span:aria", "✓"], ` ${t("minDone")}`]
      : ["span", "min", `${t("minLeft")} `, [String(still)]]);
  } else if (game.phase === "roll") {
    small.push(["span", "min", t(game.min_required === 1 ? "minRuleOne" : "minRule", { n: game.min_required })]);
  }
  return [top, small];
}

function part(p) {
  if (typeof p === "string") return p;
  if (p[0] === "span:aria") return h("span", { "aria-hidden": "true" }, p[1]);
  return h("b", { class: p[1] }, p[0]);
}

// "HAMON #9" (or "… · praktis"): the daily challenge's number, never a bare "#9".
export function dailyLabel(game) {
  return `${t("dailyNumber", { n: game.daily.number })}${game.mode === "practice" ? ` · ${t("practice")}` : ""}`;
}

export function renderStatus(root, view) {
  const [top, small] = lines(view);
  const key = JSON.stringify([top, small]);
  if (root.dataset.key === key) return;
  root.dataset.key = key;
  const row = (cls, spans) => h("div", { class: cls },
    spans.map(([tag, cls2, ...parts]) => h(tag, { class: cls2 }, parts.map(part))));
  root.replaceChildren(row("status-row", top), row("status-row small", small));
}
