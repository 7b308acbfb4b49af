// The MAGDAGDON's end of a turn: the player accepts it (a tap that toggles the choosing of a
// cell), then ruins one of the cells the state names ruinable.
import { t } from "../i18n/i18n.js";

// play: createPlay's parts (view, render, announce, request, send).
export function createMagdagdon(play) {
  const { view, render, announce } = play;

  function accept() {
    if (view.game.phase !== "magdagdon") return;
    view.accepting = !view.accepting;
    view.selected = null;
    view.picking = false;
    render();
    if (view.accepting) announce(t("guideRuin"));
  }

  const ruin = (cell) => play.request(() => play.send({ type: "ruin", cell }));

  return { accept, ruin };
}
