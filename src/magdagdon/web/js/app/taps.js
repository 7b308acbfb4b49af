// Taps on the board and the tray: choosing a die (or the dice a reroll takes), staging it on a
// lit cell, returning a staged one, and the word that says why a tap does nothing. The page
// decides no rule: a cell is lit, a die staged, only as the state sent says.
import * as effects from "../render/effects.js";
import { dieAt, dieById, has, sameCell } from "../core/game.js";
import { t } from "../i18n/i18n.js";
import { focusCell } from "../core/input.js";
import { litCells } from "../core/view.js";
import { feedback } from "./cues.js";

const NEXT = '.tray [data-die]:not(:disabled),[data-action="roll"],[data-action="confirm"],[data-action="accept"],[data-action="new-game"]';
export const DOUBLE_TAP_MS = 350; // a second tap this soon on a die just staged is part of a double tap

// play: createPlay's parts (view, dom, render, announce, request, send, ruin).
export function createTaps(play) {
  const { view, dom, render, announce } = play;
  let lastStage = { cell: null, at: 0 };

  function tapCell(intent) {
    const game = view.game;
    const cell = intent.cell;
    const staged = dieAt(game, cell);
    if (staged && game.phase === "place") {
      const at = intent.at ?? performance.now();
      const soon = sameCell(lastStage.cell, cell) && at - lastStage.at < DOUBLE_TAP_MS;
      if (intent.repeat || (soon && !intent.keyboard)) return null; // the second tap of a double tap
      const onCell = intent.keyboard || document.activeElement === intent.el;
      return play.request(async () => {
        await play.send({ type: "unstage", die: staged.id });
        if (onCell) focusAfter(dieById(view.game, staged.id));
      });
    }
    if (view.accepting && has(game.ruinable, cell)) return play.ruin(cell);
    if (has(litCells(view), cell)) return stage(view.selected, cell, intent);
    refuse(intent.el, view.selected === null ? "whyCellNoDie" : "whyCellNotLit",
      { v: dieById(game, view.selected)?.value });
    return null;
  }

  // The die is drawn on the cell at once (the state said the cell is valid); the server's answer
  // settles it, or takes it back if the server refuses.
  function stage(die, cell, intent) {
    view.stagePending = { die, cell };
    view.selected = null;
    lastStage = { cell, at: intent.at ?? performance.now() };
    feedback(view, "stage");
    requestAnimationFrame(() => effects.land(intent.el));
    const onCell = intent.keyboard || document.activeElement === intent.el;
    const sent = play.request(() => play.send({ type: "stage", die, cell }),
      { onRefused: () => requestAnimationFrame(() => effects.shake(intent.el)) });
    // drawn staged at once (request renders first): Enter there would return it
    if (onCell) focusNext(null);
    return sent;
  }

  function tapDie(intent) {
    const game = view.game;
    const die = dieById(game, intent.id);
    if (!die || die.cell !== null) return;
    if (view.accepting) {
      refuse(intent.el, "whyDieAccepting");
      return;
    }
    if (view.picking) {
      if (view.picks.has(die.id)) view.picks.delete(die.id);
      else view.picks.add(die.id);
      render();
      announce(intent.el.getAttribute("aria-label")); // the die, and whether it is picked now
      return;
    }
    view.selected = view.selected === die.id ? null : die.id;
    render();
    const lit = litCells(view);
    announce(`${intent.el.getAttribute("aria-label")}. ${dom.message.textContent}`); // and what now
    // on to a lit cell (Enter on the die would only put it back)
    if (lit.length && (intent.keyboard || document.activeElement === intent.el)) {
      focusCell(dom.root, dom.root.querySelector(`[data-cell="${lit[0][0]}-${lit[0][1]}"]`));
    }
  }

  // Focus goes where Enter does no harm: the returned die, the next die in the tray, or the turn's
  // own button — never a staged die (Enter there would return it).
  function focusAfter(die) {
    render();
    focusNext(die);
  }

  function focusNext(die) {
    const shown = (s) => [...dom.root.querySelectorAll(s)].find((b) => b.getClientRects().length);
    (shown(`.tray [data-die="${die?.id}"]`) ?? shown(NEXT))?.focus();
  }

  function refuse(el, why, params = {}) {
    view.message = { key: why, params, kind: "why" };
    render();
    announce(t(why, params));
    effects.shake(el);
    feedback(view, "refused");
  }

  return { tapCell, tapDie, focusNext, refuse };
}
