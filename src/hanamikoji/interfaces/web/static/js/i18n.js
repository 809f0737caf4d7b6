// Sentences and edition terms come from the server (/api/i18n/LANG): one catalog, shared
// with the server's own messages, so the page never invents a term.

import { store } from "./dom.js";

export const LANGS = ["en", "en-2018", "es", "fr", "ja", "zh-Hant"];
export const KINDS = ["secret", "trade-off", "gift", "competition"];
export const KIND_LETTERS = { secret: "S", "trade-off": "T", gift: "G", competition: "C" };
export const CARDS_PER_ACTION = { secret: 1, "trade-off": 2, gift: 3, competition: 4 };

let catalog = null;

export function preferredLang() {
  const saved = store(localStorage, "hanamikoji.lang");
  if (LANGS.includes(saved)) return saved;
  const browser = (navigator.language || "en").toLowerCase();
  if (/^zh-(hant|tw|hk|mo)/.test(browser)) return "zh-Hant";
  return LANGS.includes(browser.slice(0, 2)) ? browser.slice(0, 2) : "en";
}

export async function loadCatalog(lang) {
  const response = await fetch(`/api/i18n/${encodeURIComponent(lang)}`);
  if (!response.ok) throw new Error(`catalog ${lang}: HTTP ${response.status}`);
  catalog = await response.json();
  document.documentElement.lang = lang === "en-2018" ? "en" : lang;
  store(localStorage, "hanamikoji.lang", lang);
  return catalog;
}

export function currentLang() {
  return catalog ? catalog.lang : "en";
}

export function languages() {
  return catalog.languages;
}

function fill(template, fields) {
  return template.replace(/\{(\w+)\}/g, (hole, name) => (name in fields ? String(fields[name]) : hole));
}

// The difficulty levels (numbers, each named by the sentence level_N) and the start
// page's default, from the server's table (bots/levels.py).
export function levels() {
  return { numbers: catalog.levels, default: catalog.default_level };
}

export function t(key, fields = {}) {
  return fill(catalog.ui[key] ?? key, fields);
}

// Which form of a counted sentence a number takes: the gettext plural rule of the
// language's catalog (scripts/i18n compiles the forms in that rule's order).
const PLURAL_FORMS = {
  "(n != 1)": (n) => (n !== 1 ? 1 : 0),
  "(n > 1)": (n) => (n > 1 ? 1 : 0),
  "0": () => 0,
};

// A counted sentence: the form the language's plural rule picks for n, with {n} filled.
export function tCount(key, n, fields = {}) {
  const forms = catalog.ui[key];
  if (!Array.isArray(forms)) return t(key, { ...fields, n });
  const index = PLURAL_FORMS[catalog.plural](n);
  return fill(forms[Math.min(index, forms.length - 1)], { ...fields, n });
}

// A rules variant's name (classic, three-rounds, french) in the page's language.
export function variantName(name) {
  return t(`variant_name_${name.replace("-", "_")}`);
}

export function term(key) {
  return catalog.terms[key];
}

export function actionName(kind) {
  return catalog.actions[KINDS.indexOf(kind)];
}

export function itemName(card) {
  return catalog.items[card];
}

export function geishaName(card) {
  return catalog.geishas[card];
}

export function charmOf(card) {
  return catalog.charms[card];
}

export function colourOf(card) {
  return catalog.colours[card];
}

export function letterOf(card) {
  return catalog.letters[card];
}

// The card-table deck's faces (geishas, items, actions), the same in every language.
export function cardTableFaces() {
  return catalog.deck;
}

export function cardLabel(card) {
  return `${itemName(card)} (${geishaName(card)})`;
}

function colon() {
  return term("colon");
}

// Words listed as the language lists them ("、" in Japanese and Chinese), as
// notation/names.py join_list does.
export function joinList(words) {
  return words.join(term("list"));
}

// A decision in words, as notation/names.py describe_move says it.
export function describeMove(move) {
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
export function cardsInWords(list) {
  const runs = [];
  for (const card of list) {
    const last = runs[runs.length - 1];
    if (last && last.card === card) last.n += 1;
    else runs.push({ card, n: 1 });
  }
  return joinList(runs.map(({ card, n }) => (n > 1 ? `${itemName(card)} ×${n}` : itemName(card))));
}

// "You", "Player 2", "Bot (level 3)": how a seat is named on this page.
export function seatName(state, seat, { you = true } = {}) {
  if (you && seat === state.seat) return t("you");
  if (state.players[seat] === "bot") return t("bot_name", { level: state.levels[seat] });
  return t("player", { number: seat + 1 });
}

// Who won and why: the sentence the server chose (`reason`, the terminal's too).
export function outcomeSentence(state) {
  const outcome = state.outcome;
  // The outcome sentences speak of the winner in the third person: "Player 1 wins ...".
  const winner = outcome.winner === null ? "" : seatName(state, outcome.winner, { you: false });
  return t(outcome.reason, { winner, charm_term: term("charm") });
}
