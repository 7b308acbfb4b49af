// The message area (a fixed place under the board, so nothing in it moves the buttons): the
// MAGDAGDON banner, the word on the last tap (why a button is disabled, an error, dice that came
// back), the hint's sentence, the stuck warning, or what to do next. The tutorial's coach takes
// the area while it runs. Without a connection, a small mark beside it says so (its own element:
// the game's words stay); only a tap that waits for the server has the area say what it waits for.
import { h } from "../lib/dom.js";
import { t } from "../i18n/i18n.js";
import { num } from "../lib/format.js";
import { litCells } from "../core/view.js";
import { notice, waitingWords } from "../core/offline.js";

export function renderMessage(el, view, hint) {
  const { kind, parts } = messageOf(view, hint);
  el.className = `message ${kind}`;
  // a word on a game sent from this device (refused, kept as practice) shows at a game's end too
  el.parentElement?.classList.toggle("says-sync", Boolean(view.message?.sync));
  const key = JSON.stringify(parts);
  if (el.dataset.key !== key) {
    el.dataset.key = key;
    el.replaceChildren(...parts.map(draw));
  }
}

// The connection's mark: in the message area's corner, or the game-over panel's while that
// takes the message area's place (render.js draws it after the panel, which it may redraw).
let mark = null;
export function renderMark(view, dom) {
  mark ??= h("p", { class: "conn-mark", "data-notice": "offline", role: "status", hidden: "" });
  const over = view.game?.phase === "over" && !dom.over.hidden;
  if (over && mark.parentElement !== dom.over) dom.over.prepend(mark);
  if (!over && mark.parentElement !== dom.message.parentElement) dom.message.after(mark);
  mark.hidden = !view.offline;
  const key = view.offline ? JSON.stringify(notice(view, t)) : "";
  if (mark.dataset.key !== key) {
    mark.dataset.key = key;
    mark.replaceChildren(...(view.offline ? notice(view, t).map(draw) : []));
  }
}

// A part of the message: words, or [tag, attributes, ...parts].
function draw(p) {
  return typeof p === "string" ? p : h(p[0], p[1], ...p.slice(2).map(draw));
}

const ICON = ["span", { class: "icon", "aria-hidden": "true" }, "!"];

function messageOf(view, hint) {
  const game = view.game;
  if (view.offline && view.waiting) return { kind: "offline", parts: waitingWords(view, t, view.waitsFor) };
  if (game.phase === "over" && !view.message?.sync) return { kind: "none", parts: [] };
  if (view.offer) {
    return {
      kind: "offer",
      parts: [["span", {}, t("offerText")], " ",
        ["button", { type: "button", class: "btn primary", "data-action": "tutorial" }, t("tutorial")]],
    };
  }
  if (game.phase === "magdagdon") {
    const more = view.message ? [t(view.message.key, view.message.params)]
      : view.picking ? [t("guidePick")] // I-ROLL ULIT to save the roll: which dice, then what
      : hint ? hintSentence(view, hint)
        : view.accepting ? [t("guideRuin")]
          : [`${t("magdagdonText", { n: game.min_required })} ${t(game.powers.left > 0 ? "magdagdonPowers" : "magdagdonAccept")}`];
    return {
      kind: "banner",
      parts: [["strong", { class: "banner-title" }, t("magdagdon")], " ", ["span", {}, ...more]],
    };
  }
  if (view.message) {
    const kind = view.message.kind ?? "why";
    const words = t(view.message.key, view.message.params);
    const action = view.message.action
      ? [" ", ["button", { type: "button", class: "btn quiet", "data-action": view.message.action }, t(view.message.action)]]
      : [];
    return { kind, parts: kind === "info" ? [words, ...action] : [ICON, " ", words, ...action] };
  }
  if (hint) return { kind: "hint", parts: hintSentence(view, hint) };
  if (game.stuck) return { kind: "stuck", parts: [ICON, " ", t("stuck")] };
  return { kind: "guide", parts: [guide(view)] };
}

function hintSentence(view, hint) {
  const expected = t("hintExpected", { value: num(Math.round(view.hint.expected_value)) });
  return [["span", { class: "hint-tag" }, `${t("hint")}:`], ` ${t(hint.say.key, hint.say.params)} `,
    ["span", { class: "hint-expected" }, expected]];
}

function guide(view) {
  const game = view.game;
  if (game.phase === "roll") return t(game.turn > 0 ? "guideRoll" : view.tutorialSeen ? "guideStart" : "guideFirstRoll");
  if (view.stagePending) return t("guideSending");
  if (view.picking) return t("guidePick");
  if (view.selected !== null) return litCells(view).length ? t("guidePlace") : t("guideNoCell");
  return game.can_confirm ? t("guideConfirm") : t("guideSelect", { n: game.min_required });
}
