// MENU's choices that change no game: a sheet opened, the language, a preference switched.
import * as api from "../core/api.js";
import { loadServer } from "../sheets/link.js";
import { applyStatic, load, prepare, setLanguage } from "../i18n/i18n.js";
import * as more from "../sheets/more.js";
import * as prefs from "../core/prefs.js";
import { feedback } from "./cues.js";

// play: createPlay's parts (view, dom, render, sheets).
export function createMenu(play) {
  const { view, dom, render } = play;

  async function openSheet(name) {
    if (name === "rules" || name === "about") await load("long").catch(() => {});
    view.sheet = name;
    view.ask = null;
    render();
    if (name === "settings") loadServer(view.devices, api).then(render);
    if (name === "settings" || name === "highscores") await more.opened(name, play.sheets);
  }

  // Played as a request (requests.js): a tap that comes while the language's words load waits
  // for them, so that what it does (a share text, a hint's words) is in the language chosen.
  function chooseLanguage(lang) {
    return play.request(async () => {
      await prepare(lang).catch(() => {}); // the words shown now that load when first used
      if (!setLanguage(lang)) return; // its words could not load (no connection): nothing changes
      dom.live.textContent = ""; // what was said, said in the other language
      prefs.saveLanguage(lang, api.setPlayer);
      applyStatic();
    });
  }

  function togglePref(name) {
    view[name] = !view[name];
    prefs.set(name, view[name] ? "1" : "0");
    render();
    if (view[name]) feedback(view, "confirm"); // a sample, from the player's own tap
  }

  return { openSheet, chooseLanguage, togglePref };
}
