// The scoring of a round: Secrets revealed, each geisha's cards on both sides, where her
// favor went, and the totals.

import { h } from "./dom.js";
import { favorText, tile } from "./cards.js";
import { cardLabel, charmOf, geishaName, seatName, t, tCount, term } from "./i18n.js";
import { ROW } from "./game_rules.js";

/** @typedef {import("./messages").GameState} GameState */
/** @typedef {import("./wire").ScoredRound} RoundSummary */
/** @typedef {import("./messages").Seat} Seat */

/**
 * @param {Node} content
 * @param {string} name
 * @returns {HTMLDialogElement}
 */
export function showDialog(content, name) {
  for (const old of document.querySelectorAll(`dialog.${name}`)) old.remove();
  const close = h("button", { type: "button", class: "primary", onclick: () => { dialog.close(); dialog.remove(); } }, t("continue"));
  const dialog = h("dialog", { class: name, "aria-labelledby": `${name}-title` }, content, h("div", { class: "buttons" }, close));
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
  return dialog;
}

// A player's score in words: "7 charm · 2 geishas", each count in its plural form.
/**
 * @param {number} charm
 * @param {number} geishas
 * @returns {string}
 */
export function scoreText(charm, geishas) {
  return t("score_counts", { charm, charm_term: term("charm"), geishas: tCount("n_geishas", geishas) });
}

// A seat's view of a round's scoring (a spectator's from Player 1's side).
/**
 * @param {GameState} s
 * @param {RoundSummary} summary
 * @param {(Seat | null)[]} previousFavor
 */
export function renderSummary(s, summary, previousFavor) {
  const me = s.seat ?? 0;
  const them = 1 - me;
  const secrets = [me, them].map((seat) => `${seatName(s, seat)}: ${summary.secrets[seat] >= 0 ? cardLabel(summary.secrets[seat]) : "—"}`).join(" · ");
  /** @param {number} card */
  const arrow = (card) => {
    const before = previousFavor[card];
    const after = summary.favor[card];
    const text = favorText(after, me);
    return before === after ? text : h("b", {}, `${text} · ${t("favor_moved")}`);
  };
  return h("div", { class: "summary-body", "data-testid": "round-summary" },
    h("h2", { id: "summary-title" }, t("round_scored", { round: summary.round })),
    h("p", {}, t("secrets_revealed", { secrets })),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("col_geisha")), h("th", { scope: "col" }, t("summary_you")), h("th", { scope: "col" }, t("summary_them")), h("th", { scope: "col" }, t("summary_marker")))),
      h("tbody", {}, ROW.map((card) => h("tr", {},
        h("th", { scope: "row" }, tile(card), ` ${geishaName(card)} (${charmOf(card)})`),
        h("td", {}, summary.sides[me][card]),
        h("td", {}, summary.sides[them][card]),
        h("td", {}, arrow(card)))))),
    h("p", {}, t("summary_totals", {
      mine: scoreText(summary.charm[me], summary.geishas[me]),
      theirs: scoreText(summary.charm[them], summary.geishas[them]),
    })));
}

