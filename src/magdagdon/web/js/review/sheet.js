// The game review (docs/rules.md, "Modes and records": Review), loaded when first opened (data-action="review" with the
// game's id in data-game): a modal sheet of its own that shows the server's progress while the
// review is computed, then the summary (start + luck − given up = Final Score), the chart of the
// expected Final Score, and the steps, one at a time, forwards and back (buttons, arrow keys,
// Home / End, the next mistake, a tap on the chart). It reads the review and decides nothing.
import * as api from "../core/api.js";
import { expectedScores } from "../lib/chart.js";
import { h } from "../lib/dom.js";
import { num, signed } from "../lib/format.js";
import { points, wholeParts } from "../lib/points.js";
import { labelChip, stepSpoken, stepView } from "./step.js";
import { t } from "../i18n/i18n.js";

const POLL_MS = 400;
const LABELS = ["inaccuracy", "mistake", "blunder"];

let sheet = null; // {dialog, body, nav, live, state}
function button(name, text, extra = {}) {
  return h("button", { type: "button", class: "btn", "data-review": name, ...extra }, text);
}

function create(root) {
  const title = h("h2", { id: "review-title" }, t("review.title"));
  const close = button("close", t("review.close"), { class: "btn quiet close" });
  // focusable: on a small screen the step may scroll, and a keyboard must reach all of it
  const body = h("div", { class: "review-body", id: "review-body", tabindex: "0" });
  const live = h("div", { class: "sr", "aria-live": "polite", "aria-atomic": "true" });
  const nav = h("nav", { class: "review-nav", "aria-label": t("review.title") },
    button("prev", `‹ ${t("review.prev")}`, { "aria-keyshortcuts": "ArrowLeft" }),
    button("mistake", t("review.nextMistake"), { class: "btn quiet" }),
    button("next", `${t("review.next")} ›`, { class: "btn primary", "aria-keyshortcuts": "ArrowRight" }));
  const dialog = h("dialog", { class: "sheet review", id: "review", "aria-labelledby": "review-title" },
    h("div", { class: "sheet-head" }, title, close), body, nav, live);
  root.append(dialog);
  const made = { dialog, title, close, body, nav, live, state: null };
  dialog.addEventListener("click", (event) => {
    const el = event.target.closest("[data-review]");
    if (el && el.getAttribute("aria-disabled") !== "true") act(made, el.dataset.review);
  });
  dialog.addEventListener("keydown", (event) => {
    const moves = { ArrowRight: "next", ArrowLeft: "prev", Home: "first", End: "last" };
    if (moves[event.key] && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      act(made, moves[event.key]);
    }
  });
  dialog.addEventListener("close", () => stop(made));
  return made;
}

function stop(made) {
  clearTimeout(made.state?.timer);
  if (made.state) made.state.closed = true;
}

// Open the review of `gameId` over whatever is shown (the sheet it came from stays below).
export async function openReview(gameId, { root }) {
  sheet ??= create(root);
  stop(sheet);
  sheet.state = { gameId, review: null, index: 0, progress: 0, error: null, timer: null, closed: false };
  sheet.title.textContent = t("review.title");
  draw(sheet);
  if (!sheet.dialog.open) sheet.dialog.showModal();
  sheet.close.focus();
  await poll(sheet, sheet.state);
}

async function poll(made, state) {
  if (state.closed) return;
  try {
    const answer = await api.review(state.gameId);
    if (state.closed) return;
    state.error = null;
    if (answer.status === "done") {
      state.review = answer;
      state.index = 0;
      draw(made);
      made.nav.querySelector('[data-review="next"]').focus();
      return;
    }
    state.progress = answer.progress;
    draw(made);
  } catch (err) {
    if (state.closed) return;
    state.error = err.code === "game_not_over" ? "notOver" : err.status === 0 ? "offline" : "failed";
    draw(made);
    // a lost connection, a busy server or a database down for a moment: keep asking
    const passing = err.status === 0 || err.status === 429 || (err.status === 503 && err.code !== "review_failed");
    if (!passing) return;
  }
  state.timer = setTimeout(() => poll(made, state), POLL_MS);
}

function nextLabelled(review, index) {
  const found = review.steps.findIndex((s, i) => i > index && s.label);
  return found < 0 ? null : found;
}

function act(made, name) {
  const state = made.state;
  if (name === "close") {
    made.dialog.close();
    return;
  }
  const review = state?.review;
  if (!review) return;
  const last = review.steps.length - 1;
  const to = { next: state.index + 1, prev: state.index - 1, first: 0, last,
    mistake: nextLabelled(review, state.index) }[name];
  if (to === null || to === undefined || to < 0 || to > last || to === state.index) return;
  show(made, to);
}

function show(made, index) {
  const state = made.state;
  state.index = index;
  draw(made);
  const step = state.review.steps[index];
  made.live.textContent = stepSpoken(step, index, state.review.steps.length);
}

function draw(made) {
  const state = made.state;
  const review = state.review;
  made.dialog.dataset.status = review ? "done" : state.error ? "error" : "pending";
  made.nav.hidden = !review;
  if (!review) {
    made.body.replaceChildren(state.error ? h("p", { class: "review-error" }, t(`review.${state.error}`)) : pending(state.progress));
    return;
  }
  const count = review.steps.length;
  const step = review.steps[state.index];
  made.body.replaceChildren(h("div", { class: "review-done" },
    summary(review),
    h("figure", { class: "review-figure" }, expectedScores(review, state.index, {
      title: `${t("review.chartTitle")}: ${points(review.values[0])} → ${points(review.values.at(-1))}`,
      onPick: (i) => show(made, i),
    })),
    stepView(step, state.index, count)));
  made.dialog.dataset.step = String(state.index);
  const disable = (name, off) => {
    const el = made.nav.querySelector(`[data-review="${name}"]`);
    el.setAttribute("aria-disabled", String(off));
  };
  disable("prev", state.index === 0);
  disable("next", state.index === count - 1);
  disable("mistake", nextLabelled(review, state.index) === null);
}

function pending(progress) {
  const percent = Math.round(progress * 100);
  return h("div", { class: "review-pending" },
    h("p", { class: "review-progress-text", id: "review-progress-text" }, t("review.pending", { p: percent })),
    h("progress", { max: 100, value: percent, "aria-labelledby": "review-progress-text", "data-review-progress": progress }),
    h("p", { class: "muted" }, t("review.pendingNote")));
}

// start + luck − given up = Final Score: the server's own figures in whole points, rounded so
// that the four shown add up as read (lib/points.js wholeParts: each within 1 point of its value).
function summary(review) {
  const figure = (name, value, sign) => h("div", { class: `figure ${name}`, "data-figure": name },
    h("span", { class: "figure-name" }, t(`review.${name === "total" ? "final" : name === "given" ? "givenUp" : name}`)),
    h("b", { class: "figure-value" }, `${sign}${value}`));
  const counts = LABELS.filter((l) => review.labels[l]).map((l) =>
    h("span", { class: "count" }, labelChip(l), ` × ${review.labels[l]}`));
  const [start, luck, lost] = wholeParts([review.start, review.luck, -review.given_up], review.final);
  const shown = { start: num(start), luck: luck === 0 ? "0" : signed(luck), given: num(-lost), final: num(review.final) };
  return h("section", { class: "review-summary", "data-review-summary": "",
    "aria-label": t("review.summaryLabel", shown) },
  h("div", { class: "sum-line", "aria-hidden": "true" },
    figure("start", shown.start, ""),
    figure("luck", shown.luck, ""),
    figure("given", shown.given, "\u2212 "),
    figure("total", shown.final, "= ")),
  h("p", { class: "sum-note muted" }, t("review.startNote")),
  counts.length ? h("p", { class: "labels" }, ...counts) : null);
}
