// The sheet (a modal <dialog>): SETTINGS, High Scores, LAYUNIN, TUNGKOL SA LARO, and a yes/no
// question (a new game that abandons the one under way, a Majda Power that costs points).
// Loaded, with css/sheet.css, when a sheet first opens (render.js, SHEET).
import { DIFFICULTIES } from "../core/game.js";
import { h, hookOf } from "../lib/dom.js";
import { entry, language, t } from "../i18n/i18n.js";
import { date, num } from "../lib/format.js";
import { devicesSection, leaveSheet, linkSheet, linkTitle } from "../sheets/devices.js";
import { drawSections, sheets } from "../sheets/more.js";
import { recordsRow } from "../sheets/records.js";
import { hintsUsed } from "../lib/hints.js";

const DESCRIPTIONS = { peaceful: "descPeaceful", survival: "descSurvival", nightmare: "descNightmare" };

export function renderSheet(dialog, view) {
  const title = dialog.querySelector("#sheet-title");
  const body = dialog.querySelector("#sheet-body");
  if (view.sheet === null) {
    if (dialog.open) dialog.close();
    delete dialog.dataset.key;
    return;
  }
  const screen = view.sheet;
  const previous = dialog.dataset.screen;
  const loaded = sheets[screen]; // a sheet that loads when first opened (more.js)
  const key = [screen, language(), JSON.stringify(view.scores), JSON.stringify(view.ask),
    view.game?.difficulty, view.game?.id, view.sound, view.vibrate, JSON.stringify(view.devices),
    loaded ? loaded.key(view) : JSON.stringify(view.more?.player ?? null)].join("|");
  let fresh = false;
  if (dialog.dataset.key !== key) {
    fresh = previous !== screen || !dialog.open;
    dialog.dataset.key = key;
    const focused = fresh ? null : focusedHook(body);
    if (loaded) {
      title.textContent = loaded.title(view);
      body.replaceChildren();
      loaded.draw(body, view);
    } else if (SCREENS[screen]) {
      title.textContent = TITLES[screen](view);
      body.replaceChildren(...[SCREENS[screen](view)].flat(Infinity).filter((part) => part !== null && part !== undefined));
      drawSections(body, view);
    } else {
      title.textContent = t("loading"); // its module is still on the way
      body.replaceChildren();
    }
    if (focused) body.querySelector(focused)?.focus(); // the same button, drawn again
  }
  dialog.dataset.screen = screen;
  if (!dialog.open) dialog.showModal();
  if (fresh) body.querySelector("[autofocus]")?.focus();
}

// The button that has the focus in the sheet, as a selector that finds it drawn again.
function focusedHook(body) {
  const el = document.activeElement;
  return el instanceof HTMLElement && body.contains(el) ? hookOf(el) : null;
}

const TITLES = {
  settings: () => t("settings"),
  link: (view) => linkTitle(view.devices),
  leave: () => t("leaveTitle"),
  highscores: () => t("highscores"),
  rules: () => t("rules"),
  about: () => t("about"),
  ask: (view) => (view.ask?.kind === "power" ? t("askPowerTitle") : t("newGame")),
};

function pressed(attr, value, on, name, desc = "", lang = null) {
  return h("button", { type: "button", class: "choice", lang, [attr]: value, "aria-pressed": String(on) },
    h("span", { class: "choice-name" }, name), desc ? h("span", { class: "choice-desc" }, desc) : null);
}

const choices = (cls, ...buttons) => h("div", { class: cls }, buttons);

const SCREENS = {
  settings(view) {
    const current = view.game?.difficulty;
    return [
      h("h3", {}, t("settingsDifficulty")),
      choices("choices", DIFFICULTIES.map((d) => pressed("data-difficulty", d, d === current, t(d), t(DESCRIPTIONS[d])))),
      h("h3", {}, t("settingsLanguage")),
      choices("choices two", ["fil", "en"].map((l) =>
        pressed("data-lang", l, l === language(), t(l === "fil" ? "langFil" : "langEn"), "", l))),
      h("h3", {}, t("settingsFeel")),
      choices("choices two",
        pressed("data-pref", "sound", view.sound, t("prefSound"), t("prefSoundDesc")),
        pressed("data-pref", "vibrate", view.vibrate, t("prefVibrate"), t("prefVibrateDesc"))),
      devicesSection(view.devices),
      h("div", { "data-more": "settings" }),
    ];
  },
  link: (view) => linkSheet(view.devices),
  leave: leaveSheet,
  ask(view) {
    const ask = view.ask;
    let text;
    let yes;
    if (ask.kind === "power") {
      text = t("askPower", { power: t(ask.power), n: ask.cost });
      yes = t("yesPower");
    } else {
      text = ask.difficulty ? t("changeConfirm", { difficulty: t(ask.difficulty) }) : t("newConfirm");
      yes = t("yes");
    }
    return [h("p", { class: "question" }, text), choices("choices two",
      h("button", { type: "button", class: "btn primary", "data-choice": "yes" }, yes),
      h("button", { type: "button", class: "btn quiet", "data-choice": "no", autofocus: true }, t("no")))];
  },
  highscores(view) {
    if (!view.scores) return [recordsRow("highscores"), h("p", {}, t("loading"))];
    // without the server: its last lists and the games finished here, said so
    const here = view.scoresHere ? h("p", { class: "empty", "data-scores-here": "" }, t("hsOffline")) : null;
    return [recordsRow("highscores"), here, DIFFICULTIES.map((d) => table(d, view.scores[d] ?? [], view.game?.id))];
  },
  rules() {
    const sections = (entry("long.rules") ?? []).map((section, i) => [
      i === 0 && section.h === t("rules") ? null : h("h3", {}, section.h), section.body.map(block)]);
    const keys = (entry("long.keys") ?? []).map(([k, what]) =>
      h("tr", {}, h("th", { scope: "row" }, h("kbd", {}, k)), h("td", {}, what)));
    return [sections, h("h3", {}, t("keysTitle")), h("table", { class: "keys" }, h("tbody", {}, keys)),
      h("p", { class: "again" }, h("button", { type: "button", class: "btn primary", "data-action": "tutorial" }, t("tutorial")))];
  },
  about() {
    return [h("p", { class: "about-title" }, "MAGDAGDON"), (entry("long.about") ?? []).map(block)];
  },
};

// The long texts are words only (i18n/*.long.js): a paragraph or a list.
function block(b) {
  return b.p !== undefined ? h("p", {}, b.p) : h("ul", {}, b.ul.map((i) => h("li", {}, i)));
}

// A score that opens its game's review (review/sheet.js, loaded then).
const reviewButton = (e) =>
  h("button", { type: "button", class: "score-review", "data-action": "review", "data-game": e.game_id,
    "aria-label": t("hsReview", { score: num(e.score) }) }, h("b", {}, num(e.score)));

function table(difficulty, entries, gameId) {
  const head = h("h3", { id: `hs-${difficulty}` }, t(difficulty));
  if (!entries.length) return [head, h("p", { class: "empty" }, t("hsEmpty"))];
  const rows = entries.map((e, i) => {
    const mine = (e.game_id ?? e.here) === gameId; // `here`: a game finished on this device
    return h("tr", { class: mine ? "mine" : null },
      h("td", {}, String(e.rank ?? i + 1)),
      h("td", {}, e.game_id ? reviewButton(e) : h("b", {}, num(e.score)),
        mine ? [" ", h("span", { class: "tag" }, `← ${t("hsThis")}`)] : null,
        e.here ? [" ", h("span", { class: "tag", "data-here": "" }, t("hsHere"))] : null),
      h("td", {}, date(e.date)), h("td", {}, String(e.turns)), h("td", {}, String(e.powers_used)),
      h("td", {}, hintsUsed(e.hints_used)));
  });
  const th = (key) => h("th", { scope: "col" }, t(key));
  return [head, h("table", { class: "scores", "aria-labelledby": `hs-${difficulty}`, "data-difficulty-table": difficulty },
    h("thead", {}, h("tr", {}, ["hsRank", "hsScore", "hsDate", "hsTurns", "hsPowers", "hsHints"].map(th))),
    h("tbody", {}, rows))];
}
