// The tutorial's coach (loaded only when the tutorial opens): one real PEACEFUL game on the seed
// of tutorial.json, whose every step names the one tap it asks for (bench/find_tutorial.py found
// the seed with the engine). Only that tap goes through — play.js sends its action to the server
// like any other and draws the answer; any other tap gets a gentle shake, a word under the
// coach's words ("not that one: tap the one in gold") and the coach's words again. The coach's
// words are in i18n/fil.long.js / en.long.js ("coach.*"). The last step's TAPOS NA takes
// I-ROLL's place in the action row (a button of full size, and no other to compete with it).
import * as effects from "../render/effects.js";
import { h } from "../lib/dom.js";
import { entry, fill, t } from "../i18n/i18n.js";
import { sameCell } from "../core/game.js";

export function createTutorial(script) {
  return { script, index: 0, nudged: false, allows, refuse, progress, advance, coachText, render: renderCoach };
}

const stepOf = (view) => view.tutorial.script.steps[view.tutorial.index];

export function coachText(view) {
  const step = stepOf(view);
  return fill(entry(`coach.${step.say}`) ?? "", step.params);
}

// Is this the tap the coach asks for? (Skipping, and the sheet closing, always are.)
function allows(view, intent) {
  if (intent.kind === "action" && ["tutorial-skip", "tutorial-done", "close"].includes(intent.name)) {
    return intent.name !== "tutorial-done" || stepOf(view).tap.action === "tutorial-done";
  }
  const tap = stepOf(view).tap;
  if (tap.action) return intent.kind === "action" && intent.name === tap.action;
  if (tap.die !== undefined) return intent.kind === "die" && intent.id === tap.die;
  const cell = tap.cell ?? tap.board;
  return intent.kind === "cell" && sameCell(intent.cell, cell);
}

function refuse(view, intent, dom, announce) {
  view.tutorial.nudged = true;
  renderCoach(dom, view);
  effects.shake(dom.message);
  if (intent.el && !intent.el.closest("#message")) effects.shake(intent.el);
  const target = dom.root.querySelector(".coached");
  if (target) effects.shake(target);
  announce(`${t("coachNudge")} ${coachText(view)}`);
}

function progress(view) {
  return { version: view.game.version, selected: view.selected, accepting: view.accepting };
}

// Did the tap of the step do what it asks (the server took its action, the die is chosen…)?
// Then the coach moves to the next step; answers whether it did.
function advance(view, before) {
  const coach = view.tutorial;
  const step = stepOf(view);
  let done;
  if (step.send) done = view.game.version > before.version;
  else if (step.tap.die !== undefined) done = view.selected === step.tap.die;
  else if (step.tap.action === "accept") done = view.accepting;
  else done = false;
  if (done && coach.index < coach.script.steps.length - 1) coach.index += 1;
  if (done) coach.nudged = false;
  return done;
}

const ACTION_AREAS = "#actions, #powers, #message";

function targetOf(root, tap) {
  if (tap.action) {
    return [...root.querySelectorAll(`[data-action="${tap.action}"]`)]
      .find((el) => el.closest(ACTION_AREAS)) ?? null;
  }
  if (tap.die !== undefined) return root.querySelector(`.tray [data-die="${tap.die}"]`);
  const [r, c] = tap.cell ?? tap.board;
  return root.querySelector(`.board [data-cell="${r}-${c}"]`);
}

function renderCoach(dom, view) {
  const coach = view.tutorial;
  const step = stepOf(view);
  const n = coach.index + 1;
  const last = step.tap.action === "tutorial-done";
  const el = dom.message;
  const banner = view.game.phase === "magdagdon";
  el.className = `message coach${banner ? " banner" : ""}`;
  el.dataset.tutorialStep = String(n);
  const key = JSON.stringify([n, banner, coach.nudged, coachText(view), t("tutorialCount", { n, of: 0 })]);
  if (el.dataset.key !== key) {
    el.dataset.key = key;
    el.replaceChildren(...[
      h("span", { class: "coach-count" }, t("tutorialCount", { n, of: coach.script.steps.length })), " ",
      banner ? [h("strong", { class: "banner-title" }, t("magdagdon")), " "] : [],
      coach.nudged ? [h("span", { class: "coach-nudge" }, t("coachNudge")), " "] : [],
      h("span", { class: "coach-text" }, coachText(view)),
    ].flat());
  }
  const done = dom.root.querySelector('#actions [data-action="tutorial-done"]');
  done.hidden = !last;
  dom.root.classList.toggle("coach-last", last);
  for (const other of dom.root.querySelectorAll(".coached")) other.classList.remove("coached");
  targetOf(dom.root, step.tap)?.classList.add("coached");
}
