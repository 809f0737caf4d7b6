// The top bar stays one row. Where its links and preferences do not fit beside the name,
// the connection and the account button (a phone, a narrow window, a language with long
// words), they go behind the menu button: the bar is marked compact and the menu opens
// below it. Whether they fit is measured, not guessed from the window's width, so each
// language gets the whole bar wherever it fits.

import { byId } from "./dom.js";
import { t } from "./i18n.js";

// The bar, the links and preferences that may go behind the button, and the button.
/** @type {HTMLElement} */
let bar;
/** @type {HTMLElement} */
let menu;
/** @type {HTMLElement} */
let button;

/** @param {boolean} open */
function setOpen(open) {
  bar.dataset.menu = open ? "open" : "closed";
  button.setAttribute("aria-expanded", open ? "true" : "false");
}

// Compact when the bar's contents, laid out in one row, are wider than the bar.
function fit() {
  bar.dataset.compact = "no";
  const compact = bar.scrollWidth > bar.clientWidth;
  bar.dataset.compact = compact ? "yes" : "no";
  if (!compact) setOpen(false);
}

export function initMenu() {
  bar = byId("topbar");
  menu = byId("topbar-menu");
  button = byId("menu-button");
  setOpen(false);
  button.addEventListener("click", () => setOpen(bar.dataset.menu !== "open"));
  // A click elsewhere, Esc, or opening the rules closes it; changing a preference does not.
  document.addEventListener("click", (event) => {
    const target = /** @type {Node | null} */ (event.target);
    const inside = menu.contains(target) || button.contains(target);
    if (bar.dataset.menu === "open" && !inside) setOpen(false);
  });
  bar.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || bar.dataset.menu !== "open") return;
    event.stopPropagation();
    setOpen(false);
    button.focus();
  });
  byId("rules-button").addEventListener("click", () => setOpen(false));
  // Measured again when the window's width or the bar's words change (a language, a
  // player signing in, the connection's state).
  window.addEventListener("resize", fit);
  new MutationObserver(fit).observe(bar, { childList: true, subtree: true, characterData: true });
  fit();
}

export function translateMenu() {
  button.setAttribute("aria-label", t("menu_button"));
  button.title = t("menu_button");
}
