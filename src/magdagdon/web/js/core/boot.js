// The first script (a classic one, async: it holds neither the parser nor the first render).
// It asks for the player and the game at once, while the modules load (app/app.js uses these
// answers, or asks itself if it runs first; with no connection the requests fail and the page
// shows the last state it kept, core/offline.js).
//
// It also keeps a tap made before the page is ready: the markup's buttons show at the first
// render, well before the game is drawn and anything listens. The last such tap is held here
// and app/app.js makes it once the game is drawn, if its button is still there to tap.
(() => {
  let early = null;
  const ready = () => document.body?.dataset.ready !== undefined;
  const hold = (event) => {
    if (ready()) return;
    const el = event.target instanceof Element ? event.target.closest("[data-action]") : null;
    if (el) early = el;
    event.stopPropagation();
  };
  document.addEventListener("click", hold, true);
  window.magdagdonBoot = {
    player: fetch("/api/player", { credentials: "same-origin" }),
    current: fetch("/api/games/current", { credentials: "same-origin" }),
    // the tap held until now (or null); none is held after this
    takeTap() {
      document.removeEventListener("click", hold, true);
      const el = early;
      early = null;
      return el;
    },
  };
})();
