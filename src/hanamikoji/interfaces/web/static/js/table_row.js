// The geisha row: each geisha with her favor marker, and the cards of both sides under
// her, those the latest decisions put there marked.

import { h } from "./dom.js";
import { favorText, geishaCard, tile } from "./cards.js";
import { cardLabel, charmOf, geishaName, itemName, letterOf, seatName, t, term } from "./i18n.js";
import { ROW } from "./game_rules.js";
import { tip } from "./tooltip.js";
import { cardTip, joinTips, lastClass, lastTip } from "./table_marks.js";

/** @typedef {import("./table.js").TableController} TableController */
/** @typedef {import("./messages").Card} Card */
/** @typedef {import("./messages").Seat} Seat */
/** @typedef {import("./lastmove.js").Mark} Mark */

// Where a geisha's favor marker is, from the page's side: the whole sentence.
/**
 * @param {TableController} table
 * @param {Card} card
 * @param {Seat | null} favor
 * @returns {string}
 */
export function favorTip(table, card, favor) {
  const s = table.current();
  const fields = { marker: term("marker"), player: seatName(s, table.opponent()), geisha: geishaName(card) };
  if (favor === null) return t("tip_favor_neutral", fields);
  // A spectator's page has no "you": it names who holds her and who could take her.
  if (table.watching()) return t("tip_favor_watch", { ...fields, player: seatName(s, favor), other: seatName(s, 1 - favor) });
  return favor === s.seat ? t("tip_favor_you", fields) : t("tip_favor_them", fields);
}

// The cards of one side under a geisha, the ones the latest decisions put there marked:
// the opponent's last, the page's own before them.
/**
 * @param {TableController} table
 * @param {Seat} seat
 * @param {Card} card
 * @param {number} count
 */
export function renderPile(table, seat, card, count) {
  const s = table.current();
  /** @type {import("./lastmove.js").Pile} */
  const pile = table.marks.placed[seat][card] || {};
  const { mine, theirs } = pile;
  /** @type {Mark[]} */
  const moved = [
    ...Array.from({ length: mine ? mine.count : 0 }, () => ({ by: /** @type {const} */ ("mine"), fresh: Boolean(mine && mine.fresh) })),
    ...Array.from({ length: theirs ? theirs.count : 0 }, () => ({ by: /** @type {const} */ ("theirs"), fresh: Boolean(theirs && theirs.fresh) })),
  ];
  const marks = moved.slice(Math.max(0, moved.length - count));
  const where = seat === s.seat
    ? t("tip_on_my_side", { geisha: geishaName(card) })
    : t("tip_on_their_side", { geisha: geishaName(card), player: seatName(s, seat) });
  const side = seat === s.seat ? "me" : "them";
  return h("div", { class: `placed ${side}`, "data-count": count },
    Array.from({ length: count }, (_, index) => {
      const last = marks[index - (count - marks.length)] || null;
      const one = tile(card);
      one.className += lastClass(last);
      one.setAttribute("role", "img");
      one.setAttribute("aria-label", cardLabel(card));
      one.dataset.fkey = `pile-${seat}-${card}-${index}`;
      return tip(one, cardTip(card, where, lastTip(table, last)));
    }));
}

/** @param {TableController} table */
export function renderRow(table) {
  const s = table.current();
  const me = table.viewer();
  const opponent = 1 - me;
  // Once the game is over the table shows the last scoring, Secrets included.
  const placed = s.outcome && s.rounds.length ? s.rounds[s.rounds.length - 1].sides : s.placed;
  return h("div", { class: "row", role: "list", "aria-label": term("marker") },
    ROW.map((card) => {
      const favor = s.favor[card];
      const mine = placed[me][card];
      const theirs = placed[opponent][card];
      const label = t("geisha_label", {
        geisha: geishaName(card), charm: charmOf(card), charm_term: term("charm"), item: itemName(card),
        favor: favorText(favor, me), mine, theirs,
      });
      /** @param {"me" | "them"} side */
      const marker = (side) => (favor !== null && (favor === me) === (side === "me")
        ? tip(h("span", { class: "marker", role: "img", "aria-label": term("marker"), dataset: { fkey: `favor-${card}` } }, "◆"), favorTip(table, card, favor))
        : null);
      const geisha = geishaCard(card, favor, me);
      geisha.dataset.fkey = `geisha-${card}`;
      return h("div", { class: "column", role: "listitem", "aria-label": label, dataset: { card: letterOf(card) } },
        renderPile(table, opponent, card, theirs),
        h("div", { class: "slot them" }, marker("them")),
        tip(geisha, joinTips(
          t("tip_geisha", { geisha: geishaName(card), charm: charmOf(card), charm_term: term("charm"), item: itemName(card) }),
          favorTip(table, card, favor))),
        h("div", { class: "slot me" }, marker("me")),
        renderPile(table, me, card, mine));
    }));
}
