// The status lines: the difficulty (or TUTORIAL) and the turn, the live score, the Majda Powers
// left with the next one's cost, how many dice are still to place this turn, and a daily
// challenge's number (with "practice" when the attempt is not the ranked one).
import { stagedDice } from "../core/game.js";
import { t } from "../i18n/i18n.js";
import { num } from "../lib/format.js";
import { dailyLabel } from "./over.js";

export function renderStatus(root, view) {
  const game = view.game;
  const powers = game.powers;
  const still = Math.max(0, game.min_required - stagedDice(game).length);
  const mode = view.tutorial ? t("tutorial") : t(game.difficulty);
  const turn = game.turn > 0 ? `<span class="turn">${t("turn")} <b>${game.turn}</b></span>` : "";
  let power = "";
  if (powers.total > 0) {
    const next = powers.next_penalty === null || game.phase === "over" ? ""
      : ` <span class="next">${t("nextCost", { n: num(-powers.next_penalty) })}</span>`;
    power = `<span class="power-stat">${t("powers")} <b>${powers.left}/${powers.total}</b>${next}</span>`;
  }
  const daily = game.daily ? `<span class="daily-tag">${dailyLabel(game)}</span>` : "";
  let min = "";
  if (game.phase === "place") {
    min = game.can_confirm
      ? `<span class="min ok"><span aria-hidden="true">✓</span> ${t("minDone")}</span>`
      : `<span class="min">${t("minLeft")} <b>${still}</b></span>`;
  } else if (game.phase === "roll") {
    const rule = game.min_required === 1 ? "minRuleOne" : "minRule";
    min = `<span class="min">${t(rule, { n: game.min_required })}</span>`;
  }
  const html =
    '<div class="status-row">' +
    `<span class="difficulty">${mode}</span>${turn}` +
    `<span class="score">${t("score")} <b class="score-total">${num(game.score.total)}</b></span>` +
    "</div>" +
    `<div class="status-row small">${daily}${power}${min}</div>`;
  if (root.dataset.html !== html) {
    root.dataset.html = html;
    root.innerHTML = html;
  }
}
