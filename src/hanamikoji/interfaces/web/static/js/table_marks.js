// What the table's parts say of the last decisions and of a card: the end of an
// element's explanation (whose decision moved it), the classes that mark it, a card's
// explanation, explanations joined.

import { charmOf, geishaName, itemName, seatName, t, term } from "./i18n.js";

/** @typedef {import("./table.js").TableController} TableController */
/** @typedef {import("./messages").Card} Card */
/** @typedef {import("./messages").Seat} Seat */
/** @typedef {import("./lastmove.js").Mark} Mark */

// The sentence a marked element's explanation ends with: whose last decision moved it
// (`seat`, when the element says; a spectator's page names that player, or none).
/**
 * @param {TableController} table
 * @param {Mark | null | undefined} mark
 * @param {Seat | null} [seat]
 * @returns {string}
 */
export function lastTip(table, mark, seat = null) {
  if (!mark) return "";
  if (table.watching()) return seat === null ? t("tip_last_watch") : t("tip_last_theirs", { player: seatName(table.current(), seat) });
  return mark.by === "theirs" ? t("tip_last_theirs", { player: seatName(table.current(), table.opponent()) }) : t("tip_last_mine");
}

// Classes of an element the latest decisions marked (the animation only as they arrive).
/**
 * @param {Mark | null | undefined} mark
 * @returns {string}
 */
export function lastClass(mark) {
  if (!mark) return "";
  return ` last last-${mark.by}${mark.fresh ? " arrive" : ""}`;
}

/**
 * @param {Card} card
 * @param {...string} more
 * @returns {string}
 */
export function cardTip(card, ...more) {
  return joinTips(
    t("tip_card", { item: itemName(card), geisha: geishaName(card), charm: charmOf(card), charm_term: term("charm") }),
    ...more);
}

// Explanations said one after the other (empty ones left out).
/**
 * @param {...string} parts
 * @returns {string}
 */
export function joinTips(...parts) {
  return parts.filter(Boolean).join(" ");
}
