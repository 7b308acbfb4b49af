// Elements made from data with the DOM's own calls (no markup from strings, no inline style: the
// page's CSP allows neither): h(tag, attrs, ...children) and svg(tag, attrs, ...children); hookOf(el)
// finds a button again after a redraw.
const SVG = "http://www.w3.org/2000/svg";

export function h(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

export function svg(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

function fill(el, attrs, children) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const HOOKS = ["cell", "die", "action", "value", "game", "difficulty", "lang", "pref", "choice"];

// A selector that finds the same button drawn again (its id, else its data hooks), or null.
export function hookOf(el) {
  if (el.id) return `#${CSS.escape(el.id)}`;
  const hooks = HOOKS.filter((name) => el.dataset[name] !== undefined)
    .map((name) => `[data-${name}="${CSS.escape(el.dataset[name])}"]`);
  return hooks.join("") || null;
}
