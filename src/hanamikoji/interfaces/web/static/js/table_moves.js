// The decisions the table composes, in the notation and described as the server
// describes a decision: a Competition's pairs, the letters of cards.

import { letterOf } from "./i18n.js";

/** @typedef {import("./messages").Card} Card */
/** @typedef {import("./wire").MoveInfo} Move */

// The letters of cards, in the order given.
/** @param {Card[]} cards */
export function letters(cards) {
  return cards.map(letterOf).join("");
}

// A Competition offering the two pairs given (each a list of two cards), as composedMove
// describes a decision.
/**
 * @param {Card[][]} pairs
 * @returns {Move}
 */
export function competitionMove([first, second]) {
  return {
    text: `C:${letters(first)}/${letters(second)}`,
    kind: "competition",
    cards: [...first, ...second].sort(),
    pairs: [first, second],
    hidden: false,
  };
}
