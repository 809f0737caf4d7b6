// What a puzzle shows besides the table (puzzles.js): its decisions in words (the
// question lists them in the notation), its themes, and the reveal after the answer:
// right or wrong, the solution, every decision's chance, the deals where the answer does
// worse (their hidden cards drawn as tiles) and the rating moved.

import { h } from "./dom.js";
import { tile } from "./cards.js";
import { actionName, currentLang, describeMove, t } from "./i18n.js";

/** @typedef {import("./wire").MoveInfo} Move */
/** @typedef {import("./wire").MoveKindName} MoveKindName */
/** @typedef {import("./wire").PuzzleResult} PuzzleResult */
/** @typedef {import("./wire").PuzzleWorld} PuzzleWorld */
/** @typedef {import("./wire").PuzzleRatingInfo} PuzzleRatingInfo */
/** @typedef {import("./messages").ActionKind} ActionKind */

// The notation's card letters, by the geisha's place in the row (hanamikoji.core.cards).
const LETTERS = "ABCDEFG";
/** @type {Record<string, ActionKind>} */
const KIND_OF_LETTER = { S: "secret", T: "trade-off", G: "gift", C: "competition" };
// The action a theme's name says (its edition's word), if any.
/** @type {Record<string, ActionKind>} */
const THEME_ACTIONS = {
  "gift-answer": "gift", "gift-offer": "gift", "competition-answer": "competition",
  "competition-split": "competition", "secret": "secret", "last-secret": "secret",
};

/** @param {string} letters */
function cardsOf(letters) {
  return [...letters].map((letter) => LETTERS.indexOf(letter)).filter((card) => card >= 0);
}

// A decision in the notation (S:A, T:AB, G:ABC, C:AB/CD, G>A, C>AB) as the table
// describes decisions.
/**
 * @param {string} text
 * @returns {Move}
 */
export function moveOfText(text) {
  const [, letter = "", mark = ":", rest = ""] = /^([STGC])([:>])(.*)$/.exec(text) || [];
  const action = KIND_OF_LETTER[letter] || "secret";
  /** @type {MoveKindName} */
  const kind = mark === ">" ? (action === "gift" ? "gift-response" : "competition-response") : action;
  const pairs = kind === "competition" ? rest.split("/").map(cardsOf) : [];
  return { text, kind, cards: cardsOf(rest.replace("/", "")), pairs, hidden: false };
}

/** @param {string} text */
export function decisionWords(text) {
  return describeMove(moveOfText(text));
}

/** @param {string} theme */
export function themeName(theme) {
  const kind = THEME_ACTIONS[theme];
  return t(`puzzle_theme_${theme.replace(/-/g, "_")}`, kind ? { action: actionName(kind) } : {});
}

/** @param {number} value */
export function percent(value) {
  const lang = currentLang() === "en-2018" ? "en" : currentLang();
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(value);
}

/** @param {string} letters */
function tiles(letters) {
  return h("span", { class: "tiles" }, cardsOf(letters).map((card) => tile(card)));
}

/** @param {PuzzleWorld} world */
function renderWorld(world) {
  /**
   * @param {string} name
   * @param {string} letters
   */
  const row = (name, letters) => (letters ? [h("dt", {}, name), h("dd", {}, tiles(letters))] : []);
  return h("li", { class: "puzzle-world", "data-testid": "puzzle-world" },
    h("p", {}, t("puzzle_world", {
      chance: percent(world.chance), answer: percent(world.answer_value), solution: percent(world.solution_value),
    })),
    h("dl", {},
      row(t("puzzle_world_hand"), world.opponent_hand),
      row(t("puzzle_world_secret", { action: actionName("secret") }), world.opponent_secret),
      row(t("puzzle_world_tradeoff", { action: actionName("trade-off") }), world.opponent_tradeoff),
      row(t("puzzle_world_removed"), world.removed),
      row(t("puzzle_world_deck"), world.deck)));
}

// The rating line: an account's before and after, a guest's (kept in the browser).
/**
 * @param {PuzzleResult} result
 * @param {PuzzleRatingInfo | null} sent the guest's rating sent with the answer
 */
function renderRating(result, sent) {
  if (result.rated && result.before && result.after) {
    return h("p", { class: "puzzle-rating", "data-testid": "puzzle-rating" },
      t("puzzle_rating_change", { before: Math.round(result.before.rating), after: Math.round(result.after.rating) }));
  }
  if (result.guest && sent) {
    return h("p", { class: "puzzle-rating", "data-testid": "puzzle-rating" },
      t("puzzle_rating_guest", { before: Math.round(sent.rating), after: Math.round(result.guest.rating) }));
  }
  return null;
}

// The reveal after an answer.
/**
 * @param {PuzzleResult} result
 * @param {PuzzleRatingInfo | null} sent
 */
export function renderReveal(result, sent) {
  return h("section", { class: "puzzle-reveal", "data-testid": "puzzle-reveal", dataset: { correct: result.correct ? "yes" : "no" } },
    h("p", { class: `puzzle-verdict ${result.correct ? "right" : "wrong"}`, role: "status" },
      result.correct ? t("puzzle_right") : t("puzzle_wrong")),
    result.correct ? null : h("p", {}, t("puzzle_your_answer", { move: decisionWords(result.answer) })),
    h("p", { class: "puzzle-solution", "data-move": result.solution }, t("puzzle_solution", { move: decisionWords(result.solution) })),
    renderRating(result, sent),
    h("h3", {}, t("puzzle_values")),
    h("p", { class: "hint" }, result.method === "proved" ? t("puzzle_proved") : t("puzzle_searched")),
    h("ol", { class: "puzzle-values", "data-testid": "puzzle-values" }, result.values.map((value) => h("li", {
      dataset: { move: value.decision, best: value.decision === result.solution ? "yes" : "no", chosen: value.decision === result.answer ? "yes" : "no" },
    }, h("span", { class: "value" }, percent(value.value)), " ", decisionWords(value.decision)))),
    result.worlds.length ? [h("h3", {}, t("puzzle_worlds")), h("ol", { class: "puzzle-worlds" }, result.worlds.map(renderWorld))] : null);
}
