// Sound and vibration (core/feedback.js), loaded the first time either is on: off by default.
let cues = null;

export function feedback(view, cue) {
  if (!view.sound && !view.vibrate) return;
  (cues ??= import("../core/feedback.js")).then((m) => m.feedback(view, cue), () => { cues = null; });
}
