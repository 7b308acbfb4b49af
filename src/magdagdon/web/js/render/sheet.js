// The sheet (a modal <dialog>): SETTINGS, High Scores, LAYUNIN, TUNGKOL SA LARO, and a yes/no
// question (a new game that abandons the one under way, a Majda Power that costs points).
import { entry, language, t } from "../i18n/i18n.js";
import { date, num } from "../lib/format.js";
import { devicesSection, leaveSheet, linkSheet, linkTitle } from "../sheets/link.js";
import { drawSections, sheets } from "../sheets/more.js";

export const DIFFICULTIES = ["peaceful", "survival", "nightmare"];
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
      body.innerHTML = SCREENS[screen](view);
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
  if (!(el instanceof HTMLElement) || !body.contains(el)) return null;
  const hooks = ["action", "value", "game", "difficulty", "lang", "pref", "choice"]
    .filter((name) => el.dataset[name] !== undefined)
    .map((name) => `[data-${name}="${CSS.escape(el.dataset[name])}"]`);
  return el.id ? `#${CSS.escape(el.id)}` : hooks.join("") || null;
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

function pressed(attr, value, on, name, desc = "") {
  return `<button type="button" class="choice" ${attr}="${value}" aria-pressed="${on}">` +
    `<span class="choice-name">${name}</span>${desc ? `<span class="choice-desc">${desc}</span>` : ""}</button>`;
}

const SCREENS = {
  settings(view) {
    const current = view.game?.difficulty;
    const difficulties = DIFFICULTIES.map((d) =>
      pressed("data-difficulty", d, d === current, t(d), t(DESCRIPTIONS[d]))).join("");
    const languages = ["fil", "en"].map((l) =>
      pressed("data-lang", l, l === language(), t(l === "fil" ? "langFil" : "langEn"))
        .replace("<button", `<button lang="${l}"`)).join("");
    const feel = pressed("data-pref", "sound", view.sound, t("prefSound"), t("prefSoundDesc")) +
      pressed("data-pref", "vibrate", view.vibrate, t("prefVibrate"), t("prefVibrateDesc"));
    return `<h3>${t("settingsDifficulty")}</h3><div class="choices">${difficulties}</div>` +
      `<h3>${t("settingsLanguage")}</h3><div class="choices two">${languages}</div>` +
      `<h3>${t("settingsFeel")}</h3><div class="choices two">${feel}</div>` +
      devicesSection(view.devices) +
      '<div data-more="settings"></div>';
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
    return `<p class="question">${text}</p><div class="choices two">` +
      `<button type="button" class="btn primary" data-choice="yes">${yes}</button>` +
      `<button type="button" class="btn quiet" data-choice="no" autofocus>${t("no")}</button></div>`;
  },
  highscores(view) {
    if (!view.scores) return `${recordsRow("highscores")}<p>${t("loading")}</p>`;
    return recordsRow("highscores") +
      DIFFICULTIES.map((d) => table(d, view.scores[d] ?? [], view.game?.id)).join("");
  },
  rules() {
    const sections = (entry("long.rules") ?? []).map((section, i) =>
      `${i === 0 && section.h === t("rules") ? "" : `<h3>${section.h}</h3>`}${section.body.map(block).join("")}`);
    const keys = (entry("long.keys") ?? []).map(([k, what]) => `<tr><th scope="row"><kbd>${k}</kbd></th><td>${what}</td></tr>`);
    return sections.join("") +
      `<h3>${t("keysTitle")}</h3><table class="keys"><tbody>${keys.join("")}</tbody></table>` +
      `<p class="again"><button type="button" class="btn primary" data-action="tutorial">${t("tutorial")}</button></p>`;
  },
  about() {
    return `<p class="about-title">MAGDAGDON</p>${(entry("long.about") ?? []).map(block).join("")}`;
  },
};

// The records, one tap from each other: High Scores, the daily challenge, STATISTIKA (the last
// two load when opened: more.js). On a narrow phone they are reached from here only.
export function recordsRow(current) {
  return `<div class="choices three records" role="group" aria-label="${t("highscores")}">` +
    ["highscores", "daily", "stats"].map((name) =>
      `<button type="button" class="choice tab" data-action="${name}" aria-pressed="${name === current}">` +
      `<span class="choice-name">${t(name)}</span></button>`).join("") + "</div>";
}

function block(b) {
  return b.p !== undefined ? `<p>${b.p}</p>` : `<ul>${b.ul.map((i) => `<li>${i}</li>`).join("")}</ul>`;
}

// A score that opens its game's review (review/sheet.js, loaded then).
const reviewButton = (e) =>
  `<button type="button" class="score-review" data-action="review" data-game="${e.game_id}" ` +
  `aria-label="${t("hsReview", { score: num(e.score) })}"><b>${num(e.score)}</b></button>`;

function table(difficulty, entries, gameId) {
  const head = `<h3 id="hs-${difficulty}">${t(difficulty)}</h3>`;
  if (!entries.length) return `${head}<p class="empty">${t("hsEmpty")}</p>`;
  const rows = entries.map((e, i) => {
    const mine = e.game_id === gameId;
    return `<tr${mine ? ' class="mine"' : ""}><td>${e.rank ?? i + 1}</td>` +
      `<td>${e.game_id ? reviewButton(e) : `<b>${num(e.score)}</b>`}` +
      `${mine ? ` <span class="tag">← ${t("hsThis")}</span>` : ""}</td>` +
      `<td>${date(e.date)}</td><td>${e.turns}</td><td>${e.powers_used}</td>` +
      `<td>${e.hints_used}</td></tr>`;
  }).join("");
  const th = (key) => `<th scope="col">${t(key)}</th>`;
  return `${head}<table class="scores" aria-labelledby="hs-${difficulty}" data-difficulty-table="${difficulty}">` +
    `<thead><tr>${["hsRank", "hsScore", "hsDate", "hsTurns", "hsPowers", "hsHints"].map(th).join("")}</tr></thead>` +
    `<tbody>${rows}</tbody></table>`;
}
