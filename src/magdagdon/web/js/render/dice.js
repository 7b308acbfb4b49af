// Die faces drawn as SVG pips: face(value) answers an <svg> for 1–6.
const PIPS = {
  1: [[2, 2]],
  2: [[1, 3], [3, 1]],
  3: [[1, 3], [2, 2], [3, 1]],
  4: [[1, 1], [1, 3], [3, 1], [3, 3]],
  5: [[1, 1], [1, 3], [2, 2], [3, 1], [3, 3]],
  6: [[1, 1], [1, 2], [1, 3], [3, 1], [3, 2], [3, 3]],
};
const NS = "http://www.w3.org/2000/svg";

export function face(value) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 4 4");
  svg.setAttribute("class", "face");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const [x, y] of PIPS[value] ?? []) {
    const pip = document.createElementNS(NS, "circle");
    pip.setAttribute("cx", String(x));
    pip.setAttribute("cy", String(y));
    pip.setAttribute("r", "0.42");
    svg.append(pip);
  }
  return svg;
}

// Put the face of `value` into `el`, unless it already shows it.
export function showFace(el, value) {
  if (el.dataset.face === String(value ?? "")) return;
  el.dataset.face = String(value ?? "");
  el.replaceChildren(value ? face(value) : "");
}

// A button that shows a die face: a slot for the pips, one for the face a hint suggests, and one
// for the valid / chosen / return mark (all three stacked in the middle of the button).
export function faceButton(className) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = className;
  const slots = ["pips", "hint-face", "mark"].map((name) => {
    const slot = document.createElement("span");
    slot.className = name;
    if (name !== "pips") slot.setAttribute("aria-hidden", "true");
    return slot;
  });
  button.append(...slots);
  return button;
}
