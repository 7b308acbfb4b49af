// The tray: the four dice of the roll drawn as die faces; a staged die leaves an empty slot.
import { faceButton, showFace } from "./dice.js";
import { t } from "./i18n.js";

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

export function renderTray(slots, view) {
  const dice = view.game.dice;
  slots.forEach((slot, i) => {
    const die = dice.find((d) => d.id === i);
    const inTray = die !== undefined && die.cell === null;
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
    const selected = view.picking ? view.picks.has(die.id) : view.selected === die.id;
    slot.classList.toggle("selected", selected && !view.picking);
    slot.classList.toggle("picked", selected && view.picking);
    slot.setAttribute("aria-pressed", String(selected));
    let label = t("die", { i: i + 1, v: die.value });
    if (selected) label += `, ${view.picking ? t("diePicked") : t("dieSelected")}`;
    slot.setAttribute("aria-label", label);
    showFace(slot.firstChild, die.value);
  });
}

// A short tumble on the dice that were just rolled (CSS skips it under prefers-reduced-motion).
export function animateRoll(slots, ids) {
  for (const id of ids) {
    const slot = slots[id];
    if (!slot) continue;
    slot.classList.remove("rolling");
    void slot.offsetWidth;
    slot.classList.add("rolling");
    setTimeout(() => slot.classList.remove("rolling"), 500);
  }
}
