// The first script (a classic one, async: it holds neither the parser nor the first render): ask
// for the player and the game at once, while the modules load (js/app.js uses these answers, or
// asks itself if it runs first). With no connection the requests fail and the page shows the
// last state it kept (js/offline.js).
window.magdagdonBoot = {
  player: fetch("/api/player", { credentials: "same-origin" }),
  current: fetch("/api/games/current", { credentials: "same-origin" }),
};
