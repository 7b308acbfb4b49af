// The sheet (a modal <dialog>): SETTINGS, High Scores, LAYUNIN, TUNGKOL SA LARO, and a yes/no
// question (a new game that abandons the one under
// way, a Majda Power of 40 points or more).
import { language, longText, t } from "./i18n.js";
import { date, num } from "./format.js";

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
  const key = [screen, language(), JSON.stringify(view.scores), JSON.stringify(view.ask),
    view.game?.difficulty, view.game?.id, view.sound, view.vibrate].join("|");
  let fresh = false;
  if (dialog.dataset.key !== key) {
    fresh = previous !== screen || !dialog.open;
    dialog.dataset.key = key;
    title.textContent = TITLES[screen](view);
    body.innerHTML = SCREENS[screen](view);
  }
  dialog.dataset.screen = screen;
  if (!dialog.open) dialog.showModal();
  if (fresh) body.querySelector("[autofocus]")?.focus();
}

const TITLES = {
  settings: () => t("settings"),
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
      `<h3>${t("settingsFeel")}</h3><div class="choices two">${feel}</div>`;
  },
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
    if (!view.scores) return `<p>${t("loading")}</p>`;
    return DIFFICULTIES.map((d) => table(d, view.scores[d] ?? [], view.game?.id)).join("");
  },
  rules() {
    const text = longText();
    const sections = text.rules.map((section, i) =>
      `${i === 0 && section.h === t("rules") ? "" : `<h3>${section.h}</h3>`}${section.body.map(block).join("")}`);
    const keys = text.keys.map(([k, what]) => `<tr><th scope="row"><kbd>${k}</kbd></th><td>${what}</td></tr>`);
    return sections.join("") +
      `<h3>${t("keysTitle")}</h3><table class="keys"><tbody>${keys.join("")}</tbody></table>` +
      `<p class="again"><button type="button" class="btn primary" data-action="tutorial">${t("tutorial")}</button></p>`;
  },
  about() {
    return `<p class="about-title">MAGDAGDON</p>${longText().about.map(block).join("")}`;
  },
};

function block(b) {
  return b.p !== undefined ? `<p>${b.p}</p>` : `<ul>${b.ul.map((i) => `<li>${i}</li>`).join("")}</ul>`;
}

function table(difficulty, entries, gameId) {
  const head = `<h3 id="hs-${difficulty}">${t(difficulty)}</h3>`;
  if (!entries.length) return `${head}<p class="empty">${t("hsEmpty")}</p>`;
  const rows = entries.map((e, i) => {
    const mine = e.game_id === gameId;
    return `<tr${mine ? ' class="mine"' : ""}><td>${e.rank ?? i + 1}</td>` +
      `<td><b>${num(e.score)}</b>${mine ? ` <span class="tag">← ${t("hsThis")}</span>` : ""}</td>` +
      `<td>${date(e.date)}</td><td>${e.turns}</td><td>${e.powers_used}</td>` +
      `<td>${e.hints_used}</td></tr>`;
  }).join("");
  const th = (key) => `<th scope="col">${t(key)}</th>`;
  return `${head}<table class="scores" aria-labelledby="hs-${difficulty}" data-difficulty-table="${difficulty}">` +
    `<thead><tr>${["hsRank", "hsScore", "hsDate", "hsTurns", "hsPowers", "hsHints"].map(th).join("")}</tr></thead>` +
    `<tbody>${rows}</tbody></table>`;
}
