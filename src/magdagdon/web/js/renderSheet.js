// The sheet (a modal <dialog>): SETTINGS, High Scores, LAYUNIN, TUNGKOL SA LARO, and the
// question before a new game abandons the one under way.
import { language, longText, t } from "./i18n.js";

export const DIFFICULTIES = ["peaceful", "survival", "nightmare"];
const DESCRIPTIONS = { peaceful: "descPeaceful", survival: "descSurvival", nightmare: "descNightmare" };

export function renderSheet(dialog, view) {
  const title = dialog.querySelector("#sheet-title");
  const body = dialog.querySelector("#sheet-body");
  if (view.sheet === null) {
    if (dialog.open) dialog.close();
    return;
  }
  const screen = view.pending ? "pending" : view.sheet;
  const key = `${screen}:${language()}:${JSON.stringify(view.scores)}:${view.game?.difficulty}`;
  dialog.dataset.screen = view.sheet;
  if (dialog.dataset.key !== key) {
    dialog.dataset.key = key;
    title.textContent = t(screen === "pending" ? "newGame" : view.sheet);
    body.innerHTML = SCREENS[screen](view);
  }
  if (!dialog.open) dialog.showModal();
}

const SCREENS = {
  settings(view) {
    const current = view.game?.difficulty;
    const difficulties = DIFFICULTIES.map((d) =>
      `<button type="button" class="choice" data-difficulty="${d}" aria-pressed="${d === current}">` +
      `<span class="choice-name">${t(d)}</span><span class="choice-desc">${t(DESCRIPTIONS[d])}</span></button>`,
    ).join("");
    const languages = ["fil", "en"].map((l) =>
      `<button type="button" class="choice" data-lang="${l}" aria-pressed="${l === language()}" lang="${l}">` +
      `<span class="choice-name">${t(l === "fil" ? "langFil" : "langEn")}</span></button>`,
    ).join("");
    return `<h3>${t("settingsDifficulty")}</h3><div class="choices">${difficulties}</div>` +
      `<h3>${t("settingsLanguage")}</h3><div class="choices two">${languages}</div>`;
  },
  pending(view) {
    const text = view.pending.difficulty
      ? t("changeConfirm", { difficulty: t(view.pending.difficulty) }) : t("newConfirm");
    return `<p class="question">${text}</p><div class="choices two">` +
      `<button type="button" class="btn primary" data-choice="yes">${t("yes")}</button>` +
      `<button type="button" class="btn quiet" data-choice="no">${t("no")}</button></div>`;
  },
  highscores(view) {
    if (!view.scores) return `<p>${t("loading")}</p>`;
    return DIFFICULTIES.map((d) => table(d, view.scores[d] ?? [], view.game?.id)).join("");
  },
  rules() {
    return longText().rules.map((section) =>
      `<h3>${section.h}</h3>${section.body.map(block).join("")}`).join("");
  },
  about() {
    return `<p class="about-title">MAGDAGDON</p>${longText().about.map(block).join("")}`;
  },
};

function block(b) {
  return b.p !== undefined ? `<p>${b.p}</p>` : `<ul>${b.ul.map((i) => `<li>${i}</li>`).join("")}</ul>`;
}

function formatDate(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString(language() === "fil" ? "fil-PH" : "en-GB", { dateStyle: "short" });
}

function table(difficulty, entries, gameId) {
  const head = `<h3 id="hs-${difficulty}">${t(difficulty)}</h3>`;
  if (!entries.length) return `${head}<p class="empty">${t("hsEmpty")}</p>`;
  const rows = entries.map((e, i) => {
    const mine = e.game_id === gameId;
    return `<tr${mine ? ' class="mine"' : ""}><td>${e.rank ?? i + 1}</td>` +
      `<td><b>${e.score}</b>${mine ? ` <span class="tag">← ${t("hsThis")}</span>` : ""}</td>` +
      `<td>${formatDate(e.date)}</td><td>${e.turns}</td><td>${e.powers_used}</td>` +
      `<td>${e.hints_used}</td></tr>`;
  }).join("");
  return `${head}<table class="scores" aria-labelledby="hs-${difficulty}" data-difficulty-table="${difficulty}">` +
    `<thead><tr><th scope="col">${t("hsRank")}</th><th scope="col">${t("hsScore")}</th>` +
    `<th scope="col">${t("hsDate")}</th><th scope="col">${t("hsTurns")}</th>` +
    `<th scope="col">${t("hsPowers")}</th><th scope="col">${t("hsHints")}</th></tr></thead>` +
    `<tbody>${rows}</tbody></table>`;
}
