// The message area (a fixed place under the board, so nothing in it moves the buttons): the
// MAGDAGDON banner, the word on the last tap (why a button is disabled, an error, dice that came
// back), the hint's sentence, the stuck warning, or what to do next. The tutorial's coach takes
// the area while it runs.
import { t } from "../i18n/i18n.js";
import { num } from "../lib/format.js";
import { litCells } from "../core/view.js";
import { noticeHtml } from "../core/offline.js";

export function renderMessage(el, view, hint) {
  const { kind, html } = messageOf(view, hint);
  el.className = `message ${kind}`;
  if (el.dataset.html !== html) {
    el.dataset.html = html;
    el.innerHTML = html;
  }
  if (view.offline) el.dataset.notice = "offline";
  else delete el.dataset.notice;
}

function messageOf(view, hint) {
  const game = view.game;
  if (view.offline) return { kind: "offline", html: noticeHtml(view, t) };
  if (game.phase === "over") return { kind: "none", html: "" };
  if (view.offer) {
    return {
      kind: "offer",
      html: `<span>${t("offerText")}</span> <button type="button" class="btn primary" ` +
        `data-action="tutorial">${t("tutorial")}</button>`,
    };
  }
  if (game.phase === "magdagdon") {
    const more = view.message ? t(view.message.key, view.message.params)
      : hint ? hintSentence(view, hint)
        : view.accepting ? t("guideRuin")
          : `${t("magdagdonText", { n: game.min_required })} ${t(game.powers.left > 0 ? "magdagdonPowers" : "magdagdonAccept")}`;
    return {
      kind: "banner",
      html: `<strong class="banner-title">${t("magdagdon")}</strong> <span>${more}</span>`,
    };
  }
  if (view.message) {
    const icon = '<span class="icon" aria-hidden="true">!</span> ';
    const kind = view.message.kind ?? "why";
    return { kind, html: `${kind === "info" ? "" : icon}${t(view.message.key, view.message.params)}` };
  }
  if (hint) return { kind: "hint", html: hintSentence(view, hint) };
  if (game.stuck) {
    return { kind: "stuck", html: `<span class="icon" aria-hidden="true">!</span> ${t("stuck")}` };
  }
  return { kind: "guide", html: guide(view) };
}

function hintSentence(view, hint) {
  const expected = t("hintExpected", { value: num(Math.round(view.hint.expected_value)) });
  return `<span class="hint-tag">${t("hint")}:</span> ${t(hint.say.key, hint.say.params)} ` +
    `<span class="hint-expected">${expected}</span>`;
}

function guide(view) {
  const game = view.game;
  if (game.phase === "roll") return t(game.turn > 0 ? "guideRoll" : view.tutorialSeen ? "guideStart" : "guideFirstRoll");
  if (view.stagePending) return t("guideSending");
  if (view.picking) return t("guidePick");
  if (view.selected !== null) return litCells(view).length ? t("guidePlace") : t("guideNoCell");
  return game.can_confirm ? t("guideConfirm") : t("guideSelect", { n: game.min_required });
}
