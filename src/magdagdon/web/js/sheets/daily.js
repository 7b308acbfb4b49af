// The daily challenge (docs/api.md GET/POST /api/daily, GET /api/daily/table): today's challenge on
// each difficulty and the player's streak, a day to go back to for practice, and the day's
// table of this server's players with the hints each attempt used, and the time to the next
// challenge. Opened by a tap, or by a shared link to a day's challenge (app/app.js). Loaded when
// first opened (more.js).
import { ApiError, game } from "../core/api.js";
import { h } from "../lib/dom.js";
import { t } from "../i18n/i18n.js";
import * as moreApi from "./moreApi.js";
import { register } from "./registered.js";
import { date, num } from "../lib/format.js";
import { underWay } from "../core/game.js";
import { DIFFICULTIES } from "../core/game.js";
import { recordsRow } from "./records.js";
import { hintsUsed } from "../lib/hints.js";
import { learn, nextDailyLine } from "../core/nextDaily.js";
import * as source from "../core/source.js";

const DAY_MS = 864e5;
// The seeds the server published for past days ({day: {difficulty: seed}}), kept so that a past
// day's challenge can be practised here without the connection. Today's is the server's secret
// until the day is over: it is never here, and today's challenge needs the connection.
const SEEDS = "magdagdon.dailySeeds";
const KEPT_DAYS = 7;

function keptSeeds() {
  try {
    return JSON.parse(localStorage.getItem(SEEDS) ?? "{}") ?? {};
  } catch {
    return {};
  }
}

// A day's overview (GET /api/daily?date=): its seeds are kept once the server has published them.
function keepSeeds(overview) {
  const seeds = Object.fromEntries(overview.challenges
    .filter((c) => Number.isSafeInteger(c.seed)).map((c) => [c.difficulty, c.seed]));
  if (Object.keys(seeds).length !== DIFFICULTIES.length) return;
  const kept = { ...keptSeeds(), [overview.date]: seeds };
  const days = Object.keys(kept).sort().slice(-KEPT_DAYS);
  try {
    localStorage.setItem(SEEDS, JSON.stringify(Object.fromEntries(days.map((d) => [d, kept[d]]))));
  } catch {
    // storage refused: past days are played online only
  }
}

// The seeds of `day` and of yesterday, asked for in the background when not kept yet.
function learnSeeds(overview, day) {
  const first = firstDay(overview);
  for (const wanted of new Set([day, shiftDay(overview.date, -1)])) {
    if (wanted < overview.date && wanted >= first && !keptSeeds()[wanted]) {
      moreApi.daily(wanted).then(keepSeeds, () => {});
    }
  }
}

function state(view) {
  view.more ??= {};
  view.more.daily ??= { overview: null, day: null, difficulty: null, table: null, error: null, sure: null, offline: null, toTable: false };
  return view.more.daily;
}

// "Dis 3, 2026": a challenge's day (YYYY-MM-DD, UTC's) as the language writes dates; read at
// noon, so that no time zone of the player's shows the day before or after.
function dayWords(day) {
  return date(`${day}T12:00:00Z`);
}

function shiftDay(day, by) {
  return new Date(Date.parse(`${day}T00:00:00Z`) + by * DAY_MS).toISOString().slice(0, 10);
}

// The day of challenge #1, the first the arrows go back to: read off today's number.
function firstDay(overview) {
  return shiftDay(overview.date, 1 - overview.number);
}

function numberOf(overview, day) {
  return overview.number + Math.round((Date.parse(day) - Date.parse(overview.date)) / DAY_MS);
}

async function refresh(ctx, { overview = false } = {}) {
  const daily = state(ctx.view);
  try {
    if (overview || !daily.overview) {
      daily.overview = await moreApi.daily();
      learn(daily.overview);
    }
    // a day not begun yet (or before the first), as a link may name: today's
    const first = firstDay(daily.overview);
    if (daily.day && (daily.day > daily.overview.date || daily.day < first)) daily.day = null;
    daily.day ??= daily.overview.date;
    learnSeeds(daily.overview, daily.day);
    daily.difficulty ??= DIFFICULTIES.includes(ctx.view.game?.difficulty) ? ctx.view.game.difficulty : "peaceful";
    daily.table = null;
    ctx.render();
    const asked = `${daily.day}|${daily.difficulty}`;
    const rows = await moreApi.dayTable(daily.difficulty, daily.day);
    if (asked !== `${daily.day}|${daily.difficulty}`) return; // a later tap asked for another
    daily.table = rows;
    daily.error = null;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // no server, but the page's engine plays: today's challenge waits for the connection, and
    // the latest past day whose seed is kept here is practice, said before the tap
    if (err.status === 0 && !daily.overview && source.loaded()?.readyNow()) {
      const today = new Date().toISOString().slice(0, 10); // the challenge's day is UTC's
      const day = Object.keys(keptSeeds()).filter((d) => d < today).sort().at(-1) ?? null;
      daily.offline = { today, day };
    } else daily.error = "loadFailed"; // a key: said in the language of the moment
  }
  ctx.render();
}

// A shared link to a day's challenge (?daily=YYYY-MM-DD&difficulty=D, made by the server's
// share text): that day's daily sheet opens (today's when the day has not begun), and the link is
// taken off the address, so a reload does not open it again.
function dailyLink() {
  const params = new URLSearchParams(location.search);
  const day = params.get("daily");
  if (day === null) return null;
  const difficulty = params.get("difficulty");
  params.delete("daily");
  params.delete("difficulty");
  const rest = params.toString();
  history.replaceState(null, "", `${location.pathname}${rest ? `?${rest}` : ""}${location.hash}`);
  return {
    date: /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : null,
    difficulty: DIFFICULTIES.includes(difficulty) ? difficulty : null,
  };
}

// The day and difficulty of a shared link, else of the game shown.
async function open(ctx, shared, toTable) {
  const link = shared ? dailyLink() : null;
  const daily = state(ctx.view);
  daily.toTable = toTable;
  daily.day = link ? link.date : ctx.view.game?.daily?.date ?? null;
  daily.difficulty = link?.difficulty ?? null;
  daily.sure = null;
  daily.offline = null;
  daily.error = null;
  await refresh(ctx, { overview: true });
}

function play(ctx, intent) {
  const view = ctx.view;
  const daily = state(view);
  const difficulty = intent.el.dataset.value;
  if (daily.offline) return playHere(ctx, daily, intent);
  const today = daily.day === daily.overview?.date;
  const challenge = daily.overview?.challenges.find((c) => c.difficulty === difficulty);
  if (today && challenge?.status === "playing") {
    return ctx.begin(() => game(challenge.game_id));
  }
  // a game under way is abandoned by a new one, except a ranked daily attempt: ask first
  const keeps = view.game.mode === "daily" && view.game.daily?.date === daily.overview?.date;
  if (underWay(view.game) && !keeps && intent.el.dataset.sure !== "1") {
    daily.sure = difficulty;
    ctx.render();
    return null;
  }
  daily.sure = null;
  return ctx.begin(() => moreApi.startDaily(difficulty, today ? null : daily.day));
}

// Offline, a past day's challenge is begun on this device as practice (it never ranks), on the
// seed the server published: a game under way is abandoned by it, so that is asked first, as
// online.
function playHere(ctx, daily, intent) {
  const difficulty = intent.el.dataset.value;
  const { day } = daily.offline;
  const seed = day ? keptSeeds()[day]?.[difficulty] : undefined;
  if (!Number.isSafeInteger(seed)) return null;
  if (underWay(ctx.view.game) && intent.el.dataset.sure !== "1") {
    daily.sure = difficulty;
    ctx.render();
    return null;
  }
  daily.sure = null;
  return ctx.begin(() => source.loaded().begin(difficulty, day, seed));
}

register({
  actions: {
    daily: async (ctx, intent) => {
      ctx.view.sheet = "daily";
      ctx.view.ask = null;
      ctx.render();
      // RANGGO NGAYONG ARAW (the game over's) opens the sheet at the day's table
      await open(ctx, intent?.link, intent?.el?.dataset.value === "table");
    },
    "daily-play": play,
    "daily-day": async (ctx, intent) => {
      const daily = state(ctx.view);
      const next = shiftDay(daily.day, Number(intent.el.dataset.value));
      if (next < firstDay(daily.overview) || next > daily.overview.date) return;
      daily.day = next;
      daily.sure = null;
      await refresh(ctx);
    },
    "daily-tab": async (ctx, intent) => {
      state(ctx.view).difficulty = intent.el.dataset.value;
      await refresh(ctx);
    },
    "daily-cancel": (ctx) => {
      state(ctx.view).sure = null;
      ctx.render();
    },
  },
  sheets: {
    daily: {
      title: (view) => (state(view).offline ? t("daily") : state(view).overview ? t("dailyTitle", { n: numberOf(state(view).overview, state(view).day ?? state(view).overview.date) }) : t("loading")),
      key: (view) => JSON.stringify(state(view)),
      draw,
    },
  },
});

function draw(body, view) {
  const daily = state(view);
  const overview = daily.overview;
  if (daily.offline) {
    drawOffline(body, daily);
    return;
  }
  if (!overview) {
    body.prepend(recordsRow("daily"));
    body.append(h("p", {}, t(daily.error ?? "loading")));
    return;
  }
  const today = daily.day === overview.date;
  body.prepend(recordsRow("daily"));
  body.append(
    h("p", { class: "daily-intro" }, today ? t("dailyIntro") : t("dailyPast", { date: dayWords(daily.day) })),
    streak(overview.streak),
    nextDailyLine(),
    dayNav(daily, overview),
    h("div", { class: "daily-cards" }, DIFFICULTIES.map((d) => card(d, daily, overview, today))),
  );
  askHere(body);
  const title = h("h3", { id: "daily-table-title" }, t("dailyTable"));
  body.append(title, tabs(daily), table(daily));
  if (daily.toTable && daily.table !== null) {
    daily.toTable = false;
    requestAnimationFrame(() => title.scrollIntoView({ block: "start" }));
  }
  if (daily.error) body.append(h("p", { class: "empty", role: "alert" }, t(daily.error)));
}

// Offline: today's challenge needs the connection; a past day's on each difficulty is practice
// — said before the tap.
function drawOffline(body, daily) {
  const { today, day } = daily.offline;
  body.append(h("p", { class: "daily-intro", "data-daily-offline-today": today }, t("dailyOfflineToday")));
  if (!day) {
    body.append(h("p", { class: "muted", "data-daily-offline-none": "" }, t("dailyOfflineNone")));
    return;
  }
  body.append(
    h("p", { class: "daily-intro", "data-daily-offline": day }, t("dailyOffline", { date: dayWords(day) })),
    h("div", { class: "daily-cards" }, DIFFICULTIES.map((d) => h("div", { class: "daily-card" },
      h("span", { class: "daily-card-name" }, t(d)),
      h("span", { class: "daily-card-status" }, t("dailyOfflineStatus")),
      h("button", { type: "button", class: "btn quiet", "data-action": "daily-play", "data-value": d }, t("dailyPractice")),
      daily.sure === d ? sureRow(d) : null))),
  );
  askHere(body);
}

// The question is drawn inside the card tapped (sureRow): brought into view there, its HUWAG in
// focus (Enter abandons nothing).
function askHere(body) {
  const row = body.querySelector(".daily-sure");
  if (!row) return;
  requestAnimationFrame(() => {
    row.scrollIntoView({ block: "nearest" });
    row.querySelector('[data-action="daily-cancel"]')?.focus({ preventScroll: true });
  });
}

function streak(found) {
  return h("p", { class: "daily-streak" },
    h("b", { class: "daily-streak-n" }, num(found.current)),
    h("span", {}, t("dailyStreak"), h("small", { class: "muted" }, t("dailyStreakBest", { n: found.best }))));
}

function dayNav(daily, overview) {
  const first = daily.day <= firstDay(overview);
  const last = daily.day >= overview.date;
  const arrow = (by, label, text, off) => h("button", {
    type: "button", class: "btn quiet daily-arrow", "data-action": "daily-day", "data-value": by,
    "aria-label": label, disabled: off,
  }, text);
  const label = daily.day === overview.date ? t("dailyToday") : dayWords(daily.day);
  return h("div", { class: "daily-nav" },
    arrow(-1, t("dailyPrev"), "‹", first),
    h("span", { class: "daily-day" }, `#${numberOf(overview, daily.day)} · `, h("time", { datetime: daily.day }, label)),
    arrow(1, t("dailyNext"), "›", last));
}

function card(difficulty, daily, overview, today) {
  const challenge = today ? overview.challenges.find((c) => c.difficulty === difficulty) : null;
  let status = t("dailyPractice");
  let button = t("dailyPractice");
  let kind = "quiet";
  if (challenge?.status === "new") {
    status = t("dailyNew");
    button = t("dailyPlay");
    kind = "primary";
  } else if (challenge?.status === "playing") {
    status = t("dailyPlaying");
    button = t("dailyResume");
    kind = "primary";
  } else if (challenge?.status === "over") {
    status = t("dailyOver", { score: num(challenge.score) });
  }
  const parts = [
    h("span", { class: "daily-card-name" }, t(difficulty)),
    h("span", { class: "daily-card-status" }, status),
    h("button", { type: "button", class: `btn ${kind}`, "data-action": "daily-play", "data-value": difficulty }, button),
  ];
  if (challenge?.status === "over") {
    parts.push(h("button", { type: "button", class: "btn quiet", "data-action": "share", "data-game": challenge.game_id }, t("share")));
  }
  if (daily.sure === difficulty) parts.push(sureRow(difficulty)); // next to the button tapped
  return h("div", { class: `daily-card${challenge?.status === "over" ? " done" : ""}` }, parts);
}

function sureRow(difficulty) {
  return h("div", { class: "daily-sure", role: "group" },
    h("p", { class: "question" }, t("newConfirm")),
    h("div", { class: "choices two" },
      h("button", { type: "button", class: "btn primary", "data-action": "daily-play", "data-value": difficulty, "data-sure": "1" }, t("dailyYes")),
      h("button", { type: "button", class: "btn quiet", "data-action": "daily-cancel" }, t("no"))));
}

function tabs(daily) {
  return h("div", { class: "choices three daily-tabs" }, DIFFICULTIES.map((d) =>
    h("button", { type: "button", class: "choice tab", "data-action": "daily-tab", "data-value": d, "aria-pressed": String(d === daily.difficulty) },
      h("span", { class: "choice-name" }, t(d)))));
}

function table(daily) {
  if (daily.table === null) return h("p", {}, t("loading"));
  if (!daily.table.length) return h("p", { class: "empty", "data-daily-table": daily.difficulty }, t("dailyTableEmpty"));
  const head = h("tr", {}, ["dailyRank", "dailyName", "dailyScore", "dailyTurns", "hsHints"].map((k) => h("th", { scope: "col" }, t(k))));
  const rows = daily.table.map((row) => {
    const mine = Boolean(row.game_id);
    const name = row.named ? row.name : t("dailyPlayer", { tag: row.tag });
    return h("tr", { class: mine ? "mine" : null },
      h("td", {}, row.rank),
      h("td", { class: "daily-name" }, name, mine ? h("span", { class: "tag" }, `← ${t("dailyYou")}`) : null),
      h("td", {}, h("b", {}, num(row.score))),
      h("td", {}, row.turns),
      h("td", {}, hintsUsed(row.hints)));
  });
  const parts = [h("table", { class: "scores daily-table", "aria-labelledby": "daily-table-title", "data-daily-table": daily.difficulty },
    h("thead", {}, head), h("tbody", {}, rows))];
  const mineUnnamed = daily.table.some((row) => row.game_id && !row.named);
  if (mineUnnamed) parts.push(h("p", { class: "muted" }, t("dailyNameHint")));
  return h("div", {}, parts);
}
