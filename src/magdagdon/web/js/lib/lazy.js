// The one way a part of the page loads when first used, so the first load stays small: its
// module (an import() made by the caller, whose relative paths are its own), its style sheet
// and its words (a part of each language's table, i18n.js), all at once and each only once.
import { load as loadWords } from "../i18n/i18n.js";

const styles = new Map(); // href → its load

// A style sheet added to the page; a sheet that fails to load does not hold the part back.
export function styleSheet(href) {
  if (!styles.has(href)) {
    styles.set(href, new Promise((resolve) => {
      const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
      link.addEventListener("load", resolve);
      link.addEventListener("error", resolve);
      document.head.append(link);
    }));
  }
  return styles.get(href);
}

// module: () => import(…); css: a style sheet's path from the page, or several, added in that
// order (a later one builds on the earlier ones); words: a part of the words. Answers the
// module's exports.
export async function lazy(module, { css = [], words } = {}) {
  const [exports] = await Promise.all([module(), ...[css].flat().map(styleSheet), words && loadWords(words)]);
  return exports;
}
