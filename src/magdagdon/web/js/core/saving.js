// "saving…": a quiet word while an action is on its way to the server for longer than a blink
// (300 ms), so a fast answer shows nothing at all.
const AFTER_MS = 300;
let pending = 0;
let timer;

function element() {
  return document.getElementById("saving");
}

export function started() {
  pending += 1;
  if (pending === 1) timer = setTimeout(() => { element().hidden = false; }, AFTER_MS);
}

export function finished() {
  pending = Math.max(0, pending - 1);
  if (pending === 0) {
    clearTimeout(timer);
    element().hidden = true;
  }
}
