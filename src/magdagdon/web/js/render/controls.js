// The Power and action buttons, each shown, live or disabled from the state's own fields. A
// disabled button stays tappable (aria-disabled) and carries the key of the words that say why
// (data-why), so a tap on it is answered.
import { dieById, stagedDice, trayDice } from "../core/game.js";
import { h } from "../lib/dom.js";
import { t } from "../i18n/i18n.js";
import { num, signed } from "../lib/format.js";

function button(root, action) {
  return root.querySelector(`[data-action="${action}"]`);
}

function setButton(el, { shown = true, enabled = true, why = null, label, sub = null, spoken = null }) {
  el.hidden = !shown;
  if (enabled) el.removeAttribute("aria-disabled");
  else el.setAttribute("aria-disabled", "true");
  el.dataset.why = enabled ? "" : why ?? "whyNotNow";
  const key = JSON.stringify([label, sub]);
  if (el.dataset.key !== key) {
    el.dataset.key = key;
    if (sub === null) el.replaceChildren(label);
    else el.replaceChildren(label, " ", h("small", { class: "sub" }, sub));
  }
  if (spoken === null) el.removeAttribute("aria-label");
  else el.setAttribute("aria-label", `${label}, ${spoken}`);
}

function powerWhy(game, view, delta) {
  if (game.powers.left === 0) return "whyNoPower";
  if (game.phase === "roll") return "whyPowerBeforeRoll";
  if (view.picking) return "whyPicking";
  if (view.selected === null) return trayDice(game).length ? "whyPickDie" : "whyPowerTray";
  const value = dieById(game, view.selected)?.value;
  if (delta < 0 && value === 1) return "whyMinusOne";
  if (delta > 0 && value === 6) return "whyPlusSix";
  return "whyNotNow";
}

function rerollWhy(game, view) {
  if (game.powers.left === 0) return "whyNoPower";
  if (game.phase === "roll") return "whyPowerBeforeRoll";
  if (view.picking) return "whyRerollPick";
  if (!trayDice(game).length) return "whyPowerTray";
  return "whyNotNow";
}

function confirmWhy(game) {
  if (game.stuck) return "stuck";
  if (game.phase === "roll") return "whyConfirmRoll";
  return "whyConfirm";
}

export function renderControls(root, view, hint) {
  const game = view.game;
  const over = game.phase === "over";
  const magdagdon = game.phase === "magdagdon";
  const choosing = view.picking || view.accepting;
  const adjust = view.selected === null || choosing ? [] : game.adjust?.[String(view.selected)] ?? [];
  const cost = game.powers.next_penalty;
  const costWords = cost === null ? null : t("costOf", { n: cost });
  const costSub = cost === null ? null : num(-cost);

  root.querySelector("#powers").hidden = over || game.powers.total === 0;
  root.querySelector("#powers").classList.toggle("picking", view.picking);
  setButton(button(root, "minus"), {
    label: t("minus"), sub: costSub, spoken: costWords, shown: !view.picking,
    enabled: adjust.includes(-1), why: powerWhy(game, view, -1),
  });
  setButton(button(root, "plus"), {
    label: t("plus"), sub: costSub, spoken: costWords, shown: !view.picking,
    enabled: adjust.includes(1), why: powerWhy(game, view, 1),
  });
  const reroll = button(root, "reroll");
  setButton(reroll, {
    label: t("reroll"),
    sub: view.picking ? `${t("rerollPick", { n: view.picks.size })} · ${costSub}` : costSub,
    spoken: view.picking ? `${t("rerollPick", { n: view.picks.size })}, ${costWords}` : costWords,
    enabled: view.picking ? view.picks.size > 0 : game.can_reroll && !view.accepting,
    why: rerollWhy(game, view),
  });
  reroll.classList.toggle("armed", view.picking);
  setButton(button(root, "cancel"), { label: t("rerollCancel"), shown: view.picking });

  root.querySelector("#tray").hidden = over;
  setButton(button(root, "roll"), {
    label: t("roll"), shown: !over && !magdagdon && game.phase === "roll",
    enabled: game.phase === "roll", why: "whyRoll",
  });
  // the points KUMPIRMAHIN gains, on it only while it can be pressed (a disabled one promises
  // nothing)
  const gains = stagedDice(game).length > 0 && game.can_confirm;
  const gain = game.preview ? game.preview.total - game.score.total : 0;
  setButton(button(root, "confirm"), {
    label: t("confirm"), shown: !over && !magdagdon && game.phase !== "roll",
    enabled: game.can_confirm, why: confirmWhy(game),
    sub: gains ? signed(gain) : null, spoken: gains ? t("confirmGain", { n: signed(gain) }) : null,
  });
  const accept = button(root, "accept");
  setButton(accept, { label: view.accepting ? t("acceptCancel") : t("accept"), shown: magdagdon });
  accept.classList.toggle("armed", view.accepting);
  accept.setAttribute("aria-pressed", String(view.accepting));

  const hintButton = button(root, "hint");
  hintButton.hidden = over;
  hintButton.setAttribute("aria-pressed", String(view.hint !== null));
  if (view.hintBusy) hintButton.setAttribute("aria-busy", "true");
  else hintButton.removeAttribute("aria-busy");

  const newGame = button(root, "new-game");
  newGame.classList.toggle("primary", over);
  newGame.classList.toggle("quiet", !over);
  for (const name of ["roll", "confirm", "accept", "minus", "plus", "reroll"]) {
    button(root, name).classList.toggle("hint-button", hint?.button === name);
  }
}
