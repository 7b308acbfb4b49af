// The page's service worker: it keeps the page's own files, so the page opens at once, also
// with no connection. The server puts `self.MAGDAGDON_PAGE = {version, files}` at the head of
// this file (api/page/service_worker.py): each file of the page and the SHA-256 of its bytes. A new
// version of any file changes this worker's bytes, so the browser installs it on the next
// visit; it takes over at once and the page reloads into it (js/core/offline.js).
//
// The offline engine's files (Pyodide and the engine's zip, /engine/runtime/) are listed the same
// way in `self.MAGDAGDON_ENGINE` and kept in a cache of their own, named by their version: each
// is kept when the page's engine worker first fetches it (in the background, after the first
// game is drawn: never by the first visit's install), and a new version of them is fetched
// whole by the next install, only when an older one was kept.
//
// The API is never cached: every /api request goes to the network as the page sent it.
"use strict";

const PAGE = self.MAGDAGDON_PAGE;
const PREFIX = "magdagdon-page-";
const CACHE = PREFIX + PAGE.version;
const FILES = new Map(Object.entries(PAGE.files));
const ENGINE = self.MAGDAGDON_ENGINE ?? { version: "none", files: {} };
const ENGINE_PREFIX = "magdagdon-engine-";
const ENGINE_CACHE = ENGINE_PREFIX + ENGINE.version;
const ENGINE_FILES = new Map(Object.entries(ENGINE.files));
const ENGINE_SIZES = new Map(Object.entries(ENGINE.sizes ?? {}));

async function sha256(response) {
  const digest = await crypto.subtle.digest("SHA-256", await response.clone().arrayBuffer());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The file `name` with the bytes of `hash`: from the previous version's cache when it did not
// change, else from the browser's HTTP cache (on the first visit the page has just loaded it),
// else from the server. A copy whose bytes are not the expected ones is never kept.
async function fetchFile(name, hash, previous) {
  const tries = [
    () => previous.match(name),
    () => fetch(name, { cache: "force-cache" }),
    () => fetch(name, { cache: "no-cache" }),
    () => fetch(name, { cache: "reload" }),
  ];
  for (const attempt of tries) {
    const response = await attempt().catch(() => undefined);
    if (response && response.ok && (await sha256(response)) === hash) return response;
  }
  throw new Error(`${name}: the server's file does not match this version of the page`);
}

// Every other version's cache, looked up as one.
async function previousFiles(prefix = PREFIX, current = CACHE) {
  const names = (await caches.keys()).filter((n) => n.startsWith(prefix) && n !== current);
  const opened = await Promise.all(names.map((n) => caches.open(n)));
  return {
    async match(name) {
      for (const cache of opened) {
        const found = await cache.match(name);
        if (found) return found;
      }
      return undefined;
    },
  };
}

// The page as this worker keeps it: without its modulepreload hints. They save round trips
// when the modules come over the network (the first visit); from the cache, each one is only
// one more request to answer before the first render.
const PRELOAD = /^[ \t]*<link rel="modulepreload"[^>]*>\r?\n/gm;

async function kept(name, response) {
  if (name !== "./") return response;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response((await response.text()).replace(PRELOAD, ""), { headers });
}

// Where the browser takes each page file from this version's cache itself, without starting
// or running this worker (the static routing of Chrome 123 and later): the page's own requests
// then cost no script. Only the page's files, by their exact path; the page itself only without
// a query. Any other request, and every request in a browser without routes, comes to "fetch".
function routes() {
  const scope = new URL(self.registration.scope).pathname;
  const escape = (path) => path.replace(/[\\:*?+(){}]/g, "\\$&");
  const condition = (name) => name === "./"
    ? { urlPattern: { pathname: escape(scope), search: "" } }
    : { urlPattern: { pathname: escape(scope + name) } };
  return [{ condition: { or: Array.from(FILES.keys(), condition) }, source: { cacheName: CACHE } }];
}

// The first visit's install keeps only the files the page has loaded already (from the
// browser's HTTP cache: no byte on the wire): the first visit downloads the page alone. The
// rest (the screens that load when first opened, English's words…) is kept after the player's
// first finished turn, when the page asks for it ("keep-page"), or as each is first fetched.
// An update fetches every changed file at once: this device has taken the whole page before.
async function fromHttpCache(name, hash) {
  const response = await fetch(name, { cache: "only-if-cached", mode: "same-origin" }).catch(() => undefined);
  return response && response.ok && (await sha256(response)) === hash ? response : undefined;
}

self.addEventListener("install", (event) => {
  const routed = event.addRoutes ? event.addRoutes(routes()).catch((err) => console.warn(err)) : null;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const first = !(await caches.keys()).some((n) => n.startsWith(PREFIX) && n !== CACHE);
    const previous = await previousFiles();
    await Promise.all(Array.from(FILES, async ([name, hash]) => {
      const found = first ? await fromHttpCache(name, hash) : await fetchFile(name, hash, previous);
      if (found) await cache.put(name, await kept(name, found));
    }));
    await keepNewEngine();
    await routed;
    await self.skipWaiting();
  })());
});

// Every page file this version's cache still lacks, fetched and kept.
async function keepPage() {
  const cache = await caches.open(CACHE);
  const previous = await previousFiles();
  for (const [name, hash] of FILES) {
    if (!(await cache.match(name))) await cache.put(name, await kept(name, await fetchFile(name, hash, previous)));
  }
}

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    const old = (n) => (n.startsWith(PREFIX) && n !== CACHE) || (n.startsWith(ENGINE_PREFIX) && n !== ENGINE_CACHE);
    await Promise.all(names.filter(old).map((n) => caches.delete(n)));
    await self.clients.claim();
  })());
});

// The page file a request is for ("./" for the page itself), or null.
function pageFile(request) {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return null;
  const path = url.pathname.slice(scope.pathname.length);
  if (path === "api" || path.startsWith("api/")) return null;
  const name = path === "" || path === "index.html" ? "./" : path;
  return FILES.has(name) ? name : null;
}

// An older engine was kept (offline play was ready): this version's is fetched now, the files
// whose bytes did not change taken from the old cache. A failure leaves offline play to be
// made ready again by the page; the page's own files are still installed.
async function keepNewEngine() {
  const names = (await caches.keys()).filter((n) => n.startsWith(ENGINE_PREFIX) && n !== ENGINE_CACHE);
  if (!names.length || !ENGINE_FILES.size) return;
  try {
    const cache = await caches.open(ENGINE_CACHE);
    const previous = await previousFiles(ENGINE_PREFIX, ENGINE_CACHE);
    for (const [name, hash] of ENGINE_FILES) {
      if (!(await cache.match(name))) await cache.put(name, await fetchFile(name, hash, previous));
    }
  } catch (err) {
    console.warn(err);
    await caches.delete(ENGINE_CACHE);
  }
}

// The hex SHA-256 as subresource integrity wants it: "sha256-" and base64.
function integrity(hex) {
  const bytes = hex.match(/../g).map((pair) => parseInt(pair, 16));
  return "sha256-" + btoa(String.fromCharCode(...bytes));
}

// An engine file: this version's kept copy, else the server's, kept. The browser checks the
// server's bytes against the listed hash itself (the fetch fails on others), so that no copy of
// Pyodide's 9.6 MB wasm is read into this worker's memory, where it would stay, in the page's
// renderer process, until this worker's next garbage collection. A kept copy of the wrong size
// (a write cut short) is dropped and fetched again: its size is known without reading it.
async function engineFile(name, request) {
  const cache = await caches.open(ENGINE_CACHE);
  const found = await cache.match(name);
  if (found && (await found.clone().blob()).size === ENGINE_SIZES.get(name)) return found;
  if (found) await cache.delete(name);
  const response = await fetch(request.url, { integrity: integrity(ENGINE_FILES.get(name)) });
  if (response.ok) await cache.put(name, response.clone());
  return response;
}

// The page's engine did not start: every kept engine file is checked against its hash (read
// whole, this once), and one that does not match is dropped, to be fetched again by the next
// start. Answers {damaged: [name…]} on the message's port.
async function checkEngine() {
  const cache = await caches.open(ENGINE_CACHE);
  const damaged = [];
  for (const [name, hash] of ENGINE_FILES) {
    const found = await cache.match(name);
    if (found && (await sha256(found)) !== hash) {
      damaged.push(name);
      await cache.delete(name);
    }
  }
  return { damaged };
}

self.addEventListener("message", (event) => {
  if (event.data?.type === "keep-page") {
    event.waitUntil(keepPage().catch((err) => console.warn(err)));
    return;
  }
  if (event.data?.type !== "check-engine" || !event.ports[0]) return;
  const port = event.ports[0];
  event.waitUntil(checkEngine().then((found) => port.postMessage(found), (err) => port.postMessage({ damaged: [], error: String(err) })));
});

function engineName(request) {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return null;
  const name = url.pathname.slice(scope.pathname.length);
  return ENGINE_FILES.has(name) ? name : null;
}

self.addEventListener("fetch", (event) => {
  const engine = engineName(event.request);
  if (engine !== null) {
    event.respondWith(engineFile(engine, event.request));
    return;
  }
  const name = pageFile(event.request);
  if (name === null) return; // the API and anything else: the network, untouched
  event.respondWith(pageAnswer(name, event.request));
});

// A page file: this version's kept copy, else the server's, kept when its bytes are this
// version's (a small file: hashed here).
async function pageAnswer(name, request) {
  const cache = await caches.open(CACHE);
  const found = await cache.match(name);
  if (found) return found;
  const response = await fetch(request);
  if (response.ok && new URL(request.url).search === "") {
    const copy = response.clone();
    if ((await sha256(copy)) === FILES.get(name)) await cache.put(name, await kept(name, copy));
  }
  return response;
}
