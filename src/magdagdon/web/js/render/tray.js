// The tray: the four dice of the roll drawn as die faces; a staged die leaves an empty slot.
import { faceButton, showFace } from "./dice.js";
import { t } from "../i18n/i18n.js";
import { shownGame } from "../core/view.js";

const SLOTS = 4;

export function createTray(root) {
  const slots = [];
  for (let i = 0; i < SLOTS; i++) {
    const slot = faceButton("die");
    root.append(slot);
    slots.push(slot);
  }
  return slots;
}

export function renderTray(slots, view, hint) {
  const dice = shownGame(view).dice;
  slots.forEach((slot, i) => {
    const die = dice.find((d) => d.id === i);
    const inTray = die !== undefined && die.cell === null;
    slot.classList.toggle("hinted", inTray && Boolean(hint?.dice.has(die.id)));
    if (!inTray) {
      delete slot.dataset.die;
      slot.disabled = true;
      slot.classList.add("ghost");
      slot.classList.remove("selected", "picked");
      slot.removeAttribute("aria-pressed");
      slot.setAttribute("aria-label", die ? t("dieStagedSlot", { i: i + 1 }) : t("dieUsedSlot"));
      showFace(slot.firstChild, null);
      return;
    }
    slot.dataset.die = String(die.id);
    slot.disabled = false;
    slot.classList.remove("ghost");
    const chosen = view.picking ? view.picks.has(die.id) : view.selected === die.id;
    slot.classList.toggle("selected", chosen && !view.picking);
    slot.classList.toggle("picked", chosen && view.picking);
    slot.setAttribute("aria-pressed", String(chosen));
    let label = t("die", { i: i + 1, v: die.value });
    if (chosen) label += `, ${view.picking ? t("diePicked") : t("dieSelected")}`;
    if (hint?.dice.has(die.id)) label += `, ${t("dieHinted")}`;
    slot.setAttribute("aria-label", label);
    showFace(slot.firstChild, die.value);
  });
}
