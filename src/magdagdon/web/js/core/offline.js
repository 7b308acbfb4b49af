// Play with a poor connection or none: the service worker, the last state and a tap still to be
// sent kept on this device, and the notice that says so (docs/web.md, Offline).
import { h } from "../lib/dom.js";

const STATE = "magdagdon.lastState";
const PENDING = "magdagdon.pending";

function read(key) {
  try {
    const text = localStorage.getItem(key);
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage refused: only forgotten
  }
}

// The last state the server sent (shown at once when the server cannot be reached).
export const rememberState = (game) => write(STATE, game);
export const lastState = () => read(STATE);
export const forgetState = () => write(STATE, null);

// The action sent and not yet answered: {game, version, action}.
export const rememberPending = (game, action) =>
  write(PENDING, { game: game.id, version: game.version, action });
export const pendingAction = () => read(PENDING);
export const forgetPending = () => write(PENDING, null);

// The service worker. A first visit registers it at the player's first tap (or key), not at
// load: what a visit downloads before any tap is the page alone, and a visitor who never taps
// has no offline game to keep. A page it controls already registers it once loaded (the
// browser's check for a new version). When a new version takes over, the page reloads into it,
// unless a tap is still being sent. `tapped`: a tap came before the page was ready.
export function registerWorker(busy, tapped = false) {
  if (!("serviceWorker" in navigator)) return;
  const hadController = Boolean(navigator.serviceWorker.controller);
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!hadController || reloading) return;
    reloading = true;
    const reload = () => (busy() ? setTimeout(reload, 200) : location.reload());
    reload();
  });
  const register = () =>
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((err) => console.warn(err));
  if (tapped) return void register();
  if (!hadController) {
    const first = () => {
      for (const kind of FIRST_TAP) document.removeEventListener(kind, first, true);
      register();
    };
    for (const kind of FIRST_TAP) document.addEventListener(kind, first, { capture: true, passive: true });
  } else if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
const FIRST_TAP = ["pointerdown", "keydown"];

// The service worker's check of the engine's kept files against their hashes (those that do
// not match are dropped, and fetched again by the next start): {damaged: [name…]}.
export function checkEngine() {
  const worker = navigator.serviceWorker?.controller;
  if (!worker) return Promise.resolve({ damaged: [] });
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = ({ data }) => resolve(data);
    worker.postMessage({ type: "check-engine" }, [channel.port2]);
  });
}

// The connection as the page knows it: offline from a request with no answer, or the browser's
// word; online again from the browser's word or any answer. `onChange(offline)` on each change.
export function watchConnection(onChange) {
  let offline = !navigator.onLine;
  const set = (value) => {
    if (value === offline) return;
    offline = value;
    onChange(offline);
  };
  window.addEventListener("offline", () => set(true));
  window.addEventListener("online", () => set(false));
  return { set, get offline() { return offline; } };
}

// The connection's mark while the server cannot be reached: small, beside the game's own words,
// never in their place; with what goes on meanwhile (a game played on this device, a tap that
// waits to be sent). Its parts as render/message.js draws them: words, or [tag, attributes, ...parts].
export function notice(view, t) {
  const text = view.localPlay
    ? ["span", { "data-offline-playing": "" }, t("offlineMarkPlaying")]
    : view.waiting
      ? ["span", { "data-offline-mark": "pending" }, t("offlineMarkPending")]
      : ["span", {}, t("offlineMarkSaved")];
  return [["strong", { class: "notice-title" }, t("offlineTitle")], " · ", text];
}

// While a tap waits for the server, the message area says plainly what it waits for and what
// the player can do (local.js's waitsFor: the engine's download, a download it needs, …).
export function waitingWords(view, t, why) {
  return [["span", { "data-offline-pending": "" }, t("offlineTapWaits")], " ", ["span", { "data-offline-why": why ?? "" }, why ? t(why) : ""]];
}

// The notice alone, when there is no game to draw at all (the first visit, with no connection).
export function showNotice(el, view, t) {
  el.className = "message offline";
  const [title] = notice(view, t);
  el.replaceChildren(h(title[0], title[1], title[2]), " ", h("span", {}, t("offlineText")));
  el.dataset.notice = "offline";
}
