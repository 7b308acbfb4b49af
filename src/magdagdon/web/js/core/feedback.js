// Sound and vibration, both generated here (no audio file) and both off until the player switches
// them on in SETTINGS: feedback(view, cue) plays the cue's tones and vibration.
let audio = null;

const TONES = {
  // [frequency Hz, start s, length s, wave, volume]
  roll: [[220, 0, 0.04, "square", 0.05], [260, 0.05, 0.04, "square", 0.05], [200, 0.1, 0.05, "square", 0.05]],
  stage: [[660, 0, 0.07, "triangle", 0.18]],
  unstage: [[440, 0, 0.07, "triangle", 0.14]],
  confirm: [[523, 0, 0.09, "triangle", 0.18], [784, 0.08, 0.14, "triangle", 0.18]],
  combo: [[523, 0, 0.1, "triangle", 0.2], [659, 0.09, 0.1, "triangle", 0.2], [784, 0.18, 0.1, "triangle", 0.2], [1047, 0.27, 0.25, "triangle", 0.22]],
  power: [[392, 0, 0.06, "sine", 0.2], [587, 0.06, 0.1, "sine", 0.2]],
  magdagdon: [[196, 0, 0.2, "sawtooth", 0.08], [147, 0.18, 0.3, "sawtooth", 0.08]],
  ruin: [[110, 0, 0.25, "square", 0.07]],
  refused: [[150, 0, 0.08, "square", 0.05]],
};

const BUZZ = {
  roll: [12, 40, 12],
  stage: [10],
  unstage: [8],
  confirm: [18],
  combo: [30, 50, 30, 50, 60],
  power: [14, 30, 14],
  magdagdon: [90, 60, 90],
  ruin: [60],
  refused: [25],
};

function play(tones) {
  audio ??= new (window.AudioContext || window.webkitAudioContext)();
  if (audio.state === "suspended") audio.resume();
  const now = audio.currentTime;
  for (const [frequency, start, length, wave, volume] of tones) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = wave;
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(volume, now + start);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
}

export function feedback(view, cue) {
  try {
    if (view.sound && TONES[cue]) play(TONES[cue]);
    if (view.vibrate && BUZZ[cue] && navigator.vibrate) navigator.vibrate(BUZZ[cue]);
  } catch {
    // no audio or vibration on this device: the page plays on silently
  }
}
