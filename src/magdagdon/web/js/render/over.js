// The game-over panel: the Final Score, its parts, and the High Scores rank (of how many).
import { t } from "../i18n/i18n.js";
import { num, ordinal, signed } from "../lib/format.js";

// The foot of the panel: the rank and SURIIN ANG LARO; at a daily challenge's end also its
// number, the share step (share.js, loaded when tapped) and the day's table, the rank on a line
// of its own above the three buttons (a small phone has no room for two rows of buttons). Once
// the text was copied or shared, the share button says so.
function foot(game, view, rank) {
  const review = `<button type="button" class="btn quiet" data-action="review" data-game="${game.id}">${t("review")}</button>`;
  if (!game.daily) return `<div class="over-foot"><p class="rank">${rank}</p>${review}</div>`;
  const note = view.more?.shareNote?.game === game.id ? view.more.shareNote : null;
  return `<p class="rank"><span class="over-daily-n">#${game.daily.number}` +
    `${game.mode === "practice" ? ` · ${t("practice")}` : ""}</span> ${rank}</p>` +
    `<div class="over-daily"><button type="button" class="btn primary" data-action="share">` +
    `${note ? `<span class="share-note">✓ ${t(note.short)}</span>` : t("share")}</button>` +
    `<button type="button" class="btn quiet" data-action="daily">${t("dailyTableShort")}</button>${review}</div>`;
}

export function renderOver(el, view) {
  const game = view.game;
  el.hidden = game.phase !== "over";
  if (el.hidden) {
    el.dataset.html = "";
    return;
  }
  const s = game.score;
  const item = (label, value) => `<li><span>${label}</span> <b>${value}</b></li>`;
  const lines = [item(t("base"), num(s.base))];
  s.rows.forEach((line, r) => {
    if (line.combo) lines.push(item(t("lineRow", { r: r + 1, combo: t(line.combo) }), signed(line.bonus)));
  });
  s.columns.forEach((line, c) => {
    if (line.combo) lines.push(item(t("lineCol", { c: c + 1, combo: t(line.combo) }), signed(line.bonus)));
  });
  lines.push(item(t("ruins", { n: s.ruins }), num(-s.ruin_penalty)));
  if (game.powers.total > 0) {
    lines.push(item(t("powersUsed", { n: game.powers.used }), num(-s.power_penalty)));
  }
  let rank = t("noRank");
  if (game.rank) {
    rank = game.rank_among
      ? t("rankAmong", { rank: ordinal(game.rank), n: game.rank_among, difficulty: t(game.difficulty) })
      : t("rank", { rank: ordinal(game.rank), difficulty: t(game.difficulty) });
  }
  const html =
    `<div class="over-head"><h2 class="over-title">${t("gameOver")}</h2>` +
    `<p class="final">${t("finalScore")} <b class="final-score">${num(s.total)}</b></p></div>` +
    `<ul class="breakdown">${lines.join("")}</ul>` +
    foot(game, view, rank);
  if (el.dataset.html !== html) {
    el.dataset.html = html;
    el.innerHTML = html;
  }
}
