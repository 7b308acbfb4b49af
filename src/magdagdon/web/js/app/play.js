// What each of the player's intents does. A change of the view alone renders at once; a game
// action goes to the server (source.js) and its answer becomes the view's game, then the whole
// view renders again. The page decides no rule: every "may I" is read off the state it was sent.
import * as api from "../core/api.js";
import * as source from "../core/source.js";
import { deviceActions, loadServer } from "../sheets/link.js";
import * as offline from "../core/offline.js";
import * as effects from "../render/effects.js";
import { DIFFICULTIES, dieAt, dieById, has, sameCell, stagedDice, trayDice, underWay } from "../core/game.js";
import { keptHint } from "../core/hint.js";
import { applyStatic, language, load, prepare, setLanguage, t } from "../i18n/i18n.js";
import { signed } from "../lib/format.js";
import { focusCell } from "../core/input.js";
import * as more from "../sheets/more.js";
import { lazy } from "../lib/lazy.js";
import * as prefs from "../core/prefs.js";
import { litCells, resetModes, settle } from "../core/view.js";

const NEXT = '.tray [data-die]:not(:disabled),[data-action="roll"],[data-action="confirm"],[data-action="accept"],[data-action="new-game"]';
const DOUBLE_TAP_MS = 350; // a second tap this soon on a die just staged is part of a double tap

// Sound and vibration (core/feedback.js), loaded the first time either is on: off by default.
let cues = null;
function feedback(view, cue) {
  if (!view.sound && !view.vibrate) return;
  (cues ??= import("../core/feedback.js")).then((m) => m.feedback(view, cue), () => { cues = null; });
}

export function createPlay({ view, dom, render, announce }) {
  let queued = null; // one tap that came while a request was under way, replayed after it
  let lastStage = { cell: null, at: 0 };

  // ----- the server
  async function request(work, { onRefused } = {}) {
    view.busy = true;
    document.body.dataset.busy = "1";
    render();
    try {
      await work();
    } catch (err) {
      if (!(err instanceof api.ApiError)) console.error(err); // a fault of the page itself
      view.stagePending = null;
      onRefused?.(err);
      if (err.status === 0) {
        view.message = { key: "errorNetwork", kind: "error" };
        if (!navigator.onLine) view.offline = true;
      } else if (err.code === "version_conflict" || err.status === 404) {
        view.message = { key: "errorConflict", kind: "error" };
        await reload().catch(() => {});
      } else {
        view.message = { key: "errorRefused", kind: "error" };
        await reload().catch(() => {});
      }
      feedback(view, "refused");
    } finally {
      view.busy = false;
      delete document.body.dataset.busy;
      render();
    }
    if (queued) {
      const next = queued;
      queued = null;
      await onIntent(next);
    }
  }

  async function reload() {
    settle(view, await source.game(view.game.id));
  }

  function keep(game) {
    settle(view, game);
    source.seen(game);
    if (game.mode !== "tutorial") {
      offline.rememberState(game); // the board to show with no connection
      prefs.set("lastGame", game.id);
      prefs.set("difficulty", game.difficulty);
    }
  }

  async function send(action) {
    const before = view.game;
    const game = await source.act(before, action, waiting);
    keep(game);
    answered(before, game, action);
    if (action.type === "confirm") source.turnFinished(); // the offline engine's download may start
    // a daily game's share text, fetched as it ends: the tap on IBAHAGI then shares at once,
    // while the tap still counts as the player's (some browsers share only then)
    if (game.daily && game.phase === "over") {
      more.lazyAction("share-ready", ctx, { game }).catch(() => null); // else fetched at the tap
    }
  }

  // An action with no answer yet is sent again (api.act): while it waits, the connection's mark
  // shows, and the page says what the tap waits for. The mark goes when an answer comes
  // (app.js), or when the engine here answered the tap instead.
  function waiting(waits) {
    view.waiting = waits;
    if (waits) {
      view.offline = true;
      view.waitsFor = source.waitsFor(view.game);
    }
    render();
  }

  // The tap this device kept before a reload with no answer (offline.js): sent again at its
  // version, so the server applies it once, or answers the state it already produced; or
  // played by the engine here, once it is ready, on the game as this device kept it.
  function sendPending(pending) {
    const kept = view.game?.id === pending.game && view.game.version === pending.version;
    const state = kept ? view.game : { id: pending.game, version: pending.version };
    return request(async () => {
      const before = view.game;
      const game = await (kept ? source.act(state, pending.action, waiting) : api.act(state, pending.action, waiting));
      keep(game);
      if (kept) answered(before, game, pending.action);
    });
  }

  // ----- what the player sees and hears after an answer
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

  // ----- taps on the board and the tray
  function tapCell(intent) {
    const game = view.game;
    const cell = intent.cell;
    const staged = dieAt(game, cell);
    if (staged && game.phase === "place") {
      const at = intent.at ?? performance.now();
      const soon = sameCell(lastStage.cell, cell) && at - lastStage.at < DOUBLE_TAP_MS;
      if (intent.repeat || (soon && !intent.keyboard)) return null; // the second tap of a double tap
      const onCell = intent.keyboard || document.activeElement === intent.el;
      return request(async () => {
        await send({ type: "unstage", die: staged.id });
        if (onCell) focusAfter(dieById(view.game, staged.id));
      });
    }
    if (view.accepting && has(game.ruinable, cell)) {
      return request(() => send({ type: "ruin", cell }));
    }
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
    const sent = request(() => send({ type: "stage", die, cell }),
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

  // ----- the buttons
  // A Power that costs points asks once, with its cost, before it is spent: the engine cannot take
  // it back. (The tutorial's coach names the cost itself, and allows only the Power's own tap.)
  function power(action, name) {
    const cost = view.game.powers.next_penalty;
    if (cost !== null && cost > 0 && !view.tutorial) {
      view.ask = { kind: "power", action, cost, power: name };
      view.sheet = "ask";
      render();
      return null;
    }
    return request(() => send(action));
  }

  function adjust(delta) {
    const id = view.selected;
    if (id === null || !(view.game.adjust?.[String(id)] ?? []).includes(delta)) return null;
    return power({ type: "adjust", die: id, delta }, delta < 0 ? "minus" : "plus");
  }

  function reroll() {
    if (view.picking) {
      const dice = [...view.picks].sort();
      if (!dice.length) return null;
      view.picking = false;
      view.picks = new Set();
      return power({ type: "reroll", dice }, "reroll");
    }
    if (!view.game.can_reroll) return null;
    view.picking = true;
    view.picks = new Set(view.selected === null ? [] : [view.selected]);
    view.selected = null;
    render();
    return null;
  }

  async function askHint() {
    if (view.hint) {
      view.hint = null; // a second tap hides it
      render();
      announce(t("announceHintOff"));
      return;
    }
    if (view.game.phase === "over") return;
    view.hintBusy = true;
    await request(async () => {
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
  }

  function startNew(difficulty) {
    view.ask = null;
    view.sheet = null;
    resetModes(view);
    view.hint = null;
    return request(async () => {
      keep(await source.newGame(difficulty));
      announce(`${t("newGame")}: ${t(difficulty)}`);
    });
  }

  function askNew(difficulty) {
    if (underWay(view.game)) {
      const change = difficulty === view.game.difficulty ? null : difficulty;
      view.ask = { kind: "new", difficulty: change, value: difficulty, from: view.sheet };
      view.sheet = "ask";
      render();
      return null;
    }
    return startNew(difficulty);
  }

  async function openSheet(name) {
    if (name === "rules" || name === "about") await load("long").catch(() => {});
    view.sheet = name;
    view.ask = null;
    render();
    if (name === "settings") loadServer(view.devices, api).then(render);
    if (name === "settings" || name === "highscores") await more.opened(name, ctx);
  }

  async function chooseLanguage(lang) {
    await prepare(lang).catch(() => {}); // the words shown now that load when first used
    if (!setLanguage(lang)) return; // its words could not load (no connection): nothing changes
    dom.live.textContent = ""; // what was said, said in the other language
    prefs.saveLanguage(lang, api.setPlayer);
    applyStatic();
    render();
  }

  function togglePref(name) {
    view[name] = !view[name];
    prefs.set(name, view[name] ? "1" : "0");
    render();
    if (view[name]) feedback(view, "confirm"); // a sample, from the player's own tap
  }

  // ----- the tutorial
  function startTutorial() {
    view.sheet = null;
    view.ask = null;
    return request(async () => {
      const [coach, script] = await Promise.all([
        lazy(() => import("./tutorial.js"), { words: "long" }), api.tutorialScript()]);
      const game = await api.newGame(script.difficulty, { seed: script.seed, mode: "tutorial" });
      resetModes(view);
      view.hint = null;
      view.tutorial = coach.createTutorial(script);
      keep(game);
      announce(coach.coachText(view));
    });
  }

  function endTutorial() {
    view.tutorial = null;
    view.tutorialSeen = true;
    prefs.set("tutorialSeen", "1");
    resetModes(view);
    return request(async () => {
      const stored = prefs.get("difficulty");
      const game = (await api.currentGame()) ??
        (await api.newGame(DIFFICULTIES.includes(stored) ? stored : "peaceful"));
      keep(game);
      announce(`${t("tutorialEnded")} ${t(game.difficulty)}`);
    });
  }

  // What the sheets that load when first used (more.js) may do: draw, ask the server, and start
  // (or resume) a game as a new game does.
  function begin(fetchGame) {
    view.ask = null;
    view.sheet = null;
    resetModes(view);
    view.hint = null;
    return request(async () => {
      const game = await fetchGame();
      keep(game);
      announce(`${t("newGame")}: ${t(game.difficulty)}`);
    });
  }
  const ctx = { view, dom, render, request, begin, announce };

  const ACTIONS = {
    roll: () => request(() => send({ type: "roll" })),
    confirm: () => (view.game.can_confirm ? request(() => send({ type: "confirm" })) : null),
    minus: () => adjust(-1),
    plus: () => adjust(1),
    reroll,
    cancel: () => {
      if (view.sheet) return;
      resetModes(view);
      render();
    },
    accept: () => {
      if (view.game.phase !== "magdagdon") return;
      view.accepting = !view.accepting;
      view.selected = null;
      view.picking = false;
      render();
      if (view.accepting) announce(t("guideRuin"));
    },
    hint: askHint,
    "switch-language": () => chooseLanguage(language() === "fil" ? "en" : "fil"),
    menu: () => {
      view.menuOpen = !view.menuOpen;
      render();
    },
    "new-game": () => askNew(view.game.difficulty),
    tutorial: startTutorial,
    "tutorial-skip": endTutorial,
    "tutorial-done": endTutorial,
    settings: () => openSheet("settings"),
    ...deviceActions({ view, render, api }),
    highscores: () => openSheet("highscores"),
    rules: () => openSheet("rules"),
    about: () => openSheet("about"),
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

  function choose(value) {
    const ask = view.ask;
    view.ask = null;
    view.sheet = null;
    if (value !== "yes" || !ask) {
      view.sheet = ask?.from ?? null; // back to SETTINGS when the question came from there
      render();
      return null;
    }
    if (ask.kind === "power") return request(() => send(ask.action));
    return startNew(ask.value);
  }

  // Taps that must wait for the server's answer (they act on the state it will send).
  const WAITS = new Set(["cell", "action", "refused"]);

  async function onIntent(intent) {
    if (!view.game) return;
    if (view.busy && WAITS.has(intent.kind) && !["close", "tutorial-skip"].includes(intent.name)) {
      queued = intent;
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
    if (intent.kind === "cell") await tapCell(intent);
    else if (intent.kind === "die") tapDie(intent);
    else if (intent.kind === "action") {
      await (ACTIONS[intent.name] ?? ((i) => more.lazyAction(i.name, ctx, i)))(intent);
    }
    else if (intent.kind === "refused") refuse(intent.el, intent.why, whyParams());
    else if (intent.kind === "difficulty") await askNew(intent.value);
    else if (intent.kind === "lang") await chooseLanguage(intent.value);
    else if (intent.kind === "pref") togglePref(intent.value);
    else if (intent.kind === "choice") await choose(intent.value);
    if (coach && view.tutorial === coach && coach.advance(view, before)) {
      render();
      announce(coach.coachText(view));
    }
    // an answer that hid the button tapped (I-ROLL, KUMPIRMAHIN) left focus nowhere
    const el = document.activeElement;
    if (!view.tutorial && !view.sheet && (el === document.body || !el?.getClientRects().length || el.disabled)) focusNext(null);
  }

  function whyParams() {
    const game = view.game;
    return { n: Math.max(0, game.min_required - stagedDice(game).length), left: trayDice(game).length };
  }

  return { onIntent, keep, request, reload, sendPending };
}

