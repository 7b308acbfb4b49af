// The status lines: turn, difficulty, Majda Powers and their next cost, the minimum still to
// place, and the live score with its parts.
import { t } from "./i18n.js";

function stat(label, value, extra = "") {
  return `<div class="stat ${extra}"><span class="label">${label}</span> <b>${value}</b></div>`;
}

export function renderStatus(root, view) {
  const game = view.game;
  const powers = game.powers;
  const score = game.score;
  const stagedCount = game.dice.filter((d) => d.cell !== null).length;
  const still = Math.max(0, game.min_required - stagedCount);
  let powerText = game.phase === "over" ? t("powersLeft", { n: powers.left }) : t("powersNone");
  if (powers.left > 0 && game.phase !== "over") {
    powerText = `${t("powersLeft", { n: powers.left })}`;
    if (powers.next_penalty !== null) powerText += ` · ${t("nextCost", { n: powers.next_penalty })}`;
  }
  const place = game.phase === "place" || game.phase === "roll";
  const minText = game.can_confirm ? `<span class="ok" aria-hidden="true">✓</span> ${t("minDone")}`
    : `${t("minLeft")} <b>${still}</b>`;
  root.innerHTML =
    '<div class="status-row">' +
    stat(t("turn"), game.turn, "turn") +
    stat(t("difficulty"), t(game.difficulty), "difficulty") +
    `<div class="stat score"><span class="label">${t("score")}</span> ` +
    `<b class="score-total">${score.total}</b></div>` +
    "</div>" +
    `<div class="parts">${parts(score)}</div>` +
    '<div class="status-row">' +
    (powers.total > 0 ? stat(t("powers"), powerText, "power-stat") : "") +
    (game.phase !== "over" && place ? `<div class="stat min">${minText}</div>` : "") +
    "</div>";
}

function parts(score) {
  const items = [`${t("base")} ${score.base}`];
  if (score.bonus) items.push(`+${score.bonus}`);
  if (score.ruins) items.push(`${t("ruins", { n: score.ruins })} −${score.ruin_penalty}`);
  if (score.power_penalty) items.push(`${t("powerPenalty")} −${score.power_penalty}`);
  return items.join(" · ");
}
