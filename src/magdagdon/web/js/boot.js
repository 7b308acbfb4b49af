// The first script (a classic one, so it runs before the modules load): ask for the player and
// the game at once, while the modules load (js/app.js uses these answers). With no connection
// the requests fail and the page shows the last state it kept (js/offline.js).
window.magdagdonBoot = {
  player: fetch("/api/player", { credentials: "same-origin" }),
  current: fetch("/api/games/current", { credentials: "same-origin" }),
};
