// What the player sees and hears after an answer: the turn's words said aloud (the live
// region), the dice tumbling, the points and combos of a confirmed turn, the cues.
import * as effects from "../render/effects.js";
import { dieById, stagedDice, trayDice } from "../core/game.js";
import { t } from "../i18n/i18n.js";
import { signed } from "../lib/format.js";
import { feedback } from "./cues.js";

// play: createPlay's parts (view, dom, announce).
export function createAnswered(play) {
  const { view, dom, announce } = play;

  function answered(before, game, action) {
    const values = game.dice.map((d) => d.value).join(", ");
    const words = [];
    const still = game.phase === "place" && t(game.stuck ? "stuck" : game.can_confirm ? "minDone" : "whyConfirm", whyParams());
    if (action.type === "roll" || action.type === "reroll") {
      requestAnimationFrame(() => effects.tumble(dom.tray, action.type === "roll" ? [0, 1, 2, 3] : action.dice));
      words.push(t(action.type === "roll" ? "announceRoll" : "announceReroll", { values }));
      feedback(view, action.type === "roll" ? "roll" : "power");
    } else if (action.type === "adjust") {
      words.push(t("announceAdjust", { v: dieById(game, action.die).value }));
      feedback(view, "power");
    } else if (action.type === "stage") {
      words.push(t("announceStage", { v: dieById(game, action.die).value, r: action.cell[0] + 1, c: action.cell[1] + 1 }), still);
    } else if (action.type === "unstage") {
      words.push(t("announceUnstage", { v: dieById(before, action.die).value }));
      cameBack(before, game, action.die, words);
      words.push(still);
      feedback(view, "unstage");
    } else if (action.type === "confirm") {
      confirmed(before, game, words);
    } else if (action.type === "ruin") {
      words.push(t("announceRuin", { r: action.cell[0] + 1, c: action.cell[1] + 1 }));
      feedback(view, "ruin");
    }
    if (game.phase === "magdagdon" && before.phase !== "magdagdon") {
      words.push(t("announceMagdagdon", { n: game.min_required }));
      feedback(view, "magdagdon");
    }
    if (game.phase === "over") words.push(t("announceOver", { score: game.score.total }));
    if (words.length) announce(words.filter(Boolean).join(" "));
  }

  // Returning a die can take others with it (docs/rules.md "A turn"): say which.
  function cameBack(before, game, id, words) {
    const returned = dieById(before, id);
    const others = stagedDice(before).filter((d) => d.id !== id && dieById(game, d.id)?.cell === null);
    if (others.length) {
      const list = others.map((d) => d.value).join(", ");
      view.message = { key: "returnedWith", params: { v: returned.value, list, n: others.length }, kind: "info" };
      words.push(t(view.message.key, view.message.params));
    }
  }

  function confirmed(before, game, words) {
    const gain = game.score.total - before.score.total;
    feedback(view, "confirm");
    const combos = [];
    const scan = (kind, lines, old) => lines.forEach((line, index) => {
      if (line.combo && !old[index].combo) combos.push({ kind, index, combo: line.combo, bonus: line.bonus });
    });
    scan("row", game.score.rows, before.score.rows);
    scan("col", game.score.columns, before.score.columns);
    requestAnimationFrame(() => {
      effects.toast(dom.toasts, signed(gain), "gain");
      if (combos.length) {
        effects.celebrate(dom.board, combos);
        for (const combo of combos) effects.toast(dom.toasts, `${t(combo.combo)} +${combo.bonus}`, "combo");
      }
    });
    words.push(t("announceConfirm", { n: signed(gain) }), t("announceTotal", { total: game.score.total }));
    for (const combo of combos) {
      const where = t(combo.kind === "row" ? "lineRow" : "lineCol", { r: combo.index + 1, c: combo.index + 1, combo: t(combo.combo) });
      words.push(`${where} +${combo.bonus}!`);
    }
    if (combos.length) feedback(view, "combo");
  }

  // The figures the turn's sentences name: the dice still to stage, the dice in the tray.
  function whyParams() {
    const game = view.game;
    return { n: Math.max(0, game.min_required - stagedDice(game).length), left: trayDice(game).length };
  }

  return { answered, whyParams };
}
