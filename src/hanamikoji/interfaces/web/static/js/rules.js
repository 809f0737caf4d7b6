// The rules at hand: a panel (a modal dialog) with the rules in the page's language. The
// server turns docs/rules.md (or its translation) into HTML, raw HTML switched off, and
// marks the row that says how a game of the given variant ends (#rules-end), which a note
// at the top links to. The panel opens at the top, at how to play. Esc or the close
// button closes it; Tab stays inside.

import { h, messageOf, toast } from "./dom.js";
import { currentLang, t } from "./i18n.js";

const FOCUSABLE = "a[href], button:not([disabled]), [tabindex]:not([tabindex='-1'])";

/**
 * @param {{ variant?: string | null }} [options]
 * @returns {Promise<HTMLDialogElement | null>}
 */
export async function openRules({ variant = null } = {}) {
  const lang = currentLang();
  const query = variant ? `?variant=${encodeURIComponent(variant)}` : "";
  let html;
  try {
    const response = await fetch(`/api/rules/${encodeURIComponent(lang)}${query}`);
    if (!response.ok) throw new Error(`${t("rules_button")}: HTTP ${response.status}`);
    html = await response.text();
  } catch (error) {
    toast(messageOf(error));
    return null;
  }
  for (const old of document.querySelectorAll("dialog.rules-panel")) old.remove();
  const body = h("div", { class: "rules-body", tabindex: "0", onclick: followAnchor });
  body.append(fromServer(html));
  const heading = body.querySelector("h1");
  const close = h("button", {
    type: "button", class: "rules-close", id: "rules-close", "aria-label": t("rules_close"),
    onclick: () => dialog.close(),
  }, "✕");
  const page = h("a", { href: `/rules/${encodeURIComponent(lang)}${query}`, target: "_blank", rel: "noopener" }, t("rules_open_page"));
  /** @type {HTMLDialogElement} */
  const dialog = h("dialog", {
    class: "rules-panel",
    "aria-labelledby": heading ? heading.id : null,
    "aria-label": heading ? null : t("rules_button"),
    onkeydown: (event) => keepFocusIn(dialog, event),
    onclose: () => dialog.remove(),
  }, h("div", { class: "rules-bar" }, page, close), body);
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
  body.scrollTop = 0;
  return dialog;
}

// The server's HTML of the rules (made from our own pages with raw HTML off), parsed
// inert: nothing in it runs.
/** @param {string} html */
function fromServer(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template.content;
}

// A link to a heading scrolls the panel there instead of changing the page's address,
// whose fragment holds the seat's token.
/** @param {MouseEvent} event */
function followAnchor(event) {
  const link = /** @type {Element} */ (event.target).closest("a[href^='#']");
  if (!link) return;
  event.preventDefault();
  const target = document.getElementById(decodeURIComponent(String(link.getAttribute("href")).slice(1)));
  if (target) {
    target.scrollIntoView({ block: "start" });
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  }
}

// Tab and Shift+Tab go round the panel's controls and links, never behind it.
/**
 * @param {HTMLDialogElement} dialog
 * @param {KeyboardEvent} event
 */
function keepFocusIn(dialog, event) {
  if (event.key !== "Tab") return;
  const focusable = [.../** @type {NodeListOf<HTMLElement>} */ (dialog.querySelectorAll(FOCUSABLE))];
  if (!focusable.length) return;
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (event.shiftKey && (document.activeElement === first || !dialog.contains(document.activeElement))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
