// SETTINGS' sections that load when it first opens: the name shown on the day's table (docs/api.md PUT
// /api/player {"name"}, always shown as text), and the player's data as one file (GET
// /api/player/export, POST /api/player/import), and offline play, switched on or off, with the
// download its engine costs. Loaded when SETTINGS first opens (more.js).
import { ApiError } from "../core/api.js";
import { h } from "../lib/dom.js";
import { t } from "../i18n/i18n.js";
import * as moreApi from "./moreApi.js";
import { register } from "./registered.js";
import * as source from "../core/source.js";
import * as prefs from "../core/prefs.js";

// The encoding the server sends the engine in: brotli to a secure page (browsers take it only
// there: HTTPS, or this computer itself), else gzip (docs/web.md, "The download").
function wireEncoding() {
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(location.hostname);
  return location.protocol === "https:" || local ? "br" : "gzip";
}

function state(view) {
  view.more ??= {};
  view.more.player ??= { loaded: false, name: null, nameHidden: false, tag: "", nameMax: 0, draft: null, note: null, dataNote: null, engineBytes: null, engineWire: null };
  return view.more.player;
}

async function loadPlayer(ctx) {
  const player = state(ctx.view);
  player.note = null;
  player.dataNote = null;
  player.draft = null;
  try {
    const found = await moreApi.player();
    // the longest name is the server's rule (docs/api.md GET /api/player "name_max")
    Object.assign(player, { loaded: true, name: found.name, nameHidden: found.name_hidden === true, tag: found.tag, nameMax: found.name_max });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
  }
  ctx.render();
}

function neutral(player) {
  return t("dailyPlayer", { tag: player.tag });
}

// The bytes of every file the offline engine fetches, as the build measured them
// (tools/pyodide/bundle.py), as they are and on the wire: none shown when the server has no
// engine to give.
async function loadEngineSize(ctx) {
  try {
    const answer = await fetch("/engine/runtime/engine-size.json");
    if (answer.ok) {
      const found = await answer.json();
      state(ctx.view).engineBytes = found.bytes;
      state(ctx.view).engineWire = found.wire?.[wireEncoding()] ?? found.bytes;
    }
  } catch {
    return; // no connection, and not kept: the switch says no size
  }
  ctx.render();
}

async function saveName(ctx, clear) {
  const player = state(ctx.view);
  const field = ctx.dom.sheet.querySelector("#player-name");
  const name = clear ? null : field?.value ?? "";
  try {
    const found = await moreApi.setName(name);
    Object.assign(player, { name: found.name, nameHidden: found.name_hidden === true, tag: found.tag, draft: null });
    player.note = said(() => (found.name === null ? t("nameCleared", { name: neutral(player) }) : t("nameSaved")));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // the player's language only: the server's sentence is English
    const key = err.code === "invalid_name" ? "nameInvalid" : "loadFailed";
    player.note = said(() => t(key, { max: player.nameMax }), true);
  }
  ctx.render();
  ctx.announce(player.note.say());
}

async function exportData(ctx) {
  const player = state(ctx.view);
  try {
    const { blob, name } = await moreApi.exportFile();
    const link = h("a", { href: URL.createObjectURL(blob), download: name, hidden: true });
    document.body.append(link);
    link.click();
    setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
    player.dataNote = said(() => t("exported"));
  } catch {
    player.dataNote = said(() => t("loadFailed"), true);
  }
  ctx.render();
  ctx.announce(player.dataNote.say());
}

function chooseFile(ctx) {
  ctx.dom.sheet.querySelector("#import-file")?.click();
}

async function importData(ctx, file) {
  const player = state(ctx.view);
  let document;
  try {
    document = JSON.parse(await file.text());
  } catch {
    player.dataNote = said(() => t("importNotJson"), true);
    ctx.render();
    return;
  }
  try {
    const found = await moreApi.importFile(document);
    player.dataNote = said(() => importedWords(found));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    player.dataNote = said(() => importRefusal(err), true);
  }
  ctx.render();
  ctx.announce(player.dataNote.say());
}

// "Imported 1 game; none skipped."
function importedWords(found) {
  const skipped = found.skipped ? t("importedSkipped", { m: found.skipped }) : t("importedNoneSkipped");
  return t("imported", { n: found.imported, skipped });
}

// Which game of the file (and which of its actions) does not replay, in the page's language
// only (the server's sentence is English; its numbers say all).
function importRefusal(err) {
  const at = err.code === "import_invalid" ? err.error : {};
  if (!Number.isInteger(at.game)) return t("importBad");
  if (Number.isInteger(at.action)) return t("importBadAction", { game: at.game, action: at.action });
  return t("importBadGame", { game: at.game });
}

let context = null; // the play context, for the file field's change and the form's submit

register({
  opens: { settings: (ctx) => { context = ctx; return Promise.all([loadPlayer(ctx), loadEngineSize(ctx)]); } },
  actions: {
    "name-save": (ctx) => saveName(ctx, false),
    "name-clear": (ctx) => saveName(ctx, true),
    export: exportData,
    import: chooseFile,
    // on fetches the engine now; off stops it (games played here are still sent)
    // on a connection that saves data, the download starts only from this tap
    "offline-download": (ctx) => {
      source.startLocal().then(() => ctx.render(), console.warn);
      ctx.render();
    },
    "offline-play": (ctx) => {
      const on = !source.offlineOn();
      prefs.set("offlinePlay", on ? "1" : "0");
      state(ctx.view).ready = false;
      if (on) {
        delete document.body.dataset.offline;
        source.startLocal().then(() => {
          state(ctx.view).ready = true; // drawn again: the engine is ready
          ctx.render();
        }, console.warn);
      } else {
        source.loaded()?.stop();
        document.body.dataset.offline = "off";
      }
      ctx.render();
    },
  },
  sections: { settings: draw },
});

// A note that is said again in the language of the moment (a switch of language redraws it);
// its number tells the sheet's key that a new one replaced the last.
let notes = 0;
function said(say, error = false) {
  notes += 1;
  return { say, error, n: notes };
}

function note(found) {
  if (!found) return null;
  return h("p", { class: `more-note${found.error ? " error" : ""}`, role: found.error ? "alert" : "status" },
    found.say(), found.detail ? h("span", { class: "detail" }, found.detail) : null);
}

// The engine's state as <body data-offline> says it (core/local.js), in SETTINGS' words; a
// download not started yet (before the first finished turn) reads as "asks" on a connection
// that saves data, else as still to come.
const STATES = { ready: "offlineReady", loading: "offlineLoading", missing: "offlineMissing", damaged: "offlineDamaged", asks: "offlineAsks" };

// Offline play: the switch, what it downloads (on the wire, and kept on the device), and the
// engine's real state; on a connection that saves data, the download as a button.
function offlinePlay(player) {
  const on = source.offlineOn();
  const mb = (bytes) => (bytes / 1e6).toFixed(1);
  const size = player.engineBytes === null ? "" : t("offlineSize", { wire: mb(player.engineWire), disk: mb(player.engineBytes) });
  const engine = document.body.dataset.offline;
  const now = STATES[engine] ?? (source.saveData() ? "offlineAsks" : "offlineMissing");
  const ask = on && source.saveData() && !["ready", "loading"].includes(engine);
  return [
    h("h3", {}, t("offlinePlayTitle")),
    h("div", { class: "choices" },
      h("button", { type: "button", class: "choice", "data-action": "offline-play", "aria-pressed": String(on) },
        h("span", { class: "choice-name" }, t("offlinePlayName")),
        h("span", { class: "choice-desc", "data-engine-bytes": player.engineBytes ?? "", "data-engine-wire": player.engineWire ?? "" }, t("offlinePlayDesc", { size })))),
    on ? h("p", { class: "muted", role: "status", "data-offline-state": now }, t(now)) : null,
    ask ? h("button", { type: "button", class: "btn primary", "data-action": "offline-download" }, t("offlineDownload", { size: player.engineBytes === null ? "" : ` (${mb(player.engineWire)} MB)` })) : null,
  ];
}

function draw(el, view) {
  const player = state(view);
  // a redraw (the engine's size arriving, a language switch) keeps what the player is typing
  const typing = el.querySelector("#player-name");
  const focused = typing !== null && document.activeElement === typing;
  el.replaceChildren();
  if (!player.loaded) {
    el.append(...offlinePlay(player).filter(Boolean));
    return;
  }
  const field = h("input", {
    // twice the longest name: room for the spaces the server trims
    id: "player-name", type: "text", maxlength: player.nameMax * 2, autocomplete: "nickname",
    spellcheck: "false", placeholder: neutral(player), enterkeyhint: "done",
  });
  field.value = player.draft ?? player.name ?? "";
  field.addEventListener("input", () => { player.draft = field.value; });
  const form = h("form", { class: "name-form" },
    h("label", { for: "player-name" }, t("nameLabel", { max: player.nameMax })),
    h("div", { class: "name-row" }, field,
      h("button", { type: "submit", class: "btn primary", "data-action": "name-save" }, t("nameSave")),
      player.name === null ? null : h("button", { type: "button", class: "btn quiet", "data-action": "name-clear" }, t("nameClear"))));
  form.addEventListener("submit", (event) => event.preventDefault()); // the save button's click acts
  const file = h("input", { id: "import-file", type: "file", accept: "application/json,.json", class: "sr", tabindex: "-1", "aria-hidden": "true" });
  file.addEventListener("change", () => {
    const chosen = file.files?.[0];
    if (chosen && context) importData(context, chosen);
  });
  const parts = [
    h("h3", {}, t("nameTitle")), form,
    player.name === null ? h("p", { class: "muted" }, t("nameNeutral", { name: neutral(player) })) : null,
    // an operator hid the name (docs/hosting.md "Moderation"): the server says so, the page tells
    player.nameHidden ? h("p", { class: "more-note", role: "status", id: "name-hidden" }, t("nameHidden", { name: neutral(player) })) : null,
    note(player.note),
    h("h3", {}, t("dataTitle")), h("p", { class: "muted" }, t("dataText")),
    h("div", { class: "choices two" },
      h("button", { type: "button", class: "btn quiet", "data-action": "export" }, t("export")),
      h("button", { type: "button", class: "btn quiet", "data-action": "import" }, t("import"))),
    file, note(player.dataNote),
    ...offlinePlay(player),
  ];
  el.append(...parts.filter(Boolean));
  if (focused) field.focus();
}
