// The game's rules as the page needs them: the four actions in the order of their
// markers (and of the keys 1-4), each one's letter in the notation and number of cards,
// and the seven geishas of the row. The engine's own (hanamikoji.core.moves: ACTIONS,
// CARDS_PER_ACTION, the notation's letters; hanamikoji.core.cards: GEISHAS) hold these:
// tests/test_web_page_sources.py reads this file and compares.

/** @typedef {import("./messages").ActionKind} ActionKind */

/** @type {ActionKind[]} */
export const KINDS = ["secret", "trade-off", "gift", "competition"];
/** @type {Record<ActionKind, string>} */
export const KIND_LETTERS = { "secret": "S", "trade-off": "T", "gift": "G", "competition": "C" };
/** @type {Record<ActionKind, number>} */
export const CARDS_PER_ACTION = { "secret": 1, "trade-off": 2, "gift": 3, "competition": 4 };
// The geishas (and their items) by their place in the row: 0 Ayane's flute .. 6 Ruri's flower.
export const ROW = [0, 1, 2, 3, 4, 5, 6];
