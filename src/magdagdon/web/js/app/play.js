// What each of the player's intents does: this module reads an intent and hands it to the part
// that does it (requests.js: the server and the view's game; taps.js: the board and the tray;
// powers.js; magdagdon.js: the ruin; games.js: a new game, the tutorial; menu.js; askHint.js;
// answered.js: what is said after an answer). A change of the view alone renders at once; a
// game action goes to the server and its answer becomes the view's game, then the whole view
// renders again. The page decides no rule: every "may I" is read off the state it was sent.
import * as api from "../core/api.js";
import * as source from "../core/source.js";
import { deviceActions } from "../sheets/link.js";
import * as more from "../sheets/more.js";
import { language } from "../i18n/i18n.js";
import { lazy } from "../lib/lazy.js";
import { resetModes } from "../core/view.js";
import { createAnswered } from "./answered.js";
import { createAskHint } from "./askHint.js";
import { createGames } from "./games.js";
import { createMagdagdon } from "./magdagdon.js";
import { createMenu } from "./menu.js";
import { createPowers } from "./powers.js";
import { createRequests } from "./requests.js";
import { createTaps } from "./taps.js";

// Taps that must wait for the server's answer (they act on the state it will send).
const WAITS = new Set(["cell", "action", "refused"]);

export function createPlay({ view, dom, render, announce }) {
  // the parts, each made of the others (each calls another's function only when played)
  const play = { view, dom, render, announce, onIntent };
  Object.assign(play, createRequests(play), createAnswered(play), createTaps(play),
    createMagdagdon(play), createPowers(play), createGames(play), createMenu(play));
  // What the sheets that load when first used (more.js) may do: draw, ask the server, and start
  // (or resume) a game as a new game does.
  play.sheets = { view, dom, render, request: play.request, begin: play.begin, announce };
  const { request, send } = play;

  const ACTIONS = {
    roll: () => request(() => send({ type: "roll" })),
    confirm: () => (view.game.can_confirm ? request(() => send({ type: "confirm" })) : null),
    minus: () => play.adjust(-1),
    plus: () => play.adjust(1),
    reroll: () => play.reroll(),
    cancel: () => {
      if (view.sheet) return;
      resetModes(view);
      render();
    },
    accept: () => play.accept(),
    hint: createAskHint(play),
    "switch-language": () => play.chooseLanguage(language() === "fil" ? "en" : "fil"),
    menu: () => {
      view.menuOpen = !view.menuOpen;
      render();
    },
    "new-game": () => play.askNew(view.game.difficulty),
    tutorial: () => play.startTutorial(),
    "tutorial-skip": () => play.endTutorial(),
    "tutorial-done": () => play.endTutorial(),
    settings: () => play.openSheet("settings"),
    ...deviceActions({ view, render, api }),
    highscores: () => play.openSheet("highscores"),
    rules: () => play.openSheet("rules"),
    about: () => play.openSheet("about"),
    // the review loads when first opened (review/sheet.js), over the sheet it was opened from
    review: (intent) => lazy(() => import("../review/sheet.js"), { css: ["css/sheet.css", "css/review.css"], words: "review" })
      .then((m) => m.openReview(intent.el?.dataset.game ?? view.game.id, { root: dom.root })),
    "export-refused": () => source.exportRefused(),
    close: () => {
      if (view.sheet === null) return;
      view.sheet = null;
      view.ask = null;
      render();
    },
  };

  // The answer to the question asked (a Power's cost, a new game while one is under way).
  function choose(value) {
    const ask = view.ask;
    view.ask = null;
    view.sheet = null;
    if (value !== "yes" || !ask) {
      view.sheet = ask?.from ?? null; // back to SETTINGS when the question came from there
      render();
      return null;
    }
    if (ask.kind === "power") return play.spend(ask.action);
    return play.startNew(ask.value);
  }

  async function onIntent(intent) {
    if (!view.game) return;
    if (view.busy && WAITS.has(intent.kind) && !["close", "tutorial-skip"].includes(intent.name)) {
      play.queue(intent);
      return;
    }
    const coach = view.tutorial;
    if (coach && !coach.allows(view, intent)) {
      coach.refuse(view, intent, dom, announce);
      return;
    }
    const before = coach ? coach.progress(view) : null;
    view.offer = false; // the first tap answers the first visit's offer, whatever it is
    if (intent.name !== "menu") view.menuOpen = false; // a choice made in MENU closes it
    if (intent.kind !== "refused" || coach === null) view.message = null;
    if (intent.kind === "cell") await play.tapCell(intent);
    else if (intent.kind === "die") play.tapDie(intent);
    else if (intent.kind === "action") {
      await (ACTIONS[intent.name] ?? ((i) => more.lazyAction(i.name, play.sheets, i)))(intent);
    }
    else if (intent.kind === "refused") play.refuse(intent.el, intent.why, play.whyParams());
    else if (intent.kind === "difficulty") await play.askNew(intent.value);
    else if (intent.kind === "lang") await play.chooseLanguage(intent.value);
    else if (intent.kind === "pref") play.togglePref(intent.value);
    else if (intent.kind === "choice") await choose(intent.value);
    if (coach && view.tutorial === coach && coach.advance(view, before)) {
      render();
      announce(coach.coachText(view));
    }
    // an answer that hid the button tapped (I-ROLL, KUMPIRMAHIN) left focus nowhere
    const el = document.activeElement;
    if (!view.tutorial && !view.sheet && (el === document.body || !el?.getClientRects().length || el.disabled)) play.focusNext(null);
  }

  const { keep, reload, sendPending } = play;
  return { onIntent, keep, request, reload, sendPending };
}
