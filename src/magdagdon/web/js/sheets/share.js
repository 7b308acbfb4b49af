// The share step of a daily game (docs/api.md GET /api/games/{id}/share): the server's share text in
// the page's language through the system share sheet, or copied to the clipboard where there is
// none, with a visible word that it was; where neither works, the text in a sheet to copy by
// hand. Loaded when first used (more.js).
import { ApiError } from "../core/api.js";
import { h } from "../lib/dom.js";
import { language, t } from "../i18n/i18n.js";
import * as moreApi from "./moreApi.js";
import { register } from "./registered.js";
import { nextDailyWords } from "../core/nextDaily.js";

// The text on the clipboard: the asynchronous API where the page may use it (a secure
// context), else the old copy command on a selected text field.
async function copy(text) {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // refused (no permission, not focused): try the old way
    }
  }
  const field = h("textarea", { readonly: true, class: "sr" });
  field.value = text;
  (document.querySelector("dialog[open]") ?? document.body).append(field);
  field.select();
  let done = false;
  try {
    done = document.execCommand("copy");
  } catch {
    done = false;
  }
  field.remove();
  return done;
}

// "shared", "copied", or null when neither could be done; the player closing the share sheet
// is "closed".
async function send(text) {
  if (navigator.share) {
    try {
      await navigator.share({ text });
      return "shared";
    } catch (err) {
      if (err?.name === "AbortError") return "closed";
    }
  }
  return (await copy(text)) ? "copied" : null;
}

const texts = new Map(); // game id → the share text in each language, as the server gave it

async function fetchText(id) {
  if (!texts.has(id)) {
    const found = await moreApi.share(id);
    texts.set(id, { ...found.text, linkless: found.url === null });
  }
  return texts.get(id);
}

// The server's text, then the time to the next challenge as it is at the tap (in the page's
// language).
function withCountdown(text) {
  const next = nextDailyWords();
  return next ? `${text}\n${next}` : text;
}

// A daily game has just ended: its text, ready for the tap on IBAHAGI.
async function ready(ctx, intent) {
  try {
    await fetchText(intent.game.id);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err; // asked again at the tap
  }
}

async function share(ctx, intent) {
  const view = ctx.view;
  const id = intent.el?.dataset.game || view.game?.id;
  view.more ??= {};
  let found = texts.get(id); // known already: shared with no wait, within the tap
  if (!found) {
    try {
      found = await fetchText(id);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      ctx.announce(t("loadFailed"));
      return;
    }
  }
  const text = withCountdown(found[language()] ?? found.fil);
  const done = await send(text);
  if (done === "closed") return;
  // where the server has no address another device can open, the text has no link: said
  view.more.shareLinkless = found.linkless ? id : null;
  if (done === null) { // by hand, from a sheet
    view.more.shareText = text;
    view.sheet = "share";
    ctx.render();
    return;
  }
  const words = done === "shared" ? t("shareShared") : t("shareCopied");
  view.more.shareNote = { game: id, short: done === "shared" ? "shareSharedShort" : "shareCopiedShort" };
  ctx.render();
  ctx.announce(words);
}

register({
  actions: { share, "share-ready": ready },
  sheets: {
    share: {
      title: () => t("share"),
      key: (view) => `${view.more?.shareText ?? ""}|${view.more?.shareLinkless ?? ""}`,
      draw(body, view) {
        const field = h("textarea", { class: "share-text", readonly: true, "aria-label": t("share") });
        field.value = view.more?.shareText ?? "";
        body.append(h("p", {}, t("shareFailed")), field);
        if (view.more?.shareLinkless) body.append(h("p", { class: "muted", "data-share-linkless": "" }, t("shareNoLink")));
        field.addEventListener("focus", () => field.select());
      },
    },
  },
});
