// Other devices' parts of the sheet (link.js's state, drawn): play on your phone, a one-time
// device link, forgetting the player here. Loaded with render/sheet.js.
import { h } from "../lib/dom.js";
import { t } from "../i18n/i18n.js";

// The server's QR code (a standalone SVG document) as an image: it draws nothing else.
function qrImage(svg, url, name) {
  const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  return h("img", { class: "qr", "data-qr": name, src, width: 200, height: 200, alt: t("qrAlt", { url }) });
}

// A loopback address (127.0.0.1, localhost, ::1) opens only on this computer: no phone can.
export function loopback(url) {
  try {
    const host = new URL(url).hostname;
    return host === "localhost" || host === "[::1]" || /^127\./.test(host);
  } catch {
    return false;
  }
}

// SETTINGS' part: play on your phone, link a device, forget the player here.
export function devicesSection(devices) {
  const server = devices.server;
  const phone = server?.lan_url
    ? h("div", { class: "device-qr" }, qrImage(server.lan_qr_svg, server.lan_url, "lan"),
      h("p", {}, t("phoneText"), h("br"), h("a", { class: "device-url", href: server.lan_url }, server.lan_url)))
    : h("p", { class: "device-note" }, ...(server ? withCommand(t("phoneNone")) : [t("loading")]));
  const link = devices.link;
  // a link on a loopback address, or none (the server has no public address: it never makes one
  // from the request's Host), is shown on this page's own address: no QR code (no phone could
  // open it), and how to get one that can
  const url = link ? link.url ?? `${location.origin}/#link=${link.code}` : null;
  const local = link && (link.url === null || loopback(link.url));
  const note = loopback(url) ? t("linkLoopback", { host: url && new URL(url).host }) : t("linkNoAddress");
  let made = null;
  if (link) {
    made = h("div", { class: "device-qr", "data-link-made": "" },
      local ? null : qrImage(link.qr_svg, url, "link"),
      h("p", {}, t(local ? "linkMadeLocal" : "linkMade", { time: clock(link.expires_at) }), h("br"),
        h("span", { class: "device-url", "data-link-url": "" }, url)),
      local ? h("p", { class: "device-note", "data-qr-note": "" }, ...withCommand(note)) : null);
  } else if (devices.failed) {
    made = h("p", { class: "device-note" }, t("linkMakeFailed"));
  }
  return h("section", { class: "devices", "data-devices": "" },
    h("h3", {}, t("phoneTitle")), phone,
    h("h3", {}, t("linkTitle")), h("p", {}, t("linkText")), made,
    h("p", {}, h("button", { type: "button", class: "btn primary", "data-action": "link-device" }, t(link ? "linkAgain" : "linkMake"))),
    h("h3", {}, t("leaveTitle")), h("p", {}, t("leaveText")),
    h("p", {}, h("button", { type: "button", class: "btn quiet", "data-action": "leave" }, t("leaveButton"))),
    devices.leaveFailed ? h("p", { class: "device-note" }, t("linkNoAnswer")) : null);
}

// A sentence with a command in it: the command drawn as code on one line (never broken at
// its "--").
const COMMAND = /(magdagdon serve --lan)/;
function withCommand(text) {
  return text.split(COMMAND).map((part, i) => (i % 2 ? h("code", { class: "cmd" }, part) : part));
}

function clock(stamp) {
  return new Date(stamp).toLocaleTimeString(document.documentElement.lang, {
    hour: "numeric", minute: "2-digit", // 1:18 PM, not 01:18 PM
  });
}

export function linkTitle(devices) {
  const state = devices.use?.state;
  return t(state === "done" ? "linkDoneTitle" : state === "failed" ? "linkFailedTitle" : "linkUseTitle");
}

const button = (kind, action, words, autofocus = false) =>
  h("button", { type: "button", class: `btn ${kind}`, "data-action": action, autofocus }, words);

// The sheet of a link this device was opened with: the question, the answer, or "linked".
export function linkSheet(devices) {
  const use = devices.use;
  if (use.state === "done" || use.state === "failed") {
    const done = use.state === "done";
    return [h("p", { class: "question", "data-link-result": done ? "linked" : "invalid" }, t(done ? "linkDone" : use.reason)),
      h("div", { class: "choices" }, button("primary", "close", t("linkContinue"), true))];
  }
  return [h("p", { class: "question" }, t("linkUseText")),
    h("div", { class: "choices two" }, button("primary", "link-use", t("linkUseYes")), button("quiet", "close", t("no"), true))];
}

export const leaveSheet = () => [h("p", { class: "question" }, t("leaveAsk")),
  h("div", { class: "choices two" }, button("danger", "leave-yes", t("leaveYes")), button("quiet", "close", t("no"), true))];
