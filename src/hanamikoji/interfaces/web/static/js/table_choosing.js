// The decision bar: what the page is choosing (an action, its cards, a Competition's
// pairs) with Confirm and Clear, and the offer waiting for an answer (the page's to
// answer, or the opponent's).

import { h } from "./dom.js";
import { itemCard, tile } from "./cards.js";
import { CARDS_PER_ACTION } from "./game_rules.js";
import { actionName, cardLabel, describeMove, seatName, t, tCount } from "./i18n.js";
import { tip } from "./tooltip.js";
import { cardTip, joinTips, lastClass, lastTip } from "./table_marks.js";
import { competitionMove } from "./table_moves.js";

/** @typedef {import("./table.js").TableController} TableController */
/** @typedef {import("./wire").MoveInfo} Move */
/** @typedef {import("./wire").PendingOffer} Pending */

/** @param {TableController} table */
export function renderComposer(table) {
  const s = table.current();
  if (table.answering()) return renderAnswer(table);
  if (!table.choosingAction()) {
    if (s.pending && s.pending.by === s.seat) {
      return h("div", { class: "composer waiting" },
        h("p", {}, describeMove(s.pending)),
        renderOffer(table, s.pending, false));
    }
    return null;
  }
  const move = table.composedMove();
  let prompt;
  if (!table.action) {
    prompt = t("choose_action");
  } else if (!move || table.picked.length < CARDS_PER_ACTION[table.action]) {
    prompt = t("choose_cards_n", {
      action: actionName(table.action), cards: tCount("n_cards", CARDS_PER_ACTION[table.action]),
      chosen: table.picked.length, count: CARDS_PER_ACTION[table.action],
    });
  } else {
    prompt = t("ready_to_play", { move: describeMove(move) });
  }
  const pairing = table.action === "competition" && table.picked.length === 4 ? renderPairings(table) : null;
  return h("div", { class: "composer" },
    renderGuide(table),
    h("p", { class: "prompt", "aria-live": "polite", id: "prompt" }, prompt),
    pairing,
    renderButtons(table, move),
    h("p", { class: "keys" }, t("keys_help")));
}

// What the lesson asks for at this step, kept in the decision bar (/learn only).
/** @param {TableController} table */
export function renderGuide(table) {
  const text = table.lesson ? table.lesson.guide() : null;
  return text ? h("p", { class: "guide", "data-testid": "guide" }, text) : null;
}

/** @param {TableController} table */
export function renderPairings(table) {
  return h("div", { class: "pairings", role: "radiogroup", "aria-label": t("choose_split", { action: actionName("competition") }) },
    h("span", { class: "label" }, t("choose_split", { action: actionName("competition") }), " ", h("kbd", {}, "P")),
    table.pairings().map((pairs, index) => h("button", {
      type: "button",
      role: "radio",
      class: `pairing${index === table.pairing ? " selected" : ""}`,
      "aria-checked": index === table.pairing ? "true" : "false",
      dataset: { fkey: `pairing-${index}`, move: competitionMove(pairs).text },
      onclick: () => table.choosePairing(index),
    }, pairs.map((pair, n) => h("span", { class: "pair", "aria-label": `${t("pair_n", { n: n + 1 })}: ${pair.map(cardLabel).join(" + ")}` },
      pair.map((card) => tile(card)))))));
}

/**
 * @param {TableController} table
 * @param {Move | null} move
 */
export function renderButtons(table, move) {
  return h("div", { class: "buttons" },
    h("button", { type: "button", class: "primary", id: "confirm", disabled: !move || table.busy || !table.online, onclick: () => table.confirm() }, t("confirm"), " ", h("kbd", {}, "Enter")),
    h("button", { type: "button", id: "clear", onclick: () => table.clear() }, t("clear"), " ", h("kbd", {}, "Esc")));
}

// The cards on offer: choosable (the page answers) or shown (the page waits for the
// answer). Each card or pair says where it goes if taken.
/**
 * @param {TableController} table
 * @param {Pending} pending
 * @param {boolean} choosable
 */
export function renderOffer(table, pending, choosable) {
  const s = table.current();
  const player = seatName(s, table.opponent());
  const where = choosable ? t("tip_offer_take", { player }) : t("tip_offer_wait", { player });
  const mark = table.marks.offer;
  return h("div", { class: `offer${lastClass(mark)}`, role: choosable ? "radiogroup" : null, "aria-label": t("offer_title") },
    pending.options.map((option, index) => {
      const selected = table.option === index;
      const content = option.kind === "gift-response"
        ? itemCard(option.cards[0], { small: true })
        : h("span", { class: "pair" }, option.cards.map((card) => itemCard(card, { small: true })));
      const about = joinTips(...[...new Set(option.cards)].map((card) => cardTip(card)), where, lastTip(table, mark, pending.by));
      if (!choosable) return tip(h("div", { class: "option", role: "img", "aria-label": describeMove(option), dataset: { fkey: `option-${index}` } }, content), about);
      return tip(h("button", {
        type: "button",
        role: "radio",
        class: `option${selected ? " selected" : ""}`,
        "aria-checked": selected ? "true" : "false",
        "aria-label": `${index + 1}: ${describeMove(option)}`,
        dataset: { fkey: `option-${index}`, move: option.text },
        disabled: table.busy,
        onclick: () => table.chooseOption(index),
      }, h("kbd", { "aria-hidden": "true" }, String(index + 1)), content), about);
    }));
}

/** @param {TableController} table */
export function renderAnswer(table) {
  const pending = table.pending();
  const move = table.composedMove();
  return h("div", { class: "composer answer" },
    renderGuide(table),
    h("p", { class: "prompt", id: "prompt" }, describeMove(pending)),
    move ? h("p", { class: "prompt" }, t("ready_to_play", { move: describeMove(move) })) : null,
    renderOffer(table, pending, true),
    renderButtons(table, move),
    h("p", { class: "keys" }, t("keys_help")));
}
