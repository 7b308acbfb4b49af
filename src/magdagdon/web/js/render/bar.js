// The bar's own buttons: MENU open or shut, and the one-tap switch to the other language (it
// names that language in its own words: "English" in Filipino, "Filipino" in English).
import { language } from "../i18n/i18n.js";

const OTHER = { fil: { lang: "en", short: "EN", name: "English" }, en: { lang: "fil", short: "FIL", name: "Filipino" } };

export function renderBar(tools, view) {
  tools.closest(".app").classList.toggle("menu-open", view.menuOpen);
  tools.querySelector(".menu-toggle").setAttribute("aria-expanded", String(view.menuOpen));
  const other = OTHER[language()] ?? OTHER.fil;
  const switcher = tools.querySelector(".bar-lang");
  if (switcher.lang !== other.lang) {
    switcher.lang = other.lang;
    switcher.textContent = other.short;
    switcher.setAttribute("aria-label", other.name);
  }
}
