// STATISTIKA (docs/api.md GET /api/stats): per difficulty, games played and finished, mean, median
// and best, the scores' histogram, the streak, RUINs and Powers per game, the combinations
// made, and the mean beside the computer player's. Loaded when first opened (more.js).
import { ApiError } from "../core/api.js";
import { histogram, versus } from "../lib/chart.js";
import { h } from "../lib/dom.js";
import { t } from "../i18n/i18n.js";
import * as moreApi from "./moreApi.js";
import { register } from "./registered.js";
import { num, rounded } from "../lib/format.js";
import { DIFFICULTIES } from "../core/game.js";
import { recordsRow } from "./records.js";
import * as prefs from "../core/prefs.js";
import * as source from "../core/source.js";


function state(view) {
  view.more ??= {};
  view.more.stats ??= { difficulty: null, found: {}, error: null };
  return view.more.stats;
}

// Without the server: the figures it last sent, kept on this device, with the games finished
// here since (not in them until the server has them), said so.
async function load(ctx) {
  const stats = state(ctx.view);
  const difficulty = stats.difficulty;
  const last = prefs.getJson("stats", {});
  try {
    stats.found[difficulty] = await moreApi.stats(difficulty); // kept by difficulty: no race
    stats.error = null;
    stats.here = null;
    prefs.set("stats", JSON.stringify({ ...last, [difficulty]: stats.found[difficulty] }));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    stats.error = "loadFailed"; // a key: said in the language of the moment
    if (err.status === 0 && last[difficulty]) {
      stats.found[difficulty] = last[difficulty];
      const here = (await source.finishedHere()).filter((e) => e.difficulty === difficulty);
      stats.here = { n: here.length };
    }
  }
  ctx.render();
}

register({
  actions: {
    stats: async (ctx) => {
      const stats = state(ctx.view);
      stats.found = {}; // fresh figures at every opening
      stats.difficulty = DIFFICULTIES.includes(ctx.view.game?.difficulty) ? ctx.view.game.difficulty : "peaceful";
      ctx.view.sheet = "stats";
      ctx.view.ask = null;
      ctx.render();
      await load(ctx);
    },
    "stats-tab": async (ctx, intent) => {
      const stats = state(ctx.view);
      stats.difficulty = intent.el.dataset.value;
      ctx.render();
      if (!stats.found[stats.difficulty]) await load(ctx);
    },
  },
  sheets: {
    stats: {
      title: () => t("statsTitle"),
      key: (view) => JSON.stringify(state(view)),
      draw,
    },
  },
});


function draw(body, view) {
  const stats = state(view);
  body.prepend(recordsRow("stats"));
  body.append(h("div", { class: "choices three stats-tabs" }, DIFFICULTIES.map((d) =>
    h("button", { type: "button", class: "choice tab", "data-action": "stats-tab", "data-value": d, "aria-pressed": String(d === stats.difficulty) },
      h("span", { class: "choice-name" }, t(d))))));
  const found = stats.found[stats.difficulty];
  if (!found) {
    body.append(h("p", { role: stats.error ? "alert" : null }, t(stats.error ?? "loading")));
    return;
  }
  if (stats.here) {
    body.append(h("p", { class: "muted", "data-stats-here": "" }, t("statsOffline"),
      stats.here.n ? ` ${t("statsOfflineHere", stats.here)}` : ""));
  }
  const figure = (label, value, more = null) => h("div", { class: "stat" }, h("dt", {}, label),
    h("dd", {}, value, more ? h("small", { class: "muted" }, more) : null));
  body.append(h("dl", { class: "stats-grid", "data-stats": found.difficulty },
    figure(t("statsGames"), num(found.games)),
    figure(t("statsFinished"), num(found.finished)),
    figure(t("statsMean"), rounded(found.mean)),
    figure(t("statsMedian"), rounded(found.median)),
    figure(t("statsBest"), found.best === null ? "—" : found.best_game_id
      // the best game's score opens its review, as a High Scores row's does
      ? h("button", { type: "button", class: "score-review", "data-action": "review", "data-game": found.best_game_id }, num(found.best))
      : num(found.best)),
    figure(t("dailyStreak"), num(found.streak.current), t("dailyStreakBest", { n: found.streak.best }))));
  if (!found.finished) {
    body.append(h("p", { class: "empty" }, t("statsNone", { difficulty: t(found.difficulty) })),
      h("p", { class: "muted" }, t("statsCovered")));
    return;
  }
  const title = t("statsChart");
  body.append(h("h3", {}, title), histogram(found.histogram, {
    title,
    label: (bin) => t("statsChartLabel", { from: num(bin.from), to: num(bin.to), n: bin.count }),
  }));
  const versusTitle = t("statsVersus", { difficulty: t(found.difficulty) });
  // whole points, as every score: a lead counted down, a gap to close counted up (337.1 → 338)
  const gap = found.mean - found.computer_mean;
  body.append(h("h3", {}, versusTitle), versus([
    { label: t("statsYou"), value: found.mean, text: rounded(found.mean), kind: "you" },
    { label: t("statsComputer"), value: found.computer_mean, text: rounded(found.computer_mean), kind: "computer" },
  ], versusTitle), h("p", { class: "stats-gap" }, gap >= 0 ? t("statsAhead", { n: num(Math.floor(gap)) }) : t("statsBehind", { n: num(Math.ceil(-gap)) })));
  body.append(h("dl", { class: "stats-grid small" },
    figure(t("statsRuins"), rounded(found.ruins_per_game, 2)),
    figure(t("statsPowers"), rounded(found.powers_per_game, 2))));
  body.append(h("h3", {}, t("statsCombos")), h("dl", { class: "stats-grid small" },
    figure(t("straight"), num(found.combos.straight)),
    figure(t("four_of_a_kind"), num(found.combos.four_of_a_kind)),
    figure(t("two_pairs"), num(found.combos.two_pairs))));
  body.append(h("p", { class: "muted" }, t("statsCovered")));
}
