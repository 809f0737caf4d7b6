// Sentences and edition terms come from the server (/api/i18n/LANG): one catalog, shared
// with the server's own messages, so the page never invents a term.

import { store } from "./dom.js";
import { KINDS } from "./game_rules.js";

/** @typedef {import("./messages").ActionKind} ActionKind */
/** @typedef {import("./messages").Card} Card */
/** @typedef {import("./messages").Catalog} Catalog */
/** @typedef {import("./messages").GameState} GameState */
/** @typedef {import("./wire").MoveInfo} Move */
/** @typedef {import("./messages").Seat} Seat */
/** @typedef {Record<string, unknown>} Fields */

// The page's languages: notation.names.LANGUAGES (tests/test_web_page_sources.py).
export const LANGS = ["en", "en-2018", "es", "fr", "ja", "zh-Hant"];

/** @type {Catalog | null} */
let catalog = null;

// The catalog loaded (boot() loads one before anything is drawn).
/** @returns {Catalog} */
function loaded() {
  if (!catalog) throw new Error("no catalog loaded");
  return catalog;
}

/** @returns {string} */
export function preferredLang() {
  const saved = store(localStorage, "hanamikoji.lang");
  if (saved !== null && LANGS.includes(saved)) return saved;
  const browser = (navigator.language || "en").toLowerCase();
  if (/^zh-(hant|tw|hk|mo)/.test(browser)) return "zh-Hant";
  return LANGS.includes(browser.slice(0, 2)) ? browser.slice(0, 2) : "en";
}

/**
 * @param {string} lang
 * @returns {Promise<Catalog>}
 */
export async function loadCatalog(lang) {
  const response = await fetch(`/api/i18n/${encodeURIComponent(lang)}`);
  if (!response.ok) throw new Error(`catalog ${lang}: HTTP ${response.status}`);
  /** @type {Catalog} */
  const body = await response.json();
  catalog = body;
  document.documentElement.lang = lang === "en-2018" ? "en" : lang;
  store(localStorage, "hanamikoji.lang", lang);
  return body;
}

/** @returns {string} */
export function currentLang() {
  return catalog ? catalog.lang : "en";
}

/** @returns {Record<string, string>} */
export function languages() {
  return loaded().languages;
}

/**
 * @param {string} template
 * @param {Fields} fields
 * @returns {string}
 */
function fill(template, fields) {
  return template.replace(/\{(\w+)\}/g, (hole, name) => (name in fields ? String(fields[name]) : hole));
}

// The difficulty levels (numbers, each named by the sentence level_N) and the start
// page's default, from the server's table (bots/levels.py).
/** @returns {{ numbers: number[], default: number }} */
export function levels() {
  return { numbers: loaded().levels, default: loaded().default_level };
}

/**
 * @param {string} key
 * @param {Fields} [fields]
 * @returns {string}
 */
export function t(key, fields = {}) {
  // A counted sentence (the list of its forms) is tCount's: here it would be its forms joined.
  return fill(String(loaded().ui[key] ?? key), fields);
}

// Which form of a counted sentence a number takes: the gettext plural rule of the
// language's catalog (scripts/i18n compiles the forms in that rule's order).
/** @type {Record<string, (n: number) => number>} */
const PLURAL_FORMS = {
  "(n != 1)": (n) => (n !== 1 ? 1 : 0),
  "(n > 1)": (n) => (n > 1 ? 1 : 0),
  "0": () => 0,
};

// A counted sentence: the form the language's plural rule picks for n, with {n} filled.
/**
 * @param {string} key
 * @param {number} n
 * @param {Fields} [fields]
 * @returns {string}
 */
export function tCount(key, n, fields = {}) {
  const forms = loaded().ui[key];
  if (!Array.isArray(forms)) return t(key, { ...fields, n });
  const index = PLURAL_FORMS[loaded().plural](n);
  return fill(forms[Math.min(index, forms.length - 1)], { ...fields, n });
}

// A rules variant's name (classic, three-rounds, french) in the page's language.
/**
 * @param {string} name
 * @returns {string}
 */
export function variantName(name) {
  return t(`variant_name_${name.replace("-", "_")}`);
}

/**
 * @param {string} key
 * @returns {string}
 */
export function term(key) {
  return loaded().terms[key];
}

/**
 * @param {ActionKind} kind
 * @returns {string}
 */
export function actionName(kind) {
  return loaded().actions[KINDS.indexOf(kind)];
}

/**
 * @param {Card} card
 * @returns {string}
 */
export function itemName(card) {
  return loaded().items[card];
}

/**
 * @param {Card} card
 * @returns {string}
 */
export function geishaName(card) {
  return loaded().geishas[card];
}

/**
 * @param {Card} card
 * @returns {number}
 */
export function charmOf(card) {
  return loaded().charms[card];
}

/**
 * @param {Card} card
 * @returns {string}
 */
export function colourOf(card) {
  return loaded().colours[card];
}

/**
 * @param {Card} card
 * @returns {string}
 */
export function letterOf(card) {
  return loaded().letters[card];
}

// The card-table deck's faces (geishas, items, actions), the same in every language.
/** @returns {import("./messages").CardTableFaces} */
export function cardTableFaces() {
  return loaded().deck;
}

/**
 * @param {Card} card
 * @returns {string}
 */
export function cardLabel(card) {
  return `${itemName(card)} (${geishaName(card)})`;
}

function colon() {
  return term("colon");
}

// Words listed as the language lists them ("、" in Japanese and Chinese), as
// notation/names.py join_list does.
/**
 * @param {string[]} words
 * @returns {string}
 */
export function joinList(words) {
  return words.join(term("list"));
}

// A decision in words, as notation/names.py describe_move says it.
/**
 * @param {Move} move
 * @returns {string}
 */
export function describeMove(move) {
  /** @param {Card[]} list */
  const cards = (list) => joinList(list.map(cardLabel));
  if (move.kind === "gift-response") return `${term("take_gift")}${colon()}${cards(move.cards)}`;
  if (move.kind === "competition-response") {
    return `${term("take_competition")}${colon()}${move.cards.map(cardLabel).join(" + ")}`;
  }
  const name = actionName(move.kind);
  if (move.hidden) return `${name} (${term("hidden")})`;
  if (move.kind === "competition" && move.pairs.length === 2) {
    const [first, second] = move.pairs.map((pair) => pair.map(cardLabel).join(" + "));
    return `${name}${colon()}${first} / ${second}`;
  }
  return `${name}${colon()}${cards(move.cards)}`;
}

// Cards in words, in their order, a run of copies counted: "fan, flower ×2, tea set".
/**
 * @param {Card[]} list
 * @returns {string}
 */
export function cardsInWords(list) {
  /** @type {{ card: Card, n: number }[]} */
  const runs = [];
  for (const card of list) {
    const last = runs[runs.length - 1];
    if (last && last.card === card) last.n += 1;
    else runs.push({ card, n: 1 });
  }
  return joinList(runs.map(({ card, n }) => (n > 1 ? `${itemName(card)} ×${n}` : itemName(card))));
}

// "You", "Ann", "Kim (guest)", "Bot (level 3)", "Player 2": how a seat is named on this
// page, from who sits there (the state's `people`).
/**
 * @param {GameState} state
 * @param {Seat | null} seat
 * @param {{ you?: boolean }} [options]
 * @returns {string}
 */
export function seatName(state, seat, { you = true } = {}) {
  if (you && seat === state.seat) return t("you");
  if (seat !== null && state.people) return personName(state.people[seat], seat);
  if (seat !== null && state.players[seat] === "bot") return t("bot_name", { level: state.levels[seat] });
  return t("player", { number: Number(seat) + 1 });
}

// A seat's player by name: an account's, a guest's nickname marked as such, a bot's
// level, or "Player N" for a seat nobody is named at.
/**
 * @param {import("./wire").SeatPlayer} person
 * @param {number} seat
 * @returns {string}
 */
export function personName(person, seat) {
  if (person.kind === "bot") return t("bot_name", { level: person.level ?? "?" });
  if (person.kind === "guest" && person.name) return t("account_guest_name", { name: person.name });
  if (person.kind === "account" && person.name) return person.name;
  return t("player", { number: seat + 1 });
}

// Who won and why: the sentence the server chose (`reason`, the terminal's too).
/**
 * @param {GameState} state
 * @param {{ winner?: string, loser?: string }} [names] the seats' names, if not `seatName`'s
 * @returns {string}
 */
export function outcomeSentence(state, names = {}) {
  const outcome = /** @type {import("./wire").GameOutcome} */ (state.outcome);
  // The outcome sentences speak of the winner in the third person: "Player 1 wins ...".
  const winner = outcome.winner === null ? "" : names.winner ?? seatName(state, outcome.winner, { you: false });
  const loser = outcome.winner === null ? "" : names.loser ?? seatName(state, 1 - outcome.winner, { you: false });
  return t(outcome.reason, { winner, loser, charm_term: term("charm") });
}
