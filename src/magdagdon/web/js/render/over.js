// The game-over panel: the Final Score, its parts (one column, a line with nothing in it left
// out), the High Scores rank (of how many), and a word of celebration for a new best. Loaded when
// a game is first seen over (render.js).
import { h } from "../lib/dom.js";
import { t } from "../i18n/i18n.js";
import { num, signed } from "../lib/format.js";
import { lazy } from "../lib/lazy.js";
import { dailyLabel } from "./status.js";

// The foot of the panel: the rank and SURIIN ANG LARO; at a daily challenge's end also its
// number, the share step (share.js, loaded when tapped) and the day's table, the rank on a line
// of its own above the three buttons (a small phone has no room for two rows of buttons). Once
// the text was copied or shared, the share button says so; under them, the time to the next
// challenge.
function foot(game, view, rank) {
  const review = h("button", { type: "button", class: "btn quiet", "data-action": "review", "data-game": game.id }, t("review"));
  if (!game.daily) return [h("div", { class: "over-foot" }, h("p", { class: "rank" }, rank), review)];
  const note = view.more?.shareNote?.game === game.id ? view.more.shareNote : null;
  return [
    h("p", { class: "rank" }, h("span", { class: "over-daily-n" }, dailyLabel(game)), " ", rank),
    h("div", { class: "over-daily" },
      h("button", { type: "button", class: "btn primary", "data-action": "share" },
        note ? h("span", { class: "share-note" }, `✓ ${t(note.short)}`) : t("share")),
      h("button", { type: "button", class: "btn quiet", "data-action": "daily", "data-value": "table" }, t("dailyTableShort")),
      review),
    // the share text went without a link (sheets/share.js): why
    view.more?.shareLinkless === game.id ? h("p", { class: "next-daily", "data-share-linkless": "" }, t("shareNoLink")) : [],
    nextDaily(),
  ];
}

// The time to the next challenge: an empty line that core/nextDaily.js fills in, loaded (with
// its words) when first needed, so the first load stays small.
function nextDaily() {
  lazy(() => import("../core/nextDaily.js"), { words: "sheets" }).then((m) => m.show(), () => null);
  return h("p", { class: "next-daily", "data-next-daily": "", hidden: true });
}

// The parts of the Final Score, as [label, value]: the lines that add or take nothing are left out.
function parts(game) {
  const s = game.score;
  const lines = [[t("base"), num(s.base)]];
  s.rows.forEach((line, r) => {
    if (line.combo) lines.push([t("lineRow", { r: r + 1, combo: t(line.combo) }), signed(line.bonus)]);
  });
  s.columns.forEach((line, c) => {
    if (line.combo) lines.push([t("lineCol", { c: c + 1, combo: t(line.combo) }), signed(line.bonus)]);
  });
  if (s.ruins > 0) lines.push([t("ruins", { n: s.ruins }), num(-s.ruin_penalty)]);
  if (game.powers.used > 0) lines.push([t("powersUsed", { n: game.powers.used }), num(-s.power_penalty)]);
  return lines;
}

// Better than every other game the player's High Scores hold for this difficulty.
export const newBest = (game) => game.rank === 1 && (game.rank_among ?? 1) > 1;

export function renderOver(el, view) {
  const game = view.game;
  el.hidden = game.phase !== "over";
  if (el.hidden) {
    el.dataset.key = "";
    return;
  }
  let rank = t("noRank");
  if (game.rank) {
    rank = game.rank_among
      ? t("rankAmong", { rank: game.rank, n: game.rank_among, difficulty: t(game.difficulty) })
      : t("rank", { rank: game.rank, difficulty: t(game.difficulty) });
  } else if (game.rank_here) { // a game that ended on this device (core/local.js)
    rank = t("rankHere", { rank: game.rank_here.rank, n: game.rank_here.among, difficulty: t(game.difficulty) });
  }
  const lines = parts(game);
  const best = newBest(game);
  const key = JSON.stringify([lines, rank, t("gameOver"), game.id, game.score.total, best,
    game.daily ? dailyLabel(game) : null, view.more?.shareNote ?? null, view.more?.shareLinkless ?? null]);
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.classList.toggle("best", best);
  el.replaceChildren(...[
    h("div", { class: "over-head" },
      h("h2", { class: "over-title" }, t("gameOver")),
      h("p", { class: "final" }, t("finalScore"), " ", h("b", { class: "final-score" }, num(game.score.total)))),
    best ? h("p", { class: "over-best" }, h("span", { "aria-hidden": "true" }, "★ "), t("newBest")) : [],
    h("ul", { class: "breakdown" },
      lines.map(([label, value]) => h("li", {}, h("span", {}, label), " ", h("b", {}, value)))),
    foot(game, view, rank),
  ].flat());
}
