// Other devices, from SETTINGS: play on your phone, a one-time device link, forgetting the
// player here (docs/web.md, Other devices). What the first screen needs: the link the page was
// opened with, the devices' state and their actions; their sheets are drawn by devices.js.
const LINKED = "magdagdon.linked"; // sessionStorage: the page restarted as the linked player
const FORGET = ["magdagdon.lastGame", "magdagdon.lastState", "magdagdon.pending"];

export function createDevices() {
  // server: GET /api/server's answer; link: the link made here; use: the link this device was
  // opened with ({code, state: "ask" | "failed" | "done", reason})
  return { server: null, loading: null, link: null, failed: false, leaveFailed: false, use: null };
}

// The code of a device link this page was opened with, taken off the address (so a reload or a
// bookmark does not bring it back).
export function linkCode() {
  const found = /^#link=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!found) return null;
  history.replaceState(null, "", location.pathname + location.search);
  return found[1];
}

// Whether this page was just restarted as a linked player, without using up the word.
export function linkedNow() {
  try {
    return sessionStorage.getItem(LINKED) === "1";
  } catch {
    return false;
  }
}

// Whether this page was just restarted as a linked player (said once).
export function justLinked() {
  try {
    const linked = sessionStorage.getItem(LINKED) === "1";
    sessionStorage.removeItem(LINKED);
    return linked;
  } catch {
    return false;
  }
}

function restart(linked) {
  try {
    for (const key of FORGET) localStorage.removeItem(key);
    if (linked) sessionStorage.setItem(LINKED, "1");
  } catch {
    // storage refused: nothing kept to forget
  }
  location.replace(location.pathname + location.search);
}

// What the device actions do, given the page's API calls and its view.
export function deviceActions({ view, render, api }) {
  const devices = view.devices;
  return {
    async "link-device"() {
      devices.failed = false;
      try {
        devices.link = await api.makeLink();
      } catch {
        devices.link = null;
        devices.failed = true;
      }
      render();
    },
    async "link-use"() {
      try {
        await api.useLink(devices.use.code);
        restart(true);
      } catch (err) {
        devices.use = { ...devices.use, state: "failed",
          reason: err.status === 404 ? "linkInvalid" : "linkNoAnswer" };
        render();
      }
    },
    leave() {
      view.sheet = "leave";
      render();
    },
    async "leave-yes"() {
      devices.leaveFailed = false;
      await api.leave().then(() => restart(false), () => {
        view.sheet = "settings";
        devices.leaveFailed = true;
        render();
      });
    },
  };
}

// The server's network address (GET /api/server), asked for once; asked again on the next
// SETTINGS after a failure.
export function loadServer(devices, api) {
  devices.loading ??= api.server().then(
    (server) => { devices.server = server; },
    () => {
      devices.server = { lan_url: null, lan_qr_svg: null };
      devices.loading = null;
    },
  );
  return devices.loading;
}
