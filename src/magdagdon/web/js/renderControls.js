// The message line (hints, stuck, the MAGDAGDON banner), the Power and action buttons, and the
// game-over panel — every enabled/disabled from the state's own fields.
import { t } from "./i18n.js";

function button(root, action) {
  return root.querySelector(`[data-action="${action}"]`);
}

function setButton(el, { shown = true, enabled = true, label, cost = null }) {
  el.hidden = !shown;
  el.disabled = !enabled;
  el.innerHTML = cost === null ? label : `${label} <small class="cost">−${cost}</small>`;
  if (cost === null) el.removeAttribute("aria-label");
  else el.setAttribute("aria-label", `${label}, ${t("costOf", { n: cost })}`);
}

export function renderControls(root, view) {
  const game = view.game;
  const over = game.phase === "over";
  const tray = game.dice.filter((d) => d.cell === null);
  const adjust = view.selected === null || view.picking || view.accepting
    ? [] : game.adjust?.[String(view.selected)] ?? [];
  const cost = game.powers.next_penalty;
  const showPowers = !over && game.powers.total > 0;

  root.querySelector("#powers").hidden = !showPowers;
  setButton(button(root, "minus"), { label: t("minus"), cost, enabled: adjust.includes(-1) });
  setButton(button(root, "plus"), { label: t("plus"), cost, enabled: adjust.includes(1) });
  const reroll = button(root, "reroll");
  if (view.picking) {
    setButton(reroll, { label: t("rerollPick", { n: view.picks.size }), cost, enabled: view.picks.size > 0 });
  } else {
    setButton(reroll, { label: t("reroll"), cost, enabled: game.can_reroll && tray.length > 0 && !view.accepting });
  }
  reroll.classList.toggle("armed", view.picking);
  setButton(button(root, "cancel"), { label: t("rerollCancel"), shown: view.picking });

  root.querySelector("#tray").hidden = over;
  const magdagdon = game.phase === "magdagdon";
  setButton(button(root, "roll"), { label: t("roll"), shown: !over, enabled: game.phase === "roll" });
  setButton(button(root, "confirm"), {
    label: t("confirm"), shown: !over && !magdagdon, enabled: game.can_confirm,
  });
  const accept = button(root, "accept");
  setButton(accept, { label: view.accepting ? t("acceptCancel") : t("accept"), shown: magdagdon });
  accept.classList.toggle("armed", view.accepting);
  accept.setAttribute("aria-pressed", String(view.accepting));

  const newGame = button(root, "new-game");
  newGame.classList.toggle("primary", over);
  newGame.classList.toggle("quiet", !over);
  newGame.setAttribute("aria-label", t("newGame"));
  renderMessage(root.querySelector("#message"), view);
  renderOver(root.querySelector("#over"), view);
}

function renderMessage(el, view) {
  const game = view.game;
  let kind = "hint";
  let html;
  if (game.phase === "over") {
    html = "";
  } else if (game.phase === "magdagdon") {
    kind = "banner";
    const more = view.accepting ? t("hintRuin")
      : game.powers.left > 0 ? t("magdagdonPowers") : t("magdagdonAccept");
    html = `<strong class="banner-title">${t("magdagdon")}</strong> ` +
      `<span>${t("magdagdonText", { n: game.min_required })} ${more}</span>`;
  } else if (view.message) {
    kind = "error";
    html = view.message;
  } else if (game.stuck) {
    kind = "stuck";
    html = `<span class="icon" aria-hidden="true">!</span> ${t("stuck")}`;
  } else if (game.phase === "roll") {
    html = t("hintRoll");
  } else if (view.picking) {
    html = t("hintPick");
  } else if (view.selected !== null) {
    const cells = game.valid_cells[String(view.selected)] ?? [];
    html = cells.length ? t("hintPlace") : t("hintNoCell");
  } else {
    html = game.can_confirm ? t("hintConfirm") : t("hintSelect");
  }
  el.className = `message ${kind}`;
  el.innerHTML = html;
}

const minus = (n) => (n ? `−${n}` : "0");

function renderOver(el, view) {
  const game = view.game;
  el.hidden = game.phase !== "over";
  if (el.hidden) return;
  const s = game.score;
  const lines = [`<li>${t("base")} <b>${s.base}</b></li>`];
  s.rows.forEach((line, r) => {
    if (line.combo) lines.push(`<li>${t("lineRow", { r: r + 1, combo: t(line.combo) })} <b>+${line.bonus}</b></li>`);
  });
  s.columns.forEach((line, c) => {
    if (line.combo) lines.push(`<li>${t("lineCol", { c: c + 1, combo: t(line.combo) })} <b>+${line.bonus}</b></li>`);
  });
  lines.push(`<li>${t("ruins", { n: s.ruins })} <b>${minus(s.ruin_penalty)}</b></li>`);
  lines.push(`<li>${t("powerPenalty")} <b>${minus(s.power_penalty)}</b></li>`);
  const rank = game.rank
    ? t("rank", { rank: game.rank, difficulty: t(game.difficulty) }) : t("noRank");
  el.innerHTML =
    `<h2 class="over-title">${t("gameOver")}</h2>` +
    `<p class="final">${t("finalScore")} <b class="final-score">${s.total}</b></p>` +
    `<ul class="breakdown">${lines.join("")}</ul>` +
    `<p class="rank">${rank}</p>`;
}
