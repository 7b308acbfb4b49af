// The hint's button: the server's hint for the game (or, for a game played on this device, the
// engine worker's computer player, the server's own bots); a second tap hides it.
import * as source from "../core/source.js";
import { keptHint } from "../core/hint.js";
import { t } from "../i18n/i18n.js";

// play: createPlay's parts (view, dom, render, announce, request).
export function createAskHint(play) {
  const { view, dom, render, announce } = play;

  return async function askHint() {
    if (view.hint) {
      view.hint = null; // a second tap hides it
      render();
      announce(t("announceHintOff"));
      return;
    }
    if (view.game.phase === "over") return;
    view.hintBusy = true;
    await play.request(async () => {
      try {
        // a game played here: the engine worker's computer player (the server's bots)
        const answer = await source.hint(view.game).catch((err) => {
          if (!source.holds(view.game.id)) throw err;
          view.message = { key: "hintNeedsConnection", kind: "info" }; // its bots did not load
          return null;
        });
        if (!answer) return;
        if (answer.version === view.game.version) view.hint = keptHint(answer, view.game);
      } finally {
        view.hintBusy = false;
      }
    });
    if (view.hint && !view.tutorial) announce(dom.message.textContent); // the hint's sentence
  };
}
