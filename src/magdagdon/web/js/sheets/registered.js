// What the modules that load when first used (more.js) brought: their actions, what they do when
// a sheet opens, their sheets and their sections. A module registers as it loads; more.js reads
// these tables, and never the modules themselves, so nothing imports back up the chain.
export const actions = {};
export const opens = {};
export const sheets = {};
export const sections = {};

// Called by a module as it loads: its actions, what it does when a sheet opens, its sheets
// ({title(view), key(view), draw(body, view)}) and its sections (draw(el, view)).
export function register(more) {
  Object.assign(actions, more.actions ?? {});
  Object.assign(opens, more.opens ?? {});
  Object.assign(sheets, more.sheets ?? {});
  Object.assign(sections, more.sections ?? {});
}
