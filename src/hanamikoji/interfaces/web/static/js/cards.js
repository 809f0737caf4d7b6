// Cards readable without colour: charm, an item glyph and the item's name on every card;
// with the Deck preference "Card table", the card-table deck's face too (docs/rules.md,
// "The card-table deck"): an item card's suit, a geisha's rank and suit, an action's rank.

import { h, fromMarkup, store } from "./dom.js";
import { KINDS } from "./game_rules.js";
import { cardTableFaces, charmOf, colourOf, geishaName, itemName, letterOf, t, term } from "./i18n.js";

/** @typedef {import("./messages").ActionKind} ActionKind */
/** @typedef {import("./messages").Card} Card */
/** @typedef {import("./messages").Seat} Seat */

// The deck styles, as the terminal's --deck names them. The faces are always drawn;
// html[data-deck] shows them (style.css), so changing the preference redraws nothing.
export const DECKS = ["boxed", "card-table"];

/** @returns {string} */
export function preferredDeck() {
  const saved = store(localStorage, "hanamikoji.deck");
  return saved !== null && DECKS.includes(saved) ? saved : "boxed";
}

/** @param {string} deck */
export function setDeck(deck) {
  document.documentElement.dataset.deck = deck;
  store(localStorage, "hanamikoji.deck", deck);
}

// A face of the card-table deck, from the server's catalog ("deck": notation/names.py's
// card_table_faces). Only a visual aid: the names beside it say the same to everyone.
/** @param {string} text */
function face(text) {
  return h("span", { class: "face", "aria-hidden": "true" }, text);
}

/** @param {ActionKind} kind */
export function actionFace(kind) {
  return face(cardTableFaces().actions[KINDS.indexOf(kind)]);
}

const STROKE = 'fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round"';

// One glyph per item, in row order: flute, fan, scroll, parasol, shamisen, tea set, flower.
const GLYPHS = [
  `<svg viewBox="0 0 24 24" ${STROKE}><rect x="2" y="10" width="20" height="4" rx="2"/><circle cx="8" cy="12" r=".7" fill="currentColor"/><circle cx="11.5" cy="12" r=".7" fill="currentColor"/><circle cx="15" cy="12" r=".7" fill="currentColor"/><circle cx="18.5" cy="12" r=".7" fill="currentColor"/></svg>`,
  `<svg viewBox="0 0 24 24" ${STROKE}><path d="M12 20 3.5 9.5a11 11 0 0 1 17 0Z"/><path d="M12 20 7.5 5.8M12 20V4.5M12 20l4.5-14.2"/></svg>`,
  `<svg viewBox="0 0 24 24" ${STROKE}><rect x="6" y="5" width="12" height="14"/><rect x="4" y="3" width="16" height="3" rx="1.5"/><rect x="4" y="18" width="16" height="3" rx="1.5"/><path d="M9 9.5h6M9 12.5h6M9 15.5h4"/></svg>`,
  `<svg viewBox="0 0 24 24" ${STROKE}><path d="M3 11a9 9 0 0 1 18 0Z"/><path d="M12 2v2M12 11v7.5a2 2 0 0 1-4 0"/><path d="M7.5 11 12 4l4.5 7"/></svg>`,
  `<svg viewBox="0 0 24 24" ${STROKE}><rect x="7" y="13" width="10" height="8" rx="2.5"/><path d="M12 13V3M10 4.5h4M10 7h4M10.5 17h3"/></svg>`,
  `<svg viewBox="0 0 24 24" ${STROKE}><path d="M4 10h12v4a5 5 0 0 1-5 5h-2a5 5 0 0 1-5-5Z"/><path d="M16 11h1.5a2.2 2.2 0 0 1 0 4.4H16M3 21h15"/><path d="M8 7c0-1 1-1.5 1-2.5M12 7c0-1 1-1.5 1-2.5"/></svg>`,
  `<svg viewBox="0 0 24 24" ${STROKE}><circle cx="12" cy="12" r="2.2"/><circle cx="12" cy="6.3" r="3"/><circle cx="17.4" cy="10.2" r="3"/><circle cx="15.3" cy="16.6" r="3"/><circle cx="8.7" cy="16.6" r="3"/><circle cx="6.6" cy="10.2" r="3"/></svg>`,
];

/** @param {Card} card */
export function glyph(card) {
  const icon = fromMarkup(GLYPHS[card]);
  icon.setAttribute("aria-hidden", "true");
  icon.classList.add("glyph");
  return icon;
}

// A full item card. With `onclick` it is a button (a card in the hand, an option to take).
/**
 * @typedef {object} ItemCardOptions
 * @property {((event: MouseEvent) => void) | undefined} [onclick]
 * @property {boolean} [selected]
 * @property {string | null} [key] the key that chooses it, shown on it
 * @property {string | null} [badge]
 * @property {string} [fkey] the name that keeps its focus across redrawings
 * @property {boolean} [small]
 * @property {boolean} [disabled]
 */
/**
 * @param {Card} card
 * @param {ItemCardOptions} [options]
 * @returns {HTMLElement}
 */
export function itemCard(card, { onclick, selected, key, badge, fkey, small, disabled } = {}) {
  const label = `${itemName(card)}, ${geishaName(card)}, ${charmOf(card)} ${term("charm")}`;
  const body = [
    h("span", { class: "charm", "aria-hidden": "true" }, charmOf(card)),
    face(cardTableFaces().items[card]),
    key ? h("kbd", { class: "key", "aria-hidden": "true" }, key) : null,
    glyph(card),
    h("span", { class: "item" }, itemName(card)),
    small ? null : h("span", { class: "who" }, geishaName(card)),
    badge ? h("span", { class: "badge" }, badge) : null,
  ];
  const props = {
    class: `card c${card}${selected ? " selected" : ""}${small ? " small" : ""}`,
    dataset: { card: letterOf(card), colour: colourOf(card), ...(fkey ? { fkey } : {}) },
    "aria-label": badge ? `${label} (${badge})` : label,
  };
  if (!onclick) return h("div", { ...props, role: "img" }, body);
  return h(
    "button",
    { ...props, type: "button", onclick, disabled, "aria-pressed": selected ? "true" : "false" },
    body,
  );
}

// A tiny tile for a card on the table: glyph and charm, the item named for screen readers.
/** @param {Card} card */
export function tile(card) {
  return h(
    "span",
    { class: `tile c${card}`, title: `${itemName(card)} (${geishaName(card)})`, dataset: { card: letterOf(card) } },
    glyph(card),
    face(cardTableFaces().items[card]),
  );
}

/** @param {string} label */
export function cardBack(label) {
  return h("div", { class: "card back", role: "img", "aria-label": label }, glyph(6), h("span", { class: "item" }, label));
}

// A geisha of the row: name, charm, item; where her favor marker stands.
/**
 * @param {Card} card
 * @param {Seat | null} favor
 * @param {Seat} viewer
 */
export function geishaCard(card, favor, viewer) {
  const side = favor === null ? "neutral" : favor === viewer ? "you" : "them";
  return h(
    "div",
    { class: `geisha c${card}`, dataset: { favor: side, card: letterOf(card) } },
    h("span", { class: "charm big", "aria-hidden": "true" }, charmOf(card)),
    face(cardTableFaces().geishas[card]),
    glyph(card),
    h("span", { class: "name" }, geishaName(card)),
    h("span", { class: "item" }, itemName(card)),
  );
}

/**
 * @param {Seat | null} favor
 * @param {Seat} viewer
 * @returns {string}
 */
export function favorText(favor, viewer) {
  if (favor === null) return t("favor_neutral");
  return favor === viewer ? t("favor_you") : t("favor_them");
}
