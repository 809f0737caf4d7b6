// People at the table: who sits at each seat (the state's `people`: a name with its
// rating, an account's linked to its page at /@/NAME), and a seat's Resign and Abort,
// each asked again in a dialog (Escape or "Keep playing" closes it, nothing sent).

import { h } from "./dom.js";
import { personName, seatName, t } from "./i18n.js";
import { ratingBadge } from "./ratings.js";

/** @typedef {import("./messages").GameState} GameState */
/** @typedef {import("./wire").SeatPlayer} SeatPlayer */
/** @typedef {import("./table.js").TableController} TableController */

// One seat's player: the name (an account's a link to its page, opened beside the game)
// and its rating where it has one.
/**
 * @param {SeatPlayer} person
 * @param {number} seat
 */
export function personTag(person, seat) {
  const name = personName(person, seat);
  const shown = person.kind === "account" && person.name
    ? h("a", { href: `/@/${encodeURIComponent(person.name)}`, target: "_blank", rel: "noopener" }, name)
    : name;
  const rating = person.rating === null || person.rating === undefined ? null : { rating: person.rating, provisional: person.provisional };
  return h("span", { class: `seat-name ${person.kind}`, "data-seat": seat }, shown, botBadge(person), rating ? " " : null, ratingBadge(rating));
}

// The BOT badge beside an account played by a program (through the bot API), else null.
/**
 * @param {{ bot?: boolean | null }} [person]
 * @returns {HTMLElement | null}
 */
export function botBadge(person = { bot: true }) {
  if (!person.bot) return null;
  return h("span", { class: "bot-badge", title: t("bot_badge_title"), "data-testid": "bot-badge" }, t("bot_badge"));
}

// A seat's name as `seatName` writes it, with its BOT badge if a bot account sits there.
/**
 * @param {GameState} s
 * @param {number} seat
 * @param {{ you?: boolean }} [options]
 * @returns {(string | HTMLElement)[]}
 */
export function seatLabel(s, seat, options = {}) {
  const badge = s.people ? botBadge(s.people[seat]) : null;
  const name = seatName(s, /** @type {import("./messages").Seat} */ (seat), options);
  return badge ? [name, badge] : [name];
}

// A sentence with seats' names in it, each name with its BOT badge: `write` is given a
// marker for each seat's name (\u0001 for Player 1's, \u0002 for Player 2's).
/**
 * @param {GameState} s
 * @param {(first: string, second: string) => string} write
 * @returns {(string | HTMLElement)[]}
 */
export function withSeatLabels(s, write) {
  /** @type {(string | HTMLElement)[]} */
  const parts = [];
  for (const piece of write("\u0001", "\u0002").split(/([\u0001\u0002])/)) {
    if (piece === "\u0001") parts.push(...seatLabel(s, 0, { you: false }));
    else if (piece === "\u0002") parts.push(...seatLabel(s, 1, { you: false }));
    else if (piece) parts.push(piece);
  }
  return parts;
}

// Both seats' players, Player 1's first: above the table.
/** @param {GameState} s */
export function seatNames(s) {
  if (!s.people) return null;
  return h("p", { class: "seat-names", "data-testid": "seat-names", "aria-label": t("seat_players") },
    personTag(s.people[0], 0), " · ", personTag(s.people[1], 1));
}

// Who has decided so far (an abort is open until each side has).
/** @param {GameState} s */
function bothDecided(s) {
  return new Set(s.log.map((line) => line.seat)).size === 2;
}

// Resign (any time in play) and Abort (before each side has decided), for a seat.
/** @param {TableController} table */
export function concedeButtons(table) {
  const s = table.current();
  if (table.watching() || s.outcome || table.lesson) return null;
  const opponent = seatName(s, table.opponent(), { you: false });
  return h("div", { class: "concede buttons" },
    bothDecided(s) ? null : h("button", {
      type: "button", id: "abort",
      onclick: () => confirmThen(t("abort_confirm"), t("abort_button"), () => table.socket.send({ type: "abort" })),
    }, t("abort_button")),
    h("button", {
      type: "button", id: "resign",
      onclick: () => confirmThen(t("resign_confirm", { opponent }), t("resign_button"), () => table.socket.send({ type: "resign" })),
    }, t("resign_button")));
}

// A modal dialog that asks once more; the safe answer has the focus.
/**
 * @param {string} question
 * @param {string} yes
 * @param {() => void} action
 */
function confirmThen(question, yes, action) {
  for (const old of document.querySelectorAll("dialog.concede-confirm")) old.remove();
  const close = () => { dialog.close(); dialog.remove(); };
  const cancel = h("button", { type: "button", class: "primary", onclick: close }, t("concede_cancel"));
  const confirm = h("button", { type: "button", class: "danger", "data-testid": "concede-yes", onclick: () => { close(); action(); } }, yes);
  const dialog = h("dialog", { class: "concede-confirm", "aria-labelledby": "concede-title" },
    h("p", { id: "concede-title" }, question),
    h("div", { class: "buttons" }, cancel, confirm));
  dialog.addEventListener("close", () => dialog.remove());  // Escape, too
  document.body.append(dialog);
  dialog.showModal();
  cancel.focus();
}
